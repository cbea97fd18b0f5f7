#pragma once
// Fidelity against published results: run each case (a scenario + the reported figures) and
// compare. Used by the fidelity test (error bounds), bench/sim_fidelity (the table in
// docs/accuracy.md), and a future `sim calibrate`.
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/cost_model.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

struct CaseMetric {
  std::string metric;      // summary path: "output_throughput", "tpot_ms.median"
  double reported = 0;
  double simulated = 0;
  double rel_error() const { return reported != 0 ? (simulated - reported) / reported : 0; }
};

struct CaseResult {
  std::string id, engine, source_engine, note;
  std::vector<CaseMetric> metrics;
  std::string error;       // when the case could not run
};

// One latency bound of a service-level objective: the summary value at `metric` ("ttft_ms.p99")
// must be <= max.
struct SloBound {
  std::string metric;
  double max = 0;
};

struct RateUnderSlo {
  double rate = 0;        // req/s, whole deployment; NaN when no rate down to start/8 passes
  bool bracketed = false; // false: the answer is an end of the searched range (start/8 .. start*8)
  int runs = 0;           // simulations it took
};

// The largest Poisson arrival rate at which a run of `base` meets every bound, keeping the run's
// duration of traffic (num_requests / rate): bracketed by factors of 2 from `start_rate`, then
// geometric bisection to `rel_precision`. This is how an MLPerf Server result is defined (the
// highest scheduled rate whose run meets the TTFT and TPOT p99 constraints), and it is the
// well-conditioned way to compare an engine near saturation: there a few percent of step time
// moves latencies by multiples but the sustainable rate by the same few percent.
core::Result<RateUnderSlo> max_rate_under_slo(const SimConfig& base, const std::vector<SloBound>& slo,
                                              double start_rate, double rel_precision = 0.01);

// Reads JSONL cases; runs each with `cal` overriding the case's own calibration keys that are
// not set explicitly in the case.
core::Result<std::vector<CaseResult>> run_cases(const std::string& path, const Calibration* cal = nullptr);

// A compare key "request_rate_under_slo" is the case's reported sustainable rate (MLPerf Server's
// scheduled samples per second); its simulated value is max_rate_under_slo over the case's "slo"
// object ({"ttft_ms.p99": 2000, "tpot_ms.p99": 200}), from the reported rate. Its family is
// "throughput".

// Metric family of a summary path: "throughput", "tpot" (tpot and itl), "ttft", "e2e".
std::string metric_family(const std::string& metric);
// Median of |relative error| over the metrics of one family (0 when none).
double median_abs_error(const std::vector<CaseResult>& rs, const std::string& family);

}  // namespace llmtriage::sim
