#include "cli/duration.h"

#include <charconv>

namespace llmtriage::cli {

std::optional<double> parse_duration_s(const std::string& s, DurationUnits units) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || v < 0) return std::nullopt;
  std::string unit(p, s.data() + s.size());
  if (unit.empty() || unit == "s") return v;
  if (unit == "ms") return v / 1000;
  if (unit == "m") return v * 60;
  if (unit == "h") return v * 3600;
  if (units == DurationUnits::up_to_hours) return std::nullopt;
  if (unit == "d") return v * 86400;
  if (unit == "w") return v * 7 * 86400;
  return std::nullopt;
}

}  // namespace llmtriage::cli
