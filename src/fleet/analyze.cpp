#include "fleet/analyze.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace llmtriage::fleet {

using diagnose::EvidenceItem;
using diagnose::Finding;
using diagnose::Layer;
using diagnose::Severity;
using diagnose::Symptom;

namespace {

// Which readings are compared across replicas, the layer a difference points at, and the
// smallest difference from the median that matters in the indicator's unit (so that identical
// siblings — MAD 0 — do not make noise an outlier).
struct Watched {
  const char* name;
  Layer layer;
  int bad_direction;  // +1: high is bad, -1: low is bad
  double min_abs;
  const char* unless = nullptr;  // not compared for a replica that has this (better) reading
  bool relative = true;          // also needs fleet.outlier_min_rel x |median| (not for bounded ratios)
};
constexpr Watched kWatched[] = {
    // A ratio to the GPU's own maximum: 8% below siblings at max is a throttle, whatever the median.
    {"clock_ratio", Layer::operator_hardware, -1, 0.08, nullptr, false},
    // Active power-cap / thermal / hardware-slowdown reasons (0 or 1 over the window) on one replica only.
    {"throttle_power", Layer::operator_hardware, +1, 0.5, nullptr, false},
    {"throttle_thermal", Layer::operator_hardware, +1, 0.5, nullptr, false},
    {"throttle_hw", Layer::operator_hardware, +1, 0.5, nullptr, false},
    // dcgm-exporter's default counters have the SM clock but neither the max clock nor the power
    // limit: the raw clock is compared (same GPU model only, busy GPUs only).
    {"sm_clock_mhz", Layer::operator_hardware, -1, 100, "clock_ratio"},
    {"power_ratio", Layer::operator_hardware, +1, 0.05},
    {"temp_c", Layer::operator_hardware, +1, 5},
    {"tpot_p50_s", Layer::operator_hardware, +1, 0.005},
    {"waiting", Layer::scheduling_capacity, +1, 5},
    {"kv_usage", Layer::scheduling_capacity, +1, 0.1},
    {"ttft_p99_s", Layer::scheduling_capacity, +1, 0.2},
};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string o;
  for (const auto& s : v) o += (o.empty() ? "" : sep) + s;
  return o;
}

Finding make(const char* id, Layer layer, Symptom symptom, Severity sev, std::string title) {
  Finding f;
  f.id = id;
  f.layer = layer;
  f.symptom = symptom;
  f.severity = sev;
  f.title = std::move(title);
  return f;
}

EvidenceItem item(const ReplicaDiagnosis& r, const std::string& name, std::optional<double> threshold = {}, const std::string& op = {}) {
  EvidenceItem e = r.indicators.item(name, threshold, op);
  e.source = r.replica + ": " + e.source;
  return e;
}

