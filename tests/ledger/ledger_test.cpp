#include <gtest/gtest.h>

#include <cmath>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "core/units.h"
#include "ledger/ledger.h"
#include "ledger/ledger_render.h"

namespace llmtriage::ledger {
namespace {

LedgerInput input(const std::string& model, const std::string& gpu = "H100-SXM") {
  LedgerInput in;
  auto m = catalog::load_model(model);
  EXPECT_TRUE(m.ok()) << model;
  if (m.ok()) in.model = *m;
  auto g = catalog::find_gpu(gpu);
  EXPECT_TRUE(g.ok()) << gpu;
  if (g.ok()) in.gpu = *g;
  in.engine = core::EngineKind::vllm;
  in.engine_version = "0.19.0";
  return in;
}

LedgerReport run(const LedgerInput& in) {
  auto r = compute_ledger(in);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : LedgerReport{};
}

core::Error error_of(const LedgerInput& in) {
  auto r = compute_ledger(in);
  EXPECT_FALSE(r.ok());
  return r.ok() ? core::Error{} : r.error();
}

TEST(Ledger, Llama8BOnH100AddsUpLikeVllm019) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  in.settings.gpu_memory_utilization = 0.95;
  in.settings.max_model_len = 32768;
  auto r = run(in);
  EXPECT_NEAR(r.usable_gib, 79.19 * 0.95, 1e-9);
  EXPECT_NEAR(r.kv_cache_gib, r.usable_gib - r.weights_gib - r.activation_gib - r.non_torch_gib, 1e-9);
  EXPECT_FALSE(r.cuda_graph_subtracted);  // 0.19 captures graphs after sizing the pool
  EXPECT_DOUBLE_EQ(r.kv_bytes_per_token, 131072);
  EXPECT_EQ(r.kv_cache_tokens, r.num_blocks * 16);
  EXPECT_NEAR(r.max_concurrency, r.num_blocks / 2048.0, 1e-9);
  EXPECT_NEAR(r.kv_needed_for_max_len_gib, 4.0, 1e-9);
  EXPECT_EQ(r.verdict, Verdict::fits);
  // Every JSON key the issue asks for.
  auto j = to_json(r);
  for (const char* k : {"total_gib", "usable_gib", "weights_gib", "activation_gib", "non_torch_gib", "cuda_graph_gib",
                        "kv_cache_gib", "kv_bytes_per_token", "kv_cache_tokens", "num_blocks", "max_concurrency",
                        "verdict", "remedies"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const auto& l : r.lines) EXPECT_FALSE(l.source.empty()) << l.key;
}

TEST(Ledger, CudaGraphsSubtractedFrom021) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  in.settings.max_model_len = 8192;
  auto old = run(in);
  in.engine_version = "0.21.0";
  auto now = run(in);
  EXPECT_TRUE(now.cuda_graph_subtracted);
  EXPECT_NEAR(old.kv_cache_gib - now.kv_cache_gib, now.cuda_graph_gib, 1e-9);
  in.settings.enforce_eager = true;
  EXPECT_DOUBLE_EQ(run(in).cuda_graph_gib, 0);
}

TEST(Ledger, ActivationPeakDroppedIn017) {
  auto in = input("Qwen/Qwen3-14B");
  in.settings.max_model_len = 8192;
  in.engine_version = "0.16.0";
  double before = run(in).activation_gib;
  in.engine_version = "0.17.0";
  double after = run(in).activation_gib;
  EXPECT_NEAR(before, 5.64, 0.1);  // llm-d version sweep: 5.64 GiB on 0.15/0.16
  EXPECT_NEAR(after, 2.23, 0.1);   // 2.23 GiB on 0.17+
}

TEST(Ledger, NonTorchJumpsWithTensorParallelism) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  in.settings.max_model_len = 8192;
  double tp1 = run(in).non_torch_gib;
  in.settings.tensor_parallel_size = 2;
  double tp2 = run(in).non_torch_gib;
  EXPECT_GT(tp2, tp1 + 1.5);
}

