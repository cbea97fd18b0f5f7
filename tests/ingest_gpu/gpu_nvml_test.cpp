// NVML through dlopen: a missing library is a clear error; on a machine with an NVIDIA driver
// the readings are plausible (this part runs on the GPU machine and is skipped elsewhere).
#include "ingest/gpu_nvml.h"

#include <gtest/gtest.h>

#include "ingest/gpu_telemetry.h"

using namespace llmtriage::ingest;

TEST(Nvml, MissingLibraryIsNotFoundNamingIt) {
  auto r = NvmlSession::open("libnvidia-ml-does-not-exist.so.1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, llmtriage::core::ErrorKind::not_found);
  EXPECT_EQ(r.error().where, "libnvidia-ml-does-not-exist.so.1");
}

TEST(Nvml, LibraryWithoutNvmlSymbolsIsRejected) {
  auto r = NvmlSession::open("libz.so.1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, llmtriage::core::ErrorKind::input);
}

TEST(Nvml, ReadsPlausibleValuesWhenADriverIsPresent) {
  auto r = NvmlSession::open();
  if (!r.ok() || (*r)->device_count() == 0) GTEST_SKIP() << "no NVIDIA driver here";
  auto gpus = (*r)->read(1);
  ASSERT_EQ(static_cast<int>(gpus.size()), (*r)->device_count());
  for (const auto& g : gpus) {
    EXPECT_FALSE(g.name.empty());
    EXPECT_EQ(g.uuid.rfind("GPU-", 0), 0u) << g.uuid;
    ASSERT_TRUE(g.power_w && g.power_limit_w);
    EXPECT_GT(*g.power_w, 0);
    EXPECT_LE(*g.power_w, *g.power_limit_w * 1.5);
    ASSERT_TRUE(g.sm_clock_mhz && g.max_sm_clock_mhz);
    EXPECT_LE(*g.sm_clock_mhz, *g.max_sm_clock_mhz);
    ASSERT_TRUE(g.mem_total_gib && g.mem_used_gib);
    EXPECT_GT(*g.mem_total_gib, 1);
    EXPECT_LE(*g.mem_used_gib, *g.mem_total_gib);
    ASSERT_TRUE(g.temp_c);
    EXPECT_GT(*g.temp_c, 0);
    EXPECT_TRUE(g.throttle_reasons.has_value());
  }
}

TEST(GpuTelemetry, SaysOnceWhenThereIsNoGpuOrNamesItsSource) {
  auto r = read_local_gpus(1);
  if (r.source == "none") {
    EXPECT_TRUE(r.gpus.empty());
    EXPECT_NE(r.note.find("no NVIDIA GPU"), std::string::npos) << r.note;
  } else {
    EXPECT_FALSE(r.gpus.empty());
    EXPECT_TRUE(r.source == "nvml" || r.source == "nvidia-smi") << r.source;
  }
}