// The outliers of one replica, as one finding in the layer they point at (hardware first: a
// throttled GPU also shows as slow decode and a longer queue).
void replica_findings(const std::vector<Outlier>& outs, std::vector<ReplicaDiagnosis>& reps, std::vector<Finding>& out) {
  std::map<std::string, std::vector<const Outlier*>> per;
  for (const auto& o : outs) per[o.replica].push_back(&o);
  for (auto& [name_, list] : per) {
    const std::string name = name_;  // a copy: clang 14 cannot capture structured bindings
    auto rit = std::find_if(reps.begin(), reps.end(), [&](const ReplicaDiagnosis& r) { return r.replica == name; });
    if (rit == reps.end()) continue;
    ReplicaDiagnosis& r = *rit;
    r.differs = true;
    const bool hw = std::any_of(list.begin(), list.end(), [](const Outlier* o) {
      return o->indicator == "clock_ratio" || o->indicator == "sm_clock_mhz" || o->indicator == "power_ratio" ||
             o->indicator == "temp_c" || o->indicator.rfind("throttle_", 0) == 0;
    });
    Finding f;
    std::vector<std::string> what;
    for (const Outlier* o : list)
      what.push_back(fmt::format("{} {:.3g} vs fleet median {:.3g}", o->indicator, o->value, o->median));
    if (hw) {
      const bool power = r.indicators.get("throttle_power").value_or(0) > 0;
      const bool thermal = r.indicators.get("throttle_thermal").value_or(0) > 0;
      f = make("replica_gpu_throttled", Layer::operator_hardware, Symptom::tpot_high, Severity::warning,
               fmt::format("Replica {} runs on throttled GPUs: {}", name,
                           power ? "power cap" : thermal ? "thermal slowdown" : "clocks below its siblings'"));
      f.explanation = fmt::format(
          "Its GPUs differ from the rest of the fleet ({}). Every step of this replica takes longer, so its requests see a "
          "higher TPOT and its queue drains slower, while the router keeps sending it an equal share.",
          join(what));
      f.remedies.push_back({"replica " + name, "in rotation", "drained (cordon the node)",
                            "its share of traffic moves to healthy siblings; fleet TPOT tail drops to theirs", "qualitative", {}});
      f.remedies.push_back({"GPU power limit / cooling on the node of " + name, "as found", "restored (nvidia-smi -q -d PERFORMANCE,POWER)",
                            "SM clock back to max under load", "qualitative", {}});
      f.next_measurement = "nvidia-smi -q -d PERFORMANCE on the node: the active clocks-event reasons name the cause.";
    } else {
      const bool queue = std::any_of(list.begin(), list.end(), [](const Outlier* o) { return o->indicator == "waiting"; });
      f = make("replica_outlier", Layer::scheduling_capacity, queue ? Symptom::ttft_spike : Symptom::tpot_high, Severity::warning,
               fmt::format("Replica {} differs from its siblings: {}", name, join(what)));
      f.explanation =
          "Same engine, same traffic mix, different behaviour: either the router sends it more (compare request rates) or it "
          "serves slower (compare TPOT and GPU readings).";
      f.remedies.push_back({"router weight of " + name, "as configured", "equal / least-outstanding-requests",
                            "its queue toward the fleet median", "qualitative", {}});
      f.next_measurement = "Compare this replica's request rate and TPOT with its siblings' over the same window.";
    }
    for (const Outlier* o : list) {
      EvidenceItem e = item(r, o->indicator);
      e.text = fmt::format("fleet median {:.4g}, robust z {}", o->median,
                           std::isinf(o->robust_z) ? std::string(o->robust_z > 0 ? "+inf" : "-inf") : fmt::format("{:.1f}", o->robust_z));
      f.evidence.push_back(std::move(e));
    }
    if (hw)
      for (const char* n : {"throttle_power", "throttle_thermal", "throttle_hw"})
        if (r.indicators.get(n).value_or(0) > 0 &&
            std::none_of(list.begin(), list.end(), [n](const Outlier* o) { return o->indicator == n; }))
          f.evidence.push_back(item(r, n));
    f.confidence = std::min(0.9, 0.5 + 0.1 * static_cast<double>(list.size()));
    out.push_back(std::move(f));
  }
}

void imbalance(std::vector<ReplicaDiagnosis>& reps, const diagnose::Thresholds& th, std::vector<Finding>& out) {
  std::vector<double> rates;
  for (const auto& r : reps)
    if (auto v = r.indicators.get("request_rate")) rates.push_back(*v);
  if (rates.size() < 2) return;
  const RobustStats s = robust_stats(rates);
  if (!(s.median > 0)) return;
  const double ratio = th.get("fleet.imbalance_ratio");
  std::vector<std::string> hi, lo;
  Finding f = make("load_imbalance", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning, "");
  for (auto& r : reps) {
    auto v = r.indicators.get("request_rate");
    if (!v) continue;
    if (*v >= ratio * s.median || *v <= s.median / ratio) {
      (*v >= s.median ? hi : lo).push_back(fmt::format("{} ({:.3g} req/s)", r.replica, *v));
      r.differs = true;
      f.evidence.push_back(item(r, "request_rate", *v >= s.median ? ratio * s.median : s.median / ratio, *v >= s.median ? ">=" : "<="));
    }
  }
  if (hi.empty() && lo.empty()) return;
  f.title = fmt::format("Load is uneven across replicas: median {:.3g} req/s{}{}", s.median,
                        hi.empty() ? "" : "; above: " + join(hi), lo.empty() ? "" : "; below: " + join(lo));
  f.explanation = fmt::format(
      "A replica taking {:.2g}x the median request rate queues while its siblings idle: the router's policy (or a sticky "
      "session / hash key with few values) does not spread the load.", ratio);
  f.confidence = 0.6;
  f.remedies.push_back({"router load-balancing policy", "as configured", "least-outstanding-requests (prefix-aware where prefixes repeat)",
                        "request rates within the fleet's median +-" + fmt::format("{:.0f}%", (ratio - 1) * 100), "qualitative", {}});
  f.next_measurement = "The router's per-backend request counts over the same window.";
  out.push_back(std::move(f));
}

