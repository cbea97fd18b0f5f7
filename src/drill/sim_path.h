#pragma once
// The drill's path from run A to the objective (sim_drill.h): the steps to take, and taking them.
#include <functional>
#include <vector>

#include "core/result.h"
#include "drill/sim_drill.h"
#include "sim/simulation.h"

namespace llmtriage::drill {

// Bound on one run in wall seconds: four times the offline duration plus slack, at the time scale
// (a loaded host runs late; the lag is measured and reported, a cut-off run compares unlike sets).
double run_deadline_s(const SimDrillResult& r);

// Runs `s` with the drill's load; when the host did not keep up (HttpRun::faithful) and rescales
// are left, halves r.time_scale, says so in r.rescaled and runs again. `what` names the run.
core::Result<HttpRun> run_keeping_up(SimDrillResult& r, const sim::Scenario& s, const std::string& what, const ServeAt& at = {});

// The objective: the options' (--objective) where given, else the plan's.
DrillObjective drill_objective(const diagnose::Report& report, const SimDrillOptions& o);

// P99 TTFT / TPOT (virtual seconds) and output tokens per second of one run's sample; the
// requests sent and failed from the run's records.
Measured measure(const bench::RunSample& s, const RunData& d);

// When the plan is spent without meeting the objective: which step fell short and why (its
// prediction against its measurement, and how far the last state kept is from the objective),
// as the text after "the plan is spent without meeting the objective". "" when no step ran.
std::string shortfall_why(const SimDrillResult& r);

// The steps to take, in order: the remedy plan's when the diagnosis computed one, else the first
// remedy of the findings the simulator can apply (one step). Not yet applied or run.
std::vector<DrillStep> path_steps(const diagnose::Report& report, const sim::Scenario& a, std::string& source,
                                  std::vector<std::string>& skipped);

// Takes the steps from run A: apply, run the same load, A/B against the last kept state, keep or
// undo, stop when the objective is met or after o.max_steps runs. `reach` is called after each step.
core::Status follow_path(SimDrillResult& r, const SimDrillOptions& o, const sim::SimResult& offline_a,
                         const std::function<core::Status()>& reach_step);

}  // namespace llmtriage::drill