TEST(Ledger, HybridGemma3GroupsWithPaddingAsVllmLogs) {
  auto in = input("google/gemma-3-4b-it");
  in.settings.max_model_len = 8192;
  in.settings.gpu_memory_utilization = 0.95;
  auto r = run(in);
  EXPECT_EQ(r.kv_groups, 7);  // 1 full group of 5 + 6 sliding groups (29 layers + 1 padding)
  EXPECT_EQ(r.padding_layers, 1);  // vLLM: "Add 1 padding layers"
  EXPECT_EQ(r.kv_cache_tokens, r.num_blocks / 7 * 16);
  EXPECT_NEAR(r.max_concurrency, r.num_blocks / 3590.0, 1e-9);  // 512 + 6 x 513 blocks
  in.engine_version = "0.9.2";  // before the hybrid allocator: every layer sized as full
  auto old = run(in);
  EXPECT_EQ(old.kv_groups, 1);
  EXPECT_EQ(old.kv_cache_tokens, old.num_blocks * 16);
}

TEST(Ledger, SlidingWindowLayersSaveMemoryOnlyPastTheWindow) {
  auto in = input("openai/gpt-oss-20b");
  in.settings.max_model_len = 131072;
  auto r = run(in);
  // Full layers need the whole context, sliding layers window - 1 + 8192 batched tokens.
  double page = 16 * 2.0 * 8 * 64 * 2;
  double expect = 12 * (131072 / 16) * page + 12 * ((127 + 8192 + 15) / 16 + 1) * page;
  EXPECT_NEAR(r.kv_needed_for_max_len_gib * core::kGiB, expect, 1);
}

TEST(Ledger, MlaLatentIsReplicatedNotShardedByTp) {
  auto in = input("deepseek-ai/DeepSeek-V2-Lite-Chat");
  in.settings.max_model_len = 8192;
  auto r1 = run(in);
  EXPECT_DOUBLE_EQ(r1.kv_bytes_per_token, 27 * 576 * 2);  // 31,104 B: the model_arch reference value
  EXPECT_EQ(r1.block_size, 64);                           // FlashMLA
  in.settings.tensor_parallel_size = 2;
  EXPECT_DOUBLE_EQ(run(in).kv_bytes_per_token, r1.kv_bytes_per_token);
}

TEST(Ledger, Fp8KvHalvesBytesPerToken) {
  // gh-vllm-25350: Qwen3-30B-A3B geometry at fp8: 49,152 B/token; 10.55 GiB -> ~230.5k tokens.
  auto in = input("Qwen/Qwen3-30B-A3B");
  in.settings.kv_cache_dtype = "fp8";
  in.settings.max_model_len = 100000;
  auto r = run(in);
  EXPECT_DOUBLE_EQ(r.kv_bytes_per_token, 49152);
  EXPECT_NEAR(10.55 * core::kGiB / r.kv_bytes_per_token, 230528, 230528 * 0.001);
}

TEST(Ledger, KvHeadsReplicatedWhenTpExceedsThem) {
  auto in = input("Qwen/Qwen3-30B-A3B");  // 4 KV heads
  in.settings.max_model_len = 8192;
  in.settings.tensor_parallel_size = 8;
  auto r = run(in);
  EXPECT_DOUBLE_EQ(r.kv_bytes_per_token, 48 * 2 * 1 * 128 * 2);  // one head per rank
}

