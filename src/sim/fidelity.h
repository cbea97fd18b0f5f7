#pragma once
// Fidelity against published results: run each case (a scenario + the reported figures) and
// compare. Used by the fidelity test (error bounds), bench/sim_fidelity (the table in
// docs/accuracy.md), and a future `sim calibrate`.
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/cost_model.h"

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

// Reads JSONL cases; runs each with `cal` overriding the case's own calibration keys that are
// not set explicitly in the case.
core::Result<std::vector<CaseResult>> run_cases(const std::string& path, const Calibration* cal = nullptr);

// Metric family of a summary path: "throughput", "tpot" (tpot and itl), "ttft", "e2e".
std::string metric_family(const std::string& metric);
// Median of |relative error| over the metrics of one family (0 when none).
double median_abs_error(const std::vector<CaseResult>& rs, const std::string& family);

}  // namespace llmtriage::sim
