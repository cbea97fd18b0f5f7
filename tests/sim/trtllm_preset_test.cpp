// The trtllm preset's engine defaults (issue 18): trtllm-bench's max_batch_size / max_num_tokens
// heuristic (tensorrt_llm/bench/build/tuning.py, tensorrt_llm/bench/benchmark/utils/general.py)
// and where the simulator applies it (offline runs of the trtllm preset only; online runs and the
// other engines keep their flags); chunked context off by default; the capacity policy setting.
#include "sim/trtllm_bench.h"

#include "sim/scenario.h"
#include "sim/simulation.h"

#include <gtest/gtest.h>

using namespace llmtriage;
using namespace llmtriage::sim;

namespace {

// Llama-3.1-8B shape (32 layers, 8 KV heads of 128), FP8 weights and KV, one 80 GiB GPU.
TrtllmBenchInput llama8b_fp8(double isl, double osl) {
  TrtllmBenchInput in;
  in.gpu_memory_gib = 80;
  in.tp = 1;
  in.param_count = 8.03e9;
  in.bytes_per_param = 1;
  in.kv_bytes_per_elem = 1;
  in.n_layers = 32;
  in.n_kv_heads = 8;
  in.head_dim = 128;
  in.free_fraction = 0.9;
  in.mean_isl = isl;
  in.mean_osl = osl;
  in.max_isl = static_cast<int64_t>(isl);
  return in;
}

}  // namespace

TEST(TrtllmBench, ShortSequencesHitTheBatchCapAndTheTokenBudgetFollowsTheLengthRatio) {
  // 72.5 GiB free x 0.9 / (64 KiB x 256 tokens) = ~4000 requests: the cap of 4096 is near, the
  // batch rounds up to a multiple of 256; tokens = batch x (1 + 128/128) rounded to 1024.
  const TrtllmBenchSettings t = trtllm_bench_settings(llama8b_fp8(128, 128));
  EXPECT_NEAR(t.kv_max_requests, 72.52 * 0.9 * 1073741824.0 / (65536.0 * 256), 5);
  EXPECT_EQ(t.max_batch_size, 4096);
  EXPECT_EQ(t.max_num_tokens, 8192);
}

TEST(TrtllmBench, LongPromptsWithoutChunkingGetATokenBudgetThatHoldsTheLongestPromptBesideAFullBatch) {
  TrtllmBenchInput in = llama8b_fp8(20000, 2000);
  in.max_isl = 20000;
  const TrtllmBenchSettings t = trtllm_bench_settings(in);
  // ~49 requests of 22000 tokens fit: below 256 the batch is a multiple of 32, at least 64.
  EXPECT_EQ(t.max_batch_size, 64);
  EXPECT_EQ(t.max_num_tokens, 20000 + 64);
  in.chunked_context = true;  // with chunking the heuristic's own budget stands: 49 x 11 -> the 2048 floor
  EXPECT_EQ(trtllm_bench_settings(in).max_num_tokens, 2048);
}

TEST(TrtllmBench, TokenBudgetIsClampedBetween2048And32768) {
  TrtllmBenchInput in = llama8b_fp8(1024, 32);  // ~1012 requests x (1 + 32) = 33400 tokens
  EXPECT_EQ(trtllm_bench_settings(in).max_batch_size, 1024);
  EXPECT_EQ(trtllm_bench_settings(in).max_num_tokens, 32768);
  in = llama8b_fp8(128, 2048);
  in.gpu_memory_gib = 9;  // ~0.8 GiB free: ~6 requests -> batch 64, tokens at the 2048 floor
  EXPECT_EQ(trtllm_bench_settings(in).max_batch_size, 64);
  EXPECT_EQ(trtllm_bench_settings(in).max_num_tokens, 2048);
}

