#pragma once
// A/B comparison of two bench runs under the method's discipline: no verdict when the request
// sets differ, when the realized loads differ beyond a tolerance, or when the engine configs
// differ in more than one variable (unless allow_multi, said loudly). Only settings are variables:
// what the engine derived from them (the KV pool's block count) is shown as a consequence. Differences B - A of p50/p99
// TTFT, TPOT, E2E and of output throughput get seeded percentile-bootstrap confidence intervals;
// each metric's verdict is better, worse, or no significant change.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace llmtriage::bench {

// What a comparison needs from one run (or several trials of one configuration, pooled).
struct RunSample {
  std::string label;  // the folder(s)
  std::string request_set_hash;
  std::string mode;
  double realized_rate = 0;
  int64_t concurrency = 0;
  double duration_s = 0;  // summed over trials
  bool client_bound = false;
  int trials = 0;
  std::map<std::string, std::string> config;        // settings: compared, each difference a variable
  std::map<std::string, std::string> consequences;  // engine-derived (KV block counts): shown, not counted
  std::vector<double> ttft_s, tpot_s, e2e_s, output_tokens;  // completed, measured requests
};

// Reads DIR/summary.json and DIR/records.jsonl; several folders are trials of one configuration.
core::Result<RunSample> load_run_sample(const std::vector<std::string>& dirs);

struct MetricDiff {
  std::string metric;        // "ttft_p50_ms", ..., "output_throughput_tok_s"
  double a = 0, b = 0;       // point estimates
  double diff = 0;           // b - a
  double lo = 0, hi = 0;     // confidence interval of the difference
  double rel_pct = 0;        // diff / a in %
  std::string verdict;       // "better", "worse", "no significant change"
};

struct AbOptions {
  double load_tolerance = 0.02;  // relative difference of realized rate (open loop)
  bool allow_multi = false;
  int iterations = 2000;
  double confidence = 0.95;
  uint64_t seed = 0;
};

struct AbResult {
  bool verdict_given = false;
  std::vector<std::string> refusals;   // why no verdict
  std::vector<std::string> warnings;   // e.g. --allow-multi used, a client-bound run
  std::map<std::string, std::pair<std::string, std::string>> config_diff;  // settings: key -> (a, b)
  // Consequences that differ (e.g. cache.num_gpu_blocks): they follow from the settings and the
  // GPU, so they are reported beside config_diff and never make a comparison "multi-variable".
  std::map<std::string, std::pair<std::string, std::string>> consequence_diff;
  std::vector<MetricDiff> metrics;     // computed even when refused (for information)
};

AbResult compare_runs(const RunSample& a, const RunSample& b, const AbOptions& o);

// Percentile bootstrap of stat(b) - stat(a), resampling each side's requests independently.
// Returns {lo, hi}. `stat` is a quantile (q in [0,1]) or, with q < 0, a sum divided by `scale`.
std::pair<double, double> bootstrap_diff(const std::vector<double>& a, const std::vector<double>& b, double q,
                                         double scale_a, double scale_b, int iterations, double confidence,
                                         uint64_t seed);

nlohmann::json ab_json(const AbResult& r, const RunSample& a, const RunSample& b);
std::string ab_text(const AbResult& r, const RunSample& a, const RunSample& b);

}  // namespace llmtriage::bench
