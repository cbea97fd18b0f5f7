#pragma once
// The remedy plan (issue 17): the shortest sequence of single-variable changes the simulator
// predicts to meet the objective, searched over the changes the findings propose. Plain data here
// (the Report carries it, src/report renders it); the search is plan.cpp, over whatif.h.
//
// NOTE: the predictions are the simulator's on the observed workload (whatif.h): ±30% on TTFT,
// ±10% on TPOT and throughput, and only the direction when its baseline does not reproduce the
// observed value. A plan is a hypothesis to measure step by step, not a promise.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace llmtriage::diagnose {

// What the plan must reach: P99 TTFT and P99 TPOT at or below these.
struct PlanObjective {
  double ttft_p99_s = 0;
  double tpot_p99_s = 0;
  std::string basis;  // "slo" (DiagnoseInput::slo), "baseline" (the healthy period's P99s)
  std::string text;   // "the baseline's P99s (TTFT 0.4 s, TPOT 12 ms) ..." in words
};

// The service as predicted after a step (or before the first: the observed state simulated).
struct PlanState {
  double ttft_p50_s = 0, ttft_p99_s = 0, tpot_p99_s = 0;
  double output_tokens_per_s = 0;
  std::optional<double> goodput_rps;  // requests/s meeting both objectives (docs/metrics.md goodput)
  int gpus = 0;                       // replicas x TP: what the step costs
};

struct PlanStep {
  std::string change;  // the one variable, as the remedies write it ("replicas", "enable-chunked-prefill")
  std::string from, to;
  std::string sizing;  // how `to` was found ("the smallest count that meets the objective: 3 does not")
  PlanState after;
  double ttft_uncertainty = 0, tpot_uncertainty = 0, throughput_uncertainty = 0;  // relative
  bool met = false;    // the objective is met after this step
};

struct RemedyPlan {
  bool computed = false;
  std::string why_not;        // !computed: why there is no plan (no what-if, no located finding ...)
  std::string finding_id;     // the finding the plan answers (findings[0])
  PlanObjective objective;
  PlanState before;           // the observed configuration, simulated
  std::vector<PlanStep> steps;
  bool met = false;           // the objective is met after the last step (or already before the first)
  std::optional<size_t> met_at_step;  // 1-based; 0 when the simulated observed state already meets it
  std::string shortfall;      // !met: by how much the last state misses the objective
  std::string notes;          // the simulator's caveats (baseline not reproduced, budget spent)
  int simulations = 0;        // what-if runs the search cost
};

struct DiagnoseInput;
struct Indicators;
struct Report;

// The plan for rep.findings[0] (located at warning or above, or suspected), searched over the
// changes the findings propose; also re-sizes every finding's `replicas`
// remedy by the same search (the smallest count that meets the objective). Runs the simulator:
// at most 50 what-ifs. Without a what-if (--no-what-if, no model/GPU, no workload) `why_not`
// says why.
RemedyPlan plan_remedies(const DiagnoseInput& in, const Indicators& ind, Report& rep, int max_steps = 4);

// Whether the plan searches this remedy's variable (replicas, max-num-seqs, ...; plan.cpp). The
// others (a gateway timeout, a retry policy, a router) are the findings' own, not sized by it.
bool plan_searches(const std::string& change);

}  // namespace llmtriage::diagnose
