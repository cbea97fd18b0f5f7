#pragma once
// Quantiles from Prometheus histograms, computed exactly as PromQL's histogram_quantile does
// for classic (bucketed) histograms (prometheus/prometheus promql/quantile.go, bucketQuantile):
//   - q < 0 -> -Inf, q > 1 -> +Inf, q NaN -> NaN;
//   - buckets are sorted by upper bound; the highest must be +Inf, else NaN;
//   - buckets with the same upper bound are merged; counts that differ from the previous one by
//     a relative 1e-12 or less are treated as equal (float noise), then any remaining decrease is
//     flattened to the running maximum (a non-monotonic histogram is "forced" monotonic);
//   - fewer than 2 buckets, or 0 observations -> NaN;
//   - rank = q * count(+Inf); the first bucket whose cumulative count >= rank holds the quantile;
//     in the +Inf bucket -> the upper bound of the second highest bucket; in the lowest bucket
//     with an upper bound <= 0 -> that bound; otherwise linear interpolation inside the bucket,
//     from 0 (lowest bucket) or the previous bound.
// Windowed percentiles use the difference of two scrapes (what rate() feeds PromQL).
#include <optional>

#include "core/evidence.h"

namespace llmtriage::ingest {

struct BucketQuantile {
  double value = 0;             // may be NaN or +-Inf, as in PromQL
  bool forced_monotonic = false;
  bool fixed_precision = false;
};

// PromQL histogram_quantile(q, h) over one histogram's cumulative buckets.
BucketQuantile histogram_quantile(double q, const core::Histogram& h);

// The observations made between two scrapes: later - earlier, bucket by bucket (and sum, count).
// A counter reset (engine restart: the +Inf count, or any bucket, went down), or different
// bucket bounds, mean `earlier` is not a past state of `later`: `later` is returned whole, as
// PromQL's rate() does with a reset inside its window (it counts from zero).
// reset_detected is set when that happened.
core::Histogram histogram_delta(const core::Histogram& later, const core::Histogram& earlier,
                                bool* reset_detected = nullptr);

// Mean of the observations in a histogram (sum / count), nullopt when count is 0.
std::optional<double> histogram_mean(const core::Histogram& h);

}  // namespace llmtriage::ingest
