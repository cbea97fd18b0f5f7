#include <gtest/gtest.h>

#include "ingest/engine_args.h"

namespace llmtriage::ingest {
namespace {

ParsedEngineArgs parse(const std::string& s) {
  auto r = parse_engine_args(s);
  EXPECT_TRUE(r.ok()) << s << ": " << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : ParsedEngineArgs{};
}

TEST(EngineArgs, VllmServeWithPositionalModelAndBothFlagForms) {
  auto p = parse("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --max-model-len=32768 "
                 "--gpu-memory-utilization 0.95 --enforce-eager --kv-cache-dtype fp8 --max-num-seqs=128");
  EXPECT_EQ(p.engine, core::EngineKind::vllm);
  EXPECT_EQ(*p.settings.model, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(*p.settings.tensor_parallel_size, 2);
  EXPECT_EQ(*p.settings.max_model_len, 32768);
  EXPECT_DOUBLE_EQ(*p.settings.gpu_memory_utilization, 0.95);
  EXPECT_TRUE(*p.settings.enforce_eager);
  EXPECT_EQ(*p.settings.kv_cache_dtype, "fp8");
  EXPECT_EQ(*p.settings.max_num_seqs, 128);
  EXPECT_TRUE(p.settings.unmodelled.empty());
}

TEST(EngineArgs, HumanReadableLengthsAsVllmReadsThem) {
  EXPECT_EQ(*parse("vllm serve m --max-model-len 32k").settings.max_model_len, 32000);
  EXPECT_EQ(*parse("vllm serve m --max-model-len 32K").settings.max_model_len, 32768);
  EXPECT_EQ(*parse("vllm serve m --max-model-len 1M").settings.max_model_len, 1048576);
}

TEST(EngineArgs, UnmodelledFlagsKeptVerbatimSecretsRedacted) {
  auto p = parse("vllm serve m --trust-remote-code --port 8001 -O3 --api-key sk-abc123 --swap-space=8");
  std::vector<std::string> want = {"--trust-remote-code", "--port=8001", "--o3", "--api-key=<redacted>", "--swap-space=8"};
  EXPECT_EQ(p.settings.unmodelled, want);
  for (const auto& u : p.settings.unmodelled) EXPECT_EQ(u.find("sk-abc123"), std::string::npos);
}

TEST(EngineArgs, PythonModuleDockerEnvAndContinuations) {
  auto p = parse("VLLM_USE_V1=1 docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.2 \\\n  --model Qwen/Qwen3-8B \\\n  -tp 4");
  EXPECT_EQ(p.engine, core::EngineKind::vllm);
  EXPECT_EQ(*p.settings.model, "Qwen/Qwen3-8B");
  EXPECT_EQ(*p.settings.tensor_parallel_size, 4);
  auto q = parse("python -m vllm.entrypoints.openai.api_server --model 'my model' --quantization awq");
  EXPECT_EQ(*q.settings.model, "my model");
  EXPECT_EQ(*q.settings.quantization, "awq");
}

TEST(EngineArgs, SglangNamesMapOntoSettings) {
  auto p = parse("python3 -m sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-FP8 --tp 4 "
                 "--mem-fraction-static 0.93 --context-length 32768 --max-running-requests 64 "
                 "--chunked-prefill-size -1 --disable-radix-cache --disable-cuda-graph --page-size 16");
  EXPECT_EQ(p.engine, core::EngineKind::sglang);
  EXPECT_EQ(*p.settings.model, "Qwen/Qwen3-235B-A22B-FP8");
  EXPECT_EQ(*p.settings.tensor_parallel_size, 4);
  EXPECT_DOUBLE_EQ(*p.settings.mem_fraction_static, 0.93);
  EXPECT_EQ(*p.settings.max_model_len, 32768);
  EXPECT_EQ(*p.settings.max_num_seqs, 64);
  EXPECT_FALSE(p.settings.max_num_batched_tokens.has_value());
  EXPECT_FALSE(*p.settings.enable_chunked_prefill);
  EXPECT_FALSE(*p.settings.enable_prefix_caching);
  EXPECT_TRUE(*p.settings.enforce_eager);
  EXPECT_EQ(*p.settings.block_size, 16);
}

TEST(EngineArgs, TgiLauncher) {
  auto p = parse("text-generation-launcher --model-id mistralai/Mistral-7B-Instruct-v0.3 --num-shard 2 --max-total-tokens 8192 --quantize awq");
  EXPECT_EQ(p.engine, core::EngineKind::tgi);
  EXPECT_EQ(*p.settings.tensor_parallel_size, 2);
  EXPECT_EQ(*p.settings.max_model_len, 8192);
  EXPECT_EQ(*p.settings.quantization, "awq");
}

TEST(EngineArgs, BareFlagsWithoutLauncher) {
  auto p = parse("--tensor-parallel-size 8 --no-enable-prefix-caching");
  EXPECT_EQ(p.engine, core::EngineKind::unknown);
  EXPECT_EQ(*p.settings.tensor_parallel_size, 8);
  EXPECT_FALSE(*p.settings.enable_prefix_caching);
}

struct BadCase {
  const char* input;
  const char* expected_in_message;
};

class EngineArgsErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(EngineArgsErrors, NameTheFlagAndTheValue) {
  auto r = parse_engine_args(GetParam().input);
  ASSERT_FALSE(r.ok()) << GetParam().input;
  EXPECT_NE(r.error().message().find(GetParam().expected_in_message), std::string::npos) << r.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Table, EngineArgsErrors,
    ::testing::Values(BadCase{"vllm serve m --tensor-parallel-size two", "--tensor-parallel-size: expected an integer, found 'two'"},
                      BadCase{"vllm serve m --max-model-len lots", "--max-model-len: expected a number of tokens"},
                      BadCase{"vllm serve m --gpu-memory-utilization", "--gpu-memory-utilization: expected a value after the flag"},
                      BadCase{"vllm serve m --enforce-eager=maybe", "expected true or false"},
                      BadCase{"vllm serve 'm --tp 2", "unterminated ' quote"},
                      BadCase{"", "an empty string"},
                      BadCase{"kubectl apply -f x.yaml", "The launcher word was not found"}));

TEST(LoggedArgs, VllmNonDefaultArgsDict) {
  auto r = parse_logged_args("{'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', "
                             "'max_model_len': 8192, 'tensor_parallel_size': 4, 'gpu_memory_utilization': 0.95, "
                             "'enable_prefix_caching': False, 'port': 8001}",
                             core::EngineKind::vllm, "vllm.log:2");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r->settings.model, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(*r->settings.max_model_len, 8192);
  EXPECT_EQ(*r->settings.tensor_parallel_size, 4);
  EXPECT_FALSE(*r->settings.enable_prefix_caching);
  EXPECT_EQ(r->settings.unmodelled, std::vector<std::string>{"--port=8001"});
}

TEST(LoggedArgs, NamespaceReprKeepsOnlyModelledFields) {
  auto r = parse_logged_args("Namespace(host=None, port=8000, model='Qwen/Qwen3-8B', max_model_len=None, "
                             "enforce_eager=False, block_size=16, served_model_name=['a', 'b'])",
                             core::EngineKind::vllm, "x");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r->settings.model, "Qwen/Qwen3-8B");
  EXPECT_FALSE(r->settings.max_model_len.has_value());
  EXPECT_FALSE(*r->settings.enforce_eager);
  EXPECT_EQ(*r->settings.block_size, 16);
  EXPECT_TRUE(r->settings.unmodelled.empty());
}

}  // namespace
}  // namespace llmtriage::ingest

