#pragma once
// Double -> integer conversions that are defined for every double. A cast of NaN, of a value
// out of range, or of a negative value to an unsigned type is undefined behaviour in C++; files
// and scrapes hold such values (fuzzers find 1e308 and -1 where a count or bitmask belongs).
#include <cstdint>
#include <optional>

namespace llmtriage::core {

// Truncates toward zero; clamps to [-9e15, 9e15] (the range where doubles are exact integers);
// NaN -> 0.
inline int64_t clamp_i64(double d) {
  if (!(d > -9.0e15)) return d != d ? 0 : -9000000000000000LL;
  if (d > 9.0e15) return 9000000000000000LL;
  return static_cast<int64_t>(d);
}

// Truncates toward zero; clamps to [-2e9, 2e9]; NaN -> 0.
inline int clamp_int(double d) {
  if (!(d > -2.0e9)) return d != d ? 0 : -2000000000;
  if (d > 2.0e9) return 2000000000;
  return static_cast<int>(d);
}

// A bitmask carried as a float sample (DCGM's clock-event reasons): only a finite value in
// [0, 2^53] whose fraction is zero is a mask; anything else is not one.
inline std::optional<uint64_t> as_mask(double d) {
  if (!(d >= 0.0) || d > 9007199254740992.0) return std::nullopt;
  auto m = static_cast<uint64_t>(d);
  if (static_cast<double>(m) != d) return std::nullopt;
  return m;
}

}  // namespace llmtriage::core
