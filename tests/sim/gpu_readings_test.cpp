// GPU readings of a simulated replica: idle vs busy, throttled vs not, TP ranks, reason bits.
#include "sim/gpu_readings.h"

#include <gtest/gtest.h>

namespace llmtriage::sim {

namespace {

SimGpu h100() {
  auto g = sim_gpu("H100-SXM");
  EXPECT_TRUE(g.ok());
  return g.ok() ? *g : SimGpu{};
}

core::GpuSample one(const SimGpu& gpu, bool busy, double factor) {
  ReplicaActivity a;
  a.busy = busy;
  a.clock_factor = factor;
  auto v = replica_gpu_readings(gpu, a);
  EXPECT_EQ(v.size(), 1u);
  return v.at(0);
}

}  // namespace

TEST(GpuReadings, CatalogFiguresBecomeLimits) {
  const SimGpu g = h100();
  EXPECT_EQ(g.catalog_name, "H100-SXM");
  EXPECT_EQ(g.device_name, "NVIDIA H100 80GB HBM3");  // NVML's name, as dcgm-exporter's modelName shows it
  EXPECT_DOUBLE_EQ(g.tdp_w, 700);
  EXPECT_DOUBLE_EQ(g.max_sm_clock_mhz, 1980);
  EXPECT_TRUE(g.tdp_from_catalog && g.clock_from_catalog);
  ASSERT_TRUE(g.mem_clock_mhz);
  EXPECT_NEAR(*g.mem_clock_mhz, 2619, 5);  // nvidia-smi's max memory clock on H100 SXM
  const auto s = one(g, true, 1.0);
  EXPECT_DOUBLE_EQ(*s.power_limit_w, 700);
  EXPECT_DOUBLE_EQ(*s.max_sm_clock_mhz, 1980);
  EXPECT_NEAR(*s.mem_total_gib, g.memory_gib, 1e-9);
}

TEST(GpuReadings, GpuWithoutCatalogFiguresFallsBackAndSaysSo) {
  auto g = sim_gpu("H100-PCIe");  // the catalog has its TDP but no max clock
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->tdp_from_catalog);
  EXPECT_DOUBLE_EQ(g->tdp_w, 350);
  EXPECT_FALSE(g->clock_from_catalog);
  EXPECT_DOUBLE_EQ(g->max_sm_clock_mhz, 1980);
  EXPECT_FALSE(sim_gpu("no-such-gpu-9000").ok());
}

TEST(GpuReadings, BusyDrawsMorePowerRunsHotterThanIdle) {
  const SimGpu g = h100();
  const auto idle = one(g, false, 1.0), busy = one(g, true, 1.0);
  EXPECT_LT(*idle.power_w, 0.2 * 700);
  EXPECT_GT(*busy.power_w, 0.5 * 700);
  EXPECT_LT(*busy.power_w, 0.9 * 700);  // healthy: well below the cap
  EXPECT_LT(*idle.temp_c, *busy.temp_c);
  EXPECT_DOUBLE_EQ(*idle.util, 0.0);
  EXPECT_GT(*busy.util, 0.9);
  EXPECT_DOUBLE_EQ(*idle.sm_clock_mhz, 1980);
  EXPECT_DOUBLE_EQ(*busy.sm_clock_mhz, 1980);
  EXPECT_EQ(*idle.throttle_reasons, kReasonGpuIdle);
  EXPECT_EQ(*busy.throttle_reasons, 0u);
}

TEST(GpuReadings, ThrottledUnderLoadSitsAtTheCapWithLowClocks) {
  const SimGpu g = h100();
  const auto s = one(g, true, 0.45);
  EXPECT_GE(*s.power_w / *s.power_limit_w, 0.95);
  EXPECT_NEAR(*s.sm_clock_mhz, 0.45 * 1980, 1);
  EXPECT_EQ(*s.throttle_reasons, kReasonSwPowerCap);
  EXPECT_GT(*s.temp_c, *one(g, true, 1.0).temp_c);
  EXPECT_LT(*s.temp_c, 85);  // below thermal slowdown: the cap is the power cap
}

TEST(GpuReadings, IdleThrottledReplicaShowsNoCapBecauseNothingRuns) {
  const SimGpu g = h100();
  const auto s = one(g, false, 0.45);
  EXPECT_EQ(*s.throttle_reasons, kReasonGpuIdle);
  EXPECT_DOUBLE_EQ(*s.sm_clock_mhz, 1980);
  EXPECT_LT(*s.power_w, 0.2 * 700);
}

TEST(GpuReadings, FactorIsClampedLikeTheFaultState) {
  const SimGpu g = h100();
  EXPECT_NEAR(*one(g, true, 0.0).sm_clock_mhz, 0.05 * 1980, 1);
  EXPECT_DOUBLE_EQ(*one(g, true, 3.0).sm_clock_mhz, 1980);
  EXPECT_EQ(*one(g, true, 3.0).throttle_reasons, 0u);
}

TEST(GpuReadings, TpRanksGetConsecutiveIndexesPerReplica) {
  const SimGpu g = h100();
  ReplicaActivity a;
  a.replica = 2;
  a.tp = 4;
  a.busy = true;
  a.t_s = 12.5;
  a.gpu_memory_utilization = 0.5;
  const auto v = replica_gpu_readings(g, a);
  ASSERT_EQ(v.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(v[static_cast<size_t>(k)].index, 8 + k);
    EXPECT_DOUBLE_EQ(v[static_cast<size_t>(k)].t_s, 12.5);
    EXPECT_NEAR(*v[static_cast<size_t>(k)].mem_used_gib, 0.5 * g.memory_gib, 1e-9);
    EXPECT_DOUBLE_EQ(*v[static_cast<size_t>(k)].power_w, *v[0].power_w);  // ranks of one replica move together
  }
}

}  // namespace llmtriage::sim
