// DCGM exporter and Triton nv_gpu_* expositions -> GpuSample, sentinels dropped.
#include "ingest/gpu_dcgm.h"

#include <gtest/gtest.h>

#include "core/files.h"

using namespace llmtriage;
using namespace llmtriage::ingest;

namespace {
std::string load(const std::string& name) {
  return core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/" + name).value();
}
}  // namespace

TEST(DcgmExposition, ReadmeCaptureWithNotSupportedSentinel) {
  auto r = gpu_samples_from_exposition(load("08_dcgm_exporter_readme.prom"), 5);
  ASSERT_EQ(r.gpus.size(), 1u);
  const auto& g = r.gpus[0];
  EXPECT_EQ(g.index, 0);
  EXPECT_EQ(g.uuid, "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52");
  EXPECT_DOUBLE_EQ(*g.sm_clock_mhz, 139);
  EXPECT_DOUBLE_EQ(*g.mem_clock_mhz, 405);
  EXPECT_EQ(r.blanks, 0u);  // MEMORY_TEMP is not a field we read; its sentinel is not counted
  EXPECT_EQ(r.malformed, 2u);
}

TEST(DcgmExposition, FullExporterOutputTwoGpus) {
  auto r = gpu_samples_from_exposition(load("synthetic_dcgm_full.prom"), 5);
  ASSERT_EQ(r.gpus.size(), 2u);
  const auto& a = r.gpus[0];
  const auto& b = r.gpus[1];
  EXPECT_EQ(a.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(b.index, 1);
  EXPECT_DOUBLE_EQ(*b.sm_clock_mhz, 1410);
  EXPECT_DOUBLE_EQ(*b.power_w, 699.8);
  EXPECT_DOUBLE_EQ(*b.power_limit_w, 700);
  EXPECT_DOUBLE_EQ(*b.temp_c, 87);
  EXPECT_EQ(b.throttle_names, (std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"}));
  EXPECT_DOUBLE_EQ(*b.util, 1.0);
  EXPECT_DOUBLE_EQ(*b.mem_used_gib, 80000 / 1024.0);
  EXPECT_DOUBLE_EQ(*b.mem_total_gib, 81024 / 1024.0);  // used + free
  EXPECT_DOUBLE_EQ(*b.dram_active, 0.91);
  EXPECT_TRUE(a.throttle_names.empty());
}

TEST(DcgmExposition, SentinelsAreNoData) {
  auto r = gpu_samples_from_exposition(
      "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 9223372036854775794\n"
      "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 140737488355330\n"
      "DCGM_FI_DEV_SM_CLOCK{gpu=\"0\"} 2147483632\n"
      "DCGM_FI_DEV_MEM_CLOCK{gpu=\"0\"} 1593\n", 1);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_FALSE(r.gpus[0].temp_c);
  EXPECT_FALSE(r.gpus[0].power_w);
  EXPECT_FALSE(r.gpus[0].sm_clock_mhz);
  EXPECT_EQ(r.blanks, 3u);
  EXPECT_DOUBLE_EQ(*r.gpus[0].mem_clock_mhz, 1593);
}

// Found by the fuzzer: a negative or fractional reasons value was cast to a bitmask (UB).
TEST(DcgmExposition, ReasonsThatAreNotABitmaskAreNoReading) {
  for (const char* v : {"-1", "0.5", "NaN", "+Inf", "1e300"}) {
    auto r = gpu_samples_from_exposition(
        std::string("DCGM_FI_DEV_CLOCKS_EVENT_REASONS{gpu=\"3e9\"} ") + v + "\n", 1);
    EXPECT_EQ(r.blanks, 1u) << v;
    if (r.gpus.empty()) continue;  // non-finite values are dropped before a GPU is made
    EXPECT_FALSE(r.gpus[0].throttle_reasons) << v;
    EXPECT_TRUE(r.gpus[0].throttle_names.empty()) << v;
    EXPECT_EQ(r.gpus[0].index, 2000000000) << v;  // clamped, not UB
  }
  auto ok = gpu_samples_from_exposition("DCGM_FI_DEV_CLOCKS_EVENT_REASONS{gpu=\"0\"} 4\n", 1);
  EXPECT_EQ(*ok.gpus[0].throttle_reasons, 4u);
}

TEST(DcgmExposition, TritonGpuGauges) {
  auto r = gpu_samples_from_exposition(
      "nv_gpu_utilization{gpu_uuid=\"GPU-a\"} 0.75\n"
      "nv_gpu_power_usage{gpu_uuid=\"GPU-a\"} 300.5\n"
      "nv_gpu_power_limit{gpu_uuid=\"GPU-a\"} 400\n"
      "nv_gpu_memory_total_bytes{gpu_uuid=\"GPU-a\"} 85899345920\n"
      "nv_gpu_memory_used_bytes{gpu_uuid=\"GPU-a\"} 42949672960\n", 1);
  ASSERT_EQ(r.gpus.size(), 1u);
  EXPECT_EQ(r.gpus[0].uuid, "GPU-a");
  EXPECT_DOUBLE_EQ(*r.gpus[0].util, 0.75);
  EXPECT_DOUBLE_EQ(*r.gpus[0].mem_total_gib, 80);
  EXPECT_DOUBLE_EQ(*r.gpus[0].mem_used_gib, 40);
}
