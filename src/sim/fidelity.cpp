#include "sim/fidelity.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/files.h"
#include "sim/scenario.h"

namespace llmtriage::sim {

std::string metric_family(const std::string& m) {
  if (m.find("throughput") != std::string::npos || m == "request_rate_under_slo") return "throughput";
  if (m.rfind("tpot", 0) == 0 || m.rfind("itl", 0) == 0) return "tpot";
  if (m.rfind("ttft", 0) == 0) return "ttft";
  return "e2e";
}

double median_abs_error(const std::vector<CaseResult>& rs, const std::string& family) {
  std::vector<double> e;
  for (const auto& r : rs)
    for (const auto& m : r.metrics)
      if (metric_family(m.metric) == family) e.push_back(std::fabs(m.rel_error()));
  if (e.empty()) return 0;
  std::sort(e.begin(), e.end());
  const size_t n = e.size();
  return n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
}

namespace {

// The value at a summary path ("tpot_ms.p99"); NaN when the path is absent or not a number.
double summary_value(const nlohmann::json& sum, const std::string& path) {
  const nlohmann::json* node = &sum;
  std::string part;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '.') {
      if (!node->is_object() || !node->contains(part)) return NAN;
      node = &(*node)[part];
      part.clear();
    } else {
      part += path[i];
    }
  }
  return node->is_number() ? node->get<double>() : NAN;
}

core::Result<nlohmann::json> simulate(const SimConfig& cfg) {
  auto res = run_simulation(cfg);
  if (!res.ok()) return res.error();
  return res->summary.to_json();
}

}  // namespace

core::Result<RateUnderSlo> max_rate_under_slo(const SimConfig& base, const std::vector<SloBound>& slo,
                                              double start_rate, double rel_precision) {
  if (slo.empty()) return core::make_error(core::ErrorKind::input, "slo", "at least one bound", "none");
  if (!(start_rate > 0) || std::isinf(start_rate))
    return core::make_error(core::ErrorKind::input, "workload.rate", "a finite rate > 0", std::to_string(start_rate));
  if (!(base.workload.rate_rps > 0) || std::isinf(base.workload.rate_rps) || base.workload.num_requests <= 0)
    return core::make_error(core::ErrorKind::input, "workload", "a finite rate > 0 and num_requests > 0 (they set the duration)",
                            std::to_string(base.workload.rate_rps) + " req/s, " + std::to_string(base.workload.num_requests));
  // A precision of 0 would bisect until the two ends are adjacent doubles and never stop.
  if (!(rel_precision > 0))
    return core::make_error(core::ErrorKind::usage, "rel_precision", "> 0", std::to_string(rel_precision));
  // The run keeps the case's duration of traffic: num_requests scales with the rate.
  const double duration_s = static_cast<double>(base.workload.num_requests) / base.workload.rate_rps;
  RateUnderSlo out;
  auto meets = [&](double rate) -> core::Result<bool> {
    SimConfig c = base;
    c.workload.rate_rps = rate;
    c.workload.num_requests = std::max<int64_t>(1, static_cast<int64_t>(std::llround(rate * duration_s)));
    auto sum = simulate(c);
    if (!sum.ok()) return sum.error();
    ++out.runs;
    for (const auto& b : slo) {
      const double v = summary_value(*sum, b.metric);
      if (!(v <= b.max)) return false;  // NaN (no such value) fails too
    }
    return true;
  };
  // Bracket [lo passes, hi fails] around the start rate by factors of 2, at most 8x either way.
  double lo = 0, hi = 0;
  auto first = meets(start_rate);
  if (!first.ok()) return first.error();
  if (*first) {
    lo = start_rate;
    for (double r = start_rate * 2; r <= start_rate * 8.0 * (1 + 1e-9); r *= 2) {
      auto ok = meets(r);
      if (!ok.ok()) return ok.error();
      if (!*ok) { hi = r; break; }
      lo = r;
    }
    if (hi == 0) { out.rate = lo; out.bracketed = false; return out; }
  } else {
    hi = start_rate;
    for (double r = start_rate / 2; r >= start_rate / 8.0 * (1 - 1e-9); r /= 2) {
      auto ok = meets(r);
      if (!ok.ok()) return ok.error();
      if (*ok) { lo = r; break; }
      hi = r;
    }
    if (lo == 0) { out.rate = NAN; out.bracketed = false; return out; }
  }
  // Geometric bisection: the answer is the largest rate seen to pass.
  while (hi / lo - 1 > rel_precision) {
    const double mid = std::sqrt(lo * hi);
    auto ok = meets(mid);
    if (!ok.ok()) return ok.error();
    (*ok ? lo : hi) = mid;
  }
  out.rate = lo;
  out.bracketed = true;
  return out;
}

