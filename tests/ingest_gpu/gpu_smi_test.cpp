// nvidia-smi --query-gpu CSV: with and without units, old and new field names, [N/A].
#include "ingest/gpu_smi.h"

#include <gtest/gtest.h>

#include "core/files.h"

using namespace llmtriage;
using namespace llmtriage::ingest;

namespace {
std::string load_capture(const std::string& name) {
  return core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/" + name).value();
}
}  // namespace

TEST(NvidiaSmiCsv, WithUnitsInHeaderAndValues) {
  auto r = parse_nvidia_smi_csv(load_capture("synthetic_nvidia_smi_units.csv"), 42);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->gpus.size(), 2u);
  const auto& g = r->gpus[0];
  EXPECT_EQ(g.index, 0);
  EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.uuid, "GPU-11111111-2222-3333-4444-555555555555");
  EXPECT_DOUBLE_EQ(*g.power_w, 699.12);
  EXPECT_DOUBLE_EQ(*g.power_limit_w, 700);
  EXPECT_DOUBLE_EQ(*g.sm_clock_mhz, 1410);
  EXPECT_DOUBLE_EQ(*g.max_sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(*g.mem_clock_mhz, 2619);
  EXPECT_DOUBLE_EQ(*g.temp_c, 84);
  EXPECT_EQ(g.throttle_reasons, 0x4u);
  EXPECT_EQ(g.throttle_names, (std::vector<std::string>{"sw_power_cap"}));
  EXPECT_DOUBLE_EQ(*g.mem_used_gib, 78123 / 1024.0);
  EXPECT_DOUBLE_EQ(*g.mem_total_gib, 81559 / 1024.0);
  EXPECT_DOUBLE_EQ(*g.util, 1.0);
  EXPECT_DOUBLE_EQ(g.t_s, 42);
  EXPECT_EQ(r->gpus[1].throttle_names, (std::vector<std::string>{"gpu_idle"}));
}

TEST(NvidiaSmiCsv, LegacyThrottleNameNoUnitsAndNotAvailable) {
  auto r = parse_nvidia_smi_csv(load_capture("synthetic_nvidia_smi_legacy_nounits.csv"), 1);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->gpus.size(), 1u);
  const auto& g = r->gpus[0];
  EXPECT_FALSE(g.power_w);  // [N/A]
  EXPECT_DOUBLE_EQ(*g.power_limit_w, 70);
  EXPECT_EQ(g.throttle_names, (std::vector<std::string>{"sw_thermal_slowdown", "hw_thermal_slowdown"}));
}

TEST(NvidiaSmiCsv, HeaderlessRowsFollowTheDefaultQueryOrder) {
  auto r = parse_nvidia_smi_csv("3, NVIDIA A100-SXM4-80GB, GPU-x, 250.5, 400, 1410, 1410, 1593, 60, 0x0, 1000, 81920, 55\n", 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->gpus.at(0).index, 3);
  EXPECT_DOUBLE_EQ(*r->gpus[0].power_w, 250.5);
  EXPECT_DOUBLE_EQ(*r->gpus[0].util, 0.55);
  EXPECT_TRUE(r->gpus[0].throttle_names.empty());
}

TEST(NvidiaSmiCsv, WrongColumnCountIsCountedAndNoRowsIsAnError) {
  auto r = parse_nvidia_smi_csv("index, name\n0, a, extra\n1, b\n", 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->gpus.size(), 1u);
  EXPECT_EQ(r->malformed, 1u);
  EXPECT_EQ(r->errors.at(0), "line 2: expected 2 columns, found 3");
  auto bad = parse_nvidia_smi_csv("", 1, "smi.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "smi.csv");
}
