#include "core/quantile.h"

#include <algorithm>
#include <cmath>

namespace llmtriage::core {

std::optional<double> quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return std::nullopt;
  q = std::clamp(q, 0.0, 1.0);
  const double h = (static_cast<double>(sorted.size()) - 1.0) * q;
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

std::optional<double> quantile(std::span<const double> values, double q) {
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  return quantile_sorted(v, q);
}

Summary summarize(std::span<const double> values) {
  Summary s;
  if (values.empty()) return s;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  s.count = v.size();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  s.min = v.front();
  s.max = v.back();
  s.p50 = *quantile_sorted(v, 0.50);
  s.p90 = *quantile_sorted(v, 0.90);
  s.p95 = *quantile_sorted(v, 0.95);
  s.p99 = *quantile_sorted(v, 0.99);
  s.p999 = *quantile_sorted(v, 0.999);
  return s;
}

}  // namespace llmtriage::core
