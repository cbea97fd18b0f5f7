#include "bench/capacity.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llmtriage::bench;

namespace {
// A server whose attainment falls off a cliff above `cap` (goodput peaks there).
TrialFn cliff(double cap, int* calls = nullptr) {
  return [cap, calls](double load, int) {
    if (calls) ++*calls;
    TrialResult t;
    t.attainment_pct = load <= cap ? 100 : std::max(0.0, 100 - 400 * (load / cap - 1));
    t.goodput_rps = load <= cap ? load : cap * t.attainment_pct / 100;
    return t;
  };
}
}  // namespace

TEST(Capacity, FindsARateAboveStart) {
  CapacityOptions o;
  o.start = 1;
  o.trials = 2;
  o.rel_precision = 0.01;
  auto r = find_capacity(cliff(13.7), o);
  ASSERT_TRUE(r.capacity && r.failing_above);
  EXPECT_LE(*r.capacity, 13.7);
  EXPECT_GT(*r.failing_above, 13.7);
  EXPECT_LT(*r.failing_above / *r.capacity - 1, 0.01);
  for (size_t i = 1; i < r.curve.size(); ++i) EXPECT_LT(r.curve[i - 1].load, r.curve[i].load);
  ASSERT_TRUE(r.knee);
  EXPECT_NEAR(*r.knee, 13.7, 0.2);
}

TEST(Capacity, FloatSafeBelowOneRequestPerSecond) {
  CapacityOptions o;
  o.start = 1;
  o.trials = 1;
  auto r = find_capacity(cliff(0.037), o);
  ASSERT_TRUE(r.capacity);
  EXPECT_LE(*r.capacity, 0.037);
  EXPECT_GT(*r.capacity, 0.037 * 0.94);
}

TEST(Capacity, IntegerConcurrency) {
  CapacityOptions o;
  o.integer_load = true;
  o.start = 4;
  o.trials = 1;
  auto r = find_capacity(cliff(37), o);
  ASSERT_TRUE(r.capacity && r.failing_above);
  EXPECT_EQ(*r.capacity, 37);
  EXPECT_EQ(*r.failing_above, 38);
}

TEST(Capacity, OverSaturationStopsTrialsEarly) {
  int calls = 0;
  CapacityOptions o;
  o.start = 100;  // far over a capacity of 1
  o.trials = 5;
  o.rel_precision = 0.1;
  auto r = find_capacity(cliff(1, &calls), o);
  ASSERT_TRUE(r.capacity);
  EXPECT_TRUE(r.curve.back().stopped_early);  // load 100: one trial, not five
  EXPECT_EQ(r.curve.back().trials.size(), 1u);
}

TEST(Capacity, NothingPasses) {
  CapacityOptions o;
  o.start = 1;
  o.trials = 1;
  o.min_load = 0.01;
  auto r = find_capacity([](double, int) { return TrialResult{}; }, o);
  EXPECT_FALSE(r.capacity);
  ASSERT_FALSE(r.notes.empty());
}

TEST(Capacity, ConfidenceIntervalOverTrials) {
  CapacityOptions o;
  o.start = 1;
  o.trials = 3;
  o.max_points = 1;
  int k = 0;
  auto r = find_capacity([&](double, int) { TrialResult t; t.attainment_pct = 98 + (k++); return t; }, o);  // 98, 99, 100
  ASSERT_EQ(r.curve.size(), 1u);
  EXPECT_DOUBLE_EQ(r.curve[0].attainment_mean, 99);
  EXPECT_NEAR(99 - r.curve[0].ci_low, 4.303 * 1 / std::sqrt(3.0), 1e-9);  // sd 1, n 3
  EXPECT_EQ(r.curve[0].ci_high, 100);  // clamped
  EXPECT_TRUE(r.curve[0].pass);
}

TEST(Capacity, ATrialThatAsksToStopEndsTheSearch) {
  // A server that answers nothing: the first trial says so, and the search does not halve on.
  int calls = 0;
  CapacityOptions o;
  o.start = 1;
  o.trials = 3;
  auto r = find_capacity(
      [&](double, int) {
        ++calls;
        TrialResult t;
        t.stop = "no request completed";
        return t;
      },
      o);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(r.curve.empty());
  EXPECT_EQ(r.stopped, "no request completed");
  EXPECT_FALSE(r.capacity);
}

TEST(Capacity, ARateWhereRequestsBarelyOverlapEndsTheHalving) {
  // Fails at any load, each request takes 2 s: below 0.25 req/s requests no longer overlap, so
  // halving on (to 1e-3 req/s: hours of trials) cannot help.
  CapacityOptions o;
  o.start = 1;
  o.trials = 1;
  auto r = find_capacity(
      [](double, int) {
        TrialResult t;
        t.e2e_p50_ms = 2000;
        t.tpot_p99_ms = 69;
        return t;
      },
      o);
  EXPECT_FALSE(r.capacity);
  EXPECT_TRUE(r.out_of_reach);
  ASSERT_EQ(r.curve.size(), 4u);  // 1, 0.5, 0.25, 0.125
  EXPECT_DOUBLE_EQ(r.curve.front().load, 0.125);
  llmtriage::core::Slo slo;
  slo.tpot_s = 0.060;
  slo.ttft_s = 10;
  auto notes = slo_floor_notes(r, slo);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("TPOT floor 69 ms > SLO 60 ms", 0), 0u) << notes[0];
}

TEST(Capacity, ConcurrencyStopsAtTheMaximumLoad) {
  // 24 requests per trial cannot exercise more than 24 in flight: 32 and 64 are never tried.
  CapacityOptions o;
  o.integer_load = true;
  o.start = 1;
  o.trials = 1;
  o.max_load = 24;
  auto r = find_capacity(cliff(1000), o);
  ASSERT_TRUE(r.capacity);
  EXPECT_EQ(*r.capacity, 24);
  EXPECT_TRUE(r.at_max_load);
  for (const auto& p : r.curve) EXPECT_LE(p.load, 24);
}