TEST(Ledger, RefusesMaxModelLenLikeVllm) {
  // gh-vllm-34076: 262144 tokens x 96 KiB = 24.0 GiB for the 48 layers of Qwen3-Coder-30B-A3B.
  auto in = input("Qwen/Qwen3-Coder-30B-A3B-Instruct", "RTX-5090");
  in.settings.quantization = "fp8";
  in.settings.max_model_len = 262144;
  auto r = run(in);
  EXPECT_NEAR(r.kv_needed_for_max_len_gib, 24.0, 1e-6);
  // Qwen3-32B at 32000 tokens on one H100 (llm-d empirical run): refuses.
  auto q = input("Qwen/Qwen3-32B");
  q.engine_version = "0.11.0";
  q.settings.gpu_memory_utilization = 0.9;
  q.settings.max_model_len = 32000;
  auto rq = run(q);
  EXPECT_EQ(rq.verdict, Verdict::max_model_len_exceeds_kv);
  EXPECT_FALSE(rq.engine_starts);
  EXPECT_GT(rq.largest_fitting_max_model_len, 16000);
  EXPECT_LT(rq.largest_fitting_max_model_len, 32000);
  ASSERT_FALSE(rq.remedies.empty());
  EXPECT_EQ(rq.remedies[0].flag, "--max-model-len");
  EXPECT_EQ(rq.remedies[0].to, std::to_string(rq.largest_fitting_max_model_len));  // vLLM's own estimate
  bool util = false, tp = false, fp8 = false;
  for (const auto& m : rq.remedies) {
    util |= m.flag == "--gpu-memory-utilization" && m.verdict_after != Verdict::max_model_len_exceeds_kv &&
            std::stod(m.to) > 0.9;
    tp |= m.flag == "--tensor-parallel-size" && m.to == "2";
    fp8 |= m.flag == "--kv-cache-dtype" && m.kv_cache_tokens_after > rq.kv_cache_tokens;
  }
  EXPECT_TRUE(util);
  EXPECT_TRUE(tp);
  EXPECT_TRUE(fp8);
}

TEST(Ledger, WeightsThatDoNotFit) {
  auto in = input("meta-llama/Llama-3.3-70B-Instruct");
  in.settings.max_model_len = 8192;
  auto r = run(in);
  EXPECT_EQ(r.verdict, Verdict::weights_do_not_fit);
  EXPECT_FALSE(r.engine_starts);
  bool tp = false;
  for (const auto& m : r.remedies) tp |= m.flag == "--tensor-parallel-size" && m.to == "2";
  EXPECT_TRUE(tp);
}

TEST(Ledger, NoKvMemoryWhenUtilizationTooLow) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  in.settings.gpu_memory_utilization = 0.2;  // 15.8 GiB usable < 14.96 weights + 1.89 activations
  in.settings.max_model_len = 8192;
  auto r = run(in);
  EXPECT_EQ(r.verdict, Verdict::no_kv_memory);
  EXPECT_LT(r.kv_cache_gib, 0);
}

TEST(Ledger, LowConcurrencyAtTypicalLength) {
  auto in = input("meta-llama/Llama-3.3-70B-Instruct");
  in.settings.tensor_parallel_size = 4;
  in.settings.max_model_len = 131072;
  auto r = run(in);
  EXPECT_EQ(r.verdict, Verdict::low_concurrency);  // ~3.4 sequences of 128k
  EXPECT_TRUE(r.engine_starts);
  in.typical_len = 4000;
  EXPECT_EQ(run(in).verdict, Verdict::fits);
}

TEST(Ledger, SglangPoolFromFreeMemoryAfterWeights) {
  // vllm-project/vllm#21348 (SGLang log): Qwen3-235B-A22B-FP8, TP4, mem_fraction_static 0.93:
  // 367,404 tokens of 48,128 B.
  auto in = input("Qwen/Qwen3-235B-A22B-FP8");
  in.engine = core::EngineKind::sglang;
  in.engine_version = "";
  in.settings.tensor_parallel_size = 4;
  in.settings.mem_fraction_static = 0.93;
  auto r = run(in);
  EXPECT_DOUBLE_EQ(r.kv_bytes_per_token, 94 * 1 * 128 * 2 * 2);
  EXPECT_NEAR(r.kv_cache_tokens, 367404, 367404 * 0.05);
  EXPECT_EQ(r.block_size, 1);
  EXPECT_NEAR(r.kv_cache_gib, r.total_gib - r.non_torch_gib - r.weights_gib - r.total_gib * 0.07, 1e-9);
}

TEST(Ledger, VllmV0SubtractsWholeTorchPeak) {
  // vllm-project/vllm#10517: Llama-3.1-8B, RTX 3090 23.58 GiB, util 0.9, 20000 tokens -> 1952 blocks.
  auto in = input("meta-llama/Llama-3.1-8B-Instruct", "RTX-3090");
  in.engine = core::EngineKind::vllm_v0;
  in.engine_version = "";
  in.settings.max_model_len = 20000;
  auto r = run(in);
  EXPECT_EQ(r.max_num_batched_tokens, 20000);  // no chunked prefill: one whole prompt per batch
  EXPECT_NEAR(r.num_blocks, 1952, 1952 * 0.05);
  EXPECT_NEAR(r.max_concurrency, r.kv_cache_tokens / 20000.0, 1e-9);
}

