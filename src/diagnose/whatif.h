#pragma once
// Simulator what-ifs for remedy predictions: the observed deployment (model, GPU, engine and its
// settings, replicas, the KV pool the engine reported) fed the observed workload (request records'
// lengths, or the indicators' rate and length mean/p99), run once as observed and once with ONE
// variable changed, same seed, same request set. Bounded: a few hundred requests per run.
//
// Honesty: the simulator's median error against published runs is ~30% on TTFT and ~10% on
// TPOT and throughput (docs/accuracy.md, "Simulator"); the remedy says so, and says when the
// baseline run does not reproduce the observed symptom (then only the direction is trusted).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "diagnose/indicators.h"
#include "sim/scenario.h"

namespace llmtriage::diagnose {

// docs/accuracy.md, simulator vs published runs: median |error| TTFT 29.3%, TPOT 8.8%, throughput 10.0%.
inline constexpr double kSimTtftUncertainty = 0.30;
inline constexpr double kSimTpotUncertainty = 0.10;
inline constexpr double kSimThroughputUncertainty = 0.10;

struct Prediction {
  bool starts = true;
  std::string startup_error;   // the simulated engine's error when it does not start
  double ttft_p50_s = 0, ttft_p99_s = 0;
  double tpot_p50_s = 0, tpot_p99_s = 0;
  double output_tokens_per_s = 0;
  double kv_usage_max = 0, waiting_max = 0, running_mean = 0;
  uint64_t preemptions = 0, completed = 0, rejected = 0;
  int64_t kv_cache_tokens = 0;
  bool livelock = false;
  double duration_s = 0;                           // first arrival -> last completion
  std::vector<std::pair<double, double>> ttft_tpot_s;  // per completed request, for goodput against an objective
};

struct WhatIfSetup {
  sim::Scenario scenario;          // observed deployment + workload (resolved by predict())
  std::string workload_basis;      // "records (1200 requests): 3.10 req/s, input mean 2100, output mean 180 tokens"
  std::vector<std::string> assumptions;  // defaults taken ("engine unknown: vLLM V1 preset", ...)
  bool pool_observed = false;      // the KV pool came from the engine (metrics/log), not the ledger
  Prediction baseline;             // the observed configuration, simulated
};

// Builds and runs the baseline. Records: their arrival rate and as many requests as they hold,
// between num_requests and 500; indicators: request_rate (completions) and num_requests. Errors: no model/GPU, a name the catalog does not know, no
// workload (needs request records with token counts, or request_rate + input_len_mean +
// output_len_mean), a deployment the simulator rejects.
core::Result<WhatIfSetup> whatif_setup(const DiagnoseInput& in, const Indicators& ind, int64_t num_requests = 200);

// As whatif_setup, but with request records the workload is the records themselves replayed as a
// trace (their arrival times and lengths, up to max_requests in arrival order) instead of Poisson
// arrivals at their mean rate with independently drawn lengths: a burst stays a burst. Costs a
// larger run (the remedy plan uses it; plan.h). Without records it is whatif_setup.
core::Result<WhatIfSetup> whatif_replay_setup(const DiagnoseInput& in, const Indicators& ind, size_t max_requests = 3000);

// Resolves and runs one scenario (no samples or log kept).
core::Result<Prediction> predict(sim::Scenario s);

// The same setup with one variable changed. A change of a memory variable (TP, KV dtype, memory
// fraction, max-model-len) on an observed KV pool scales that pool by the ledger's ratio.
core::Result<Prediction> predict_changed(const WhatIfSetup& base, const std::function<void(sim::Scenario&)>& change);

// The same workload with `factor` times the load: arrivals `factor` times as dense (a trace's
// times divided by it, a rate multiplied), a closed loop's concurrency multiplied (rounded up).
// An all-at-once batch is left as it is: its load is its size. The remedy plan sizes replicas
// with headroom by it (plan.cpp, kSimThroughputUncertainty).
void scale_load(sim::Scenario& s, double factor);

enum class Metric { ttft_p99, tpot_p99, throughput };

// A remedy from a what-if: "P99 TTFT 12.4 s -> 1.9 s (sim what-if, +-30%; sim baseline 11.0 s vs observed 12.4 s)".
// `observed` is the indicator the metric was measured as, for the reproduction check.
Remedy whatif_remedy(const std::string& change, const std::string& from, const std::string& to, const WhatIfSetup& base,
                     const Prediction& after, Metric focus, std::optional<double> observed = {});

// True when the baseline run reproduces the observed value within a factor 2 (otherwise only the
// direction of a prediction is trusted and the remedy says so).
bool reproduces(const Prediction& p, Metric m, std::optional<double> observed);

double value_of(const Prediction& p, Metric m);

}  // namespace llmtriage::diagnose
