#pragma once
// Units. Names carry their unit (mem_gib, power_w, ttft_s); these are the conversions, and the
// one way report text writes a measured value for a person (format_number, format_duration_s,
// format_quantity): never in exponent notation, a unit on every number.
#include <cstdint>
#include <string>
#include <string_view>

namespace llmtriage::core {
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGB = 1e9;
inline constexpr double bytes_to_gib(double bytes) { return bytes / kGiB; }
inline constexpr double gib_to_bytes(double gib) { return gib * kGiB; }

// A plain number as a person reads it: whole from 1000 up (30000, not 3e+04), one decimal from
// 100 (612.4), three significant digits below (3.14, 0.052), fixed notation for tiny values
// (0.00012); "inf", "-inf", "nan" for the non-finite.
std::string format_number(double v);

// A duration with a unit that keeps the digits few: "0.9 ms", "45.2 ms", "688 ms", "1.23 s",
// "16.9 s", "2.5 min", "5.7 h", "3.2 d" (seconds up to 100 s, minutes up to 100 min, hours up to
// 48 h). Negative durations keep their sign.
std::string format_duration_s(double seconds);

// A value in its unit, short. Units: "fraction" (0..1) -> "97%", "5.2%"; "s" and "ms" ->
// format_duration_s; "0/1", "bool", "flag" -> "yes"/"no"; "1/s" -> "0.25/s"; "count" and "" ->
// the bare number; "x" -> "1.5x"; a count of one reads singular ("1 request", "1 token"); any
// other unit follows the number ("612.4 W", "41234 tokens").
std::string format_quantity(double value, std::string_view unit);

// A ratio to a reference as a factor: 1.5 -> "1.5x", 0.42 -> "0.42x".
std::string format_ratio(double ratio);
}  // namespace llmtriage::core