namespace llmtriage::ingest {
namespace {

TEST(LoggedArgs, VllmEngineConfigLineWithNestedBracesAndTorchDtype) {
  auto r = parse_logged_args("model='meta-llama/Meta-Llama-3-8B', speculative_config=None, dtype=torch.bfloat16, "
                             "max_seq_len=8192, tensor_parallel_size=2, quantization=None, enforce_eager=False, "
                             "kv_cache_dtype=auto, compilation_config={\"level\":3,\"splitting_ops\":[]}, "
                             "decoding_config=DecodingConfig(guided_decoding_backend='xgrammar')",
                             core::EngineKind::vllm, "vllm.log:3");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(*r->settings.model, "meta-llama/Meta-Llama-3-8B");
  EXPECT_EQ(*r->settings.dtype, "bfloat16");
  EXPECT_EQ(*r->settings.max_model_len, 8192);
  EXPECT_EQ(*r->settings.tensor_parallel_size, 2);
  EXPECT_EQ(*r->settings.kv_cache_dtype, "auto");
}

TEST(LoggedArgs, TgiArgsWithSomeValues) {
  auto r = parse_logged_args("{ model_id: \"mistralai/Mistral-7B-Instruct-v0.3\", num_shard: Some(2), quantize: None, "
                             "max_total_tokens: Some(8192), cuda_memory_fraction: 0.9 }",
                             core::EngineKind::tgi, "tgi.log:1");
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(*r->settings.model, "mistralai/Mistral-7B-Instruct-v0.3");
  EXPECT_EQ(*r->settings.tensor_parallel_size, 2);
  EXPECT_EQ(*r->settings.max_model_len, 8192);
  EXPECT_DOUBLE_EQ(*r->settings.gpu_memory_utilization, 0.9);
  EXPECT_FALSE(r->settings.quantization.has_value());
}

TEST(LoggedArgs, NotAnArgumentDumpIsAnError) {
  auto r = parse_logged_args("hello world", core::EngineKind::vllm, "x.log:9");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("x.log:9"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::ingest
