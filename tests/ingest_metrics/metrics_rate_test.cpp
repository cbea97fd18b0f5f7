// Counter increases and rates with resets handled as Prometheus' increase() does.
#include "ingest/metrics_rate.h"

#include <gtest/gtest.h>

#include <vector>

using namespace llmtriage::ingest;

TEST(CounterRate, PlainIncrease) {
  std::vector<CounterPoint> p{{0, 100}, {5, 150}, {10, 200}};
  EXPECT_DOUBLE_EQ(*counter_rate(p), 10.0);
  EXPECT_EQ(counter_increase(p)->resets, 0);
}

TEST(CounterRate, ResetCountsFromZero) {
  // 100 -> 150 (+50), restart, 30 (+30), 60 (+30): 110 over 15 s.
  std::vector<CounterPoint> p{{0, 100}, {5, 150}, {10, 30}, {15, 60}};
  auto inc = counter_increase(p);
  ASSERT_TRUE(inc);
  EXPECT_DOUBLE_EQ(inc->increase, 110);
  EXPECT_EQ(inc->resets, 1);
  EXPECT_DOUBLE_EQ(*counter_rate(p), 110.0 / 15);
}

TEST(CounterRate, TooFewPointsOrZeroSpan) {
  std::vector<CounterPoint> one{{0, 1}};
  EXPECT_FALSE(counter_rate(one));
  std::vector<CounterPoint> same{{3, 1}, {3, 2}};
  EXPECT_FALSE(counter_rate(same));
  EXPECT_TRUE(counter_increase(same));
}
