// `llmtriage drill SCENARIO`: the whole method on the embedded engine. Serve the scenario's
// faulty deployment (sim serve, in process, 127.0.0.1, a free port), drive its traffic with the
// bench runner, snapshot /metrics, diagnose, apply the top finding's first remedy the simulator
// can apply, re-run the same request set with the same seed, and print the A/B. docs/drill.md.
// `llmtriage drill SCENARIO`: the whole method on the embedded engine (src/drill/sim_drill.h) or,
// with --engine-cmd, on a real server (src/drill/engine_drill.h). Parsing and wiring only: the
// drill prints and writes each step's results as it reaches them. docs/drill.md.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <ostream>

#include "bench/export.h"
#include "cli/command.h"
#include "cli/drill_engine_cmd.h"
#include "collect/snapshot.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "drill/sim_drill.h"
#include "drill/sim_drill_report.h"
#include "report/diagnose_json.h"

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

core::Status write_run(const std::string& dir, const drill::HttpRun& r) {
  if (auto st = bench::write_results(dir, r.summary, r.meta, r.run.records, r.run.scrapes); !st.ok()) return st;
  return collect::write_snapshot(dir + "/snapshot.json", r.snapshot);
}

// What each step leaves in --out: a/ after run A, diagnosis.json after the diagnosis, b/ after run B.
core::Status write_step(const std::string& out, drill::SimDrillStep step, const drill::SimDrillResult& r) {
  switch (step) {
    case drill::SimDrillStep::ran_a: return write_run(out + "/a", *r.a);
    case drill::SimDrillStep::diagnosed:
      (void)core::write_file_atomic(out + "/diagnosis.json", report::to_json(r.report).dump(2) + "\n");
      return core::ok_status();
    case drill::SimDrillStep::ran_b: return write_run(out + "/b", *r.b);
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
    if (o->out) {
      std::error_code ec;
      std::filesystem::create_directories(*o->out, ec);
      if (ec) return fail(ctx, core::make_error(core::ErrorKind::input, "--out", "a folder that can be created", *o->out, ec.message()));
    }
    drill::SimDrillOptions so;
    so.time_scale = o->time_scale;
    so.target_wall_s = o->target_wall_s;
    so.apply_remedy = !o->no_remedy;
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
        if (!ctx.json) ctx.out << "\nResults: " << *o->out << " (a/, b/: bench results and snapshot.json; diagnosis.json; drill.json)\n";
      }
    }
    if (ctx.json) ctx.out << doc.dump(2) << "\n";
    return r->report.exit_code();
  };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
