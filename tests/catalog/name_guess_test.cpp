#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "catalog/name_guess.h"
#include "core/files.h"

namespace llmtriage::catalog {
namespace {

constexpr double kNone = -1;  // "absent" in the tables below

void expect_opt(const std::optional<double>& got, double want, double tol, const std::string& what) {
  if (want == kNone) {
    EXPECT_FALSE(got.has_value()) << what << " = " << got.value_or(0);
  } else {
    ASSERT_TRUE(got.has_value()) << what << " missing";
    EXPECT_NEAR(*got, want, tol) << what;
  }
}

std::string notes(const std::vector<std::string>& m) {
  std::string s;
  for (const auto& n : m) s += "\n  " + n;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Model names, as typed in incident threads.

struct ModelCase {
  const char* name;
  const char* family;
  const char* version;
  double params;
  double active;
  const char* quant;            // as written
  const char* quant_canonical;
  double bits;
  bool gguf;
  bool ollama;
  bool default_assumed;
  double weights_gib;
};

// Weights: params x 1e9 x bits / 8 / 2^30. Bits: Q4_K_M 4.84, Q2_K 3.35, Q3_K_S 3.50 (llama.cpp
// tools/quantize README, Llama 2 7B table); Q4_0 4.5, Q8_0 8.5 (block layouts); AWQ/GPTQ int4
// 4.15625 (group 128, fp16 scale + 4-bit zero); FP8 8; Ollama default 4.5; gpt-oss MXFP4 4.25.
const ModelCase kModels[] = {
    {"llama3:70b", "llama", "3", 70, kNone, "", "", 4.5, true, true, true, 36.6708},
    {"deepseek-r1:70b", "deepseek", "R1", 70, kNone, "", "", 4.5, true, true, true, 36.6708},
    {"gpt-oss:20b", "gpt-oss", "", 20, kNone, "", "MXFP4", 4.25, true, true, true, 9.8953},
    {"qwen2.5:32b-instruct-q4_K_M", "qwen", "2.5", 32, kNone, "q4_K_M", "Q4_K_M", 4.84, true, true, false, 18.0304},
    {"llama3.2", "llama", "3.2", kNone, kNone, "", "", kNone, false, false, false, kNone},
    {"llama3.2:3b", "llama", "3.2", 3, kNone, "", "", 4.5, true, true, true, 1.5716},
    {"deepseek-r1:32b", "deepseek", "R1", 32, kNone, "", "", 4.5, true, true, true, 16.7638},
    {"llama3:70b-instruct-q2_K", "llama", "3", 70, kNone, "q2_K", "Q2_K", 3.35, true, true, false, 27.2994},
    {"dolphin-2.2-mistral-7b.Q8_0.gguf", "mistral", "", 7, kNone, "Q8_0", "Q8_0", 8.5, true, false, false, 6.9267},
    {"CodeLlama-70B-hf-GGUF", "llama", "", 70, kNone, "", "", kNone, true, false, false, kNone},
    {"airoboros-33b-gpt4-1.4.ggmlv3.q3_K_S.bin", "llama", "", 33, kNone, "q3_K_S", "Q3_K_S", 3.5, true, false, false, 13.446},
    {"open-llama-3b-q4_0.bin", "llama", "", 3, kNone, "q4_0", "Q4_0", 4.5, true, false, false, 1.5716},
    {"qwen1_5-4b-chat-q4_k_m", "qwen", "1.5", 4, kNone, "q4_k_m", "Q4_K_M", 4.84, true, false, false, 2.2538},
    {"/data/models/qwen2.5_72b-FP8", "qwen", "2.5", 72, kNone, "FP8", "FP8", 8, false, false, false, 67.0552},
    {"Qwen2.5-72B-Instruct-FP8", "qwen", "2.5", 72, kNone, "FP8", "FP8", 8, false, false, false, 67.0552},
    {"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", "llama", "3.1", 8, kNone, "AWQ-INT4", "AWQ-INT4", 4.15625,
     false, false, false, 3.8708},
    {"TheBloke/Llama-2-70B-chat-GPTQ", "llama", "2", 70, kNone, "GPTQ", "GPTQ", 4.15625, false, false, false, 33.8696},
    {"Qwen/Qwen3-4B-GGUF", "qwen", "3", 4, kNone, "", "", kNone, true, false, false, kNone},
    {"Qwen1.5-GPTQ-Int4", "qwen", "1.5", kNone, kNone, "GPTQ-Int4", "GPTQ-INT4", 4.15625, false, false, false, kNone},
    {"Mixtral-8x7B", "mixtral", "", 46.7, 12.9, "", "", kNone, false, false, false, kNone},
    {"dolphin-mixtral", "mixtral", "", kNone, kNone, "", "", kNone, false, false, false, kNone},
    {"Qwen3-30B-A3B", "qwen", "3", 30, 3, "", "", kNone, false, false, false, kNone},
    {"Qwen/Qwen3.6-35B-A3B-FP8", "qwen", "3.6", 35, 3, "FP8", "FP8", 8, false, false, false, 32.5963},
    {"gemma2", "gemma", "2", kNone, kNone, "", "", kNone, false, false, false, kNone},
    {"llama3", "llama", "3", kNone, kNone, "", "", kNone, false, false, false, kNone},
    {"Llama-13B", "llama", "", 13, kNone, "", "", kNone, false, false, false, kNone},
    {"llama2-7b", "llama", "2", 7, kNone, "", "", kNone, false, false, false, kNone},
    {"QwQ-32B", "qwen", "", 32, kNone, "", "", kNone, false, false, false, kNone},
    {"Granite-3.3-8b-Instruct", "granite", "3.3", 8, kNone, "", "", kNone, false, false, false, kNone},
    {"deepseek-ai/DeepSeek-R1", "deepseek", "R1", 671, 37, "", "FP8", 8, false, false, true, 624.9174},
    {"qwen3-coder", "qwen", "3", kNone, kNone, "", "", kNone, false, false, false, kNone},
    // Beyond the incident list: other spellings the parser must read the same way.
    {"C:\\models\\llama-2-7b.Q4_K_M.gguf", "llama", "2", 7, kNone, "Q4_K_M", "Q4_K_M", 4.84, true, false, false, 3.9442},
    {"Llama-4-Scout-17B-16E-Instruct", "llama", "4", kNone, 17, "", "", kNone, false, false, false, kNone},
    {"Qwen1.5-MoE-A2.7B", "qwen", "1.5", kNone, 2.7, "", "", kNone, false, false, false, kNone},
    {"Mixtral-8x22B-v0.1", "mixtral", "", 141, 39, "", "", kNone, false, false, false, kNone},
    {"bigscience/bloom-7b1", "bloom", "", 7.1, kNone, "", "", kNone, false, false, false, kNone},
    {"SmolLM-135M", "smollm", "", 0.135, kNone, "", "", kNone, false, false, false, kNone},
    {"Qwen2.5-14B-Instruct-1M", "qwen", "2.5", 14, kNone, "", "", kNone, false, false, false, kNone},
    {"qwen2_72b", "qwen", "2", 72, kNone, "", "", kNone, false, false, false, kNone},
    {"Llama-3-8B-exl2-4.65bpw", "llama", "3", 8, kNone, "4.65bpw", "EXL2", 4.65, false, false, false, 4.3306},
    {"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "llama", "3.3", 70, kNone, "FP8-dynamic", "FP8", 8, false, false,
     false, 65.1926},
    {"hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M", "llama", "3.2", 3, kNone, "Q4_K_M", "Q4_K_M", 4.84, true,
     false, false, 1.6904},
    {"/models/llama-3-70b/Q4_K_M.gguf", "llama", "3", 70, kNone, "Q4_K_M", "Q4_K_M", 4.84, true, false, false, 39.4415},
    {"DeepSeek-R1-Distill-Llama-70B", "deepseek", "R1", 70, kNone, "", "", kNone, false, false, false, kNone},
    {"phi3:3.8b", "phi", "3", 3.8, kNone, "", "", 4.5, true, true, true, 1.9907},
    {"dolphin-phi", "phi", "", kNone, kNone, "", "", kNone, false, false, false, kNone},
    // As typed in a thread, spaces for the dash.
    {"GPT OSS 120b", "gpt-oss", "", 120, kNone, "", "MXFP4", 4.25, false, false, true, 59.3718},
    // host:port, with or without a path, is not an Ollama name:tag.
    {"my_ip:8000/v2/models/ensemble", "", "", kNone, kNone, "", "", kNone, false, false, false, kNone},
    {"localhost:11434", "", "", kNone, kNone, "", "", kNone, false, false, false, kNone},
};

void PrintTo(const ModelCase& c, std::ostream* os) { *os << "'" << c.name << "'"; }

class ModelNames : public ::testing::TestWithParam<ModelCase> {};

TEST_P(ModelNames, ReadsWhatTheNameStates) {
  const ModelCase& c = GetParam();
  auto g = guess_model_from_name(c.name);
  SCOPED_TRACE(std::string(c.name) + notes(g.matched));
  EXPECT_EQ(g.as_given, c.name);
  EXPECT_EQ(g.family, c.family);
  EXPECT_EQ(g.family_version, c.version);
  expect_opt(g.params_b, c.params, 1e-9, "params_b");
  expect_opt(g.active_params_b, c.active, 1e-9, "active_params_b");
  EXPECT_EQ(g.quant, c.quant);
  EXPECT_EQ(g.quant_canonical, c.quant_canonical);
  expect_opt(g.bits_per_weight, c.bits, 1e-9, "bits_per_weight");
  EXPECT_EQ(g.gguf, c.gguf);
  EXPECT_EQ(g.ollama_tag, c.ollama);
  EXPECT_EQ(g.default_quant_assumed, c.default_assumed);
  expect_opt(g.weights_gib, c.weights_gib, 1e-3, "weights_gib");
  EXPECT_FALSE(g.matched.empty());
}

INSTANTIATE_TEST_SUITE_P(Typed, ModelNames, ::testing::ValuesIn(kModels));

TEST(ModelNameGuess, NotesSayWhereEachValueCameFrom) {
  auto g = guess_model_from_name("llama3:70b-instruct-q2_K");
  auto has = [&](const std::string& s) {
    return std::any_of(g.matched.begin(), g.matched.end(), [&](const std::string& m) { return m.find(s) != std::string::npos; });
  };
  EXPECT_TRUE(has("size 70B from '70b'")) << notes(g.matched);
  EXPECT_TRUE(has("quant Q2_K from the name ('q2_K'")) << notes(g.matched);
  EXPECT_TRUE(has("Ollama tag '70b-instruct-q2_K' on 'llama3'")) << notes(g.matched);

  auto r1 = guess_model_from_name("deepseek-r1:70b");
  EXPECT_TRUE(std::any_of(r1.matched.begin(), r1.matched.end(),
                          [](const std::string& m) { return m.find("distills") != std::string::npos; }))
      << notes(r1.matched);
  auto ggml = guess_model_from_name("airoboros-33b-gpt4-1.4.ggmlv3.q3_K_S.bin");
  EXPECT_TRUE(std::any_of(ggml.matched.begin(), ggml.matched.end(),
                          [](const std::string& m) { return m.find("no longer loads it") != std::string::npos; }))
      << notes(ggml.matched);
}

TEST(ModelNameGuess, VersionsAndOutOfRangeNumbersAreNotSizes) {
  for (const char* n : {"llama3.2", "qwen2.5", "Meta-Llama-3.1", "Mistral-Small-3.1-Instruct-2503", "gpt4-1.4"}) {
    auto g = guess_model_from_name(n);
    EXPECT_FALSE(g.params_b.has_value()) << n << notes(g.matched);
  }
  for (const char* n : {"99999b", "llama-99999999999999999999b", "0.001b", "model-6000b"}) {
    auto g = guess_model_from_name(n);
    EXPECT_FALSE(g.params_b.has_value()) << n << notes(g.matched);
    EXPECT_FALSE(g.weights_gib.has_value()) << n;
  }
  auto edge = guess_model_from_name("llama-5000b");
  ASSERT_TRUE(edge.params_b.has_value());
  EXPECT_EQ(*edge.params_b, 5000);
}

// Deterministic junk: nothing may throw, and whatever comes out stays in range.
std::vector<std::string> junk_inputs() {
  std::vector<std::string> v = {"", " ", ":", ":::", "/", "//", "\\", "+", "+++", ",,", "x", "2x", "4x ", "a3b",
                                "8x", "8x7", "8x7b8x7b", "1.2.3.4b", "1e9b", "-1b", "0b", ".5b", "b", "q4_k_m",
                                "Q4_K_M.gguf", ".gguf", "gguf", ":tag", "name:", "C:", "http://x:80/llama-7b",
                                "99999999999999999999GB", "79.19 GiB", "0GB", "GB", "gfx", "mi", "rtx", "A100 x",
                                "x 8", "and", " and and ", "&&&", "\xc3\x97", "2 \xc3\x97 H100", "\xff\xfe\x00\x01"};
  v.push_back(std::string(5000, 'a'));
  v.push_back(std::string(5000, '9') + "b");
  v.push_back(std::string(3000, '+'));
  std::string many;
  for (int i = 0; i < 400; ++i) many += "H100 80GB + ";
  v.push_back(many);
  uint32_t x = 12345;
  for (int i = 0; i < 300; ++i) {
    std::string s;
    int n = static_cast<int>(x % 40);
    for (int k = 0; k < n; ++k) {
      x = x * 1664525u + 1013904223u;
      static const char alphabet[] = "0123456789abxkmegGBiq_-.:/+ ,AXQ";
      s += alphabet[(x >> 16) % (sizeof(alphabet) - 1)];
    }
    x = x * 1664525u + 1013904223u;
    v.push_back(s);
  }
  return v;
}

TEST(ModelNameGuess, NeverThrowsAndStaysInRange) {
  for (const auto& s : junk_inputs()) {
    ModelNameGuess g;
    EXPECT_NO_THROW(g = guess_model_from_name(s)) << s;
    if (g.params_b) {
      EXPECT_GE(*g.params_b, 0.01) << s;
      EXPECT_LE(*g.params_b, 5000) << s;
    }
    if (g.active_params_b) {
      EXPECT_LE(*g.active_params_b, 5000) << s;
    }
    if (g.weights_gib) {
      EXPECT_TRUE(std::isfinite(*g.weights_gib)) << s;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// GPU names.

struct GpuCase {
  const char* name;
  const char* vendor;
  const char* model;
  double memory_gib;  // torch-visible per GPU
  double cc;
  bool bf16;
  bool unified;
  int count;
  bool mixed;
};

// Memory: 0.985 x GB read as GiB (src/catalog/gpu.h) unless data/gpus/gpus.jsonl has the card at
// that size: H100-SXM 79.19, A100-40GB 39.586, RTX 3090 23.58, RTX 4090 23.68, RTX 5090 31.37
// (measured). Compute capabilities: https://developer.nvidia.com/cuda-gpus.
const GpuCase kGpus[] = {
    {"H100 80GB", "NVIDIA", "H100", 79.19, 9.0, true, false, 1, false},
    {"H100 SXM", "NVIDIA", "H100 SXM", 79.19, 9.0, true, false, 1, false},
    {"A100", "NVIDIA", "A100", kNone, 8.0, true, false, 1, false},  // 40 or 80 GB: not guessed
    {"A100 80GB", "NVIDIA", "A100", 78.8, 8.0, true, false, 1, false},
    {"A100-40GB", "NVIDIA", "A100", 39.586, 8.0, true, false, 1, false},
    {"Tesla V100 16GB", "NVIDIA", "V100", 15.76, 7.0, false, false, 1, false},
    {"Tesla V100-SXM2-32GB", "NVIDIA", "V100", 31.52, 7.0, false, false, 1, false},
    {"RTX 3090", "NVIDIA", "RTX 3090", 23.58, 8.6, true, false, 1, false},
    {"RTX 4090", "NVIDIA", "RTX 4090", 23.68, 8.9, true, false, 1, false},
    {"RTX 5090", "NVIDIA", "RTX 5090", 31.37, 12.0, true, false, 1, false},
    {"RTX 2060", "NVIDIA", "RTX 2060", 5.91, 7.5, false, false, 1, false},
    {"RTX 2080 Ti", "NVIDIA", "RTX 2080 Ti", 10.835, 7.5, false, false, 1, false},
    {"GTX 1080 8GB", "NVIDIA", "GTX 1080", 7.88, 6.1, false, false, 1, false},
    {"Tesla P100 16GB", "NVIDIA", "P100", 15.76, 6.0, false, false, 1, false},
    {"RTX A6000", "NVIDIA", "A6000", 47.28, 8.6, true, false, 1, false},
    {"A6000", "NVIDIA", "A6000", 47.28, 8.6, true, false, 1, false},
    {"RTX 6000 Ada", "NVIDIA", "RTX 6000 Ada", 47.28, 8.9, true, false, 1, false},
    {"Quadro A4000", "NVIDIA", "A4000", 15.76, 8.6, true, false, 1, false},
    {"L40S", "NVIDIA", "L40S", 44.42, 8.9, true, false, 1, false},
    {"L4", "NVIDIA", "L4", 22.03, 8.9, true, false, 1, false},
    {"AMD gfx1201", "AMD", "gfx1201", kNone, kNone, true, false, 1, false},
    {"MI300X", "AMD", "MI300X", 189.12, kNone, true, false, 1, false},
    {"RTX PRO 2000 Blackwell", "NVIDIA", "RTX PRO 2000 Blackwell", 15.76, 12.0, true, false, 1, false},
    {"RTX PRO 6000 Blackwell Max-Q", "NVIDIA", "RTX PRO 6000 Blackwell Max-Q", 94.56, 12.0, true, false, 1, false},
    {"RTX 3050 mobile 4GB", "NVIDIA", "RTX 3050 Laptop", 3.94, 8.6, true, false, 1, false},
    {"NVIDIA MIG 20GB", "NVIDIA", "MIG", 19.7, kNone, true, false, 1, false},
    {"Apple M1", "Apple", "M1", kNone, kNone, false, true, 1, false},
    {"Apple M3 Max", "Apple", "M3 Max", kNone, kNone, false, true, 1, false},
    {"DGX Spark GB10", "NVIDIA", "GB10", 126.08, 12.1, true, true, 1, false},
    {"H200", "NVIDIA", "H200", 138.885, 9.0, true, false, 1, false},
    {"GTX 1080 8GB + Tesla P100 16GB", "NVIDIA", "GTX 1080 + P100", 7.88, 6.0, false, false, 2, true},
    // Common cards and other spellings.
    {"T4", "NVIDIA", "T4", 14.75, 7.5, false, false, 1, false},
    {"Tesla T4", "NVIDIA", "T4", 14.75, 7.5, false, false, 1, false},
    {"A10", "NVIDIA", "A10", 21.99, 8.6, true, false, 1, false},
    {"A10G", "NVIDIA", "A10G", 21.99, 8.6, true, false, 1, false},  // the "10G" is not memory
    {"A40", "NVIDIA", "A40", 47.28, 8.6, true, false, 1, false},
    {"L40", "NVIDIA", "L40", 44.40, 8.9, true, false, 1, false},
    {"NVIDIA GeForce RTX 3060", "NVIDIA", "RTX 3060", 11.82, 8.6, true, false, 1, false},
    {"RTX 3080", "NVIDIA", "RTX 3080", kNone, 8.6, true, false, 1, false},  // 10 or 12 GB
    {"RTX 4060", "NVIDIA", "RTX 4060", 7.88, 8.9, true, false, 1, false},
    {"RTX 4070", "NVIDIA", "RTX 4070", 11.82, 8.9, true, false, 1, false},
    {"RTX 4080", "NVIDIA", "RTX 4080", 15.76, 8.9, true, false, 1, false},
    {"rtx4090", "NVIDIA", "RTX 4090", 23.68, 8.9, true, false, 1, false},
    {"RTX A4000", "NVIDIA", "A4000", 15.76, 8.6, true, false, 1, false},
    {"RTX A5000", "NVIDIA", "A5000", 23.64, 8.6, true, false, 1, false},
    {"V100", "NVIDIA", "V100", kNone, 7.0, false, false, 1, false},
    {"P100", "NVIDIA", "P100", kNone, 6.0, false, false, 1, false},
    {"Tesla P40", "NVIDIA", "P40", 23.64, 6.1, false, false, 1, false},
    {"MI210", "AMD", "MI210", 63.04, kNone, true, false, 1, false},
    {"AMD Instinct MI250", "AMD", "MI250", 63.04, kNone, true, false, 1, false},
    {"B200", "NVIDIA", "B200", 177.3, 10.0, true, false, 1, false},
    {"NVIDIA H100 80GB HBM3", "NVIDIA", "H100", 79.19, 9.0, true, false, 1, false},
    {"NVIDIA A100-SXM4-80GB", "NVIDIA", "A100", 78.8, 8.0, true, false, 1, false},
    {"RTX 3090 12GB", "NVIDIA", "RTX 3090", 11.82, 8.6, true, false, 1, false},  // the name wins over the table
    {"2x A100 80GB", "NVIDIA", "A100", 78.8, 8.0, true, false, 2, false},
    {"8 x H100", "NVIDIA", "H100", 79.19, 9.0, true, false, 8, false},
    {"H100 x 8", "NVIDIA", "H100", 79.19, 9.0, true, false, 8, false},
    {"RTX 3090 + RTX 3090", "NVIDIA", "RTX 3090", 23.58, 8.6, true, false, 2, false},
    {"MIG 3g.40gb", "NVIDIA", "MIG", 39.4, kNone, true, false, 1, false},
    {"RTX 3065", "NVIDIA", "RTX 3065", kNone, 8.6, true, false, 1, false},  // series rule
    {"AMD Radeon gfx1030", "AMD", "gfx1030", kNone, kNone, false, false, 1, false},
    {"79.19 GiB", "", "", 79.19, kNone, false, false, 1, false},
    {"Tesla T4 + AMD MI300X", "NVIDIA + AMD", "T4 + MI300X", 14.75, 7.5, false, false, 2, true},
};

void PrintTo(const GpuCase& c, std::ostream* os) { *os << "'" << c.name << "'"; }

class GpuNames : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuNames, ReadsWhatTheNameStates) {
  const GpuCase& c = GetParam();
  auto g = guess_gpu_from_name(c.name);
  SCOPED_TRACE(std::string(c.name) + notes(g.matched));
  EXPECT_EQ(g.as_given, c.name);
  EXPECT_EQ(g.vendor, c.vendor);
  EXPECT_EQ(g.model, c.model);
  expect_opt(g.memory_gib, c.memory_gib, 1e-6, "memory_gib");
  expect_opt(g.compute_capability, c.cc, 1e-9, "compute_capability");
  EXPECT_EQ(g.bf16_supported, c.bf16);
  EXPECT_EQ(g.unified_memory, c.unified);
  EXPECT_EQ(g.count, c.count);
  EXPECT_EQ(g.mixed, c.mixed);
  EXPECT_TRUE(g.recognized());
  EXPECT_FALSE(g.matched.empty());
}

INSTANTIATE_TEST_SUITE_P(Typed, GpuNames, ::testing::ValuesIn(kGpus));

TEST(GpuNameGuess, MixedBoxKeepsEachCard) {
  auto g = guess_gpu_from_name("GTX 1080 8GB + Tesla P100 16GB");
  ASSERT_EQ(g.parts.size(), 2u);
  EXPECT_EQ(g.parts[0].model, "GTX 1080");
  EXPECT_NEAR(*g.parts[0].memory_gib, 7.88, 1e-9);
  EXPECT_NEAR(*g.parts[0].compute_capability, 6.1, 1e-9);
  EXPECT_EQ(g.parts[1].model, "P100");
  EXPECT_NEAR(*g.parts[1].memory_gib, 15.76, 1e-9);
  EXPECT_NEAR(*g.parts[1].compute_capability, 6.0, 1e-9);
}

TEST(GpuNameGuess, NotesNameTheConversionAndTheSource) {
  auto has = [](const GpuNameGuess& g, const std::string& s) {
    return std::any_of(g.matched.begin(), g.matched.end(), [&](const std::string& m) { return m.find(s) != std::string::npos; });
  };
  auto v100 = guess_gpu_from_name("Tesla V100 16GB");
  EXPECT_TRUE(has(v100, "0.985 x 16 GB read as GiB")) << notes(v100.matched);
  EXPECT_TRUE(has(v100, "memory 16GB from the name")) << notes(v100.matched);
  auto h100 = guess_gpu_from_name("H100 80GB");
  EXPECT_TRUE(has(h100, "gpus.jsonl (measured)")) << notes(h100.matched);
  auto a100 = guess_gpu_from_name("A100");
  EXPECT_TRUE(has(a100, "memory unknown")) << notes(a100.matched);
  auto wins = guess_gpu_from_name("RTX 3090 12GB");
  EXPECT_TRUE(has(wins, "the name wins")) << notes(wins.matched);
}

TEST(GpuNameGuess, WithoutTheTableStillReadsTheName) {
  const std::vector<GpuNameRow> no_table;
  const std::vector<GpuSpec> no_catalog;
  auto g = guess_gpu_from_name("NVIDIA GeForce RTX 3090 24GB", no_table, no_catalog);
  EXPECT_EQ(g.vendor, "NVIDIA");
  EXPECT_EQ(g.model, "RTX 3090");
  EXPECT_NEAR(*g.compute_capability, 8.6, 1e-9);
  EXPECT_NEAR(*g.memory_gib, 0.985 * 24, 1e-9);
  auto h = guess_gpu_from_name("H100 80GB", no_table, no_catalog);
  EXPECT_TRUE(h.recognized());
  EXPECT_EQ(h.model, "");
  EXPECT_NEAR(*h.memory_gib, 78.8, 1e-9);
  auto amd = guess_gpu_from_name("AMD gfx942", no_table, no_catalog);
  EXPECT_EQ(amd.vendor, "AMD");
  EXPECT_EQ(amd.arch, "gfx942");
  EXPECT_TRUE(amd.bf16_supported);
  auto none = guess_gpu_from_name("my laptop", no_table, no_catalog);
  EXPECT_FALSE(none.recognized());
}

TEST(GpuNameGuess, NeverThrows) {
  for (const auto& s : junk_inputs()) {
    GpuNameGuess g;
    EXPECT_NO_THROW(g = guess_gpu_from_name(s)) << s;
    EXPECT_GE(g.count, 1) << s;
    if (g.memory_gib) {
      EXPECT_TRUE(std::isfinite(*g.memory_gib) && *g.memory_gib > 0) << s;
    }
  }
}

TEST(GpuNameGuess, CachedTableIsSafeFromManyThreads) {
  std::vector<std::thread> threads;
  std::vector<std::string> models(8);
  for (size_t i = 0; i < models.size(); ++i)
    threads.emplace_back([&models, i] { models[i] = guess_gpu_from_name("RTX 4090").model; });
  for (auto& t : threads) t.join();
  for (const auto& m : models) EXPECT_EQ(m, "RTX 4090");
}

// ---------------------------------------------------------------------------------------------
// The card table file.

TEST(GpuNameTable, ShippedTableLoadsAndCitesSources) {
  auto t = load_gpu_name_table(core::data_dir() + "/gpus/gpu_names.tsv");
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_GE(t->size(), 100u);
  EXPECT_EQ(gpu_name_table().size(), t->size());
  for (const auto& r : *t) {
    EXPECT_EQ(r.source.rfind("https://", 0), 0u) << r.pattern;
    if (r.vendor == "NVIDIA" && r.model != "MIG") {
      EXPECT_TRUE(r.compute_capability.has_value()) << r.pattern;
    }
    if (r.vendor == "AMD") {
      EXPECT_EQ(r.arch.rfind("gfx", 0), 0u) << r.pattern;
    }
  }
}

TEST(GpuNameTable, BadRowsAreReportedWithTheirLine) {
  auto dir = std::filesystem::temp_directory_path() / "llmtriage_name_guess_test";
  std::filesystem::create_directories(dir);
  auto path = (dir / "bad.tsv").string();
  {
    std::ofstream f(path);
    f << "# comment\nrtx 3090\tNVIDIA\tRTX 3090\t24\t8.6\thttps://example.org\nrtx 9999\tNVIDIA\tRTX 9999\t24\n";
  }
  auto t = load_gpu_name_table(path);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message().find("bad.tsv:3"), std::string::npos) << t.error().message();
  auto missing = load_gpu_name_table((dir / "absent.tsv").string());
  EXPECT_FALSE(missing.ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace llmtriage::catalog