// "What an affine router would give": the hit rate of the best-served replicas for the same
// prompt lengths (the fleet's 75th percentile of hit rates). A replica far below it, with
// prompts of the same length, is getting prefixes scattered to it.
void affinity(std::vector<ReplicaDiagnosis>& reps, const diagnose::Thresholds& th, std::vector<Finding>& out) {
  std::vector<double> hits, lens;
  for (const auto& r : reps) {
    if (auto v = r.indicators.get("prefix_cache_hit_rate")) hits.push_back(*v);
    if (auto v = r.indicators.get("input_len_mean")) lens.push_back(*v);
  }
  if (hits.size() < 2) return;
  std::vector<double> sorted = hits;
  std::sort(sorted.begin(), sorted.end());
  const double affine = sorted[static_cast<size_t>(std::floor(0.75 * static_cast<double>(sorted.size() - 1) + 0.5))];
  if (affine < th.get("fleet.affinity_min_hit")) return;
  const double ratio = th.get("fleet.affinity_hit_ratio");
  const double len_med = lens.empty() ? 0 : robust_stats(lens).median;
  const double stable = th.get("load.length_stable_ratio");
  Finding f = make("prefix_affinity_lost", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning, "");
  std::vector<std::string> names;
  double worst = 1;
  for (auto& r : reps) {
    auto hit = r.indicators.get("prefix_cache_hit_rate");
    if (!hit || *hit >= ratio * affine) continue;
    // Different prompts (longer, unique) are a load difference, not routing.
    if (auto len = r.indicators.get("input_len_mean"); len && len_med > 0 && (*len > stable * len_med || *len < len_med / stable))
      continue;
    names.push_back(fmt::format("{} ({:.0f}%)", r.replica, *hit * 100));
    worst = std::min(worst, *hit);
    r.differs = true;
    f.evidence.push_back(item(r, "prefix_cache_hit_rate", ratio * affine, "<"));
    if (r.indicators.get("input_len_mean")) f.evidence.push_back(item(r, "input_len_mean"));
  }
  if (names.empty()) return;
  f.title = fmt::format("Prefix-cache hit rate on {} far below what prefix-affine routing gives its siblings ({:.0f}%)", join(names),
                        affine * 100);
  f.explanation = fmt::format(
      "Replicas serving prompts of the same length hit the prefix cache {:.0f}% of the time; {} {}. Requests that share a "
      "prefix are reaching {} without affinity, so each prefix is prefilled again and evicted before it is reused.",
      affine * 100, join(names), names.size() == 1 ? "does not" : "do not", names.size() == 1 ? "it" : "them");
  EvidenceItem est;
  est.indicator = "affine_hit_rate_estimate";
  est.value = affine;
  est.unit = "fraction";
  est.source = fmt::format("fleet: 75th percentile of {} replicas' prefix-cache hit rates", hits.size());
  f.evidence.push_back(est);
  f.explains = std::clamp((affine - worst) / affine, 0.0, 1.0);
  f.confidence = lens.empty() ? 0.5 : 0.65;
  f.remedies.push_back({"router policy for the affected share", "round-robin / random", "prefix-affine (consistent hash on the shared prefix)",
                        fmt::format("hit rate toward {:.0f}%: prefill work on those replicas drops by about that share", affine * 100),
                        "qualitative", {}});
  f.next_measurement = "The router's routing key for the affected traffic, and the per-replica prefix-cache hit rate after the change.";
  out.push_back(std::move(f));
}

