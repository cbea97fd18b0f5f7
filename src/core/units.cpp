#include "core/units.h"

#include <fmt/format.h>

#include <cmath>

namespace llmtriage::core {

std::string format_number(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : (v < 0 ? "-inf" : "nan");
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 999.95) return fmt::format("{:.0f}", v);
  if (a >= 99.995) {
    std::string s = fmt::format("{:.1f}", v);
    return s.ends_with(".0") ? s.substr(0, s.size() - 2) : s;
  }
  if (a >= 0.001) return fmt::format("{:.3g}", v);  // a >= 1e-3: "%g" stays in fixed notation
  if (a < 1e-12) return "0";
  // Two significant digits in fixed notation: 0.00012, not 1.2e-04.
  const int decimals = 1 - static_cast<int>(std::floor(std::log10(a)));
  std::string s = fmt::format("{:.{}f}", v, decimals);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

namespace {
// One decimal, ".0" dropped: 2.5, 17.
std::string one_decimal(double v) {
  std::string s = fmt::format("{:.1f}", v);
  return s.ends_with(".0") ? s.substr(0, s.size() - 2) : s;
}
}  // namespace

std::string format_duration_s(double s) {
  if (!std::isfinite(s)) return format_number(s) + " s";
  const double a = std::fabs(s);
  if (a == 0) return "0 s";
  if (a < 0.9995) return format_number(s * 1000) + " ms";
  if (a < 99.95) return format_number(s) + " s";
  if (a < 100 * 60) return one_decimal(s / 60) + " min";
  if (a < 48 * 3600) return one_decimal(s / 3600) + " h";
  return one_decimal(s / 86400) + " d";
}

std::string format_ratio(double ratio) { return format_number(ratio) + "x"; }

std::string format_quantity(double v, std::string_view unit) {
  if (unit == "fraction" || unit == "ratio_pct") {
    if (!std::isfinite(v)) return format_number(v);
    const double pct = 100 * v;
    return (std::fabs(pct) < 10 && pct != std::round(pct) ? fmt::format("{:.1f}", pct) : fmt::format("{:.0f}", pct)) + "%";
  }
  if (unit == "s") return format_duration_s(v);
  if (unit == "ms") return format_duration_s(v / 1000);
  if (unit == "0/1" || unit == "bool" || unit == "flag") return v != 0 ? "yes" : "no";
  if (unit.empty() || unit == "count") return format_number(v);
  if (unit == "1/s") return format_number(v) + "/s";
  if (unit == "x") return format_ratio(v);
  // "1 request", "1 token": a count of one reads singular.
  if (v == 1 && (unit == "requests" || unit == "tokens" || unit == "events" || unit == "replicas" || unit == "engines"))
    return "1 " + std::string(unit.substr(0, unit.size() - 1));
  return format_number(v) + " " + std::string(unit);
}

}  // namespace llmtriage::core
