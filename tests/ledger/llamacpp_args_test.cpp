// llama.cpp / Ollama launch lines read for the ledger: flags, their long and short names,
// --flag=value, the LLAMA_ARG_* and OLLAMA_* environment, bad values with the flag named.
#include <gtest/gtest.h>

#include "ledger/llamacpp_args.h"

namespace llmtriage::ledger {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    size_t j = line.find(' ', i);
    if (j == std::string::npos) j = line.size();
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

TEST(LlamaCppArgs, ReadsTheServerFlags) {
  auto w = words("./build/bin/llama-server -m tiny.gguf -c 8192 -np 4 -ctk q8_0 --cache-type-v=q4_0 -fa on -ngl 99 -ub 256 -t 2 --port 8080 --metrics");
  ASSERT_TRUE(is_llamacpp_command(w));
  auto a = parse_llamacpp_args(w, "--engine-args");
  ASSERT_TRUE(a.ok()) << a.error().message();
  EXPECT_EQ(a->engine, core::EngineKind::llamacpp);
  EXPECT_EQ(a->model, "tiny.gguf");
  EXPECT_EQ(a->settings.ctx_size, 8192);
  EXPECT_EQ(a->settings.parallel, 4);
  EXPECT_EQ(a->settings.cache_type_k, "q8_0");
  EXPECT_EQ(a->settings.cache_type_v, "q4_0");
  EXPECT_EQ(a->settings.flash_attn, true);
  EXPECT_EQ(a->settings.n_gpu_layers, 99);
  EXPECT_EQ(a->settings.ubatch_size, 256);
  EXPECT_EQ(a->threads, 2);
  EXPECT_EQ(a->unmodelled, (std::vector<std::string>{"--port 8080", "--metrics"}));
  EXPECT_FALSE(a->settings.kv_unified);
}

TEST(LlamaCppArgs, UnifiedFlagsEnvironmentAndOllama) {
  auto a = parse_llamacpp_args(words("LLAMA_ARG_CTX_SIZE=16384 llama-server --model m.gguf --parallel=2 -kvu -fa"), "x");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->settings.ctx_size, 16384);
  EXPECT_EQ(a->settings.parallel, 2);
  EXPECT_EQ(a->settings.kv_unified, true);
  EXPECT_EQ(a->settings.flash_attn, true);  // bare -fa (older builds)
  auto no = parse_llamacpp_args(words("llama-server -m m.gguf --no-kv-unified -fa auto"), "x");
  ASSERT_TRUE(no.ok());
  EXPECT_EQ(no->settings.kv_unified, false);
  EXPECT_FALSE(no->settings.flash_attn);  // auto: unset
  auto ol = words("OLLAMA_NUM_PARALLEL=4 OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_FLASH_ATTENTION=1 ollama serve");
  ASSERT_TRUE(is_llamacpp_command(ol));
  auto o = parse_llamacpp_args(ol, "x");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->engine, core::EngineKind::ollama);
  EXPECT_EQ(o->settings.parallel, 4);
  EXPECT_EQ(o->settings.ctx_size, 8192);
  EXPECT_EQ(o->settings.cache_type_k, "q8_0");
  EXPECT_EQ(o->settings.cache_type_v, "q8_0");
  EXPECT_EQ(o->settings.flash_attn, true);
  EXPECT_FALSE(is_llamacpp_command(words("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192")));
}

TEST(LlamaCppArgs, BadValuesNameTheFlag) {
  auto bad = parse_llamacpp_args(words("llama-server -m m.gguf -c lots"), "--engine-args");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "--engine-args -c");
  EXPECT_EQ(bad.error().found, "'lots'");
  auto cut = parse_llamacpp_args(words("llama-server -m m.gguf -np"), "--engine-args");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().expected, "a value after the flag");
}

}  // namespace
}  // namespace llmtriage::ledger
