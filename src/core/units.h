#pragma once
// Units. Names carry their unit (mem_gib, power_w, ttft_s); these are the conversions.
#include <cstdint>

namespace llmtriage::core {
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGB = 1e9;
inline constexpr double bytes_to_gib(double bytes) { return bytes / kGiB; }
inline constexpr double gib_to_bytes(double gib) { return gib * kGiB; }
}  // namespace llmtriage::core
