#include <unistd.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "core/units.h"

namespace llmtriage::catalog {
namespace {

ModelArch load(const std::string& id) {
  auto m = load_model(id);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message());
  return m.ok() ? *m : ModelArch{};
}

double gib(double bytes) { return core::bytes_to_gib(bytes); }

TEST(ModelCatalog, Llama8BDimensionsAndAliases) {
  ModelArch m = load("meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(m.num_layers, 32);
  EXPECT_EQ(m.num_kv_heads, 8);
  EXPECT_EQ(m.head_dim, 128);  // derived: hidden / heads
  EXPECT_EQ(m.max_position_embeddings, 131072);
  EXPECT_EQ(m.count_layers(LayerAttention::full), 32);
  EXPECT_NEAR(m.total_params() / 1e9, 8.03, 0.01);
  EXPECT_EQ(load("Llama-3.1-8B-Instruct").id, "meta-llama/Llama-3.1-8B-Instruct");  // no org
  EXPECT_EQ(load("META-LLAMA/llama-3.1-8b").id, "meta-llama/Llama-3.1-8B-Instruct");  // alias, case
}

// Weight sizes against what vLLM printed at load ("Model loading took X GiB"), per GPU.
struct WeightCase {
  const char* model;
  int tp;
  const char* dtype;
  const char* quant;  // --quantization, "" = checkpoint's
  double engine_gib;
  double tolerance;   // relative
};

class Weights : public ::testing::TestWithParam<WeightCase> {};

TEST_P(Weights, MatchEngineLoadWithinTolerance) {
  const auto& c = GetParam();
  ModelArch m = load(c.model);
  WeightSharding s;
  s.tp = c.tp;
  s.dtype = c.dtype;
  s.quant = *c.quant ? quant_from_name(c.quant) : m.quant;
  s.pad_mxfp4_experts = true;
  double got = gib(weight_bytes(m, s).per_gpu_bytes);
  EXPECT_NEAR(got, c.engine_gib, c.engine_gib * c.tolerance) << c.model << " tp" << c.tp;
}

// Sources: llm-d-planner v0.19.0 logs (tests/data/ledger/cases.jsonl), vllm-project/vllm#33155.
INSTANTIATE_TEST_SUITE_P(
    EngineLoads, Weights,
    ::testing::Values(WeightCase{"meta-llama/Llama-3.1-8B-Instruct", 1, "bfloat16", "", 14.99, 0.01},
                      WeightCase{"meta-llama/Llama-3.1-8B-Instruct", 1, "float32", "", 29.98, 0.01},
                      WeightCase{"meta-llama/Llama-3.1-8B-Instruct", 2, "bfloat16", "", 7.51, 0.01},
                      WeightCase{"meta-llama/Llama-3.1-8B-Instruct", 4, "bfloat16", "", 3.77, 0.015},
                      WeightCase{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", 4, "bfloat16", "", 16.96, 0.01},
                      WeightCase{"google/gemma-2-27b-it", 1, "bfloat16", "", 50.72, 0.01},
                      WeightCase{"google/gemma-2-9b-it", 1, "bfloat16", "", 17.22, 0.01},
                      WeightCase{"google/gemma-2-2b-it", 1, "bfloat16", "", 4.90, 0.01},
                      WeightCase{"google/gemma-3-12b-it", 1, "bfloat16", "", 23.31, 0.04},
                      WeightCase{"microsoft/phi-4", 1, "bfloat16", "", 27.39, 0.01},
                      WeightCase{"mistralai/Mixtral-8x7B-Instruct-v0.1", 2, "bfloat16", "", 43.51, 0.01},
                      WeightCase{"Qwen/Qwen3-8B", 1, "bfloat16", "", 15.27, 0.01},
                      WeightCase{"Qwen/Qwen3-0.6B", 1, "bfloat16", "", 1.12, 0.02},
                      WeightCase{"RedHatAI/Mistral-Small-3.1-24B-Instruct-2503-FP8-dynamic", 2, "bfloat16", "", 12.11, 0.02},
                      WeightCase{"openai/gpt-oss-120b", 1, "bfloat16", "", 64.38, 0.01}));

TEST(ModelCatalog, GemmaSlidingPatterns) {
  ModelArch g2 = load("google/gemma-2-2b-it");
  EXPECT_EQ(g2.count_layers(LayerAttention::sliding), 13);
  EXPECT_EQ(g2.layer_attention[0], LayerAttention::sliding);  // even layers local
  EXPECT_EQ(g2.layer_attention[1], LayerAttention::full);
  EXPECT_TRUE(g2.tie_word_embeddings);
  ModelArch g3 = load("google/gemma-3-4b-it");  // multimodal: read from text_config
  EXPECT_EQ(g3.num_layers, 34);
  EXPECT_EQ(g3.count_layers(LayerAttention::full), 5);  // layers 5, 11, 17, 23, 29
  EXPECT_EQ(g3.sliding_window, 1024);
  ModelArch oss = load("openai/gpt-oss-120b");
  EXPECT_EQ(oss.count_layers(LayerAttention::sliding), 18);
  EXPECT_EQ(oss.quant.method, "mxfp4");
  EXPECT_TRUE(oss.quant.experts_only);
  EXPECT_NEAR(oss.total_params() / 1e9, 116.8, 0.5);  // README: 117B
  // The model card's 5.1B active excludes the embedding table.
  EXPECT_NEAR((oss.active_params() - oss.embedding_params()) / 1e9, 5.1, 0.1);
}

TEST(ModelCatalog, QwenSlidingWindowDisabledIsFullAttention) {
  ModelArch q = load("Qwen/Qwen2.5-7B-Instruct");
  EXPECT_EQ(q.count_layers(LayerAttention::full), 28);
}

TEST(ModelCatalog, MlaAndMoeFields) {
  ModelArch ds = load("deepseek-ai/DeepSeek-R1");
  EXPECT_TRUE(ds.is_mla());
  EXPECT_EQ(ds.kv_lora_rank + ds.qk_rope_head_dim, 576);
  EXPECT_FALSE(ds.layer_is_moe(2));  // first_k_dense_replace = 3
  EXPECT_TRUE(ds.layer_is_moe(3));
  EXPECT_NEAR(ds.total_params() / 1e9, 671, 4);
  EXPECT_NEAR(ds.active_params() / 1e9, 37, 1.5);  // DeepSeek-V3 report: 37B activated
  EXPECT_EQ(ds.quant.weight_bits, 8);
  ModelArch mx = load("mistralai/Mixtral-8x7B-Instruct-v0.1");
  EXPECT_NEAR(mx.total_params() / 1e9, 46.7, 0.2);
  EXPECT_NEAR(mx.active_params() / 1e9, 12.9, 0.2);
  ModelArch q = load("Qwen/Qwen3-30B-A3B");
  EXPECT_NEAR(q.total_params() / 1e9, 30.5, 0.2);
  EXPECT_NEAR(q.active_params() / 1e9, 3.3, 0.1);
}

TEST(ModelCatalog, FlopsPerTokenIsTwicePlusAttention) {
  ModelArch m = load("meta-llama/Llama-3.1-8B-Instruct");
  double short_ctx = m.flops_per_token(1);
  EXPECT_NEAR(short_ctx / 1e9, 2 * (8.03 - 0.525), 0.05);
  // 4 x 32 layers x 4096 x 8192 extra at 8k context.
  EXPECT_NEAR(m.flops_per_token(8193) - short_ctx, 4.0 * 32 * 4096 * 8192, 1e6);
}

std::string write_temp(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

TEST(ModelConfig, MissingFieldNamesFieldAndFile) {
  std::string path = write_temp("llmtriage_missing.json",
                                R"({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,
                                    "num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008})");
  auto m = load_model(path);
  ASSERT_FALSE(m.ok());
  std::string msg = m.error().message();
  EXPECT_NE(msg.find("num_hidden_layers"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

TEST(ModelConfig, UnknownArchitectureListsReadAndMissing) {
  auto m = parse_model_config(R"({"architectures":["FancyNetForCausalLM"],"hidden_size":1024,"vocab_size":5})", "x.json");
  ASSERT_FALSE(m.ok());
  std::string msg = m.error().message();
  EXPECT_NE(msg.find("FancyNetForCausalLM"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Fields read: hidden_size, vocab_size"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Missing: num_hidden_layers"), std::string::npos) << msg;
}

TEST(ModelConfig, UnknownArchitectureWithAllFieldsIsReadWithANote) {
  auto m = parse_model_config(R"({"architectures":["FancyNetForCausalLM"],"num_hidden_layers":2,"hidden_size":64,
      "num_attention_heads":4,"intermediate_size":128,"vocab_size":100})", "x.json");
  ASSERT_TRUE(m.ok()) << m.error().message();
  bool noted = false;
  for (const auto& n : m->notes) noted |= n.find("not a known family") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(ModelConfig, NotJsonSaysWhere) {
  auto m = parse_model_config("{not json", "bad.json");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message().find("bad.json"), std::string::npos);
}

TEST(ModelConfig, UnknownIdSuggestsClosest) {
  auto m = load_model("meta-llama/Llama-3.1-8B-Instrukt");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message().find("meta-llama/Llama-3.1-8B-Instruct"), std::string::npos) << m.error().message();
}

TEST(ModelConfig, QuantizationConfigs) {
  EXPECT_EQ(load("Qwen/Qwen1.5-7B-Chat-GPTQ-Int4").quant.weight_bits, 4);
  EXPECT_EQ(load("Qwen/Qwen1.5-7B-Chat-GPTQ-Int4").quant.group_size, 128);
  EXPECT_EQ(load("RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic").quant.weight_bits, 8);
  EXPECT_EQ(quant_from_name("awq").weight_bits, 4);
  EXPECT_EQ(quant_from_name("fp8").weight_bits, 8);
  EXPECT_FALSE(quant_from_name("none").quantized());
}

TEST(ModelCatalog, EveryBundledModelLoads) {
  auto ids = bundled_model_ids();
  EXPECT_GE(ids.size(), 20u);
  for (const auto& id : ids) {
    auto m = load_model(id);
    EXPECT_TRUE(m.ok()) << id << ": " << (m.ok() ? "" : m.error().message());
  }
}

}  // namespace
}  // namespace llmtriage::catalog
