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

std::string seconds(double s) { return s >= 1 ? fmt::format("{:.3g} s", s) : fmt::format("{:.0f} ms", s * 1e3); }

nlohmann::json measured_json(const Measured& m) {
  return {{"ttft_p99_s", m.ttft_p99_s}, {"tpot_p99_s", m.tpot_p99_s}, {"output_tokens_per_s", m.output_tok_s},
          {"requests_sent", m.sent}, {"requests_failed", m.failed}};
}

// The run a step is A/B'd against: run A, the last step kept before it, or that state run again.
const bench::RunSample& sample_before(const SimDrillResult& r, const DrillStep& st) {
  return st.before_sample ? *st.before_sample : *r.sample_a;
}

nlohmann::json step_json(const SimDrillResult& r, const DrillStep& st, bool taken) {
  nlohmann::json j{{"step", st.index}, {"finding", st.finding_id}, {"change", st.change.change}, {"from", st.change.from},
                   {"to", st.change.to}, {"sizing", st.sizing}, {"taken", taken}};
  if (st.predicted)
    j["predicted"] = {{"ttft_p99_s", st.predicted->ttft_p99_s}, {"tpot_p99_s", st.predicted->tpot_p99_s},
                      {"output_tokens_per_s", st.predicted->output_tokens_per_s}, {"met", st.predicted_met}};
  if (!taken) return j;
  j["applied"] = st.applied;
  j["verdict"] = st.verdict;
  if (!st.run) {
    j["not_applied"] = st.not_applied;
    return j;
  }
  j["against"] = st.against;
  j["run"] = http_run_json(*st.run);
  j["before"] = measured_json(st.before);
  j["measured"] = measured_json(st.after);
  if (st.ab && st.sample && r.sample_a) j["ab"] = bench::ab_json(*st.ab, sample_before(r, st), *st.sample);
  if (st.offline)
    j["offline"] = {{"ttft_p99_s", {st.offline->a.ttft_ms.p99 / 1e3, st.offline->b.ttft_ms.p99 / 1e3}},
                    {"tpot_p99_s", {st.offline->a.tpot_ms.p99 / 1e3, st.offline->b.tpot_ms.p99 / 1e3}}};
  j["kept"] = st.kept;
  j["met"] = st.met;
  return j;
}

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
                     "Clock: time scale {:.3g} ({:.0f} virtual s in about {:.0f} wall s per run; chosen by {}); latencies below are virtual seconds\n",
                     load.set.requests.size(), load.bursts, load.retries, load.set.seed, load.set.hash, r.time_scale,
                     r.virtual_s, r.virtual_s / r.time_scale, r.time_scale_why);
}

std::string diagnosed_text(const SimDrillResult& r) {
  const auto& dc = r.dcase;
  std::string o = "\n" + report::render_text(r.report) + "\n";
  if (dc.expected)
    o += fmt::format("Scenario's injected fault: {} ({}, {}): {}\n", dc.expected->id, diagnose::to_string(dc.expected->layer),
                     diagnose::to_string(dc.expected->symptom), r.matched ? "named as the top finding" : "NOT the top finding");
  if (!r.remedy_tried) return o;
  for (const auto& s : r.skipped) o += "Not applicable in the simulator: " + s + "\n";
  if (r.steps.empty()) return o + "No remedy of the diagnosis can be applied in the simulator: no second run.\n";
  o += r.path_source == "plan" ? "\nFollowing the remedy plan, one variable at a time (each step on the same request set):\n"
                               : "\nNo remedy plan (below): the top finding's first remedy the simulator can apply is the one step:\n";
  for (const auto& st : r.steps) {
    o += fmt::format("  {}. {} {} -> {}", st.index, st.change.change, st.change.from.empty() ? "?" : st.change.from, st.change.to);
    if (st.predicted)
      o += fmt::format("  predicted: P99 TTFT {}, P99 TPOT {}{}", seconds(st.predicted->ttft_p99_s), seconds(st.predicted->tpot_p99_s),
                       st.predicted_met ? " (meets the objective)" : "");
    else if (!st.change.predicted_effect.empty())
      o += "  predicted: " + st.change.predicted_effect;
    o += "\n";
  }
  return o;
}

std::string offline_line(const OfflineCheck& c) {
  return fmt::format("Offline simulation of the same change (no HTTP, no host lag): P99 TTFT {:.3g} s -> {:.3g} s, "
                     "P99 TPOT {:.0f} ms -> {:.0f} ms, output {:.0f} -> {:.0f} tok/s\n",
                     c.a.ttft_ms.p99 / 1e3, c.b.ttft_ms.p99 / 1e3, c.a.tpot_ms.p99, c.b.tpot_ms.p99, c.a.output_throughput,
                     c.b.output_throughput);
}

std::string step_text(const SimDrillResult& r, const DrillStep& st) {
  std::string o = fmt::format("\n[step {}] {} {} -> {}", st.index, st.change.change, st.change.from.empty() ? "?" : st.change.from,
                              st.change.to);
  if (!st.sizing.empty()) o += ": " + st.sizing;
  o += "\n";
  if (!st.run) return o + "  " + st.verdict + "\n";
  o += fmt::format("  applied: {}; sim serve at {}: {}\n", st.applied, st.run->base_url, http_run_line(*st.run));
  if (st.ab && st.sample) {
    o += "\n" + bench::ab_text(*st.ab, sample_before(r, st), *st.sample);
    if (!(st.run->faithful() && r.a->faithful()))
      o += "WARNING: host lag distorts at least one run (above): read the A/B as indicative only.\n";
  }
  if (st.offline) o += offline_line(*st.offline);
  if (st.predicted)
    o += fmt::format("Predicted by the plan: P99 TTFT {}, P99 TPOT {}; measured: P99 TTFT {}, P99 TPOT {}\n",
                     seconds(st.predicted->ttft_p99_s), seconds(st.predicted->tpot_p99_s), seconds(st.after.ttft_p99_s),
                     seconds(st.after.tpot_p99_s));
  return o + "  " + st.verdict + "\n";
}