// The whole fleet as one Evidence: every replica's engine series, kept apart by replica.
diagnose::DiagnoseInput fleet_input(const FleetEvidence& fe, const AnalyzeOptions& o) {
  diagnose::DiagnoseInput in;
  in.slo = o.slo;
  in.thresholds = o.thresholds;
  in.symptoms = o.symptoms;
  in.what_if = false;
  in.now.deployment.engine = fe.engine;
  bool any_base = false;
  core::Evidence base;
  for (const auto& r : fe.replicas) {
    for (auto s : r.now.engine_samples) {
      s.engine_index = r.replica + (s.engine_index.empty() ? "" : "/" + s.engine_index);
      in.now.engine_samples.push_back(std::move(s));
    }
    if (r.baseline) {
      any_base = true;
      for (auto s : r.baseline->engine_samples) {
        s.engine_index = r.replica + (s.engine_index.empty() ? "" : "/" + s.engine_index);
        base.engine_samples.push_back(std::move(s));
      }
    }
  }
  auto by_t = [](const auto& a, const auto& b) { return a.t_s < b.t_s; };
  std::stable_sort(in.now.engine_samples.begin(), in.now.engine_samples.end(), by_t);
  in.now.inputs.push_back({"fleet", "metrics", true, fmt::format("{} replicas' engine series", fe.replicas.size())});
  if (any_base) {
    std::stable_sort(base.engine_samples.begin(), base.engine_samples.end(), by_t);
    base.deployment.engine = fe.engine;
    in.baseline = std::move(base);
  }
  return in;
}

}  // namespace

RobustStats robust_stats(std::vector<double> v) {
  RobustStats s;
  if (v.empty()) return s;
  auto med = [](std::vector<double>& x) {
    std::sort(x.begin(), x.end());
    const size_t n = x.size();
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
  };
  s.median = med(v);
  for (double& x : v) x = std::fabs(x - s.median);
  s.mad = med(v);
  return s;
}

