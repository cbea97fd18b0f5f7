#include "core/slo.h"

#include <fmt/format.h>

#include <charconv>
#include <string_view>

#include "core/duration.h"

namespace llmtriage::core {
namespace {

// Upper bound of a latency objective: an SLO past an hour is a typo, not an objective.
constexpr double kMaxSloLatencyS = 3600;

constexpr const char* kSloNames[] = {"ttft", "tpot", "e2e", "error_rate", "ttft_p99_s", "tpot_p99_s", "e2e_p99_s",
                                     "ttft_p99", "tpot_p99", "e2e_p99", nullptr};

const std::string kSloExpected =
    "NAME=VALUE items, NAME one of ttft, tpot, e2e (a duration with a unit: 500ms, 2s), "
    "ttft_p99_s, tpot_p99_s, e2e_p99_s (seconds), error_rate (a fraction in (0, 1])";

std::string_view slo_trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* const* slo_names() { return kSloNames; }

std::string Slo::to_string() const {
  std::string s;
  auto add = [&](const char* k, std::optional<double> v) {
    if (v) s += fmt::format("{}{}={}", s.empty() ? "" : ",", k, format_duration(*v));
  };
  add("ttft", ttft_s);
  add("tpot", tpot_s);
  add("e2e", e2e_s);
  if (error_rate) s += fmt::format("{}error_rate={:g}", s.empty() ? "" : ",", *error_rate);
  return s;
}

Result<Slo> parse_slo(const std::string& text, const std::string& where) {
  Slo slo;
  std::string_view rest(text);
  if (slo_trim(rest).empty()) return make_error(ErrorKind::usage, where, kSloExpected, "nothing");
  for (bool more = true; more;) {
    const auto comma = rest.find(',');
    const std::string_view item = slo_trim(rest.substr(0, comma));
    more = comma != std::string_view::npos;
    rest = more ? rest.substr(comma + 1) : std::string_view{};
    if (item.empty()) return make_error(ErrorKind::usage, where, kSloExpected, "an empty item in '" + text + "'");
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      return make_error(ErrorKind::usage, where, kSloExpected, "'" + std::string(item) + "'");
    std::string name(slo_trim(item.substr(0, eq)));
    const std::string_view value = slo_trim(item.substr(eq + 1));
    if (name == "error_rate") {
      double v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || !(v > 0) || v > 1)
        return make_error(ErrorKind::usage, where, "a fraction in (0, 1] for error_rate", "'" + std::string(value) + "'");
      slo.error_rate = v;
      continue;
    }
    // ttft_p99_s -> ttft (seconds when bare); ttft_p99 and ttft -> a unit is required.
    bool seconds_name = false;
    if (name.size() > 6 && name.compare(name.size() - 6, 6, "_p99_s") == 0) {
      name.resize(name.size() - 6);
      seconds_name = true;
    } else if (name.size() > 4 && name.compare(name.size() - 4, 4, "_p99") == 0) {
      name.resize(name.size() - 4);
    }
    std::optional<double>* target = name == "ttft" ? &slo.ttft_s : name == "tpot" ? &slo.tpot_s : name == "e2e" ? &slo.e2e_s : nullptr;
    if (!target) return make_error(ErrorKind::usage, where, kSloExpected, "'" + std::string(item) + "'");
    auto d = parse_duration(value, where,
                            {.min_s = 0, .min_exclusive = true, .max_s = kMaxSloLatencyS, .bare_is_seconds = seconds_name});
    if (!d) {
      Error e = std::move(d).error();
      e.expected = std::string(slo_trim(item.substr(0, eq))) + "=" + e.expected;
      e.found = "'" + std::string(item) + "'";
      return e;
    }
    *target = *d;
  }
  if (!slo.any()) return make_error(ErrorKind::usage, where, kSloExpected, "nothing");
  return slo;
}

}  // namespace llmtriage::core
