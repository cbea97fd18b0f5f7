#include "bench/ab.h"

#include "core/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "bench/export.h"
#include "core/files.h"
#include "core/quantile.h"
#include "core/rng.h"

namespace llmtriage::bench {
namespace {

// Type-7 quantile (core/quantile.h's definition) of an unsorted copy, by nth_element.
double quick_quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const double h = (v.size() - 1) * q;
  const auto lo = static_cast<size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + lo, v.end());
  const double x0 = v[lo];
  if (lo + 1 >= v.size()) return x0;
  const double x1 = *std::min_element(v.begin() + lo + 1, v.end());
  return x0 + (h - lo) * (x1 - x0);
}

double stat(std::vector<double>& v, double q, double scale) {
  if (q >= 0) return quick_quantile(v, q);
  double s = 0;
  for (double x : v) s += x;
  return scale > 0 ? s / scale : 0;
}

using KeyDiff = std::map<std::string, std::pair<std::string, std::string>>;
KeyDiff diff_maps(const std::map<std::string, std::string>& a, const std::map<std::string, std::string>& b) {
  std::map<std::string, std::string> keys;
  for (const auto& [k, v] : a) keys[k];
  for (const auto& [k, v] : b) keys[k];
  KeyDiff d;
  for (const auto& [k, unused] : keys) {
    auto ia = a.find(k), ib = b.find(k);
    std::string va = ia == a.end() ? "(unset)" : ia->second, vb = ib == b.end() ? "(unset)" : ib->second;
    if (va != vb) d[k] = {va, vb};
  }
  return d;
}

}  // namespace

std::pair<double, double> bootstrap_diff(const std::vector<double>& a, const std::vector<double>& b, double q,
                                         double scale_a, double scale_b, int iterations, double confidence,
                                         uint64_t seed) {
  if (a.empty() || b.empty() || iterations <= 0) return {0, 0};
  core::Rng rng(seed);
  std::vector<double> diffs;
  diffs.reserve(static_cast<size_t>(iterations));
  std::vector<double> ra(a.size()), rb(b.size());
  const auto na = static_cast<int64_t>(a.size()), nb = static_cast<int64_t>(b.size());
  for (int it = 0; it < iterations; ++it) {
    for (auto& x : ra) x = a[static_cast<size_t>(rng.uniform_int(0, na - 1))];
    for (auto& x : rb) x = b[static_cast<size_t>(rng.uniform_int(0, nb - 1))];
    diffs.push_back(stat(rb, q, scale_b) - stat(ra, q, scale_a));
  }
  std::sort(diffs.begin(), diffs.end());
  const double alpha = (1 - confidence) / 2;
  return {*core::quantile_sorted(diffs, alpha), *core::quantile_sorted(diffs, 1 - alpha)};
}

core::Result<RunSample> load_run_sample(const std::vector<std::string>& dirs) {
  RunSample s;
  for (const auto& dir : dirs) {
    auto sum = read_summary(dir);
    if (!sum) return std::move(sum).error();
    const auto& j = *sum;
    const std::string hash = j.value("request_set_hash", "");
    if (s.trials > 0 && hash != s.request_set_hash)
      return core::make_error(core::ErrorKind::input, dir, "trials of one configuration with one request set",
                              hash + " vs " + s.request_set_hash);
    s.label += (s.label.empty() ? "" : ",") + dir;
    s.request_set_hash = hash;
    s.mode = j["run"].value("mode", "");
    s.concurrency = j["run"].value("concurrency", int64_t{0});
    s.realized_rate += j.value("realized_rate", 0.0);
    s.duration_s += j.value("duration_s", 0.0);
    s.client_bound = s.client_bound || j.value("client_bound", false);
    if (j.contains("config") && j["config"].is_object())
      for (auto& [k, v] : j["config"].items()) s.config[k] = v.is_string() ? v.get<std::string>() : v.dump();
    if (j.contains("consequences") && j["consequences"].is_object())
      for (auto& [k, v] : j["consequences"].items())
        s.consequences[k] = v.is_string() ? v.get<std::string>() : v.dump();
    // Folders written before settings and consequences were kept apart hold both under "config".
    split_consequences(s.config, s.consequences);
    ++s.trials;
    auto text = core::read_file(dir + "/records.jsonl");
    if (!text) return std::move(text).error();
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
      auto r = nlohmann::json::parse(line, nullptr, false);
      if (!r.is_object() || r.value("warmup", 0) != 0 || r.value("status", "") != "ok") continue;
      if (r.contains("ttft_s")) s.ttft_s.push_back(r["ttft_s"].get<double>());
      if (r.contains("e2e_s")) s.e2e_s.push_back(r["e2e_s"].get<double>());
      const int64_t n = r.value("output_tokens", int64_t{0});
      s.output_tokens.push_back(static_cast<double>(n));
      if (n > 1 && r.contains("chunk_times_s") && r["chunk_times_s"].size() >= 1) {
        const auto& c = r["chunk_times_s"];
        s.tpot_s.push_back((c.back().get<double>() - c.front().get<double>()) / static_cast<double>(n - 1));
      }
    }
  }
  s.realized_rate /= std::max(1, s.trials);
  return s;
}

