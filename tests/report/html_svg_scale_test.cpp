// Axes of the HTML report: nice ticks, log ticks, ranges, tick labels, min/max decimation.
#include <gtest/gtest.h>

#include <cmath>

#include "report/svg_scale.h"

namespace llmtriage::report {
namespace {

struct TickCase {
  double lo, hi;
  int target;
  std::vector<double> want;
};

TEST(NiceTicks, OneTwoFiveStepsWithinTheRange) {
  const std::vector<TickCase> cases = {
      {0, 1, 5, {0, 0.2, 0.4, 0.6, 0.8, 1}},
      {0, 10, 5, {0, 2, 4, 6, 8, 10}},
      {0, 100, 4, {0, 20, 40, 60, 80, 100}},  // 25 would be a nicer count, but 2.5 is not 1-2-5
      {0, 7, 5, {0, 1, 2, 3, 4, 5, 6, 7}},
      {3, 97, 5, {20, 40, 60, 80}},
      {0.1, 0.35, 5, {0.1, 0.15, 0.2, 0.25, 0.3, 0.35}},
      {-5, 5, 4, {-4, -2, 0, 2, 4}},
      {1980, 2010, 3, {1980, 1990, 2000, 2010}},
      {10, 0, 5, {0, 2, 4, 6, 8, 10}},  // swapped
      {4, 4, 5, {4}},                   // degenerate
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << "[" << c.lo << ", " << c.hi << "] target " << c.target);
    const auto t = nice_ticks(c.lo, c.hi, c.target);
    ASSERT_EQ(t.size(), c.want.size());
    for (size_t i = 0; i < t.size(); ++i) EXPECT_DOUBLE_EQ(t[i], c.want[i]);
  }
  EXPECT_TRUE(nice_ticks(0, INFINITY).empty());
  EXPECT_TRUE(nice_ticks(NAN, 1).empty());
}

TEST(NiceTicks, NoFloatNoiseInTicks) {
  // 0.1 + 0.2 != 0.3 in binary: the tick must still print as 0.3.
  for (double t : nice_ticks(0, 0.9, 9)) EXPECT_EQ(t, std::round(t * 10) / 10) << t;
}

TEST(NiceRange, WidensToTicks) {
  struct C { double lo, hi; Range want; };
  for (const auto& c : std::vector<C>{{0, 87, {0, 100}}, {0, 3.2, {0, 4}}, {0, 0.32, {0, 0.4}}, {0, 0, {0, 1}}, {0, 1970, {0, 2000}},
                                       {12, 12, {0, 24}}}) {
    const Range r = nice_range(c.lo, c.hi, 4);
    EXPECT_DOUBLE_EQ(r.lo, c.want.lo) << c.lo << ".." << c.hi;
    EXPECT_DOUBLE_EQ(r.hi, c.want.hi) << c.lo << ".." << c.hi;
  }
}

TEST(LogTicks, DecadesAndNarrowAxes) {
  struct C { double lo, hi; std::vector<double> want; };
  const std::vector<C> cases = {
      {0.001, 10, {0.001, 0.01, 0.1, 1, 10}},
      {0.02, 30, {0.1, 1, 10}},
      {0.01, 1, {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}},  // two decades exactly: still only powers? no: < 2 is narrow
      {0.05, 0.4, {0.05, 0.1, 0.2}},
      {1, 1000, {1, 10, 100, 1000}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << c.lo << ".." << c.hi);
    const auto t = log_ticks(c.lo, c.hi);
    if (c.lo == 0.01 && c.hi == 1) {  // log10 span == 2: not narrow, decades only
      ASSERT_EQ(t, (std::vector<double>{0.01, 0.1, 1}));
      continue;
    }
    ASSERT_EQ(t.size(), c.want.size());
    for (size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(t[i], c.want[i], c.want[i] * 1e-12);
  }
  EXPECT_TRUE(log_ticks(0, 10).empty());
  EXPECT_TRUE(log_ticks(-1, 10).empty());
}

TEST(LogRange, PowersOfTen) {
  Range r = log_range(0.023, 4.5);
  EXPECT_DOUBLE_EQ(r.lo, 0.01);
  EXPECT_DOUBLE_EQ(r.hi, 10);
  r = log_range(0.1, 0.1);
  EXPECT_DOUBLE_EQ(r.lo, 0.1);
  EXPECT_DOUBLE_EQ(r.hi, 1);
}

TEST(Scale, LinearAndLog) {
  Scale y{0, 100, 200, 0};  // y up
  EXPECT_DOUBLE_EQ(y(0), 200);
  EXPECT_DOUBLE_EQ(y(25), 150);
  EXPECT_DOUBLE_EQ(y(100), 0);
  Scale x{0.001, 10, 0, 400, true};
  EXPECT_DOUBLE_EQ(x(0.001), 0);
  EXPECT_NEAR(x(0.1), 200, 1e-9);
  EXPECT_NEAR(x(10), 400, 1e-9);
  EXPECT_DOUBLE_EQ(x(0), 0);  // not on a log axis: clamped to the low end
  Scale d{5, 5, 10, 20};
  EXPECT_DOUBLE_EQ(d(5), 10);
}

TEST(TickLabel, InTheUnit) {
  struct C { double v; const char* unit; const char* want; };
  for (const auto& c : std::vector<C>{{0.25, "s", "250 ms"}, {1.5, "s", "1.5 s"}, {0.001, "s", "1 ms"},
                                       {0.0005, "s", "500 µs"}, {0, "s", "0 s"}, {0.4, "fraction", "40%"},
                                       {1, "fraction", "100%"}, {1980, "MHz", "1980 MHz"}, {12000, "tok/s", "12k tok/s"},
                                       {2.5e6, "tokens", "2.5M tokens"}, {7, "", "7"}, {300, "W", "300 W"}})
    EXPECT_EQ(tick_label(c.v, c.unit), c.want) << c.v << " " << c.unit;
}

std::vector<Point> pts(std::initializer_list<std::pair<double, double>> l) {
  std::vector<Point> v;
  for (auto [x, y] : l) v.push_back({x, y});
  return v;
}

TEST(DecimateMinMax, KeepsFirstLowHighLastPerColumn) {
  struct C {
    const char* name;
    std::vector<Point> in;
    std::vector<size_t> want;  // indices kept
  };
  const std::vector<C> cases = {
      {"empty", {}, {}},
      {"few points stay whole", pts({{0.1, 5}, {0.5, 1}, {0.9, 9}}), {0, 1, 2}},
      {"one column of six", pts({{0.0, 5}, {0.2, 1}, {0.4, 9}, {0.5, 4}, {0.6, 3}, {0.8, 6}}), {0, 1, 2, 5}},
      {"low after high keeps x order", pts({{0.0, 5}, {0.2, 9}, {0.4, 1}, {0.5, 4}, {0.6, 3}, {0.8, 6}}), {0, 1, 2, 5}},
      {"first is the low", pts({{0.0, 0}, {0.2, 9}, {0.4, 1}, {0.5, 4}, {0.6, 3}, {0.8, 6}}), {0, 1, 5}},
      {"two columns", pts({{0.0, 1}, {0.1, 2}, {0.2, 3}, {0.3, 4}, {0.4, 5}, {1.0, 7}, {1.5, 8}}), {0, 4, 5, 6}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(decimate_minmax_indices(c.in), c.want);
  }
}

TEST(DecimateMinMax, HundredThousandPointsStayFewAndKeepTheEnvelope) {
  std::vector<Point> in;
  const int n = 100000, width = 500;
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < n; ++i) {
    const double y = 100 + 80 * std::sin(i * 0.37) + (i == 54321 ? 500 : 0);  // one spike must survive
    in.push_back({static_cast<double>(i) * width / n, y});
    lo = std::min(lo, y), hi = std::max(hi, y);
  }
  const auto out = decimate_minmax(in);
  EXPECT_LE(out.size(), static_cast<size_t>(4 * width));
  double olo = INFINITY, ohi = -INFINITY;
  for (const auto& p : out) olo = std::min(olo, p.y), ohi = std::max(ohi, p.y);
  EXPECT_EQ(olo, lo);
  EXPECT_EQ(ohi, hi);
  EXPECT_EQ(out.front().x, in.front().x);
  EXPECT_EQ(out.back().x, in.back().x);
}

}  // namespace
}  // namespace llmtriage::report
