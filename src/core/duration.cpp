#include "core/duration.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace llmtriage::core {
namespace {

struct DurationUnit {
  std::string_view name;
  double seconds;
};
// Longest names first where one is a prefix of another ("ms" before "m").
constexpr DurationUnit kDurationUnits[] = {{"us", 1e-6}, {"ms", 1e-3}, {"s", 1},          {"m", 60},
                                           {"h", 3600},  {"d", 86400}, {"w", 7 * 86400.0}};

std::string duration_expected(const DurationBounds& b) {
  std::string range;
  if (b.min_exclusive) range = fmt::format("a duration > {}", format_duration(b.min_s));
  else if (b.min_s > 0) range = fmt::format("a duration >= {}", format_duration(b.min_s));
  else range = "a duration";
  range += fmt::format(" up to {}", format_duration(b.max_s));
  return range + (b.bare_is_seconds ? " (e.g. 500ms, 30s, 2m, 1h, 7d; a bare number is seconds)"
                                    : " with a unit (e.g. 500ms, 2s)");
}

}  // namespace

Result<double> parse_duration(std::string_view text, std::string_view where, const DurationBounds& b) {
  auto bad = [&](std::string detail = {}) {
    return make_error(ErrorKind::usage, std::string(where), duration_expected(b), "'" + std::string(text) + "'",
                      std::move(detail));
  };
  std::string_view s = text;
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  if (s.empty()) return bad();
  double total = 0;
  bool bare = false;
  size_t i = 0;
  int parts = 0;
  while (i < s.size()) {
    // A decimal number: digits, optionally '.' and digits. Signs and exponents are not durations.
    const size_t start = i;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data() + start, s.data() + i, v);
    if (i == start || ec != std::errc() || end != s.data() + i)
      return bad(i < s.size() && (s[i] == '-' || s[i] == '+') ? "Durations have no sign." : "");
    if (v > 1e15) return bad();
    const size_t ustart = i;
    while (i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))) ++i;
    const std::string_view unit = s.substr(ustart, i - ustart);
    ++parts;
    if (unit.empty()) {
      if (i < s.size()) return bad(s[i] == 'e' || s[i] == 'E' ? "Exponents are not accepted." : "");
      if (parts > 1) return bad("Each part of a compound duration needs a unit.");
      bare = true;
      total += v;
      continue;
    }
    const DurationUnit* u = nullptr;
    for (const auto& cand : kDurationUnits)
      if (cand.name == unit) u = &cand;
    if (!u) {
      if (unit.front() == 'e' || unit.front() == 'E') return bad("Exponents are not accepted.");
      return bad(fmt::format("Unknown unit '{}' (us, ms, s, m, h, d, w).", unit));
    }
    total += v * u->seconds;
  }
  if (bare && !b.bare_is_seconds) return bad("Give the unit: 500ms or 0.5s.");
  if (!std::isfinite(total) || total > b.max_s * (1 + 1e-12)) return bad();
  if (b.min_exclusive ? !(total > b.min_s) : total < b.min_s) return bad();
  return total;
}

std::string format_duration(double s) {
  if (!std::isfinite(s)) return fmt::format("{}", s);
  if (s == 0) return "0s";
  for (auto it = std::rbegin(kDurationUnits); it != std::rend(kDurationUnits); ++it) {
    if (it->name == "w") continue;  // "7d" reads better than "1w"
    const double n = s / it->seconds;
    if (n >= 1 && std::abs(n - std::round(n)) < 1e-9 * std::max(1.0, n)) return fmt::format("{:g}{}", std::round(n), it->name);
  }
  if (s >= 1) return fmt::format("{:g}s", s);
  if (s >= 1e-3) return fmt::format("{:g}ms", s * 1e3);
  return fmt::format("{:g}us", s * 1e6);
}

}  // namespace llmtriage::core
