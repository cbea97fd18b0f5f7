// The simulated drill's flow: offline simulation, load, run A, diagnosis, remedy, run B, A/B, the
// offline check (docs/drill.md).
#include "drill/sim_drill.h"

#include <algorithm>
#include <utility>

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
  r.time_scale = o.time_scale > 0 ? o.time_scale : std::clamp(r.virtual_s / o.target_wall_s, 1.0, 1000.0);
  // Bound each run: four times the offline duration plus slack, in wall seconds (a loaded host
  // runs late; the lag is measured and reported, a cut-off run would compare unlike sets).
  const double deadline = (4 * r.virtual_s + 60) / r.time_scale + 30;
  if (auto st = reach(r, SimDrillStep::planned, o); !st.ok()) return st.error();

  auto a = run_over_http(sa, *r.load, r.time_scale, deadline);
  if (!a.ok()) return a.error();
  r.a = std::move(a.value());
  if (auto st = reach(r, SimDrillStep::ran_a, o); !st.ok()) return st.error();

  r.report = diagnose::diagnose(diagnose_input(r.dcase, r.a->data, true));
  r.matched = names_expected(r.dcase, r.report);
  r.remedy_tried = o.apply_remedy;
  if (o.apply_remedy) {
    sim::Scenario sb = sa;
    if (auto ch = choose_remedy(r.report, sb, r.skipped)) {
      const bool starts = sb.startup_error.empty() && sb.config.num_blocks > 0;
      r.remedy = SimRemedy{*ch, std::move(sb), starts};
    }
  }
  if (auto st = reach(r, SimDrillStep::diagnosed, o); !st.ok()) return st.error();
  if (!r.remedy || !r.remedy->starts) return std::move(r);

  const sim::Scenario& sb = r.remedy->scenario;
  auto b = run_over_http(sb, *r.load, r.time_scale, deadline);
  if (!b.ok()) return b.error();
  r.b = std::move(b.value());
  r.sample_a = run_sample(*r.a, "A: " + sa.name, scenario_config(sa));
  r.sample_b = run_sample(*r.b, "B: " + r.remedy->chosen.applied, scenario_config(sb));
  bench::AbOptions abo;
  abo.seed = sa.config.workload.seed;
  r.ab = bench::compare_runs(*r.sample_a, *r.sample_b, abo);
  // The same change in the offline simulator (virtual clock, no HTTP, no host lag): a check on the
  // A/B, and the number to trust when the host lagged.
  if (auto ob = sim::run_simulation(sb.config); ob.ok()) r.offline_check = OfflineCheck{offline->summary, ob->summary};
  if (auto st = reach(r, SimDrillStep::ran_b, o); !st.ok()) return st.error();
  return std::move(r);
}

}  // namespace llmtriage::drill
