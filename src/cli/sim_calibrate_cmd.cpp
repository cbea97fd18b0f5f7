// `llmtriage sim calibrate`: fit the cost model's physical factors (mbu, mfu, layer_fixed_us by
// default) to the request records of a real run, by replaying them in the simulator
// (sim/calibrate.h has the objective and the search). Writes a calibration file for
// `sim run --calibration` and reports the error before and after.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/sim_engine_flags.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "core/progress.h"
#include "ingest/records.h"
#include "sim/calibrate.h"
#include "sim/scenario.h"

namespace llmtriage::cli {

namespace {

struct CalibrateOpts {
  std::string records;
  std::string records_format = "auto";
  std::optional<std::string> columns, calibration, out;
  SimEngineFlags eng;
  std::string fit = "mbu,mfu,layer_fixed_us";
  int max_simulations = 150;
  std::optional<int64_t> concurrency;
};

std::string pct(double v) { return std::isnan(v) ? "n/a" : fmt::format("{:+.1f}%", v * 100); }

void print_text(std::ostream& out, const sim::CalibrateResult& r, const std::optional<std::string>& written) {
  out << fmt::format("{:=^72}\n", " Cost-model calibration ");
  out << fmt::format("Records:      {} of {} used ({}; {} with TTFT, {} with TPOT)\n", r.records_used, r.records_total,
                     r.replay, r.records_with_ttft, r.records_with_tpot);
  out << fmt::format("Simulations:  {}\n", r.simulations);
  out << fmt::format("Objective:    {:.4g} -> {:.4g}  (mean ln(sim/measured)^2, TTFT and TPOT at p10..p90)\n",
                     r.objective_before, r.objective_after);
  out << fmt::format("{:-^72}\n", " Fitted factors ");
  out << fmt::format("{:<16}{:>10}{:>12}{:>20}{:>14}\n", "factor", "start", "fitted", "bounds", "sensitivity");
  for (const auto& p : r.params)
    out << fmt::format("{:<16}{:>10.4g}{:>12.4g}{:>20}{:>14.3g}{}\n", p.name, p.start, p.value,
                       fmt::format("[{:g}, {:g}]", p.lo, p.hi), p.sensitivity, p.at_bound ? "  AT BOUND" : "");
  out << fmt::format("{:-^72}\n", " Simulated vs measured ");
  out << fmt::format("{:<16}{:>14}{:>14}{:>14}\n", "metric (ms)", "measured", "error before", "error after");
  for (const auto& m : r.metrics)
    out << fmt::format("{:<16}{:>14.2f}{:>14}{:>14}\n", m.metric, m.measured, pct(m.err_before()), pct(m.err_after()));
  if (!r.per_request.empty()) {
    out << "Per request, median |error| before -> after:";
    for (const auto& e : r.per_request)
      out << fmt::format("  {} {:.1f}% -> {:.1f}%", e.metric, e.before * 100, e.after * 100);
    out << "\n";
  }
  if (!r.warnings.empty()) {
    out << fmt::format("{:-^72}\n", " Warnings ");
    for (const auto& w : r.warnings) out << "  - " << w << "\n";
  }
  out << fmt::format("{:=^72}\n", "");
  if (written) out << "Wrote " << *written << "  (use: llmtriage sim run --calibration " << *written << " ...)\n";
  else out << "Calibration (save with --out FILE):\n" << r.calibration_json().dump(2) << "\n";
}

int run_calibrate(const CalibrateOpts& o, Context& ctx) {
  auto fit = sim::parse_fit_list(o.fit);
  if (!fit.ok()) return fail(ctx, fit.error());
  if (o.max_simulations < 2 * static_cast<int>(fit->size()) + 2)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--max-simulations",
                                      fmt::format("at least {} for {} factors", 2 * fit->size() + 2, fit->size()),
                                      std::to_string(o.max_simulations)));
  if (o.concurrency && *o.concurrency <= 0)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--concurrency", "a count >= 1", std::to_string(*o.concurrency)));

