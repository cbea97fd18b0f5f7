// /dcgm exposition: our own DCGM reader (ingest/gpu_dcgm.h) reads it back into GpuSamples with
// the right power, clocks and throttle reasons; dcgm-exporter's labels and HELP/TYPE lines.
#include "serve/gpu_exposition.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>

#include "ingest/gpu_dcgm.h"
#include "ingest/gpu_throttle.h"
#include "ingest/prom_parser.h"
#include "sim/scenario.h"

namespace llmtriage::serve {

namespace {

sim::SimConfig gpu_config(int replicas, int tp, std::vector<sim::Fault> faults = {}) {
  sim::Scenario s;
  s.deployment.kv_cache_tokens = 50000;
  s.deployment.max_model_len = 4096;
  s.deployment.tp = tp;
  s.config.replicas = replicas;
  s.config.faults = std::move(faults);
  EXPECT_TRUE(sim::resolve(s).ok());
  return s.config;
}

sim::Fault throttle(double factor, double start = 0) {
  sim::Fault f;
  f.kind = sim::FaultKind::clock_throttle;
  f.factor = factor;
  f.start_s = start;
  return f;
}

// Starts work on replica `r`: after advance(t) a step is running there.
void make_busy(sim::OnlineEngine& e, int r, double t) {
  e.add(t, 500, 200, 0, 0, 0, r);
  e.advance(t, nullptr);
}

ingest::DcgmParse parse(const std::string& text) { return ingest::gpu_samples_from_exposition(text, 0); }

}  // namespace

TEST(GpuExposition, RoundTripsThroughOurDcgmReader) {
  const auto cfg = gpu_config(1, 1);
  sim::OnlineEngine e(cfg);
  DcgmExposition x(cfg.hardware.name, 0.9);
  make_busy(e, 0, 0.0);
  const auto want = x.readings(e, 0.0);
  ASSERT_EQ(want.size(), 1u);
  const auto got = parse(x.render(e, 0.0, 8000));
  EXPECT_EQ(got.malformed, 0u);
  EXPECT_EQ(got.blanks, 0u);
  ASSERT_EQ(got.gpus.size(), 1u);
  const auto& g = got.gpus[0];
  EXPECT_EQ(g.index, 0);
  EXPECT_EQ(g.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g.uuid.rfind("GPU-", 0), 0u);
  EXPECT_NEAR(*g.power_w, *want[0].power_w, 1e-3);
  EXPECT_NEAR(*g.power_limit_w, 700, 1e-3);
  EXPECT_NEAR(*g.sm_clock_mhz, 1980, 0.5);
  EXPECT_NEAR(*g.max_sm_clock_mhz, 1980, 0.5);
  EXPECT_NEAR(*g.mem_clock_mhz, *want[0].mem_clock_mhz, 0.5);
  EXPECT_NEAR(*g.temp_c, *want[0].temp_c, 0.5);
  EXPECT_NEAR(*g.util, 0.97, 1e-9);
  EXPECT_NEAR(*g.mem_used_gib, *want[0].mem_used_gib, 1.0 / 1024);  // whole MiB on the wire
  EXPECT_NEAR(*g.mem_total_gib, *want[0].mem_total_gib, 2.0 / 1024);
  EXPECT_EQ(*g.throttle_reasons, 0u);
  EXPECT_TRUE(g.throttle_names.empty());
}

TEST(GpuExposition, ThrottleFaultUnderLoadShowsAsSwPowerCap) {
  const auto cfg = gpu_config(1, 1, {throttle(0.5)});
  sim::OnlineEngine e(cfg);
  DcgmExposition x(cfg.hardware.name, 0.9);
  make_busy(e, 0, 1.0);
  const auto got = parse(x.render(e, 1.0, 8000));
  ASSERT_EQ(got.gpus.size(), 1u);
  const auto& g = got.gpus[0];
  EXPECT_NEAR(*g.sm_clock_mhz, 990, 0.5);
  EXPECT_GE(*g.power_w / *g.power_limit_w, 0.95);
  EXPECT_EQ(*g.throttle_reasons, sim::kReasonSwPowerCap);
  EXPECT_EQ(g.throttle_names, std::vector<std::string>{"sw_power_cap"});
  EXPECT_TRUE(ingest::throttle_is_limiting(*g.throttle_reasons));
}

TEST(GpuExposition, FaultChangesReadingsFromItsOnsetOnly) {
  const auto cfg = gpu_config(1, 1, {throttle(0.5, 10.0)});
  sim::OnlineEngine e(cfg);
  DcgmExposition x(cfg.hardware.name, 0.9);
  make_busy(e, 0, 1.0);
  EXPECT_EQ(*x.readings(e, 1.0)[0].throttle_reasons, 0u);
  EXPECT_EQ(*x.readings(e, 10.0)[0].throttle_reasons, sim::kReasonSwPowerCap);
  // Added at run time (POST /admin/fault does this on the engine thread).
  const auto cfg2 = gpu_config(1, 1);
  sim::OnlineEngine e2(cfg2);
  make_busy(e2, 0, 1.0);
  EXPECT_EQ(*x.readings(e2, 1.0)[0].throttle_reasons, 0u);
  auto f = throttle(0.6, 1.0);
  e2.add_fault(f);
  EXPECT_NEAR(*x.readings(e2, 1.0)[0].sm_clock_mhz, 0.6 * 1980, 0.5);
  e2.clear_faults(2.0);
  EXPECT_NEAR(*x.readings(e2, 2.0)[0].sm_clock_mhz, 1980, 0.5);
}

TEST(GpuExposition, IdleReplicaReportsIdleEvenWithAThrottleFault) {
  const auto cfg = gpu_config(1, 1, {throttle(0.5)});
  sim::OnlineEngine e(cfg);
  DcgmExposition x(cfg.hardware.name, 0.9);
  const auto got = parse(x.render(e, 0.0, 8000));
  ASSERT_EQ(got.gpus.size(), 1u);
  EXPECT_EQ(got.gpus[0].throttle_names, std::vector<std::string>{"gpu_idle"});
  EXPECT_DOUBLE_EQ(*got.gpus[0].util, 0.0);
  EXPECT_LT(*got.gpus[0].power_w / *got.gpus[0].power_limit_w, 0.2);
}

TEST(GpuExposition, OneBlockPerReplicaAndTpRank) {
  const auto cfg = gpu_config(2, 2);
  sim::OnlineEngine e(cfg);
  DcgmExposition x(cfg.hardware.name, 0.9);
  make_busy(e, 1, 0.0);  // replica 1 busy, replica 0 idle
  const auto got = parse(x.render(e, 0.0, 8000));
  ASSERT_EQ(got.gpus.size(), 4u);
  std::set<std::string> uuids;
  for (int i = 0; i < 4; ++i) {
    const auto& g = got.gpus[static_cast<size_t>(i)];
    EXPECT_EQ(g.index, i);
    uuids.insert(g.uuid);
    const bool busy = i >= 2;  // gpu = replica x tp + rank
    EXPECT_EQ(*g.util > 0, busy) << "gpu " << i;
  }
  EXPECT_EQ(uuids.size(), 4u);
}

TEST(GpuExposition, LabelsHelpAndTypeAsDcgmExporterWritesThem) {
  core::GpuSample g;
  g.index = 3;
  g.name = "NVIDIA H100 80GB HBM3";
  g.power_w = 612.5;
  g.power_limit_w = 700;
  g.sm_clock_mhz = 1980;
  g.max_sm_clock_mhz = 1980;
  g.temp_c = 63;
  g.util = 0.97;
  g.mem_used_gib = 71.0;
  g.mem_total_gib = 79.0;
  g.throttle_reasons = 0x4;
  DcgmIdentity id{"node-\"7\"", 42};
  const std::string text = render_dcgm({g}, id);
  const std::string labels = "{gpu=\"3\",UUID=\"" + simulated_gpu_uuid(42, 3) +
                             "\",pci_bus_id=\"00000000:1B:00.0\",device=\"nvidia3\",modelName=\"NVIDIA H100 80GB HBM3\","
                             "Hostname=\"node-\\\"7\\\"\"}";
  EXPECT_NE(text.find("# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).\n# TYPE DCGM_FI_DEV_SM_CLOCK gauge\n"
                      "DCGM_FI_DEV_SM_CLOCK" + labels + " 1980\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DCGM_FI_DEV_POWER_USAGE" + labels + " 612.500000\n"), std::string::npos) << text;  // %f: a double field
  EXPECT_NE(text.find("DCGM_FI_DEV_POWER_MGMT_LIMIT" + labels + " 700.000000\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_GPU_UTIL" + labels + " 97\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_FB_USED" + labels + " 72704\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_FB_FREE" + labels + " 8192\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" + labels + " 4\n"), std::string::npos);
  EXPECT_NE(text.find("DCGM_FI_DEV_CLOCKS_EVENT_REASONS" + labels + " 4\n"), std::string::npos);
  // No memory clock known for this sample: the series is left out, not written as 0.
  EXPECT_EQ(text.find("DCGM_FI_DEV_MEM_CLOCK"), std::string::npos);
  // Every series line has a HELP and TYPE line for its name before it, and the text parses cleanly.
  ingest::PromParser p(text);
  size_t series = 0;
  for (ingest::PromEntry en; (en = p.next()) != ingest::PromEntry::end;)
    if (en == ingest::PromEntry::series) ++series;
  EXPECT_EQ(p.malformed_count(), 0u);
  EXPECT_EQ(series, 10u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 10 * 3);
}

TEST(GpuExposition, UuidsHaveNvmlShapeAndDependOnTheSeed) {
  const std::regex shape("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(simulated_gpu_uuid(1, 0), shape)) << simulated_gpu_uuid(1, 0);
  EXPECT_EQ(simulated_gpu_uuid(1, 0), simulated_gpu_uuid(1, 0));
  EXPECT_NE(simulated_gpu_uuid(1, 0), simulated_gpu_uuid(2, 0));
  EXPECT_NE(simulated_gpu_uuid(1, 0), simulated_gpu_uuid(1, 1));
}

TEST(GpuExposition, UnknownGpuKeepsDefaultsUnderItsName) {
  DcgmExposition x("MysteryAccel-1", 0.5);
  EXPECT_EQ(x.gpu().device_name, "MysteryAccel-1");
  EXPECT_DOUBLE_EQ(x.gpu().tdp_w, 700);
  EXPECT_FALSE(x.gpu().tdp_from_catalog);
}

}  // namespace llmtriage::serve