TEST(Ledger, OldVllmVersionUsesV0Accounting) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  in.engine_version = "0.6.4";
  in.settings.max_model_len = 8192;
  auto r = run(in);
  EXPECT_NE(r.accounting.find("V0"), std::string::npos);
}

struct Bad {
  const char* what;
  void (*mutate)(LedgerInput&);
  const char* where;
};

class LedgerErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(LedgerErrors, ImpossibleSettingsNameTheFlag) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct");
  GetParam().mutate(in);
  auto e = error_of(in);
  EXPECT_EQ(e.kind, core::ErrorKind::usage) << GetParam().what;
  EXPECT_EQ(e.where, GetParam().where) << e.message();
}

INSTANTIATE_TEST_SUITE_P(
    Table, LedgerErrors,
    ::testing::Values(
        Bad{"util > 1", [](LedgerInput& i) { i.settings.gpu_memory_utilization = 1.2; }, "--gpu-memory-utilization"},
        Bad{"util 0", [](LedgerInput& i) { i.settings.gpu_memory_utilization = 0; }, "--gpu-memory-utilization"},
        Bad{"util negative", [](LedgerInput& i) { i.settings.gpu_memory_utilization = -0.5; }, "--gpu-memory-utilization"},
        Bad{"tp 3 (32 heads)", [](LedgerInput& i) { i.settings.tensor_parallel_size = 3; }, "--tensor-parallel-size"},
        Bad{"tp 0", [](LedgerInput& i) { i.settings.tensor_parallel_size = 0; }, "--tensor-parallel-size"},
        Bad{"negative max len", [](LedgerInput& i) { i.settings.max_model_len = -1; }, "--max-model-len"},
        Bad{"negative typical", [](LedgerInput& i) { i.typical_len = -5; }, "--typical-len"},
        Bad{"zero seqs", [](LedgerInput& i) { i.settings.max_num_seqs = 0; }, "--max-num-seqs"},
        Bad{"zero block", [](LedgerInput& i) { i.settings.block_size = 0; }, "--block-size"},
        Bad{"bad kv dtype", [](LedgerInput& i) { i.settings.kv_cache_dtype = "int3"; }, "--kv-cache-dtype"},
        Bad{"bad gpu mem", [](LedgerInput& i) { i.gpu_mem_gib = -3; }, "--gpu-mem-gib"},
        Bad{"bad version", [](LedgerInput& i) { i.engine_version = "latest-ish"; }, "--engine-version"},
        Bad{"no memory model", [](LedgerInput& i) { i.engine = core::EngineKind::trtllm; }, "--engine"},
        Bad{"too few gpus", [](LedgerInput& i) { i.settings.tensor_parallel_size = 4; i.num_gpus = 2; }, "--num-gpus"},
        Bad{"sglang fraction", [](LedgerInput& i) { i.engine = core::EngineKind::sglang; i.settings.mem_fraction_static = 1.5; },
            "--mem-fraction-static"}));

TEST(Ledger, NumGpusSetsTpWhenTpIsNotGiven) {
  auto in = input("meta-llama/Llama-3.3-70B-Instruct");
  in.num_gpus = 4;
  in.settings.max_model_len = 8192;
  auto r = run(in);
  EXPECT_EQ(r.tp, 4);
  EXPECT_EQ(r.num_gpus, 4);
}

TEST(Ledger, EstimatedGpuCapacityIsNoted) {
  auto in = input("meta-llama/Llama-3.1-8B-Instruct", "RTX-A6000");
  in.settings.max_model_len = 8192;
  auto r = run(in);
  bool noted = false;
  for (const auto& n : r.notes) noted |= n.find("estimated") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_EQ(r.max_num_seqs, 256);  // < 70 GiB: vLLM's smaller defaults
}

}  // namespace
}  // namespace llmtriage::ledger