double robust_z(double x, const RobustStats& s) {
  const double d = x - s.median;
  if (s.mad > 0) return 0.6745 * d / s.mad;  // Iglewicz & Hoaglin's modified z-score
  if (d == 0) return 0;
  return d > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

int FleetDiagnosis::exit_code() const {
  if (verdict.exit_code() != 0) return 1;
  for (const auto& r : replicas)
    for (const auto& f : r.report.findings)
      if (f.severity != Severity::info &&
          std::find(fleet_wide_ids.begin(), fleet_wide_ids.end(), f.id) == fleet_wide_ids.end())
        return 1;
  return 0;
}

FleetDiagnosis analyze(const FleetEvidence& fe, const AnalyzeOptions& o) {
  FleetDiagnosis d;
  for (const auto& re : fe.replicas) {
    diagnose::DiagnoseInput in;
    in.now = re.now;
    in.baseline = re.baseline;
    in.slo = o.slo;
    in.thresholds = o.thresholds;
    in.symptoms = o.symptoms;
    in.what_if = false;
    ReplicaDiagnosis rd;
    rd.replica = re.replica;
    rd.indicators = diagnose::build_indicators(in);
    rd.report = diagnose::diagnose(in);
    rd.notes = re.notes;
    d.replicas.push_back(std::move(rd));
  }

  // Outliers: only with enough siblings for a median to mean something.
  const int min_n = static_cast<int>(o.thresholds.get("fleet.min_replicas"));
  const double zmin = o.thresholds.get("fleet.outlier_z");
  const double rel = o.thresholds.get("fleet.outlier_min_rel");
  // Raw clocks compare only across one GPU model, and only while the GPUs work (idle boards clock down).
  std::set<std::string> models;
  for (const auto& re : fe.replicas)
    if (!re.now.gpu_samples.empty()) models.insert(re.now.deployment.gpu);
  const double busy = o.thresholds.get("hw.busy_util");
  auto compared = [&](const Watched& w, const ReplicaDiagnosis& r) -> std::optional<double> {
    if (w.unless && r.indicators.get(w.unless)) return std::nullopt;
    if (std::string_view(w.name) == "sm_clock_mhz") {
      if (models.size() != 1) return std::nullopt;
      if (auto u = r.indicators.get("gpu_util"); u && *u < busy) return std::nullopt;
    }
    return r.indicators.get(w.name);
  };
  for (const auto& w : kWatched) {
    std::vector<double> vals;
    for (const auto& r : d.replicas)
      if (auto v = compared(w, r)) vals.push_back(*v);
    if (static_cast<int>(vals.size()) < min_n) continue;
    const RobustStats s = robust_stats(vals);
    for (const auto& r : d.replicas) {
      auto v = compared(w, r);
      if (!v) continue;
      const double z = robust_z(*v, s);
      const double diff = (*v - s.median) * w.bad_direction;
      if (diff <= 0 || std::fabs(z) < zmin) continue;
      if (diff < std::max(w.min_abs, w.relative ? rel * std::fabs(s.median) : 0.0)) continue;
      d.outliers.push_back({r.replica, w.name, r.indicators.item(w.name).unit, *v, s.median, z, w.layer});
    }
  }

  std::vector<Finding> fleet_findings;
  replica_findings(d.outliers, d.replicas, fleet_findings);
  if (static_cast<int>(d.replicas.size()) >= 2) {
    imbalance(d.replicas, o.thresholds, fleet_findings);
    affinity(d.replicas, o.thresholds, fleet_findings);
  }

  // The whole fleet through the same diagnosis: traffic mix vs the baseline, fleet-wide hit rate.
  d.verdict = diagnose::diagnose(fleet_input(fe, o));

  // Findings most replicas share are a fleet-wide pattern: said once.
  std::map<std::string, int> count;
  for (const auto& r : d.replicas) {
    std::set<std::string> ids;
    for (const auto& f : r.report.findings) ids.insert(f.id);
    for (const auto& id : ids) ++count[id];
  }
  const int n = static_cast<int>(d.replicas.size());
  for (const auto& [id_, c] : count) {
    const std::string id = id_;  // a copy: clang 14 cannot capture structured bindings
    if (n < 2 || 2 * c <= n) continue;
    d.fleet_wide_ids.push_back(id);
    if (std::any_of(d.verdict.findings.begin(), d.verdict.findings.end(), [&](const Finding& f) { return f.id == id; })) continue;
    for (const auto& r : d.replicas) {
      auto it = std::find_if(r.report.findings.begin(), r.report.findings.end(), [&](const Finding& f) { return f.id == id; });
      if (it == r.report.findings.end()) continue;
      Finding f = *it;
      f.title = fmt::format("{} of {} replicas: {}", c, n, f.title);
      for (auto& e : f.evidence) e.source = r.replica + ": " + e.source;
      fleet_findings.push_back(std::move(f));
      break;
    }
  }

  // Fleet-level findings lead (critical first, then by confidence), the whole-fleet diagnosis follows.
  std::stable_sort(fleet_findings.begin(), fleet_findings.end(), [](const Finding& a, const Finding& b) {
    if ((a.severity == Severity::critical) != (b.severity == Severity::critical)) return a.severity == Severity::critical;
    if ((a.severity == Severity::info) != (b.severity == Severity::info)) return b.severity == Severity::info;
    return a.confidence > b.confidence;
  });
  std::vector<Finding> merged = std::move(fleet_findings);
  for (auto& f : d.verdict.findings)
    if (std::none_of(merged.begin(), merged.end(), [&](const Finding& g) { return g.id == f.id; })) merged.push_back(std::move(f));
  d.verdict.findings = std::move(merged);
  // The symptoms the fleet findings answer are the fleet's (the header lists them above the verdict).
  for (const auto& f : d.verdict.findings)
    if (f.severity != Severity::info &&
        std::find(d.verdict.symptoms.begin(), d.verdict.symptoms.end(), f.symptom) == d.verdict.symptoms.end())
      d.verdict.symptoms.push_back(f.symptom);
  // Layers named by a fleet finding are at fault in the fleet's verdict.
  for (auto& lv : d.verdict.layers)
    for (const auto& f : d.verdict.findings)
      if (f.layer == lv.layer && f.severity != Severity::info) lv.state = diagnose::LayerVerdict::State::at_fault;
  d.verdict.inputs.clear();
  for (const auto& r : fe.replicas)
    for (const auto& in : r.now.inputs) d.verdict.inputs.push_back({in.source, in.kind, in.ok, in.note});
  for (const auto& note : fe.notes) d.verdict.missing.push_back(note);
  return d;
}

}  // namespace llmtriage::fleet
