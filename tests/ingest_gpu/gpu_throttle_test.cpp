// Clock event reason bits -> names (nvml.h / dcgm_fields.h table).
#include "ingest/gpu_throttle.h"

#include <gtest/gtest.h>

using namespace llmtriage::ingest;

TEST(ThrottleReasons, DecodesEveryKnownBitAndKeepsUnknownOnes) {
  EXPECT_TRUE(throttle_reason_names(0).empty());
  EXPECT_EQ(throttle_reason_names(0x4), (std::vector<std::string>{"sw_power_cap"}));
  EXPECT_EQ(throttle_reason_names(0x1ff),
            (std::vector<std::string>{"gpu_idle", "applications_clocks_setting", "sw_power_cap",
                                      "hw_slowdown", "sync_boost", "sw_thermal_slowdown",
                                      "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                      "display_clock_setting"}));
  EXPECT_EQ(throttle_reason_names(0x8 | 0x200), (std::vector<std::string>{"hw_slowdown", "bit_0x200"}));
}

TEST(ThrottleReasons, LimitingMeansPowerThermalOrHardware) {
  EXPECT_FALSE(throttle_is_limiting(0x1));   // idle
  EXPECT_FALSE(throttle_is_limiting(0x2));   // application clocks
  EXPECT_FALSE(throttle_is_limiting(0x10));  // sync boost
  EXPECT_TRUE(throttle_is_limiting(0x4));
  EXPECT_TRUE(throttle_is_limiting(0x40));
  EXPECT_TRUE(throttle_is_limiting(0x80 | 0x1));
}
