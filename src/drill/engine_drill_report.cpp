#include "drill/engine_drill_report.h"

#include <fmt/format.h>

#include "drill/engine_command.h"
#include "report/diagnose_json.h"
#include "report/diagnose_text.h"

namespace llmtriage::drill {
namespace {

std::string knobs_line(const Knobs& k) {
  std::string s;
  for (const auto& [n, v] : k) s += fmt::format("{}{}={}", s.empty() ? "" : " ", n, v);
  return s;
}

std::string run_line(const EngineRun& r) {
  const auto& s = r.out.summary;
  std::string line = fmt::format("{} of {} completed, {} failed{}; TTFT p50 {:.0f} ms p99 {:.0f} ms; TPOT p50 {:.2f} ms; {:.0f} output tok/s",
                                 s.completed, s.measured, s.failed,
                                 s.cut + s.not_sent > 0 ? fmt::format(", {} cut or not sent (partial)", s.cut + s.not_sent) : "",
                                 s.ttft_s.p50 * 1e3, s.ttft_s.p99 * 1e3, s.tpot_s.p50 * 1e3, s.output_throughput);
  if (s.ttft_outside_server_s.count)
    line += fmt::format("; client TTFT - server prompt time p50 {:.1f} ms", s.ttft_outside_server_s.p50 * 1e3);
  if (s.output_len_mismatch) line += fmt::format("; {} outputs shorter than asked", s.output_len_mismatch);
  return line;
}

nlohmann::json run_json(const EngineRun& r) {
  const auto& s = r.out.summary;
  nlohmann::json j = {{"label", r.label}, {"knobs", r.knobs}, {"command", command_line(r.argv)}, {"log", r.log_path},
                      {"completed", s.completed}, {"failed", s.failed}, {"cut", s.cut}, {"not_sent", s.not_sent},
                      {"ttft_p50_ms", s.ttft_s.p50 * 1e3}, {"ttft_p99_ms", s.ttft_s.p99 * 1e3},
                      {"tpot_p50_ms", s.tpot_s.p50 * 1e3}, {"output_tokens_per_s", s.output_throughput},
                      {"request_set_hash", r.out.meta.request_set_hash}};
  if (s.ttft_outside_server_s.count) j["ttft_outside_server_p50_ms"] = s.ttft_outside_server_s.p50 * 1e3;
  if (r.props) j["props"] = {{"total_slots", r.props->total_slots.value_or(0)}, {"ctx_per_slot", r.props->ctx_per_slot.value_or(0)},
                             {"build", r.props->build}};
  return j;
}

}  // namespace

std::string engine_drill_text(const EngineDrillResult& r) {
  const auto& s = r.scenario;
  std::string o = fmt::format("== llmtriage drill on a real engine: {} ==\n{}\n", s.name, s.about);
  o += fmt::format("Planted: {} in {} (the knob: {}); objective: {}\n", s.planted_finding.empty() ? "a cause" : s.planted_finding,
                   s.planted_layer, s.planted_knob, s.slo.empty() ? "the diagnosis' default SLO" : s.slo);
  if (r.baseline) o += fmt::format("\n[baseline] {}\n  {}\n  {}\n", knobs_line(r.baseline->knobs), command_line(r.baseline->argv), run_line(*r.baseline));
  o += fmt::format("\n[A] {}\n  {}\n  {}\n\n", knobs_line(r.a.knobs), command_line(r.a.argv), run_line(r.a));
  o += report::render_text(r.report);
  o += fmt::format("\nPlanted cause: {}\n", r.named ? "named as the top finding" : "NOT named (" + r.named_why + ")");
  for (const auto& sk : r.skipped) o += "  remedy not applied by the drill: " + sk + "\n";
  if (!r.applied) {
    o += "No remedy maps to a knob of this drill: no second run.\n";
    return o;
  }
  o += fmt::format("\nRemedy applied (finding {}, fix {}): {} {} -> {}, the server restarted with {}={}\n",
                   r.report.findings[r.applied->finding].id, r.applied->remedy + 1, r.applied->change, r.applied->from,
                   r.applied->to, r.applied->knob, r.applied->value);
  if (r.b) o += fmt::format("[B] {}\n  {}\n  {}\n", knobs_line(r.b->knobs), command_line(r.b->argv), run_line(*r.b));
  if (r.ab && r.sample_a && r.sample_b) o += "\n" + bench::ab_text(*r.ab, *r.sample_a, *r.sample_b);
  return o;
}

nlohmann::json engine_drill_json(const EngineDrillResult& r) {
  const auto& s = r.scenario;
  nlohmann::json j = {{"scenario", s.name}, {"about", s.about},
                      {"planted", {{"layer", s.planted_layer}, {"finding", s.planted_finding}, {"knob", s.planted_knob}}},
                      {"slo", s.slo},
                      {"run_a", run_json(r.a)}, {"diagnosis", report::to_json(r.report)}, {"named", r.named},
                      {"remedies_skipped", r.skipped}};
  if (!r.named) j["named_why"] = r.named_why;
  if (r.baseline) j["baseline"] = run_json(*r.baseline);
  if (r.applied)
    j["remedy"] = {{"finding", r.report.findings[r.applied->finding].id}, {"change", r.applied->change}, {"from", r.applied->from},
                   {"to", r.applied->to}, {"knob", r.applied->knob}, {"value", r.applied->value}};
  if (r.b) j["run_b"] = run_json(*r.b);
  if (r.ab && r.sample_a && r.sample_b) j["ab"] = bench::ab_json(*r.ab, *r.sample_a, *r.sample_b);
  return j;
}

}  // namespace llmtriage::drill
