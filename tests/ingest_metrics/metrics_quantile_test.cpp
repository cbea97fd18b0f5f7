// histogram_quantile as PromQL computes it (values checked against Prometheus'
// promql/testdata/histograms.test cases, recomputed by hand), its edge cases, and the windowed
// difference of two scrapes.
#include "ingest/metrics_quantile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using llmtriage::core::Histogram;
using namespace llmtriage::ingest;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
Histogram hist(std::vector<double> bounds, std::vector<double> counts) {
  Histogram h;
  h.upper_bounds = std::move(bounds);
  h.cumulative_counts = std::move(counts);
  h.count = h.cumulative_counts.empty() ? 0 : h.cumulative_counts.back();
  return h;
}
double hq(double q, const Histogram& h) { return histogram_quantile(q, h).value; }
}  // namespace

TEST(HistogramQuantile, LinearInterpolationInsideTheBucketFromZero) {
  auto h = hist({0.1, 0.2, 1, kInf}, {50, 70, 110, 120});
  EXPECT_DOUBLE_EQ(hq(0, h), 0);
  EXPECT_DOUBLE_EQ(hq(0.2, h), 0.048);
  EXPECT_DOUBLE_EQ(hq(0.5, h), 0.15);
  EXPECT_DOUBLE_EQ(hq(0.8, h), 0.72);
  // In the +Inf bucket: the upper bound of the second highest bucket.
  EXPECT_DOUBLE_EQ(hq(1, h), 1);
  EXPECT_DOUBLE_EQ(hq(0.99, h), 1);
}

TEST(HistogramQuantile, NegativeLowestBucketReturnsItsBound) {
  auto h = hist({-0.2, -0.1, 0.3, kInf}, {10, 20, 20, 30});
  EXPECT_DOUBLE_EQ(hq(0, h), -0.2);
  EXPECT_DOUBLE_EQ(hq(0.2, h), -0.2);
  EXPECT_DOUBLE_EQ(hq(0.5, h), -0.15);
  EXPECT_DOUBLE_EQ(hq(0.8, h), 0.3);
}

TEST(HistogramQuantile, EdgeCases) {
  auto h = hist({0.1, 0.2, kInf}, {1, 2, 3});
  EXPECT_EQ(hq(-0.1, h), -kInf);
  EXPECT_EQ(hq(1.1, h), kInf);
  EXPECT_TRUE(std::isnan(hq(std::nan(""), h)));
  // No +Inf bucket (a truncated scrape): NaN.
  EXPECT_TRUE(std::isnan(hq(0.5, hist({0.1, 0.2}, {1, 2}))));
  // Fewer than 2 buckets: NaN.
  EXPECT_TRUE(std::isnan(hq(0.5, hist({kInf}, {5}))));
  // Zero observations: NaN.
  EXPECT_TRUE(std::isnan(hq(0.5, hist({0.1, kInf}, {0, 0}))));
  // Empty: NaN.
  EXPECT_TRUE(std::isnan(hq(0.5, Histogram{})));
  // q = 0 when the lowest bucket is empty: 0/0 inside it, NaN as in PromQL.
  EXPECT_TRUE(std::isnan(hq(0, hist({0.1, 0.2, kInf}, {0, 2, 3}))));
}

TEST(HistogramQuantile, UnsortedBucketsAreSortedAndDuplicateBoundsMerged) {
  auto h = hist({1, kInf, 0.1, 0.2}, {110, 120, 50, 70});
  EXPECT_DOUBLE_EQ(hq(0.5, h), 0.15);
  auto d = hist({0.1, 0.1, 0.2, kInf}, {20, 30, 70, 120});
  EXPECT_DOUBLE_EQ(hq(0.2, d), 0.048);  // 20+30 merged into one bucket of 50
}

TEST(HistogramQuantile, NonMonotonicCountsAreForcedToTheRunningMaximum) {
  auto h = hist({0.1, 0.2, 0.3, kInf}, {10, 8, 15, 20});
  auto r = histogram_quantile(0.5, h);
  EXPECT_TRUE(r.forced_monotonic);
  // After fixing: {10, 10, 15, 20}; rank 10 -> first bucket.
  EXPECT_DOUBLE_EQ(r.value, 0.1);
  auto tiny = hist({0.1, 0.2, kInf}, {1e15, 1e15 - 0.125, 2e15});
  auto t = histogram_quantile(0.25, tiny);
  EXPECT_TRUE(t.fixed_precision);
  EXPECT_FALSE(t.forced_monotonic);
}

TEST(HistogramQuantile, AllObservationsInOneBucketLikeVllmIssue6337) {
  // Every bucket equal: all observations below the first bound.
  auto h = hist({0.001, 0.005, 0.01, kInf}, {208, 208, 208, 208});
  EXPECT_DOUBLE_EQ(hq(0.5, h), 0.0005);
  EXPECT_DOUBLE_EQ(hq(0.99, h), 0.00099);
}

TEST(HistogramDelta, WindowedPercentileFromTwoScrapes) {
  auto before = hist({0.1, 1, kInf}, {100, 100, 100});
  before.sum = 5;
  auto after = hist({0.1, 1, kInf}, {100, 150, 200});
  after.sum = 105;
  bool reset = true;
  auto d = histogram_delta(after, before, &reset);
  EXPECT_FALSE(reset);
  EXPECT_EQ(d.cumulative_counts, (std::vector<double>{0, 50, 100}));
  EXPECT_DOUBLE_EQ(d.count, 100);
  EXPECT_DOUBLE_EQ(d.sum, 100);
  // Over the window the p50 moved into (0.1, 1]; lifetime p50 would still say 0.1.
  EXPECT_DOUBLE_EQ(hq(0.5, d), 1.0);
  EXPECT_DOUBLE_EQ(hq(0.5, after), 0.1);
  EXPECT_DOUBLE_EQ(*histogram_mean(d), 1.0);
}

TEST(HistogramDelta, ResetOrChangedBoundsReturnTheLaterHistogram) {
  auto before = hist({0.1, kInf}, {100, 200});
  auto after = hist({0.1, kInf}, {3, 5});  // engine restarted
  bool reset = false;
  auto d = histogram_delta(after, before, &reset);
  EXPECT_TRUE(reset);
  EXPECT_EQ(d.cumulative_counts, after.cumulative_counts);
  auto other = hist({0.5, kInf}, {150, 250});
  histogram_delta(other, before, &reset);
  EXPECT_TRUE(reset);
  EXPECT_FALSE(histogram_mean(hist({0.1, kInf}, {0, 0})));
}
