#pragma once
// Capacity as docs/metrics.md defines it: the largest load (rate or concurrency) whose goodput
// attainment meets the target under the SLO. Bracketing (x2 / /2 from a start point), then
// bisection — geometric for rates, so it is float-safe far below 1 req/s; integer for
// concurrency. Each point runs `trials` times; the attainment's mean and a t-based confidence
// interval are kept. A point that is clearly over-saturated (a trial far below target) stops its
// remaining trials early. The trial runner is injected, so the search is testable without a server.
// Every search ends: at max_points, at max_load, below min_load, when a trial asks to stop (no
// request completed, the budget is spent: TrialResult::stop), or — rates — when a failing load
// is so low that its requests barely overlap (load x E2E p50 < 0.5): a lower load cannot be faster,
// so the SLO is out of reach at any load.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/slo.h"

namespace llmtriage::bench {

struct TrialResult {
  double attainment_pct = 0;   // goodput attainment of this trial
  double goodput_rps = 0;
  double ttft_p99_ms = 0, tpot_p99_ms = 0, e2e_p99_ms = 0;
  double e2e_p50_ms = 0;       // 0 = unknown
  bool client_bound = false;
  std::string stop;            // non-empty: end the search here, for this reason (the trial is not kept)
};

struct CapacityPoint {
  double load = 0;
  std::vector<TrialResult> trials;
  double attainment_mean = 0, ci_low = 0, ci_high = 0;  // %, 95% t interval over trials
  double goodput_rps = 0, ttft_p99_ms = 0, tpot_p99_ms = 0, e2e_p99_ms = 0;  // means over trials
  bool pass = false;
  bool stopped_early = false;  // over-saturation: trials skipped
  bool client_bound = false;
};

struct CapacityOptions {
  bool integer_load = false;    // concurrency
  double start = 1;             // first load tried
  double min_load = 1e-3;       // below this: "no load meets the SLO"
  double max_load = 1e6;
  double target_pct = 99;       // attainment a load must reach
  int trials = 3;
  double rel_precision = 0.05;  // stop bisecting when hi/lo - 1 < this (rates)
  int max_points = 20;
  double oversaturated_pct = 50;  // a trial below this stops the point's other trials
};

struct CapacityResult {
  std::optional<double> capacity;      // highest passing load (nullopt: none passed)
  std::optional<double> failing_above; // lowest failing load tried above it
  std::optional<double> knee;          // load with the highest goodput on the curve
  std::vector<CapacityPoint> curve;    // sorted by load
  std::vector<std::string> notes;
  std::string stopped;                 // why the search ended early (a trial's stop reason), "" otherwise
  bool at_max_load = false;            // passed at max_load: higher loads were not tried
  bool out_of_reach = false;           // failed even where requests barely overlap
};

// "TPOT floor 69 ms > SLO 60 ms": the objectives the lowest load tried already misses (its p99s
// are the floor no lower load improves on). Empty when something passed.
std::vector<std::string> slo_floor_notes(const CapacityResult& r, const core::Slo& slo);

using TrialFn = std::function<TrialResult(double load, int trial)>;
CapacityResult find_capacity(const TrialFn& run_trial, const CapacityOptions& o);

}  // namespace llmtriage::bench
