#include "ingest/metrics_quantile.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace llmtriage::ingest {

BucketQuantile histogram_quantile(double q, const core::Histogram& h) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  BucketQuantile r;
  if (std::isnan(q)) return {kNaN};
  if (q < 0) return {-kInf};
  if (q > 1) return {kInf};
  const size_t n = std::min(h.upper_bounds.size(), h.cumulative_counts.size());
  if (n == 0) return {kNaN};
  std::vector<std::pair<double, double>> b(n);  // (upper bound, cumulative count)
  for (size_t i = 0; i < n; ++i) b[i] = {h.upper_bounds[i], h.cumulative_counts[i]};
  std::stable_sort(b.begin(), b.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  if (!(std::isinf(b.back().first) && b.back().first > 0)) return {kNaN};

  // Merge buckets with the same upper bound (PromQL coalesceBuckets: counts add up).
  size_t m = 0;
  for (size_t i = 1; i < b.size(); ++i) {
    if (b[i].first == b[m].first) b[m].second += b[i].second;
    else b[++m] = b[i];
  }
  b.resize(m + 1);

  // Float-noise decreases (relative delta <= 1e-12) are treated as equal.
  double prev = b[0].second;
  for (size_t i = 1; i < b.size(); ++i) {
    double curr = b[i].second;
    double delta = std::fabs(curr - prev);
    if (delta == 0) continue;
    if (delta / curr <= 1e-12) {
      b[i].second = prev;
      r.fixed_precision = true;
    } else {
      prev = curr;
    }
  }
  // Any real decrease is flattened to the running maximum.
  double mx = b[0].second;
  for (size_t i = 1; i < b.size(); ++i) {
    if (b[i].second > mx) mx = b[i].second;
    else if (b[i].second < mx) {
      b[i].second = mx;
      r.forced_monotonic = true;
    }
  }

  if (b.size() < 2) return {kNaN};
  const double observations = b.back().second;
  if (observations == 0) return {kNaN};
  double rank = q * observations;
  // First bucket among all but the +Inf one whose count >= rank (sort.Search semantics).
  size_t idx = b.size() - 1;
  for (size_t i = 0; i + 1 < b.size(); ++i) {
    if (b[i].second >= rank) {
      idx = i;
      break;
    }
  }
  if (idx == b.size() - 1) {
    r.value = b[b.size() - 2].first;
    return r;
  }
  if (idx == 0 && b[0].first <= 0) {
    r.value = b[0].first;
    return r;
  }
  double start = 0, end = b[idx].first, count = b[idx].second;
  if (idx > 0) {
    start = b[idx - 1].first;
    count -= b[idx - 1].second;
    rank -= b[idx - 1].second;
  }
  r.value = start + (end - start) * (rank / count);
  return r;
}

core::Histogram histogram_delta(const core::Histogram& later, const core::Histogram& earlier,
                                bool* reset_detected) {
  if (reset_detected) *reset_detected = false;
  if (earlier.empty()) return later;
  bool reset = later.upper_bounds != earlier.upper_bounds ||
               later.cumulative_counts.size() != earlier.cumulative_counts.size() ||
               later.count < earlier.count;
  for (size_t i = 0; !reset && i < later.cumulative_counts.size(); ++i)
    reset = later.cumulative_counts[i] < earlier.cumulative_counts[i];
  if (reset) {
    if (reset_detected) *reset_detected = true;
    return later;
  }
  core::Histogram d;
  d.upper_bounds = later.upper_bounds;
  d.cumulative_counts.resize(later.cumulative_counts.size());
  for (size_t i = 0; i < later.cumulative_counts.size(); ++i)
    d.cumulative_counts[i] = later.cumulative_counts[i] - earlier.cumulative_counts[i];
  d.sum = later.sum - earlier.sum;
  d.count = later.count - earlier.count;
  return d;
}

std::optional<double> histogram_mean(const core::Histogram& h) {
  if (!(h.count > 0)) return std::nullopt;
  return h.sum / h.count;
}

}  // namespace llmtriage::ingest