namespace {

// A case's "slo" object ({"ttft_ms.p99": 2000, "tpot_ms.p99": 200}) -> the search's bounds; the
// search starts at the reported rate. NaN when no rate down to 1/8 of it meets the bounds.
core::Result<double> rate_under_case_slo(const nlohmann::json& j, const SimConfig& cfg, double reported,
                                         const std::string& where) {
  if (!j.contains("slo") || !j["slo"].is_object() || j["slo"].empty())
    return core::make_error(core::ErrorKind::input, where + ": slo", "an object of summary-path bounds for request_rate_under_slo",
                            j.contains("slo") ? j["slo"].dump() : "none");
  if (cfg.workload.arrival != ArrivalKind::poisson)
    return core::make_error(core::ErrorKind::input, where + ": workload.arrival", "poisson for request_rate_under_slo",
                            "another arrival process");
  std::vector<SloBound> slo;
  for (auto it = j["slo"].begin(); it != j["slo"].end(); ++it) {
    if (!it->is_number())
      return core::make_error(core::ErrorKind::input, where + ": slo." + it.key(), "a number (the bound)", it->dump());
    slo.push_back({it.key(), it->get<double>()});
  }
  auto r = max_rate_under_slo(cfg, slo, reported);
  if (!r.ok()) return r.error();
  return r->rate;
}

}  // namespace

core::Result<std::vector<CaseResult>> run_cases(const std::string& path, const Calibration* cal) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  std::vector<CaseResult> out;
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) return core::make_error(core::ErrorKind::input, path + ":" + std::to_string(n), "a JSON case", "invalid JSON");
    if (cal) {
      // The given calibration, with the case's own keys (engine-mode facts such as multi-step CPU) on top.
      nlohmann::json c = cal->to_json();
      if (j.contains("calibration")) c.update(j["calibration"]);
      j["calibration"] = c;
    }
    CaseResult r;
    r.id = j.value("name", "line " + std::to_string(n));
    r.engine = j.value("engine", "vllm");
    r.source_engine = j.value("source_engine", "");
    r.note = j.value("note", "");
    auto s = parse_scenario(j.dump(), path + ":" + std::to_string(n));
    if (!s.ok()) { r.error = s.error().message(); out.push_back(r); continue; }
    if (!s->startup_error.empty()) { r.error = s->startup_error; out.push_back(r); continue; }
    s->config.keep_log = false;
    s->config.keep_samples = false;
    s->config.keep_token_times = 0;
    const std::string where = path + ":" + std::to_string(n);
    auto sum = simulate(s->config);
    if (!sum.ok()) { r.error = sum.error().message(); out.push_back(r); continue; }
    for (auto it = j["compare"].begin(); it != j["compare"].end(); ++it) {
      CaseMetric m;
      m.metric = it.key();
      m.reported = it->get<double>();
      if (m.metric == "request_rate_under_slo") {
        auto rate = rate_under_case_slo(j, s->config, m.reported, where);
        if (!rate.ok()) { r.error = rate.error().message(); break; }
        m.simulated = *rate;
      } else {
        m.simulated = summary_value(*sum, m.metric);
      }
      r.metrics.push_back(m);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace llmtriage::sim
