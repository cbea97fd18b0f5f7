// `llmtriage drill SCENARIO`: the whole method on the embedded engine (src/drill/sim_drill.h) or,
// with --engine-cmd, on a real server (src/drill/engine_drill.h). Parsing and wiring only: the
// drill prints and writes each step's results as it reaches them. docs/drill.md.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>

#include "bench/export.h"
#include "cli/command.h"
#include "cli/drill_engine_cmd.h"
#include "cli/report_inputs.h"
#include "cli/version.h"
#include "collect/snapshot.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "core/slo.h"
#include "drill/sim_case.h"
#include "drill/sim_drill.h"
#include "drill/sim_drill_report.h"
#include "report/diagnose_json.h"

namespace llmtriage::cli {

namespace {

// The drill's HTML report: run A's diagnosis (layer strip, findings, plan), run A's scrapes as
// the timeline with each request's TTFT dot, and the latency CDFs of run A (the reference) and of
// every step's run against the objective. Times are the runs' virtual seconds from their start.
report::HtmlReport drill_html(const drill::SimDrillResult& r, const std::string& scenario) {
  report::HtmlReport h;
  h.title = "llmtriage drill: " + scenario;
  h.generated_by = "llmtriage " + version_string();
  h.sources.push_back("scenario " + scenario + " (the simulated engine, sim serve over HTTP)");
  h.diagnosis = r.report;
  if (r.a) {
    report::TimelineData t{"run A's /metrics scrapes (virtual seconds from the run's start)", r.a->data.samples,
                           drill::simulated_gpu_samples(r.dcase.scenario, r.a->data.samples), {}, {}};
    for (const auto& q : r.a->data.records)
      if (q.ttft_s && q.status == core::RequestStatus::ok) t.requests.push_back({q.send_s.value_or(q.arrival_s), *q.ttft_s, q.e2e_s});
      else if (q.status == core::RequestStatus::error) t.failures.push_back({q.send_s.value_or(q.arrival_s), q.failed_after_s, q.error_category});
    if (!t.engine.empty()) h.timeline = std::move(t);
    h.runs.push_back({"A: the fault", true, "run A", r.a->data.records});
  }
  for (size_t i = 0; i < r.steps_done && i < r.steps.size(); ++i) {
    const auto& st = r.steps[i];
    if (!st.run) continue;
    h.runs.push_back({fmt::format("step {}: {} {} -> {}{}", st.index, st.change.change, st.change.from, st.change.to,
                                  st.kept ? "" : " (undone)"),
                      false, fmt::format("step {}", st.index), st.run->data.records});
  }
  // The delta board of the last step that ran: its A/B against the state it was measured after.
  for (size_t i = std::min(r.steps_done, r.steps.size()); i-- > 0;) {
    const auto& st = r.steps[i];
    if (!st.ab) continue;
    h.ab = delta_board(*st.ab, bench::AbOptions{});
    h.ab->variable = fmt::format("step {} against {}: {}", st.index, st.against, h.ab->variable);
    break;
  }
  if (r.objective.ttft_p99_s > 0) h.slo.ttft_s = r.objective.ttft_p99_s;
  if (r.objective.tpot_p99_s > 0) h.slo.tpot_s = r.objective.tpot_p99_s;
  if (r.startup_failed()) h.notes.push_back("the deployment cannot start: no run, so no timeline and no latency curves");
  return h;
}

struct DrillOpts {
  std::string scenario;
  double time_scale = 0;        // 0 = auto
  double target_wall_s = 20;    // auto time scale: each run takes about this long
  std::optional<std::string> out;
  std::string html;  // --html FILE: the drill as one self-contained HTML page (docs/report.md)
  std::string svg;   // --svg DIR: each of that page's charts as a standalone SVG
  int port = 0;      // --port: each run's sim serve on this 127.0.0.1 port (0: a free one)
  bool no_remedy = false;
  int max_steps = 4;
  std::string objective;  // the SLO grammar: "ttft=2s,tpot=100ms" == "ttft_p99_s=2,tpot_p99_s=0.1"
  EngineDrillFlags engine;  // --engine-cmd: a real server instead of the simulated engine
};

core::Error drill_usage(std::string where, std::string expected, std::string found) {
  return core::make_error(core::ErrorKind::usage, std::move(where), std::move(expected), std::move(found));
}

core::Status write_run(const std::string& dir, const drill::HttpRun& r) {
  if (auto st = bench::write_results(dir, r.summary, r.meta, r.run.records, r.run.scrapes); !st.ok()) return st;
  return collect::write_snapshot(dir + "/snapshot.json", r.snapshot);
}

// What each step leaves in --out: a/ after run A, diagnosis.json after the diagnosis, b/ after the
// first step's run, b2/, b3/ ... after the next ones.
core::Status write_step(const std::string& out, drill::SimDrillStep step, const drill::SimDrillResult& r) {
  switch (step) {
    case drill::SimDrillStep::ran_a: return write_run(out + "/a", *r.a);
    case drill::SimDrillStep::diagnosed:
      (void)core::write_file_atomic(out + "/diagnosis.json", report::to_json(r.report).dump(2) + "\n");
      return core::ok_status();
    case drill::SimDrillStep::ran_b: {
      if (r.steps_done == 0 || r.steps_done > r.steps.size() || !r.steps[r.steps_done - 1].run) return core::ok_status();
      size_t nth = 0;  // the how-manieth run of the path this is
      for (size_t i = 0; i < r.steps_done; ++i) nth += r.steps[i].run ? 1 : 0;
      return write_run(out + (nth == 1 ? std::string("/b") : "/b" + std::to_string(nth)), *r.steps[r.steps_done - 1].run);
    }
    case drill::SimDrillStep::finished:
    case drill::SimDrillStep::started:
    case drill::SimDrillStep::startup:
    case drill::SimDrillStep::planned: return core::ok_status();
  }
  return core::ok_status();
}

}  // namespace

Command make_drill_command() {
  auto o = std::make_shared<DrillOpts>();
  Command c;
  c.path = "drill";
  c.summary = "Run a fault scenario end to end: simulated engine, load, snapshot, diagnosis, remedy, A/B";
  c.example = "llmtriage drill long-context-launch --out /tmp/drill   # scenarios: data/scenarios/ (llmtriage sim run --help)\n"
              "  llmtriage drill preemption-storm --port 8123 --html drill.html &   llmtriage top --endpoint http://127.0.0.1:8123   # watch it live\n"
              "  llmtriage drill too-few-slots --engine-cmd 'llama-server -m {model} --host {host} --port {port} -np {parallel} -c {ctx} -t {threads} --metrics' --engine-model ./model.gguf";
  c.options = {
      {"SCENARIO NAME", "", "a scenario file or bundled name (data/scenarios/): deployment, traffic, faults and the diagnosis it must produce", &o->scenario, "", true},
      {"--time-scale", "", "virtual seconds per wall second for sim serve and the load (0: chosen so each run takes about --target-wall seconds)", &o->time_scale},
      {"--target-wall DURATION", "", "with --time-scale 0: wall time one run should take", &o->target_wall_s, "", false, kPositive},
      {"--out,-o DIR", "", "folder for the runs (a/, then b/, b2/ ... per step: bench results + snapshot.json), diagnosis.json and drill.json", &o->out},
      {"--html FILE", "", "also write the drill as one self-contained HTML page: layer strip, run A's timeline, latency CDFs of every run against the objective, findings and plan (docs/report.md)", &o->html},
      {"--svg DIR", "", "also write each chart of that page (timeline lanes, CDFs, delta board) as a standalone SVG file in DIR", &o->svg},
      {"--port", "", "serve every run on this 127.0.0.1 port (0: a free one per run), so `llmtriage top --endpoint http://127.0.0.1:PORT` can watch the drill live; each run's address is printed on stderr as it starts", &o->port},
      {"--no-remedy", "", "stop after the diagnosis (no second run)", &o->no_remedy},
      {"--max-steps", "", "run at most N steps of the remedy plan (each a run of the same request set)", &o->max_steps},
      {"--objective SLO", "", "the P99s to reach, in the SLO grammar (ttft=2s,tpot=100ms == ttft_p99_s=2,tpot_p99_s=0.1); default: the plan's (the scenario's SLO or its baseline's P99s)", &o->objective},
      {"--engine-cmd TEXT", "", "drill a real server instead: its command line with {model} {port} {host} {parallel} {ctx} {threads}; SCENARIO is then one of data/drills/engine_scenarios.json (too-few-slots, prompts-over-slot-context, cpu-starved)", &o->engine.engine_cmd},
      {"--engine-model FILE", "", "with --engine-cmd: the model file the server loads ({model}; the ledger reads it too)", &o->engine.engine_model},
      {"--run-deadline DURATION", "", "with --engine-cmd: bound on each load run", &o->engine.run_deadline_s, "", false, kPositive},
  };
  c.run = [o](Context& ctx) -> int {
    if (!o->engine.engine_cmd.empty() && o->port != 0)
      return fail(ctx, drill_usage("--port", "the embedded engine's drill (with --engine-cmd the server's port is the template's {port})",
                             "--port " + std::to_string(o->port) + " with --engine-cmd"));
    if (!o->engine.engine_cmd.empty()) return run_engine_drill_command(ctx, o->scenario, o->engine, o->out, o->no_remedy);
    if (o->time_scale < 0 || o->time_scale > 1e4) return fail(ctx, drill_usage("--time-scale", "0 (auto) or a number in (0, 1e4]", fmt::format("{}", o->time_scale)));
    if (!(o->target_wall_s >= 1 && o->target_wall_s <= 3600)) return fail(ctx, drill_usage("--target-wall", "seconds in [1, 3600]", fmt::format("{}", o->target_wall_s)));
    if (o->port < 0 || o->port > 65535) return fail(ctx, drill_usage("--port", "a TCP port in [0, 65535] (0: a free one)", std::to_string(o->port)));
    if (o->max_steps < 1 || o->max_steps > 20) return fail(ctx, drill_usage("--max-steps", "a whole number in [1, 20]", std::to_string(o->max_steps)));
    std::optional<core::Slo> objective;
    if (!o->objective.empty()) {
      auto slo = core::parse_slo(o->objective, "--objective");
      if (!slo.ok()) return fail(ctx, slo.error());
      if (!slo->ttft_s && !slo->tpot_s)
        return fail(ctx, drill_usage("--objective", "a P99 TTFT and/or TPOT (ttft=2s,tpot=100ms)", o->objective));
      objective = *slo;
    }
    auto loaded = drill::load_case(o->scenario);
    if (!loaded.ok()) return fail(ctx, loaded.error());
    if (o->out) {
      std::error_code ec;
      std::filesystem::create_directories(*o->out, ec);
      if (ec) return fail(ctx, core::make_error(core::ErrorKind::input, "--out", "a folder that can be created", *o->out, ec.message()));
    }
    drill::SimDrillOptions so;
    so.time_scale = o->time_scale;
    so.target_wall_s = o->target_wall_s;
    so.apply_remedy = !o->no_remedy;
    so.max_steps = static_cast<size_t>(o->max_steps);
    if (objective) {
      so.objective_ttft_p99_s = objective->ttft_s;
      so.objective_tpot_p99_s = objective->tpot_s;
    }
    so.serve.port = static_cast<uint16_t>(o->port);
    so.serve.on_serving = [&](const std::string& url, const std::string& what) {
      ctx.err << "llmtriage drill: " << what << " served at " << url << " (watch it live: llmtriage top --endpoint " << url << ")\n";
      ctx.err.flush();
    };
    so.on_step = [&](drill::SimDrillStep step, const drill::SimDrillResult& r) -> core::Status {
      if (!ctx.json) ctx.out << drill::sim_drill_step_text(r, step);
      return o->out ? write_step(*o->out, step, r) : core::ok_status();
    };
    auto r = drill::run_sim_drill(std::move(loaded.value()), so);
    if (!r.ok()) return fail(ctx, r.error());
    const nlohmann::json doc = drill::sim_drill_json(*r);
    if (o->out) {
      // A deployment that cannot start has nothing else to keep: its drill.json is best effort.
      auto st = core::write_file_atomic(*o->out + "/drill.json", doc.dump(2) + "\n");
      if (!r->startup_failed()) {
        if (!st.ok()) return fail(ctx, st.error());
        if (!ctx.json) ctx.out << "\nResults: " << *o->out << " (a/, b/, b2/ ...: bench results and snapshot.json per run; diagnosis.json; drill.json)\n";
      }
    }
    if (!o->html.empty() || !o->svg.empty()) {
      if (auto err = write_pictures(ctx.err, "drill", o->html, o->svg, drill_html(*r, o->scenario))) return fail(ctx, *err);
      if (!ctx.json && !o->html.empty()) ctx.out << "HTML report: " << o->html << " (open it in a browser; no network needed)\n";
    }
    if (ctx.json) ctx.out << doc.dump(2) << "\n";
    return r->report.exit_code();
  };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
