// `llmtriage drill SCENARIO`: the whole method on the embedded engine. Serve the scenario's
// faulty deployment (sim serve, in process, 127.0.0.1, a free port), drive its traffic with the
// bench runner, snapshot /metrics, diagnose, apply the top finding's first remedy the simulator
// can apply, re-run the same request set with the same seed, and print the A/B. docs/drill.md.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <ostream>

#include "bench/ab.h"
#include "bench/export.h"
#include "cli/command.h"
#include "cli/drill_case.h"
#include "cli/drill_engine_cmd.h"
#include "cli/drill_run.h"
#include "collect/snapshot.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "diagnose/diagnose.h"
#include "report/diagnose_json.h"
#include "report/diagnose_text.h"

namespace llmtriage::cli {

namespace {

struct DrillOpts {
  std::string scenario;
  double time_scale = 0;        // 0 = auto
  double target_wall_s = 20;    // auto time scale: each run takes about this long
  std::optional<std::string> out;
  bool no_remedy = false;
  EngineDrillFlags engine;  // --engine-cmd: a real server instead of the simulated engine
};

core::Error usage(std::string where, std::string expected, std::string found) {
  return core::make_error(core::ErrorKind::usage, std::move(where), std::move(expected), std::move(found));
}

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

std::string run_line(const drill::HttpRun& r) {
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

nlohmann::json run_json(const drill::HttpRun& r) {
  return {{"wall_s", r.run.wall_s}, {"requests", r.summary.total}, {"completed", r.summary.completed},
          {"engine_lag_p99_s", r.engine_lag_p99_s ? nlohmann::json(*r.engine_lag_p99_s) : nlohmann::json()},
          {"dispatch_lag_p99_s", r.dispatch_lag_p99_s}, {"faithful", r.faithful()}};
}

core::Status write_run(const std::string& dir, const drill::HttpRun& r) {
  if (auto st = bench::write_results(dir, r.summary, r.meta, r.run.records, r.run.scrapes); !st.ok()) return st;
  return collect::write_snapshot(dir + "/snapshot.json", r.snapshot);
}

nlohmann::json expected_json(const drill::DrillCase& c) {
  if (!c.expected) return nullptr;
  return {{"id", c.expected->id}, {"layer", diagnose::to_string(c.expected->layer)},
          {"symptom", diagnose::to_string(c.expected->symptom)}};
}

bool matches(const drill::DrillCase& c, const diagnose::Report& r) {
  if (!c.expected || r.findings.empty()) return false;
  const auto& f = r.findings.front();
  return f.id == c.expected->id && f.layer == c.expected->layer && f.symptom == c.expected->symptom;
}

}  // namespace

Command make_drill_command() {
  auto o = std::make_shared<DrillOpts>();
  Command c;
  c.path = "drill";
  c.summary = "Run a fault scenario end to end: simulated engine, load, snapshot, diagnosis, remedy, A/B";
  c.example = "llmtriage drill long-context-launch --out /tmp/drill   # scenarios: data/scenarios/ (llmtriage sim run --help)\n"
              "  llmtriage drill too-few-slots --engine-cmd 'llama-server -m {model} --host {host} --port {port} -np {parallel} -c {ctx} -t {threads} --metrics' --engine-model ./model.gguf";
  c.options = {
      {"SCENARIO NAME", "", "a scenario file or bundled name (data/scenarios/): deployment, traffic, faults and the diagnosis it must produce", &o->scenario, "", true},
      {"--time-scale", "", "virtual seconds per wall second for sim serve and the load (0: chosen so each run takes about --target-wall seconds)", &o->time_scale},
      {"--target-wall DURATION", "", "with --time-scale 0: wall time one run should take", &o->target_wall_s, "", false, kPositive},
      {"--out,-o DIR", "", "folder for both runs (a/ and b/: bench results + snapshot.json), diagnosis.json and drill.json", &o->out},
      {"--no-remedy", "", "stop after the diagnosis (no second run)", &o->no_remedy},
      {"--engine-cmd TEXT", "", "drill a real server instead: its command line with {model} {port} {host} {parallel} {ctx} {threads}; SCENARIO is then one of data/drills/engine_scenarios.json (too-few-slots, prompts-over-slot-context, cpu-starved)", &o->engine.engine_cmd},
      {"--engine-model FILE", "", "with --engine-cmd: the model file the server loads ({model}; the ledger reads it too)", &o->engine.engine_model},
      {"--run-deadline DURATION", "", "with --engine-cmd: bound on each load run", &o->engine.run_deadline_s, "", false, kPositive},
  };
  c.run = [o](Context& ctx) -> int {
    if (!o->engine.engine_cmd.empty()) return run_engine_drill_command(ctx, o->scenario, o->engine, o->out, o->no_remedy);
    if (o->time_scale < 0 || o->time_scale > 1e4) return fail(ctx, usage("--time-scale", "0 (auto) or a number in (0, 1e4]", fmt::format("{}", o->time_scale)));
    if (!(o->target_wall_s >= 1 && o->target_wall_s <= 3600)) return fail(ctx, usage("--target-wall", "seconds in [1, 3600]", fmt::format("{}", o->target_wall_s)));
    auto loaded = drill::load_case(o->scenario);
    if (!loaded.ok()) return fail(ctx, loaded.error());
    drill::DrillCase dc = std::move(loaded.value());
    const sim::Scenario& sa = dc.scenario;
    if (o->out) {
      std::error_code ec;
      std::filesystem::create_directories(*o->out, ec);
      if (ec) return fail(ctx, core::make_error(core::ErrorKind::input, "--out", "a folder that can be created", *o->out, ec.message()));
    }
    std::ostream& out = ctx.out;
    const bool text = !ctx.json;
    nlohmann::json doc{{"scenario", sa.name}, {"symptom", sa.symptom}, {"faults", faults_line(sa)}, {"expected", expected_json(dc)}};
    if (text) {
      out << fmt::format("== llmtriage drill: {} ==\n{}\n", sa.name, sa.symptom);
      out << fmt::format("Deployment: {} on {} x{} (TP {}), {}; faults: {}\n", sa.deployment.model, sa.deployment.gpu,
                         std::max(1, sa.config.replicas), sa.deployment.tp, sa.config.preset.name, faults_line(sa));
    }

    // A deployment that cannot start: nothing listens, the log's startup error is the evidence.
    if (!sa.startup_error.empty()) {
      auto report = diagnose::diagnose(drill::startup_input(dc, true));
      doc["startup_error"] = sa.startup_error;
      doc["diagnosis"] = report::to_json(report);
      doc["diagnosis_matches_scenario"] = matches(dc, report);
      if (text) out << "\n[A] The simulated engine does not start:\n  " << sa.startup_error << "\n\n" << report::render_text(report);
      sim::Scenario sb = sa;
      std::vector<std::string> skipped;
      if (!o->no_remedy) {
        if (auto ch = drill::choose_remedy(report, sb, skipped)) {
          const bool starts = sb.startup_error.empty() && sb.config.num_blocks > 0;
          doc["remedy"] = {{"finding", report.findings[ch->finding].id}, {"applied", ch->applied}, {"starts", starts},
                           {"kv_cache_tokens", sb.config.num_blocks * sb.config.block_size}};
          if (text)
            out << fmt::format("\n[B] after {}: {}\n", ch->applied,
                               starts ? fmt::format("the engine starts; KV pool {} tokens per replica",
                                                    sb.config.num_blocks * sb.config.block_size)
                                      : "still does not start: " + sb.startup_error);
        } else if (text) {
          out << "\nNo remedy the simulator can apply.\n";
        }
        doc["remedies_skipped"] = skipped;
        if (text) for (const auto& s : skipped) out << "  not applicable in the simulator: " << s << "\n";
      }
      if (o->out) (void)core::write_file_atomic(*o->out + "/drill.json", doc.dump(2) + "\n");
      if (ctx.json) out << doc.dump(2) << "\n";
      return report.exit_code();
    }

    // Offline first: the retries the traffic will contain, and how long the run is in virtual time.
    auto offline = sim::run_simulation(sa.config);
    if (!offline.ok()) return fail(ctx, offline.error());
    auto load = drill::build_load(sa, *offline);
    if (!load.ok()) return fail(ctx, load.error());
    const double virtual_s = std::max(1.0, offline->summary.sim_seconds);
    const double scale = o->time_scale > 0 ? o->time_scale : std::clamp(virtual_s / o->target_wall_s, 1.0, 1000.0);
    // Bound each run: four times the offline duration plus slack, in wall seconds (a loaded host
    // runs late; the lag is measured and reported, a cut-off run would compare unlike sets).
    const double deadline = (4 * virtual_s + 60) / scale + 30;
    doc["time_scale"] = scale;
    doc["request_set_hash"] = load->set.hash;
    doc["requests"] = load->set.requests.size();
    if (text)
      out << fmt::format("Traffic: {} requests ({} from the burst fault, {} retries), seed {}, request set {}\n"
                         "Clock: time scale {:.3g} ({:.0f} virtual s in about {:.0f} wall s per run); latencies below are virtual seconds\n",
                         load->set.requests.size(), load->bursts, load->retries, load->set.seed, load->set.hash, scale, virtual_s,
                         virtual_s / scale);

    auto a = drill::run_over_http(sa, *load, scale, deadline);
    if (!a.ok()) return fail(ctx, a.error());
    doc["run_a"] = run_json(*a);
    if (text) out << fmt::format("\n[A] sim serve at {}: {}\n", a->base_url, run_line(*a));
    if (o->out) {
      if (auto st = write_run(*o->out + "/a", *a); !st.ok()) return fail(ctx, st.error());
    }

    auto report = diagnose::diagnose(drill::diagnose_input(dc, a->data, true));
    const bool matched = matches(dc, report);
    doc["diagnosis"] = report::to_json(report);
    doc["diagnosis_matches_scenario"] = matched;
    if (text) {
      out << "\n" << report::render_text(report) << "\n";
      if (dc.expected)
        out << fmt::format("Scenario's injected fault: {} ({}, {}): {}\n", dc.expected->id, diagnose::to_string(dc.expected->layer),
                           diagnose::to_string(dc.expected->symptom), matched ? "named as the top finding" : "NOT the top finding");
    }
    if (o->out) (void)core::write_file_atomic(*o->out + "/diagnosis.json", report::to_json(report).dump(2) + "\n");

    if (!o->no_remedy) {
      sim::Scenario sb = sa;
      std::vector<std::string> skipped;
      auto ch = drill::choose_remedy(report, sb, skipped);
      doc["remedies_skipped"] = skipped;
      if (text)
        for (const auto& s : skipped) out << "Not applicable in the simulator: " << s << "\n";
      if (!ch) {
        if (text) out << "No remedy of the diagnosis can be applied in the simulator: no second run.\n";
      } else if (!sb.startup_error.empty() || sb.config.num_blocks <= 0) {
        doc["remedy"] = {{"finding", report.findings[ch->finding].id}, {"applied", ch->applied}, {"starts", false}};
        if (text) out << fmt::format("After {} the engine would not start: {}\n", ch->applied, sb.startup_error);
      } else {
        const auto& rem = report.findings[ch->finding].remedies[ch->remedy];
        doc["remedy"] = {{"finding", report.findings[ch->finding].id}, {"change", rem.change}, {"from", rem.from},
                         {"to", rem.to}, {"predicted_effect", rem.predicted_effect}, {"applied", ch->applied}};
        if (text)
          out << fmt::format("\nRemedy applied (finding {}, remedy {}): {}{}\n", report.findings[ch->finding].id, ch->remedy + 1,
                             ch->applied, rem.predicted_effect.empty() ? "" : "; predicted: " + rem.predicted_effect);
        auto b = drill::run_over_http(sb, *load, scale, deadline);
        if (!b.ok()) return fail(ctx, b.error());
        doc["run_b"] = run_json(*b);
        if (text) out << fmt::format("[B] sim serve at {}: {}\n", b->base_url, run_line(*b));
        if (o->out) {
          if (auto st = write_run(*o->out + "/b", *b); !st.ok()) return fail(ctx, st.error());
        }
        const auto ra = drill::run_sample(*a, "A: " + sa.name, drill::scenario_config(sa));
        const auto rb = drill::run_sample(*b, "B: " + ch->applied, drill::scenario_config(sb));
        bench::AbOptions abo;
        abo.seed = sa.config.workload.seed;
        const auto ab = bench::compare_runs(ra, rb, abo);
        doc["ab"] = bench::ab_json(ab, ra, rb);
        doc["ab_faithful"] = a->faithful() && b->faithful();
        if (text) {
          out << "\n" << bench::ab_text(ab, ra, rb);
          if (!(a->faithful() && b->faithful()))
            out << "WARNING: host lag distorts at least one run (above): read the A/B as indicative only.\n";
        }
        // The same change in the offline simulator (virtual clock, no HTTP, no host lag): a check
        // on the A/B, and the number to trust when the host lagged.
        if (auto ob = sim::run_simulation(sb.config); ob.ok()) {
          const auto& x = offline->summary;
          const auto& y = ob->summary;
          doc["offline_check"] = {{"ttft_p99_s", {x.ttft_ms.p99 / 1e3, y.ttft_ms.p99 / 1e3}},
                                  {"tpot_p99_s", {x.tpot_ms.p99 / 1e3, y.tpot_ms.p99 / 1e3}},
                                  {"output_tokens_per_s", {x.output_throughput, y.output_throughput}}};
          if (text)
            out << fmt::format("Offline simulation of the same change (no HTTP, no host lag): P99 TTFT {:.3g} s -> {:.3g} s, "
                               "P99 TPOT {:.0f} ms -> {:.0f} ms, output {:.0f} -> {:.0f} tok/s\n",
                               x.ttft_ms.p99 / 1e3, y.ttft_ms.p99 / 1e3, x.tpot_ms.p99, y.tpot_ms.p99, x.output_throughput,
                               y.output_throughput);
        }
      }
    }
    if (o->out) {
      if (auto st = core::write_file_atomic(*o->out + "/drill.json", doc.dump(2) + "\n"); !st.ok()) return fail(ctx, st.error());
      if (text) out << "\nResults: " << *o->out << " (a/, b/: bench results and snapshot.json; diagnosis.json; drill.json)\n";
    }
    if (ctx.json) out << doc.dump(2) << "\n";
    return report.exit_code();
  };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