std::string ran_b_text(const SimDrillResult& r) {
  if (r.steps_done == 0 || r.steps_done > r.steps.size()) return "";
  return step_text(r, r.steps[r.steps_done - 1]);
}

std::string finished_text(const SimDrillResult& r) {
  std::string o;
  for (const auto& n : r.rescaled) o += "\nThe host did not keep up: " + n;
  if (!r.rescaled.empty()) o += "\n";
  o += "\nPath: change -> predicted -> measured (P99 TTFT / P99 TPOT, virtual seconds)\n";
  o += fmt::format("  A  as found{:>30}measured {} / {}{}\n", "", seconds(r.measured_a.ttft_p99_s), seconds(r.measured_a.tpot_p99_s),
                   r.measured_a.failed ? fmt::format(", {:.1f}% failed", r.measured_a.failed_share() * 100) : "");
  for (size_t i = 0; i < r.steps_done && i < r.steps.size(); ++i) {
    const auto& st = r.steps[i];
    const std::string change = fmt::format("{} {} -> {}", st.change.change, st.change.from.empty() ? "?" : st.change.from, st.change.to);
    const std::string pred = st.predicted ? fmt::format("predicted {} / {}", seconds(st.predicted->ttft_p99_s), seconds(st.predicted->tpot_p99_s))
                                          : std::string("predicted -");
    const std::string meas = st.run ? fmt::format("measured {} / {}{}", seconds(st.after.ttft_p99_s), seconds(st.after.tpot_p99_s),
                                                  st.after.failed ? fmt::format(", {:.1f}% failed", st.after.failed_share() * 100) : "")
                                    : std::string("not run");
    o += fmt::format("  {}. {:<34} {:<28} {:<28} {}\n", st.index, change, pred, meas,
                     !st.run ? "not applicable" : st.met ? "kept, objective met" : st.kept ? "kept" : "undone");
  }
  o += r.objective.known()
           ? fmt::format("Objective ({}): P99 TTFT <= {}, P99 TPOT <= {}: {} ({})\n", r.objective.source,
                         r.objective.ttft_p99_s > 0 ? seconds(r.objective.ttft_p99_s) : "-",
                         r.objective.tpot_p99_s > 0 ? seconds(r.objective.tpot_p99_s) : "-", r.objective_met ? "MET" : "NOT MET", r.ended)
           : "No objective (no --objective, no SLO or baseline in the plan): " + r.ended + "\n";
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
    case SimDrillStep::ran_a: {
      if (!r.a) return "";
      std::string o;
      for (const auto& n : r.rescaled) o += "\nThe host did not keep up: " + n;
      return o + fmt::format("\n[A] sim serve at {} (time scale {:.3g}): {}\n", r.a->base_url, r.time_scale, http_run_line(*r.a));
    }
    case SimDrillStep::diagnosed: return r.a ? diagnosed_text(r) : "";
    case SimDrillStep::ran_b: return ran_b_text(r);
    case SimDrillStep::finished: return r.remedy_tried && r.sample_a ? finished_text(r) : "";
  }
  return "";
}

std::string sim_drill_text(const SimDrillResult& r) {
  std::string o = sim_drill_step_text(r, SimDrillStep::started);
  if (r.startup_failed()) return r.reached == SimDrillStep::startup ? o + sim_drill_step_text(r, SimDrillStep::startup) : o;
  for (auto step : {SimDrillStep::planned, SimDrillStep::ran_a, SimDrillStep::diagnosed})
    if (static_cast<int>(step) <= static_cast<int>(r.reached)) o += sim_drill_step_text(r, step);
  for (size_t i = 0; i < r.steps_done && i < r.steps.size(); ++i) o += step_text(r, r.steps[i]);
  if (r.reached == SimDrillStep::finished) o += sim_drill_step_text(r, SimDrillStep::finished);
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
  // The first step run, as "remedy" / "run_b" / "ab" (the single-remedy drill's fields).
  for (size_t i = 0; i < r.steps_done && i < r.steps.size(); ++i) {
    const auto& st = r.steps[i];
    if (!st.run) continue;
    doc["remedy"] = {{"finding", st.finding_id}, {"change", st.change.change}, {"from", st.change.from},
                     {"to", st.change.to}, {"predicted_effect", st.change.predicted_effect}, {"applied", st.applied}};
    break;
  }
  if (r.remedy_tried) {
    doc["path_source"] = r.path_source;
    doc["objective"] = r.objective.known() ? nlohmann::json{{"ttft_p99_s", r.objective.ttft_p99_s}, {"tpot_p99_s", r.objective.tpot_p99_s},
                                                          {"source", r.objective.source}}
                                           : nlohmann::json();
    doc["run_a_measured"] = measured_json(r.measured_a);
    nlohmann::json path = nlohmann::json::array();
    for (size_t i = 0; i < r.steps.size(); ++i) path.push_back(step_json(r, r.steps[i], i < r.steps_done));
    doc["path"] = path;
    doc["objective_met"] = r.objective_met;
    doc["ended"] = r.ended;
    doc["rescaled"] = r.rescaled;
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
