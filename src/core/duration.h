#pragma once
// The one duration grammar of every flag and SLO (docs/cli.md): a number and a unit, or several
// ("1h30m"); units us, ms, s, m, h, d, w; a bare number is seconds. No exponents, no signs, no
// inf/nan. Bounded: a value above `max_s` (365 d unless the flag says less) is refused instead of
// overflowing a count of scrapes or a deadline further down.
#include <string>
#include <string_view>

#include "core/result.h"

namespace llmtriage::core {

inline constexpr double kMaxDurationS = 365.0 * 86400;

struct DurationBounds {
  double min_s = 0;             // inclusive, unless min_exclusive
  bool min_exclusive = false;   // "> 0"
  double max_s = kMaxDurationS;
  bool bare_is_seconds = true;  // false: a unit is required (SLO short names: "ttft=500" is refused)
};

// Seconds. The error names `where` (the flag), what was expected and what was found.
Result<double> parse_duration(std::string_view text, std::string_view where, const DurationBounds& b = {});

// The shortest exact spelling in the grammar: 0.5 -> "500ms", 90 -> "90s", 3600 -> "1h", 604800 -> "7d".
std::string format_duration(double seconds);

}  // namespace llmtriage::core
