// How a measured value reads in report text: never in exponent notation, a unit a person reads.
#include "core/units.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(Units, NumbersNeverReadInExponentNotation) {
  EXPECT_EQ(core::format_number(16890), "16890");
  EXPECT_EQ(core::format_number(436560), "436560");
  EXPECT_EQ(core::format_number(612.44), "612.4");
  EXPECT_EQ(core::format_number(100.0), "100");
  EXPECT_EQ(core::format_number(3.14159), "3.14");
  EXPECT_EQ(core::format_number(0.052), "0.052");
  EXPECT_EQ(core::format_number(0.00012), "0.00012");
  EXPECT_EQ(core::format_number(-0.0000346), "-0.000035");
  EXPECT_EQ(core::format_number(0), "0");
  EXPECT_EQ(core::format_number(1e300).find('e'), std::string::npos);
}

TEST(Units, DurationsSwitchToAReadableUnit) {
  struct Case { double s; const char* want; };
  const Case cases[] = {
      {0.0009, "0.9 ms"}, {0.0452, "45.2 ms"}, {0.688, "688 ms"}, {1.2345, "1.23 s"},
      {16.89, "16.9 s"},  {2, "2 s"},          {150, "2.5 min"},  {20520, "5.7 h"},
      {3 * 86400, "3 d"}, {0, "0 s"},          {-0.25, "-250 ms"},
  };
  for (const auto& c : cases) EXPECT_EQ(core::format_duration_s(c.s), c.want) << c.s;
  // The value `records summary` once printed as "1.689e+04 ms".
  EXPECT_EQ(core::format_quantity(16890, "ms"), "16.9 s");
}

TEST(Units, QuantitiesCarryTheirUnit) {
  EXPECT_EQ(core::format_quantity(1, "0/1"), "yes");
  EXPECT_EQ(core::format_quantity(0, "0/1"), "no");
  EXPECT_EQ(core::format_quantity(1, "flag"), "yes");
  EXPECT_EQ(core::format_quantity(0.973, "fraction"), "97%");
  EXPECT_EQ(core::format_quantity(0.052, "fraction"), "5.2%");
  EXPECT_EQ(core::format_quantity(3, "count"), "3");
  EXPECT_EQ(core::format_quantity(1, "tokens"), "1 token");
  EXPECT_EQ(core::format_quantity(30000, "tokens"), "30000 tokens");
  EXPECT_EQ(core::format_quantity(1.5, "x"), "1.5x");
  EXPECT_EQ(core::format_quantity(0.25, "1/s"), "0.25/s");
}
