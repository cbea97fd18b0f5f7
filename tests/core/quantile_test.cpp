#include "core/quantile.h"

#include <gtest/gtest.h>

using namespace llmtriage::core;

TEST(Quantile, LinearInterpolationBetweenClosestRanks) {
  // numpy.percentile([1,2,3,4], [0,25,50,90,100]) = [1, 1.75, 2.5, 3.7, 4]
  std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(*quantile(v, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(*quantile(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(*quantile(v, 0.5), 2.5);
  EXPECT_NEAR(*quantile(v, 0.9), 3.7, 1e-12);
  EXPECT_DOUBLE_EQ(*quantile(v, 1.0), 4.0);
}

TEST(Quantile, EmptyAndSingle) {
  std::vector<double> empty;
  EXPECT_FALSE(quantile(empty, 0.5).has_value());
  std::vector<double> one{7};
  EXPECT_DOUBLE_EQ(*quantile(one, 0.99), 7.0);
  EXPECT_EQ(summarize(empty).count, 0u);
}

TEST(Quantile, SummaryOfOneToHundred) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);
  auto s = summarize(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  EXPECT_DOUBLE_EQ(s.p50, 50.5);
  EXPECT_NEAR(s.p99, 99.01, 1e-9);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 100);
}
