#include <gtest/gtest.h>

#include "catalog/gpu.h"

namespace llmtriage::catalog {
namespace {

struct Spelling {
  const char* input;
  const char* name;
};

class GpuLookup : public ::testing::TestWithParam<Spelling> {};

TEST_P(GpuLookup, FindsCatalogEntry) {
  auto g = find_gpu(GetParam().input);
  ASSERT_TRUE(g.ok()) << g.error().message();
  EXPECT_EQ(g->name, GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, GpuLookup,
    ::testing::Values(Spelling{"H100-SXM", "H100-SXM"}, Spelling{"h100", "H100-SXM"},
                      Spelling{"NVIDIA H100 80GB HBM3", "H100-SXM"}, Spelling{"H100_SXM", "H100-SXM"},
                      Spelling{"nvidia h100 80gb", "H100-SXM"}, Spelling{"NVIDIA H100 (80 GB)", "H100-SXM"},
                      Spelling{"NVIDIA A100-SXM4-40GB", "A100-40GB-SXM"}, Spelling{"NVIDIA A100 40GB", "A100-40GB-SXM"},
                      Spelling{"NVIDIA GeForce RTX 4090", "RTX-4090"}, Spelling{"rtx 4090", "RTX-4090"},
                      Spelling{"NVIDIA GeForce RTX 3090 (24 GB)", "RTX-3090"}, Spelling{"H200", "H200-SXM"},
                      Spelling{"AMD Instinct MI300X", "MI300X"}, Spelling{"Tesla T4", "T4"},
                      Spelling{"NVIDIA H100 PCIe", "H100-PCIe"}, Spelling{"L40S", "L40S"}));

TEST(GpuCatalog, H100CapacityIsTorchVisibleNotMarketing) {
  auto g = find_gpu("H100-SXM");
  ASSERT_TRUE(g.ok());
  EXPECT_NEAR(g->memory_gib, 79.19, 0.01);  // vLLM 0.19 logs; not 80
  EXPECT_TRUE(g->memory_measured);
  EXPECT_NEAR(g->hbm_bandwidth_gbps, 3350, 1);
  EXPECT_NEAR(*g->dense_tflops("bfloat16"), 989.4, 0.1);
  EXPECT_NEAR(*g->dense_tflops("fp8"), 1978.9, 0.1);
  EXPECT_FALSE(g->sources.empty());
}

TEST(GpuCatalog, UnmeasuredCapacityIsEstimatedAndFlagged) {
  auto g = find_gpu("L40S");
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->memory_measured);
  EXPECT_NEAR(g->memory_gib, 0.985 * 48, 0.01);
}

TEST(GpuCatalog, EveryEntryHasCapacityBandwidthAndSources) {
  auto cat = gpu_catalog();
  ASSERT_TRUE(cat.ok()) << cat.error().message();
  EXPECT_GE(cat->size(), 19u);
  for (const auto& g : *cat) {
    EXPECT_GT(g.memory_gib, 0) << g.name;
    EXPECT_GT(g.hbm_bandwidth_gbps, 0) << g.name;
    EXPECT_FALSE(g.sources.empty()) << g.name;
    EXPECT_LE(g.memory_gib, g.memory_gb_marketing) << g.name;
  }
}

TEST(GpuCatalog, UnknownGpuListsClosestNamesAndEscapeHatch) {
  auto g = find_gpu("H1OO");
  ASSERT_FALSE(g.ok());
  const std::string msg = g.error().message();
  EXPECT_EQ(g.error().kind, core::ErrorKind::not_found);
  EXPECT_NE(msg.find("Closest catalog names: H100-SXM"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--gpu-mem-gib"), std::string::npos) << msg;
  EXPECT_NE(msg.find("H1OO"), std::string::npos) << msg;
}

TEST(GpuCatalog, CustomGpuCarriesOnlyCapacity) {
  auto g = custom_gpu(22.5);
  EXPECT_DOUBLE_EQ(g.memory_gib, 22.5);
  EXPECT_FALSE(g.dense_tflops("bf16").has_value());
}

}  // namespace
}  // namespace llmtriage::catalog
