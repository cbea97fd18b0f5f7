#include "drill/sim_drill_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/diagnose_json.h"
#include "report/diagnose_text.h"

namespace llmtriage::drill {
namespace {

std::string http_run_line(const HttpRun& r) {
  const auto& s = r.summary;
  std::string errs;
  for (const auto& [k, n] : s.errors_by_category) errs += fmt::format("{}{} {}", errs.empty() ? "" : ", ", n, k);
  std::string line = fmt::format("{} requests, {} completed{}; {:.1f} s wall; {} /metrics scrapes", s.total, s.completed,
                                 errs.empty() ? "" : " (" + errs + ")", r.run.wall_s, r.run.scrapes.size());
  if (!r.faithful())
    line += fmt::format(
        "\n    WARNING: the host did not keep up at time scale {:.3g} (engine clock lag p99 {:.2f} s, dispatch lag p99 "
        "{:.2f} s, virtual): latencies include that delay; rerun with a lower --time-scale or a larger --target-wall",
        r.time_scale, r.engine_lag_p99_s.value_or(0), r.dispatch_lag_p99_s);
  return line;
}

nlohmann::json http_run_json(const HttpRun& r) {
  return {{"wall_s", r.run.wall_s}, {"requests", r.summary.total}, {"completed", r.summary.completed},
          {"engine_lag_p99_s", r.engine_lag_p99_s ? nlohmann::json(*r.engine_lag_p99_s) : nlohmann::json()},
          {"dispatch_lag_p99_s", r.dispatch_lag_p99_s}, {"faithful", r.faithful()}};
}

nlohmann::json expected_json(const DrillCase& c) {
  if (!c.expected) return nullptr;
  return {{"id", c.expected->id}, {"layer", diagnose::to_string(c.expected->layer)},
          {"symptom", diagnose::to_string(c.expected->symptom)}};
}

int64_t kv_cache_tokens(const sim::Scenario& s) { return s.config.num_blocks * s.config.block_size; }

std::string started_text(const SimDrillResult& r) {
  const sim::Scenario& sa = r.dcase.scenario;
  return fmt::format("== llmtriage drill: {} ==\n{}\n", sa.name, sa.symptom) +
         fmt::format("Deployment: {} on {} x{} (TP {}), {}; faults: {}\n", sa.deployment.model, sa.deployment.gpu,
                     std::max(1, sa.config.replicas), sa.deployment.tp, sa.config.preset.name, faults_line(sa));
}

std::string startup_text(const SimDrillResult& r) {
  std::string o = "\n[A] The simulated engine does not start:\n  " + r.dcase.scenario.startup_error + "\n\n" +
                  report::render_text(r.report);
  if (!r.remedy_tried) return o;
  if (r.remedy) {
    const sim::Scenario& sb = r.remedy->scenario;
    o += fmt::format("\n[B] after {}: {}\n", r.remedy->chosen.applied,
                     r.remedy->starts ? fmt::format("the engine starts; KV pool {} tokens per replica", kv_cache_tokens(sb))
                                      : "still does not start: " + sb.startup_error);
  } else {
    o += "\nNo remedy the simulator can apply.\n";
  }
  for (const auto& s : r.skipped) o += "  not applicable in the simulator: " + s + "\n";
  return o;
}

std::string planned_text(const SimDrillResult& r) {
  const auto& load = *r.load;
  return fmt::format("Traffic: {} requests ({} from the burst fault, {} retries), seed {}, request set {}\n"
                     "Clock: time scale {:.3g} ({:.0f} virtual s in about {:.0f} wall s per run); latencies below are virtual seconds\n",
                     load.set.requests.size(), load.bursts, load.retries, load.set.seed, load.set.hash, r.time_scale,
                     r.virtual_s, r.virtual_s / r.time_scale);
}

std::string diagnosed_text(const SimDrillResult& r) {
  const auto& dc = r.dcase;
  std::string o = "\n" + report::render_text(r.report) + "\n";
  if (dc.expected)
    o += fmt::format("Scenario's injected fault: {} ({}, {}): {}\n", dc.expected->id, diagnose::to_string(dc.expected->layer),
                     diagnose::to_string(dc.expected->symptom), r.matched ? "named as the top finding" : "NOT the top finding");
  if (!r.remedy_tried) return o;
  for (const auto& s : r.skipped) o += "Not applicable in the simulator: " + s + "\n";
  if (!r.remedy) {
    o += "No remedy of the diagnosis can be applied in the simulator: no second run.\n";
  } else if (!r.remedy->starts) {
    o += fmt::format("After {} the engine would not start: {}\n", r.remedy->chosen.applied, r.remedy->scenario.startup_error);
  } else {
    const auto& ch = r.remedy->chosen;
    const auto& rem = r.report.findings[ch.finding].remedies[ch.remedy];
    o += fmt::format("\nRemedy applied (finding {}, remedy {}): {}{}\n", r.report.findings[ch.finding].id, ch.remedy + 1, ch.applied,
                     rem.predicted_effect.empty() ? "" : "; predicted: " + rem.predicted_effect);
  }
  return o;
}

std::string ran_b_text(const SimDrillResult& r) {
  std::string o = fmt::format("[B] sim serve at {}: {}\n", r.b->base_url, http_run_line(*r.b));
  o += "\n" + bench::ab_text(*r.ab, *r.sample_a, *r.sample_b);
  if (!r.ab_faithful()) o += "WARNING: host lag distorts at least one run (above): read the A/B as indicative only.\n";
  if (r.offline_check) {
    const auto& x = r.offline_check->a;
    const auto& y = r.offline_check->b;
    o += fmt::format("Offline simulation of the same change (no HTTP, no host lag): P99 TTFT {:.3g} s -> {:.3g} s, "
                     "P99 TPOT {:.0f} ms -> {:.0f} ms, output {:.0f} -> {:.0f} tok/s\n",
                     x.ttft_ms.p99 / 1e3, y.ttft_ms.p99 / 1e3, x.tpot_ms.p99, y.tpot_ms.p99, x.output_throughput,
                     y.output_throughput);
  }
  return o;
}

}  // namespace

std::string faults_line(const sim::Scenario& s) {
  std::string out;
  for (const auto& f : s.config.faults) {
    std::string d = sim::to_string(f.kind);
    switch (f.kind) {
      case sim::FaultKind::clock_throttle: d += fmt::format(" x{:g}", f.factor); break;
      case sim::FaultKind::long_prompt_burst: d += fmt::format(" {:g} req/s of {} in / {} out", f.rate_rps, f.input_len, f.output_len); break;
      case sim::FaultKind::gateway_timeout: d += fmt::format(" {:g} s", f.timeout_s); break;
      case sim::FaultKind::client_retries: d += fmt::format(" up to {}", f.max_retries); break;
      default: break;
    }
    if (f.start_s > 0 || f.end_s < 1e8) d += fmt::format(" [{:g} s, {})", f.start_s, f.end_s < 1e8 ? fmt::format("{:g} s", f.end_s) : "end");
    out += (out.empty() ? "" : "; ") + d;
  }
  return out.empty() ? "none (the settings are the fault)" : out;
}

std::string sim_drill_step_text(const SimDrillResult& r, SimDrillStep step) {
  switch (step) {
    case SimDrillStep::started: return started_text(r);
    case SimDrillStep::startup: return startup_text(r);
    case SimDrillStep::planned: return r.load ? planned_text(r) : "";
    case SimDrillStep::ran_a: return r.a ? fmt::format("\n[A] sim serve at {}: {}\n", r.a->base_url, http_run_line(*r.a)) : "";
    case SimDrillStep::diagnosed: return r.a ? diagnosed_text(r) : "";
    case SimDrillStep::ran_b: return r.b && r.ab && r.sample_a && r.sample_b ? ran_b_text(r) : "";
  }
  return "";
}

std::string sim_drill_text(const SimDrillResult& r) {
  std::string o = sim_drill_step_text(r, SimDrillStep::started);
  if (r.startup_failed()) return r.reached == SimDrillStep::startup ? o + sim_drill_step_text(r, SimDrillStep::startup) : o;
  for (auto step : {SimDrillStep::planned, SimDrillStep::ran_a, SimDrillStep::diagnosed, SimDrillStep::ran_b})
    if (static_cast<int>(step) <= static_cast<int>(r.reached)) o += sim_drill_step_text(r, step);
  return o;
}

nlohmann::json sim_drill_json(const SimDrillResult& r) {
  const sim::Scenario& sa = r.dcase.scenario;
  nlohmann::json doc{{"scenario", sa.name}, {"symptom", sa.symptom}, {"faults", faults_line(sa)}, {"expected", expected_json(r.dcase)}};
  if (r.startup_failed()) {
    doc["startup_error"] = sa.startup_error;
    doc["diagnosis"] = report::to_json(r.report);
    doc["diagnosis_matches_scenario"] = r.matched;
    if (r.remedy) {
      const auto& sb = r.remedy->scenario;
      doc["remedy"] = {{"finding", r.report.findings[r.remedy->chosen.finding].id}, {"applied", r.remedy->chosen.applied},
                       {"starts", r.remedy->starts}, {"kv_cache_tokens", kv_cache_tokens(sb)}};
    }
    if (r.remedy_tried) doc["remedies_skipped"] = r.skipped;
    return doc;
  }
  if (!r.load) return doc;
  doc["time_scale"] = r.time_scale;
  doc["request_set_hash"] = r.load->set.hash;
  doc["requests"] = r.load->set.requests.size();
  if (r.a) doc["run_a"] = http_run_json(*r.a);
  if (static_cast<int>(r.reached) < static_cast<int>(SimDrillStep::diagnosed)) return doc;
  doc["diagnosis"] = report::to_json(r.report);
  doc["diagnosis_matches_scenario"] = r.matched;
  if (r.remedy_tried) doc["remedies_skipped"] = r.skipped;
  if (r.remedy) {
    const auto& ch = r.remedy->chosen;
    const auto& f = r.report.findings[ch.finding];
    if (!r.remedy->starts) {
      doc["remedy"] = {{"finding", f.id}, {"applied", ch.applied}, {"starts", false}};
    } else {
      const auto& rem = f.remedies[ch.remedy];
      doc["remedy"] = {{"finding", f.id}, {"change", rem.change}, {"from", rem.from},
                       {"to", rem.to}, {"predicted_effect", rem.predicted_effect}, {"applied", ch.applied}};
    }
  }
  if (r.b) doc["run_b"] = http_run_json(*r.b);
  if (r.ab && r.sample_a && r.sample_b) {
    doc["ab"] = bench::ab_json(*r.ab, *r.sample_a, *r.sample_b);
    doc["ab_faithful"] = r.ab_faithful();
  }
  if (r.offline_check) {
    const auto& x = r.offline_check->a;
    const auto& y = r.offline_check->b;
    doc["offline_check"] = {{"ttft_p99_s", {x.ttft_ms.p99 / 1e3, y.ttft_ms.p99 / 1e3}},
                            {"tpot_p99_s", {x.tpot_ms.p99 / 1e3, y.tpot_ms.p99 / 1e3}},
                            {"output_tokens_per_s", {x.output_throughput, y.output_throughput}}};
  }
  return doc;
}

}  // namespace llmtriage::drill
