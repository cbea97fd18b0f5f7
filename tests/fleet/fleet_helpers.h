#pragma once
// Shared by the fleet tests: synthetic server histograms.
#include <limits>

#include "core/evidence.h"

namespace llmtriage::fleet::testing {

// A cumulative histogram of n observations all equal to v (Prometheus buckets: <= bound).
inline core::Histogram all_at(double v, double n) {
  core::Histogram h;
  for (double b : {0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0}) {
    h.upper_bounds.push_back(b);
    h.cumulative_counts.push_back(v <= b ? n : 0);
  }
  h.upper_bounds.push_back(std::numeric_limits<double>::infinity());
  h.cumulative_counts.push_back(n);
  h.sum = v * n;
  h.count = n;
  return h;
}

}  // namespace llmtriage::fleet::testing
