#pragma once
// The drill on the embedded engine (docs/drill.md): serve the scenario's faulty deployment (sim
// serve in this process, 127.0.0.1, a free port), drive its traffic with the bench runner, snapshot
// /metrics, diagnose, apply the top finding's first remedy the simulator can apply, re-run the same
// request set with the same seed, A/B the two runs, and check the change in the offline simulator.
// A deployment that cannot start has no run: its startup error is diagnosed and the remedy judged
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
  diagnosed,  // run A diagnosed; the remedy chosen and applied to the scenario (unless none asked)
  ran_b,      // run B, the A/B, the offline check
};

struct SimDrillResult;

struct SimDrillOptions {
  double time_scale = 0;     // virtual seconds per wall second; 0: chosen so a run takes about target_wall_s
  double target_wall_s = 20;
  bool apply_remedy = true;  // false: stop after the diagnosis
  // Called as each step is reached; an error stops the drill with it (a folder that cannot be written).
  std::function<core::Status(SimDrillStep, const SimDrillResult&)> on_step;
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

struct SimDrillResult {
  DrillCase dcase;
  SimDrillStep reached = SimDrillStep::started;
  // The run; absent when the deployment cannot start.
  std::optional<DrillLoad> load;
  double virtual_s = 0;   // the offline run's duration, virtual seconds
  double time_scale = 0;  // virtual seconds per wall second, both runs
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

  bool startup_failed() const { return !dcase.scenario.startup_error.empty(); }
  bool ab_faithful() const { return a && b && a->faithful() && b->faithful(); }
};

// Runs the drill of a loaded case. Errors: the offline simulation or the load cannot be built, a
// server cannot start, or on_step returned one.
core::Result<SimDrillResult> run_sim_drill(DrillCase c, const SimDrillOptions& o);

}  // namespace llmtriage::drill
