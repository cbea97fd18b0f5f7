#pragma once
// Exact quantiles over a sample, and a summary (mean, p50, p90, p95, p99, p99.9).
// Definition: linear interpolation between closest ranks (numpy's default "linear", Hyndman &
// Fan type 7): for sorted x[0..n-1], q in [0,1], h = (n-1)q, value = x[floor h] + (h - floor h)
// (x[floor h + 1] - x[floor h]). This matches what vllm bench serve and genai-perf report.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace llmtriage::core {

// q in [0,1]; `sorted` must be ascending. Empty -> nullopt.
std::optional<double> quantile_sorted(std::span<const double> sorted, double q);
// Copies and sorts.
std::optional<double> quantile(std::span<const double> values, double q);

struct Summary {
  size_t count = 0;
  double mean = 0, min = 0, max = 0, stddev = 0;
  double p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0;
};
// Empty input -> Summary with count 0 and zeros.
Summary summarize(std::span<const double> values);

}  // namespace llmtriage::core