TEST(TrtllmBench, ResolveAppliesItToOfflineTrtllmRunsOnly) {
  auto resolved = [](const std::string& engine, const std::string& arrival) {
    const std::string text = R"({"deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM",
        "quantization": "fp8", "max_model_len": 4096}, "engine": ")" + engine + R"(",
        "workload": {"arrival": ")" + arrival + R"(", "rate": 4, "num_requests": 50, "input": 2048, "output": 128}})";
    auto s = parse_scenario(text, "inline");
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
    return s.ok() ? s->config.scheduler : SchedulerConfig{};
  };
  const SchedulerConfig off = resolved("trtllm", "all_at_once");
  EXPECT_FALSE(off.chunked_prefill);
  // ~490 requests of 2176 tokens fit the FP8 pool: batch 512, tokens 490 x 17 rounded up to 9216.
  EXPECT_EQ(off.max_num_seqs, 512);
  EXPECT_EQ(off.max_num_batched_tokens, 9216);
  const SchedulerConfig online = resolved("trtllm", "poisson");
  EXPECT_FALSE(online.chunked_prefill);            // LLM API default
  EXPECT_EQ(online.max_num_seqs, 2048);            // LLM API max_batch_size
  EXPECT_EQ(online.max_num_batched_tokens, 8192);  // max_num_tokens, >= max_model_len 4096
  const SchedulerConfig vllm = resolved("vllm", "all_at_once");
  EXPECT_TRUE(vllm.chunked_prefill);
  EXPECT_EQ(vllm.max_num_seqs, 256);
  EXPECT_EQ(vllm.max_num_batched_tokens, 8192);
}

namespace {

// 8B FP8 on a small explicit pool (20000 tokens), 1000 in / 1000 out, 32 clients: a regime where
// reserving every request's whole output caps the batch.
std::string kv_bound(const std::string& policy_setting) {
  return R"({"deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM", "quantization": "fp8",
      "max_model_len": 4096, "kv_cache_tokens": 20000}, "engine": "trtllm", "settings": {)" + policy_setting + R"(},
      "workload": {"arrival": "closed_loop", "concurrency": 32, "num_requests": 96, "input": 1000, "output": 1000}})";
}

Summary run_text(const std::string& text) {
  auto s = parse_scenario(text, "inline");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
  if (!s.ok()) return {};
  auto r = run_simulation(s->config);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r->summary : Summary{};
}

}  // namespace

TEST(TrtllmPolicy, MaxUtilizationRunsMoreSequencesThanGuaranteedNoEvictWhenTheReservationBinds) {
  // GUARANTEED_NO_EVICT admits a request only when prompt + max_tokens fits beside what every
  // running request may still claim: 20000 / 2000 = 10 sequences, never a preemption.
  const Summary no_evict = run_text(kv_bound(""));
  EXPECT_EQ(no_evict.preemptions, 0u);
  EXPECT_LE(no_evict.running_max, 10.0);
  // MAX_UTILIZATION admits on the blocks the next step needs and pauses the latest request when
  // the pool runs out: more sequences run (and some are paused and recomputed).
  const Summary max_util = run_text(kv_bound(R"("capacity_scheduler_policy": "MAX_UTILIZATION")"));
  EXPECT_GT(max_util.running_max, 15.0);
  EXPECT_EQ(max_util.completed, 96u);
  EXPECT_EQ(no_evict.completed, 96u);
}

TEST(TrtllmPolicy, TheSettingIsTensorRtLlmsAndNamesItsValues) {
  auto bad_value = parse_scenario(kv_bound(R"("capacity_scheduler_policy": "static_batch")"), "x.json");
  ASSERT_FALSE(bad_value.ok());
  EXPECT_NE(bad_value.error().message().find("guaranteed_no_evict or max_utilization"), std::string::npos)
      << bad_value.error().message();
  std::string vllm = kv_bound(R"("capacity_scheduler_policy": "max_utilization")");
  vllm.replace(vllm.find(R"("engine": "trtllm")"), 18, R"("engine": "vllm")");
  auto other_engine = parse_scenario(vllm, "x.json");
  ASSERT_FALSE(other_engine.ok());
  EXPECT_NE(other_engine.error().message().find("only with engine trtllm"), std::string::npos)
      << other_engine.error().message();
}

TEST(TrtllmPreset, APromptLongerThanMaxNumTokensWithoutChunkingStallsInsteadOfRunning) {
  // TensorRT-LLM refuses such a request; the simulated engine cannot schedule it either and the
  // run stops as a stall (vLLM's startup check on max_model_len does not apply to trtllm).
  const std::string text = R"({"deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM",
      "max_model_len": 4096}, "engine": "trtllm", "settings": {"max_num_batched_tokens": 1024},
      "workload": {"arrival": "poisson", "rate": 1, "num_requests": 3, "input": 2000, "output": 16}})";
  auto s = parse_scenario(text, "inline");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_FALSE(s->config.scheduler.chunked_prefill);
  auto r = run_simulation(s->config);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_TRUE(r->livelock);
  EXPECT_EQ(r->summary.completed, 0u);
}