  // The deployment: flags over the engine presets, the starting calibration from --calibration.
  sim::Scenario s;
  apply_sim_engine_flags(o.eng, s);
  nlohmann::json start_json = nlohmann::json::object();
  if (o.calibration) {
    auto text = core::read_file(*o.calibration);
    if (!text.ok()) return fail(ctx, text.error());
    auto cal = sim::Calibration::from_json_text(*text, *o.calibration);
    if (!cal.ok()) return fail(ctx, cal.error());
    s.config.calibration = *cal;
    start_json = nlohmann::json::parse(*text, nullptr, false);  // valid: from_json_text accepted it
  }
  if (auto st = sim::resolve(s); !st.ok()) return fail(ctx, st.error());
  if (!s.startup_error.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "deployment flags", "a deployment the simulated engine can start",
                                      s.startup_error, "give the flags the measured run used (--max-model-len, --gpu-memory-utilization, --tp)"));

  // The records, in any format `records summary` reads.
  ingest::RecordReadOptions ro;
  auto format = ingest::record_format_from_string(o.records_format);
  if (!format)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--records-format",
                                      "auto, llmtriage, vllm, sglang, aiperf, genai-perf, nginx, envoy, csv or jsonl",
                                      o.records_format));
  ro.format = *format;
  ro.source_name = o.records;
  if (o.columns) {
    auto m = ingest::parse_column_map(*o.columns);
    if (!m.ok()) return fail(ctx, m.error());
    ro.columns = *m;
  }
  auto rr = ingest::read_records_file(o.records, ro);
  if (!rr.ok()) {
    core::Error e = rr.error();
    e.where = "--records " + e.where;
    return fail(ctx, e);
  }
  for (const auto& i : rr->issues) {
    // These kinds are oddities the reader accepted (the record is kept), the others lost a line.
    const bool kept = i.kind == "number_as_string" || i.kind == "invalid_utf8" || i.kind == "upstream_retries";
    ctx.err << fmt::format("llmtriage sim calibrate: {}:{}: {} ({}) {}\n", o.records, i.line, kept ? "accepted" : "skipped",
                           i.kind, i.detail);
  }
  if (rr->records_bad > static_cast<int64_t>(rr->issues.size()))
    ctx.err << fmt::format("llmtriage sim calibrate: {} bad lines in all\n", rr->records_bad);

  sim::CalibrateOptions co;
  co.fit = *fit;
  co.max_simulations = o.max_simulations;
  co.arrivals_known = std::find(rr->unavailable.begin(), rr->unavailable.end(), "arrival_s") == rr->unavailable.end();
  co.concurrency = o.concurrency.value_or(0);
  co.source_format = ingest::to_string(rr->format);
  co.start_json = std::move(start_json);
  core::Progress progress("sim calibrate");
  co.on_progress = [&](int done, int budget, double best) {
    progress.update(fmt::format("simulation {}/{}, objective {:.4g}", done, budget, best));
  };
  auto r = sim::calibrate(rr->records, s.config, co);
  progress.done();
  if (!r.ok()) {
    core::Error e = r.error();
    if (e.where == "request records") e.where = "--records " + o.records;
    return fail(ctx, e);
  }
  if (o.out) {
    if (auto st = core::write_file_atomic(*o.out, r->calibration_json().dump(2) + "\n"); !st.ok()) return fail(ctx, st.error());
  }
  if (ctx.json) {
    nlohmann::json j = r->to_json();
    if (o.out) j["written"] = *o.out;
    ctx.out << j.dump(2) << "\n";
  } else {
    print_text(ctx.out, *r, o.out);
  }
  return r->warnings.empty() ? core::kExitHealthy : core::kExitFindings;
}

}  // namespace

Command make_sim_calibrate_command() {
  auto o = std::make_shared<CalibrateOpts>();
  Command c;
  c.path = "sim calibrate";
  c.summary = "Fit the simulator's cost-model factors (mbu, mfu, layer_fixed_us) to the request records of a real run";
  c.example =
      "llmtriage sim calibrate --records bench/records.jsonl --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 "
      "--max-num-seqs 256 --out h100-8b.json\n"
      "  # then predict with it:  llmtriage sim run --calibration h100-8b.json --model meta-llama/Llama-3.1-8B-Instruct "
      "--gpu H100 --rate 12 --num-requests 1000\n"
      "  # a vllm bench result (no arrival times): replay closed-loop at its --max-concurrency\n"
      "  llmtriage sim calibrate --records vllm-result.json --concurrency 64 --fit mbu,layer_fixed_us --json";
  std::string fit_names;
  for (const auto& p : sim::fit_params()) fit_names += (fit_names.empty() ? "" : ", ") + p.name;
  c.options = {
      {"--records FILE", "", "request records of the measured run, any format `llmtriage records summary` reads", &o->records, "", true},
      {"--records-format NAME", "", "auto, llmtriage, vllm, sglang, aiperf, genai-perf, nginx, envoy, csv, jsonl", &o->records_format},
      {"--columns TEXT", "", "column map for csv/jsonl records: field=column[*factor],... (e.g. ttft_s=ttft_ms*0.001)", &o->columns},
  };
  for (auto& opt : sim_engine_options(o->eng, "max prompt + output tokens per request, as the measured server had it"))
    c.options.push_back(std::move(opt));
  c.options.insert(c.options.end(), {
      {"--replicas", "", "engine replicas the measured traffic was spread over (round-robin)", &o->eng.replicas, "1", false, at_least(1)},
      {"--calibration FILE", "", "starting calibration JSON (the factors not fitted keep its values)", &o->calibration},
      {"--fit LIST", "", "factors to fit, comma-separated: " + fit_names, &o->fit},
      {"--max-simulations", "", "search budget in simulations (each replays every record)", &o->max_simulations, "", false, at_least(1)},
      {"--concurrency", "", "records without arrival times: replay closed-loop at this many requests in flight", &o->concurrency, "", false, at_least(1)},
      {"--out,-o FILE", "", "write the fitted calibration JSON here (atomic); loadable by sim run --calibration", &o->out},
  });
  c.run = [o](Context& ctx) { return run_calibrate(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
