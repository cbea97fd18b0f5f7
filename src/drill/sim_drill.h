#pragma once
// The drill on the embedded engine (docs/drill.md): serve the scenario's faulty deployment (sim
// serve in this process, 127.0.0.1, a free port), drive its traffic with the bench runner, snapshot
// /metrics, diagnose, then follow the diagnosis' remedy plan one variable at a time: apply a step,
// re-run the same request set with the same seed, A/B it against the last state kept, keep the
// change only when it moved the service toward the objective (undo it otherwise), and stop when
// the objective is met or the plan is spent. Without a plan, the top finding's first remedy the
// simulator can apply is the one step. Each step is checked in the offline simulator too. A
// deployment that cannot start has no run: its startup error is diagnosed and the remedy judged
// by re-resolving the deployment.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/ab.h"
#include "core/result.h"
#include "diagnose/diagnose.h"
#include "drill/sim_case.h"
#include "drill/sim_run.h"
#include "sim/scenario.h"
#include "sim/stats.h"

namespace llmtriage::drill {

// The drill's steps in order. After each one the result holds what it found, so a caller can print
// and write it as it comes (one run takes about --target-wall seconds).
enum class SimDrillStep {
  started,    // the scenario read
  startup,    // the deployment cannot start: its startup error diagnosed, the remedy re-resolved (no run)
  planned,    // the offline simulation, the load built, the time scale chosen
  ran_a,      // run A over HTTP
  diagnosed,  // run A diagnosed; the path chosen (the plan's steps, or one remedy) unless none asked
  ran_b,      // one step of the path: applied (or not applicable), run, A/B'd, kept or undone (steps.back())
  finished,   // the path ended: objective met, plan spent, or --max-steps reached
};

struct SimDrillResult;

struct SimDrillOptions {
  double time_scale = 0;     // virtual seconds per wall second; 0: chosen so a run takes about target_wall_s
  double target_wall_s = 20;
  bool apply_remedy = true;  // false: stop after the diagnosis
  size_t max_steps = 4;      // at most this many steps of the plan are run
  // The objective (P99s, seconds); unset: the plan's (the SLO, or the baseline's P99s).
  std::optional<double> objective_ttft_p99_s, objective_tpot_p99_s;
  // Called as each step is reached; an error stops the drill with it (a folder that cannot be written).
  std::function<core::Status(SimDrillStep, const SimDrillResult&)> on_step;
  ServeAt serve;  // each run's port (0: a free one) and who is told where it listens
};

// The remedy applied: where it came from, what changed, and the scenario it made (run B's).
struct SimRemedy {
  ChosenRemedy chosen;
  sim::Scenario scenario;
  bool starts = true;  // the remedied deployment starts (no startup error, a KV pool)
};

// The same change in the offline simulator (virtual clock, no HTTP, no host lag): before and after.
struct OfflineCheck {
  sim::Summary a, b;
};

// The objective a drill steers to, and where it came from.
struct DrillObjective {
  double ttft_p99_s = 0, tpot_p99_s = 0;  // 0: that P99 is not part of it
  std::string source;                     // "--objective", "plan: the baseline's P99s ...", ...
  bool known() const { return ttft_p99_s > 0 || tpot_p99_s > 0; }
  // How far from the objective: the larger of P99 / objective over its parts (<= 1 met); without
  // an objective, the P99 TTFT itself.
  double distance(double ttft_p99, double tpot_p99) const;
  // The same for a run, failures counted: a request that failed (timed out, errored, was refused)
  // got no first token, so it misses any TTFT objective. Above kFailedShareMax of the requests
  // sent, the P99 over every request is a failure: infinite distance (the completed requests'
  // P99s alone would reward a gateway timeout that hides the tail). At or below it, the completed
  // requests' P99s (an approximation: the P99 over all requests is a little higher).
  double distance(const struct Measured& m) const;
  static constexpr double kFailedShareMax = 0.01;
};

// The measured P99s of one run's completed requests (virtual seconds), its output throughput,
// and how many of the requests (attempts, retries included) it sent failed.
struct Measured {
  double ttft_p99_s = 0, tpot_p99_s = 0, output_tok_s = 0;
  size_t sent = 0, failed = 0;
  double failed_share() const { return sent ? static_cast<double>(failed) / static_cast<double>(sent) : 0; }
};

// One step of the path: the plan's change, its prediction, and what the run measured.
struct DrillStep {
  size_t index = 0;             // 1-based
  std::string finding_id;       // the finding the change answers
  diagnose::Remedy change;      // change / from / to (and the plan's predicted effect)
  std::string sizing;           // the plan's: how `to` was found
  std::optional<diagnose::PlanState> predicted;  // the plan's prediction after this step
  bool predicted_met = false;
  std::string applied;          // what was changed in the scenario; "" when not applied
  std::string not_applied;      // why not (no such variable in the simulator, would not start)
  sim::Scenario scenario;       // the state after this step (when applied)
  std::optional<HttpRun> run;
  std::optional<bench::RunSample> sample;
  std::string against;          // the state this step is A/B'd against ("A", "step 1", "A (again)")
  std::optional<bench::RunSample> before_sample;  // that state's run (re-run when the scale changed)
  std::optional<bench::AbResult> ab;
  std::optional<OfflineCheck> offline;  // the last kept state and this one, offline
  Measured before, after;
  bool kept = false;            // the change stays (it moved the service toward the objective)
  bool met = false;             // the objective is met after this step, measured
  std::string verdict;          // "kept: ..." / "undone: ..." / "not applicable: ..."
};

struct SimDrillResult {
  DrillCase dcase;
  SimDrillStep reached = SimDrillStep::started;
  // The run; absent when the deployment cannot start.
  std::optional<DrillLoad> load;
  double virtual_s = 0;   // the offline run's duration, virtual seconds
  double time_scale = 0;  // virtual seconds per wall second, every run (lowered when the host lagged: rescaled)
  std::string time_scale_why;
  std::optional<HttpRun> a;
  diagnose::Report report;    // run A's diagnosis, or the startup error's
  bool matched = false;       // the top finding is the scenario's "diagnosis" block
  bool remedy_tried = false;  // SimDrillOptions::apply_remedy
  std::vector<std::string> skipped;  // remedies passed over: "change (finding): why"
  std::optional<SimRemedy> remedy;
  std::optional<HttpRun> b;
  std::optional<bench::RunSample> sample_a, sample_b;  // virtual seconds
  std::optional<bench::AbResult> ab;
  std::optional<OfflineCheck> offline_check;
  // The path (remedy, b, ab, offline_check above are its first applied step's, as before).
  std::string path_source;      // "plan" (the diagnosis' remedy plan) or "remedy" (the top finding's first)
  DrillObjective objective;
  Measured measured_a;
  std::vector<DrillStep> steps;  // the path as planned; the first steps_done of them taken
  size_t steps_done = 0;
  bool objective_met = false;   // measured, after the last kept step (or run A itself)
  std::string ended;            // why the path stopped
  // Runs the host could not keep up with, repeated at half the time scale (at most kMaxRescales):
  // "run A at time scale 22: dispatch lag p99 6.0 s (virtual) > 1 s; repeated at 11".
  std::vector<std::string> rescaled;
  static constexpr int kMaxRescales = 2;

  bool startup_failed() const { return !dcase.scenario.startup_error.empty(); }
  bool ab_faithful() const { return a && b && a->faithful() && b->faithful(); }
};

// Runs the drill of a loaded case. Errors: the offline simulation or the load cannot be built, a
// server cannot start, or on_step returned one.
core::Result<SimDrillResult> run_sim_drill(DrillCase c, const SimDrillOptions& o);

}  // namespace llmtriage::drill