AbResult compare_runs(const RunSample& a, const RunSample& b, const AbOptions& o) {
  AbResult r;
  if (a.request_set_hash != b.request_set_hash)
    r.refusals.push_back(fmt::format("request sets differ ({} vs {}): the runs did not send the same requests",
                                     a.request_set_hash, b.request_set_hash));
  if (a.mode != b.mode) r.refusals.push_back(fmt::format("load modes differ ({} vs {})", a.mode, b.mode));
  if (a.mode == "concurrency" && a.concurrency != b.concurrency)
    r.refusals.push_back(fmt::format("concurrency differs ({} vs {})", a.concurrency, b.concurrency));
  if (a.mode != "concurrency" && a.realized_rate > 0 &&
      std::fabs(b.realized_rate / a.realized_rate - 1) > o.load_tolerance)
    r.refusals.push_back(fmt::format("realized loads differ by {:.2f}% (> {:.2f}% tolerance): {:.4g} vs {:.4g} req/s",
                                     100 * std::fabs(b.realized_rate / a.realized_rate - 1), 100 * o.load_tolerance,
                                     a.realized_rate, b.realized_rate));
  r.config_diff = diff_maps(a.config, b.config);
  r.consequence_diff = diff_maps(a.consequences, b.consequences);
  if (r.config_diff.empty() && !r.consequence_diff.empty()) {
    std::string list;
    for (const auto& [k, v] : r.consequence_diff) list += fmt::format("{}{} ({} -> {})", list.empty() ? "" : ", ", k, v.first, v.second);
    r.warnings.push_back(fmt::format("no recorded setting differs, yet the engine reported {}: a setting not recorded "
                                     "(--config k=v at bench time) or the hardware differs", list));
  }
  if (r.config_diff.size() > 1) {
    std::string list;
    for (const auto& [k, v] : r.config_diff) list += fmt::format("{}{} ({} -> {})", list.empty() ? "" : ", ", k, v.first, v.second);
    if (o.allow_multi)
      r.warnings.push_back(fmt::format("--allow-multi: the configs differ in {} variables ({}); a difference cannot be "
                                       "attributed to any one of them", r.config_diff.size(), list));
    else
      r.refusals.push_back(fmt::format("the configs differ in {} variables, not one: {} (--allow-multi overrides)",
                                       r.config_diff.size(), list));
  }
  if (a.client_bound || b.client_bound)
    r.warnings.push_back("a run was marked client-bound: its latencies include the load generator's lag");

  // per_request: a mean over the requests (sum / count) instead of a rate (sum / duration).
  struct Spec { const char* name; const std::vector<double>* va; const std::vector<double>* vb; double q; bool lower_better;
                bool per_request = false; };
  const Spec specs[] = {
      {"ttft_p50_ms", &a.ttft_s, &b.ttft_s, 0.5, true}, {"ttft_p99_ms", &a.ttft_s, &b.ttft_s, 0.99, true},
      {"tpot_p50_ms", &a.tpot_s, &b.tpot_s, 0.5, true}, {"tpot_p99_ms", &a.tpot_s, &b.tpot_s, 0.99, true},
      {"e2e_p50_ms", &a.e2e_s, &b.e2e_s, 0.5, true},    {"e2e_p99_ms", &a.e2e_s, &b.e2e_s, 0.99, true},
      {"output_throughput_tok_s", &a.output_tokens, &b.output_tokens, -1, false},
      // What each answer delivered: shorter outputs at the same max_tokens were cut (a context limit).
      {"output_tokens_mean", &a.output_tokens, &b.output_tokens, -1, false, true},
  };
  uint64_t k = 0;
  for (const auto& sp : specs) {
    if (sp.va->empty() || sp.vb->empty()) continue;
    const bool thr = sp.q < 0;
    const double scale = thr ? 1 : 1e3;
    std::vector<double> ca = *sp.va, cb = *sp.vb;
    MetricDiff d;
    d.metric = sp.name;
    const double da = sp.per_request ? static_cast<double>(ca.size()) : a.duration_s;
    const double db = sp.per_request ? static_cast<double>(cb.size()) : b.duration_s;
    d.a = stat(ca, sp.q, da) * scale;
    d.b = stat(cb, sp.q, db) * scale;
    d.diff = d.b - d.a;
    auto [lo, hi] = bootstrap_diff(*sp.va, *sp.vb, sp.q, da, db, o.iterations, o.confidence, core::mix64(o.seed, ++k));
    d.lo = lo * scale;
    d.hi = hi * scale;
    d.rel_pct = d.a != 0 ? 100 * d.diff / d.a : 0;
    if (d.lo > 0 || d.hi < 0) d.verdict = ((d.hi < 0) == sp.lower_better) ? "better" : "worse";
    else d.verdict = "no significant change";
    r.metrics.push_back(d);
  }
  r.verdict_given = r.refusals.empty();
  return r;
}

