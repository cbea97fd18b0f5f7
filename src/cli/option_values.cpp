#include "cli/option_values.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "core/duration.h"
#include "core/slo.h"

namespace llmtriage::cli {
namespace {

const std::set<std::string> kTypes = {"NUMBER", "DURATION", "SLO", "FILE", "DIR", "URL", "NAME", "LIST", "TEXT"};

bool is_onoff(const Target& t) {
  return std::holds_alternative<bool*>(t) || std::holds_alternative<std::optional<bool>*>(t);
}

std::string bounds_text(const Bounds& b, bool integer) {
  std::string what = integer ? "an integer" : "a number";
  auto num = [](double v) { return fmt::format("{:g}", v); };
  std::string range;
  if (b.min_exclusive) range = " > " + num(b.min);
  else if (std::isfinite(b.min)) range = " >= " + num(b.min);
  if (std::isfinite(b.max)) range += (range.empty() ? " <= " : " and <= ") + num(b.max);
  return what + range + (b.allow_inf ? " (or inf)" : "");
}

core::Error bad(const std::string& flag, std::string expected, const std::string& text, std::string detail = {}) {
  return core::make_error(core::ErrorKind::usage, flag, std::move(expected), "'" + text + "'", std::move(detail));
}

bool in_bounds(double v, const Bounds& b) {
  if (std::isinf(v) && v > 0) return b.allow_inf;
  if (b.min_exclusive ? !(v > b.min) : !(v >= b.min)) return false;
  return v <= b.max;
}

core::Result<double> parse_number(const std::string& flag, const std::string& s, const Bounds& b, bool integer) {
  const std::string expected = bounds_text(b, integer);
  if (s == "inf" || s == "+inf" || s == "infinity") {
    if (b.allow_inf) return INFINITY;
    return bad(flag, expected, s);
  }
  double v = 0;
  if (integer) {
    int64_t i = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc::result_out_of_range) return bad(flag, expected, s, "It does not fit a 64-bit integer.");
    if (ec != std::errc() || p != s.data() + s.size()) return bad(flag, expected, s);
    v = static_cast<double>(i);
  } else {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || std::isnan(v) || std::isinf(v)) return bad(flag, expected, s);
  }
  if (!in_bounds(v, b)) return bad(flag, expected, s);
  return v;
}

core::Result<double> parse_duration_flag(const Option& o, const std::string& flag, const std::string& s) {
  core::DurationBounds db;
  db.min_s = std::isfinite(o.bounds.min) ? o.bounds.min : 0;
  db.min_exclusive = o.bounds.min_exclusive;
  db.max_s = std::min(o.bounds.max, core::kMaxDurationS);
  return core::parse_duration(s, flag, db);
}

std::string fmt_double(double v) {
  std::ostringstream ss;
  ss << v;
  return ss.str();
}

}  // namespace

FlagSpec parse_flag_spec(const std::string& flag) {
  FlagSpec f;
  const auto space = flag.find(' ');
  const std::string names = flag.substr(0, space);
  if (space != std::string::npos) f.type = flag.substr(space + 1);
  std::stringstream ss(names);
  std::string part;
  while (std::getline(ss, part, ',')) f.names.push_back(part);
  return f;
}

std::string value_type(const Option& o) {
  const FlagSpec spec = parse_flag_spec(o.flag);
  if (!spec.type.empty()) {
    if (!kTypes.count(spec.type)) throw std::logic_error("option " + o.flag + ": unknown value type " + spec.type);
    return spec.type;
  }
  if (is_onoff(o.target)) return "";
  return std::visit(
      [](auto* p) -> std::string {
        using P = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<P, std::vector<std::string>>) return "LIST";
        else if constexpr (std::is_same_v<P, std::string> || std::is_same_v<P, std::optional<std::string>>) return "TEXT";
        else return "NUMBER";
      },
      o.target);
}

core::Status assign_value(const Option& o, const std::string& flag, const std::string& s) {
  const std::string type = value_type(o);
  if (type == "SLO" && !s.empty())
    if (auto slo = core::parse_slo(s, flag); !slo) return std::move(slo).error();
  const bool duration = type == "DURATION";
  core::Status st = core::ok_status();
  std::visit(
      [&](auto* p) {
        using P = std::remove_pointer_t<decltype(p)>;
        auto number = [&](bool integer) -> std::optional<double> {
          auto v = duration ? parse_duration_flag(o, flag, s) : parse_number(flag, s, o.bounds, integer);
          if (!v) {
            st = std::move(v).error();
            return std::nullopt;
          }
          return *v;
        };
        if constexpr (std::is_same_v<P, std::string> || std::is_same_v<P, std::optional<std::string>>) {
          if (duration) {
            // Kept as text (a Prometheus duration goes into YAML as given), checked here.
            if (auto v = number(false)) *p = core::format_duration(*v);
          } else {
            *p = s;
          }
        } else if constexpr (std::is_same_v<P, int> || std::is_same_v<P, std::optional<int>>) {
          if (auto v = number(true)) {
            if (*v > 2147483647.0 || *v < -2147483648.0) st = bad(flag, bounds_text(o.bounds, true), s, "It does not fit a 32-bit integer.");
            else *p = static_cast<int>(*v);
          }
        } else if constexpr (std::is_same_v<P, int64_t> || std::is_same_v<P, std::optional<int64_t>>) {
          if (auto v = number(true)) *p = static_cast<int64_t>(*v);
        } else if constexpr (std::is_same_v<P, double> || std::is_same_v<P, std::optional<double>>) {
          if (auto v = number(false)) *p = *v;
        } else if constexpr (std::is_same_v<P, std::vector<std::string>>) {
          p->push_back(s);
        } else {
          static_assert(std::is_same_v<P, bool> || std::is_same_v<P, std::optional<bool>>);
          if (s == "1" || s == "true" || s == "yes" || s == "on" || s.empty()) *p = true;
          else if (s == "0" || s == "false" || s == "no" || s == "off") *p = false;
          else st = bad(flag, "true or false", s);
        }
      },
      o.target);
  return st;
}

std::string shown_default(const Option& o) {
  if (!o.default_shown.empty()) return o.default_shown;
  const bool duration = value_type(o) == "DURATION";
  return std::visit(
      [&](auto* p) -> std::string {
        using P = std::remove_pointer_t<decltype(p)>;
        if constexpr (std::is_same_v<P, bool> || std::is_same_v<P, std::optional<bool>> ||
                      std::is_same_v<P, std::vector<std::string>>)
          return "";
        else if constexpr (std::is_same_v<P, std::string>) return *p;
        else if constexpr (std::is_same_v<P, std::optional<std::string>>) return *p ? **p : "";
        else if constexpr (std::is_same_v<P, int> || std::is_same_v<P, int64_t>) return std::to_string(*p);
        else if constexpr (std::is_same_v<P, std::optional<int>> || std::is_same_v<P, std::optional<int64_t>>)
          return *p ? std::to_string(**p) : "";
        else if constexpr (std::is_same_v<P, double>) return duration ? core::format_duration(*p) : fmt_double(*p);
        else return *p ? (duration ? core::format_duration(**p) : fmt_double(**p)) : "";
      },
      o.target);
}

}  // namespace llmtriage::cli
