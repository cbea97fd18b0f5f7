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
                      Spelling{"NVIDIA H100 PCIe", "H100-PCIe"}, Spelling{"L40S", "L40S"},
                      // nvidia-smi's own names and the way people type them (word order free)
                      Spelling{"NVIDIA A100-PCIE-40GB", "A100-40GB-PCIe"}, Spelling{"NVIDIA A100 80GB PCIe", "A100-80GB-PCIe"},
                      Spelling{"H100 80GB PCIe", "H100-PCIe"}, Spelling{"NVIDIA H100 NVL", "H100-NVL"},
                      Spelling{"NVIDIA A10", "A10"}, Spelling{"NVIDIA A10G", "A10G"}, Spelling{"NVIDIA L40", "L40"},
                      Spelling{"NVIDIA L4", "L4"}, Spelling{"NVIDIA RTX A6000", "RTX-A6000"}, Spelling{"A6000", "RTX-A6000"},
                      Spelling{"Tesla V100-SXM2-16GB", "V100-SXM2-16GB"}, Spelling{"Tesla V100-SXM2-32GB", "V100-SXM2-32GB"},
                      Spelling{"Tesla V100-PCIE-16GB", "V100-PCIe-16GB"}, Spelling{"Tesla V100-PCIE-32GB", "V100-PCIe-32GB"},
                      Spelling{"NVIDIA H800", "H800"}, Spelling{"NVIDIA GH200 480GB", "GH200"}));

TEST(GpuCatalog, ANameStatingMemoryOrBoardIsNeverSwappedForASibling) {
  // Each named a card with other memory or another board before: A100-PCIE-40GB became the 80 GB
  // PCIe card (78.80 GiB), "H100 80GB PCIe" the SXM card.
  for (const char* wrong : {"A100 PCIe 48GB", "NVIDIA H100 (94 GB)", "H200 NVL", "RTX 4090 48GB", "L40S PCIe 24GB"}) {
    auto g = find_gpu(wrong);
    EXPECT_FALSE(g.ok()) << wrong << " -> " << (g.ok() ? g->name : "");
    if (!g.ok()) {
      EXPECT_EQ(g.error().kind, core::ErrorKind::not_found);
      EXPECT_NE(g.error().message().find("Not taken"), std::string::npos) << g.error().message();
    }
  }
  auto a100 = find_gpu("NVIDIA A100-PCIE-40GB");
  ASSERT_TRUE(a100.ok());
  EXPECT_EQ(a100->memory_gb_marketing, 40);
  EXPECT_NEAR(a100->memory_gib, 39.586, 0.01);
  auto h100 = find_gpu("H100 80GB PCIe");
  ASSERT_TRUE(h100.ok());
  EXPECT_NE(h100->form_factor.find("PCIe"), std::string::npos);
}

TEST(GpuCatalog, AFamilyNameWithoutItsBoardIsReportedNotGuessed) {
  // Four V100 boards: "V100" alone names none of them.
  auto g = find_gpu("V100");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message().find("V100"), std::string::npos) << g.error().message();
}

TEST(GpuCatalog, AFamilyNameResolvesToOneBoardAndSaysSo) {
  // "A100" is four boards in the catalog: the 80GB SXM is taken, and the spec says it was assumed
  // and which others the name fits; a name stating the board assumes nothing.
  auto a = find_gpu("A100");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->name, "A100-80GB-SXM");
  EXPECT_NE(a->assumed.find("is assumed"), std::string::npos) << a->assumed;
  EXPECT_NE(a->assumed.find("A100-40GB-SXM"), std::string::npos) << a->assumed;
  EXPECT_TRUE(find_gpu("NVIDIA A100-SXM4-80GB")->assumed.empty());
  EXPECT_TRUE(find_gpu("H100 80GB PCIe")->assumed.empty());
  EXPECT_TRUE(find_gpu("L40S")->assumed.empty());  // one board
}

TEST(GpuCatalog, EccGddrCardsReportWhatTorchSees) {
  // GDDR6 with ECC on keeps 1/16: torch sees 22.03 GiB of an L4's 24 GB and 44.42 of an L40S's
  // 48 GB (sources in gpus.jsonl), not 0.985 x GB.
  EXPECT_NEAR(find_gpu("L4")->memory_gib, 22.03, 0.005);
  EXPECT_NEAR(find_gpu("L40S")->memory_gib, 44.42, 0.005);
  EXPECT_NEAR(find_gpu("L40")->memory_gib, 44.40, 0.005);
  EXPECT_NEAR(find_gpu("A10")->memory_gib, 21.99, 0.005);
  EXPECT_TRUE(find_gpu("L40S")->memory_measured);
}

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
  auto g = find_gpu("RTX A6000");
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