nlohmann::json ab_json(const AbResult& r, const RunSample& a, const RunSample& b) {
  nlohmann::json j;
  j["verdict_given"] = r.verdict_given;
  j["refusals"] = r.refusals;
  j["warnings"] = r.warnings;
  j["a"] = {{"runs", a.label}, {"trials", a.trials}, {"request_set_hash", a.request_set_hash}, {"realized_rate", a.realized_rate}};
  j["b"] = {{"runs", b.label}, {"trials", b.trials}, {"request_set_hash", b.request_set_hash}, {"realized_rate", b.realized_rate}};
  nlohmann::json cd = nlohmann::json::object();
  for (const auto& [k, v] : r.config_diff) cd[k] = {{"a", v.first}, {"b", v.second}};
  j["config_diff"] = cd;
  nlohmann::json qd = nlohmann::json::object();
  for (const auto& [k, v] : r.consequence_diff) qd[k] = {{"a", v.first}, {"b", v.second}};
  j["consequence_diff"] = qd;
  nlohmann::json m = nlohmann::json::array();
  for (const auto& d : r.metrics)
    m.push_back({{"metric", d.metric}, {"a", d.a}, {"b", d.b}, {"diff", d.diff}, {"ci_low", d.lo}, {"ci_high", d.hi},
                 {"rel_pct", d.rel_pct}, {"verdict", r.verdict_given ? d.verdict : "refused"}});
  j["metrics"] = m;
  return j;
}

std::string ab_text(const AbResult& r, const RunSample& a, const RunSample& b) {
  std::string o;
  if (!r.verdict_given) {
    o += "NO VERDICT: ";
    for (size_t i = 0; i < r.refusals.size(); ++i) o += (i ? "; " : "") + r.refusals[i];
    o += "\n";
  }
  for (const auto& w : r.warnings) o += "WARNING: " + w + "\n";
  o += fmt::format("A = {} ({} trial{}), B = {} ({} trial{}); differences B - A, 95% bootstrap CI\n", a.label, a.trials,
                   a.trials == 1 ? "" : "s", b.label, b.trials, b.trials == 1 ? "" : "s");
  for (const auto& [k, v] : r.config_diff) o += fmt::format("  config {:<24} {} -> {}\n", k, v.first, v.second);
  for (const auto& [k, v] : r.consequence_diff)
    o += fmt::format("  engine reported {:<15} {} -> {}  (a consequence of the settings, not a variable)\n", k, v.first,
                     v.second);
  // Numbers as a person reads them (core::format_number: 54320, not 5.432e+04), signed for differences.
  auto n = [](double v) { return core::format_number(v); };
  auto sn = [](double v) { return (v > 0 ? "+" : "") + core::format_number(v); };
  for (const auto& d : r.metrics)
    o += fmt::format("  {:<24} {:>10} -> {:>10}  diff {:>10} [{}, {}] ({:+.1f}%)  {}\n", d.metric, n(d.a), n(d.b), sn(d.diff),
                     sn(d.lo), sn(d.hi), d.rel_pct, r.verdict_given ? d.verdict : "(no verdict)");
  return o;
}

}  // namespace llmtriage::bench
