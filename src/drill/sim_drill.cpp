// The simulated drill's flow: offline simulation, load, run A, diagnosis, then the path of single
// changes (sim_path.cpp), each run, A/B'd and checked offline (docs/drill.md).
#include "drill/sim_drill.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "drill/sim_path.h"
#include "sim/simulation.h"

namespace llmtriage::drill {

namespace {

bool names_expected(const DrillCase& c, const diagnose::Report& r) {
  if (!c.expected || r.findings.empty()) return false;
  const auto& f = r.findings.front();
  return f.id == c.expected->id && f.layer == c.expected->layer && f.symptom == c.expected->symptom;
}

core::Status reach(SimDrillResult& r, SimDrillStep step, const SimDrillOptions& o) {
  r.reached = step;
  return o.on_step ? o.on_step(step, r) : core::ok_status();
}

// A deployment that cannot start: nothing listens, the log's startup error is the evidence.
core::Result<SimDrillResult> startup_drill(SimDrillResult r, const SimDrillOptions& o) {
  r.report = diagnose::diagnose(startup_input(r.dcase, true));
  r.matched = names_expected(r.dcase, r.report);
  r.remedy_tried = o.apply_remedy;
  if (o.apply_remedy) {
    sim::Scenario sb = r.dcase.scenario;
    if (auto ch = choose_remedy(r.report, sb, r.skipped)) {
      const bool starts = sb.startup_error.empty() && sb.config.num_blocks > 0;
      r.remedy = SimRemedy{*ch, std::move(sb), starts};
    }
  }
  if (auto st = reach(r, SimDrillStep::startup, o); !st.ok()) return st.error();
  return std::move(r);
}

}  // namespace

core::Result<SimDrillResult> run_sim_drill(DrillCase c, const SimDrillOptions& o) {
  SimDrillResult r;
  r.dcase = std::move(c);
  if (auto st = reach(r, SimDrillStep::started, o); !st.ok()) return st.error();
  if (r.startup_failed()) return startup_drill(std::move(r), o);
  const sim::Scenario& sa = r.dcase.scenario;

  // Offline first: the retries the traffic will contain, and how long the run is in virtual time.
  auto offline = sim::run_simulation(sa.config);
  if (!offline.ok()) return offline.error();
  auto load = build_load(sa, *offline);
  if (!load.ok()) return load.error();
  r.load = std::move(load.value());
  r.virtual_s = std::max(1.0, offline->summary.sim_seconds);
  if (o.time_scale > 0) {
    r.time_scale = o.time_scale;
    r.time_scale_why = "--time-scale";
  } else {
    const TimeScale ts = choose_time_scale(r.virtual_s, offline->summary.output_throughput, o.target_wall_s);
    r.time_scale = ts.scale;
    r.time_scale_why = ts.why;
  }
  if (auto st = reach(r, SimDrillStep::planned, o); !st.ok()) return st.error();

  auto a = run_keeping_up(r, sa, "run A", o.serve);
  if (!a.ok()) return a.error();
  r.a = std::move(a.value());
  if (auto st = reach(r, SimDrillStep::ran_a, o); !st.ok()) return st.error();

  r.report = diagnose::diagnose(diagnose_input(r.dcase, r.a->data, true));
  r.matched = names_expected(r.dcase, r.report);
  r.remedy_tried = o.apply_remedy;
  if (o.apply_remedy) r.steps = path_steps(r.report, sa, r.path_source, r.skipped);
  if (auto st = reach(r, SimDrillStep::diagnosed, o); !st.ok()) return st.error();
  if (!o.apply_remedy) return std::move(r);

  // The path: one variable at a time, each step on the same request set (sim_path.h).
  auto taken = follow_path(r, o, *offline, [&] { return reach(r, SimDrillStep::ran_b, o); });
  if (!taken.ok()) return taken.error();
  if (auto st = reach(r, SimDrillStep::finished, o); !st.ok()) return st.error();
  return std::move(r);
}

}  // namespace llmtriage::drill
