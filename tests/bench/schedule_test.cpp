#include "bench/schedule.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llmtriage::bench;

TEST(Schedule, SameSeedSameScheduleAndHash) {
  ScheduleOptions o{.rate = 50, .burstiness = 1, .ramp_to = 0, .seed = 42};
  auto a = open_loop_schedule(1000, o), b = open_loop_schedule(1000, o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(hash_schedule(*a), hash_schedule(*b));
  o.seed = 43;
  auto c = open_loop_schedule(1000, o);
  EXPECT_NE(hash_schedule(*a), hash_schedule(*c));
}

TEST(Schedule, AbsoluteAscendingStartsAtZeroAndHitsTheRate) {
  auto s = open_loop_schedule(20000, {.rate = 100, .burstiness = 1, .ramp_to = 0, .seed = 1});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->front(), 0.0);
  for (size_t i = 1; i < s->size(); ++i) ASSERT_GE((*s)[i], (*s)[i - 1]);
  // Mean of 19999 exponential gaps: within 5 standard errors (1/sqrt(n) ~ 0.7%) of 100/s.
  EXPECT_NEAR(schedule_rate(*s), 100.0, 100.0 * 5 / std::sqrt(19999.0));
}

TEST(Schedule, BurstinessChangesTheSpreadNotTheMean) {
  auto cv = [](const std::vector<double>& t) {
    double m = 0, v = 0;
    const size_t n = t.size() - 1;
    for (size_t i = 1; i < t.size(); ++i) m += t[i] - t[i - 1];
    m /= n;
    for (size_t i = 1; i < t.size(); ++i) v += (t[i] - t[i - 1] - m) * (t[i] - t[i - 1] - m);
    return std::sqrt(v / n) / m;
  };
  auto bursty = open_loop_schedule(20000, {.rate = 10, .burstiness = 0.25, .ramp_to = 0, .seed = 5});
  auto smooth = open_loop_schedule(20000, {.rate = 10, .burstiness = 4, .ramp_to = 0, .seed = 5});
  ASSERT_TRUE(bursty.ok() && smooth.ok());
  EXPECT_NEAR(cv(*bursty), 2.0, 0.15);   // CV = 1/sqrt(k)
  EXPECT_NEAR(cv(*smooth), 0.5, 0.05);
  EXPECT_NEAR(schedule_rate(*bursty), 10, 0.6);
  EXPECT_NEAR(schedule_rate(*smooth), 10, 0.2);
}

TEST(Schedule, SubOneRequestPerSecond) {
  auto s = open_loop_schedule(5000, {.rate = 0.05, .burstiness = 1, .ramp_to = 0, .seed = 2});
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(schedule_rate(*s), 0.05, 0.005);
}

TEST(Schedule, RampGetsDenser) {
  auto s = open_loop_schedule(2001, {.rate = 10, .burstiness = 1, .ramp_to = 100, .seed = 3});
  ASSERT_TRUE(s.ok());
  const double first = (*s)[200] - (*s)[0], last = (*s)[2000] - (*s)[1800];
  EXPECT_GT(first, 4 * last);
}

TEST(Schedule, BurstAndErrors) {
  auto s = open_loop_schedule(5, {.rate = 0, .burstiness = 1, .ramp_to = 0, .seed = 0});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, std::vector<double>(5, 0.0));
  EXPECT_EQ(open_loop_schedule(0, {}).error().where, "--num-requests");
  EXPECT_EQ(open_loop_schedule(5, {.rate = 1, .burstiness = 0, .ramp_to = 0, .seed = 0}).error().where, "--burstiness");
  EXPECT_EQ(open_loop_schedule(5, {.rate = 0, .burstiness = 1, .ramp_to = 5, .seed = 0}).error().where, "--ramp-to");
}

TEST(Schedule, Replay) {
  auto s = replay_schedule({10, 10.5, 12}, 2);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<double>{0, 0.25, 1.0}));
  EXPECT_FALSE(replay_schedule({1}, 0).ok());
}
