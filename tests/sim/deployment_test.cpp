// sim::deploy's TensorRT-LLM pool (issue 18): the KV dtype an FP8/FP4 checkpoint gets by default,
// and free_gpu_memory_fraction as a fraction of the memory left after the weights. vLLM and SGLang
// keep the ledger's pool and "auto" = the model dtype.
#include "sim/deployment.h"

#include "sim/scenario.h"
#include "sim/simulation.h"

#include <gtest/gtest.h>

using namespace llmtriage;
using namespace llmtriage::sim;

namespace {

DeploymentSpec trt_70b_fp8_tp2(const std::string& kv_dtype = "auto", double fraction = 0.9) {
  DeploymentSpec s;
  s.model = "meta-llama/Llama-3.3-70B-Instruct";
  s.gpu = "H100-SXM";
  s.tp = 2;
  s.quantization = "fp8";
  s.kv_cache_dtype = kv_dtype;
  s.gpu_memory_utilization = fraction;
  s.max_model_len = 8192;
  s.engine = core::EngineKind::trtllm;
  return s;
}

int64_t pool(const DeploymentSpec& s) {
  auto d = deploy(s);
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? d->kv_cache_tokens : -1;
}

}  // namespace

TEST(Deployment, TrtllmFp8CheckpointGetsFp8KvByDefaultAndAnExplicitBf16KeepsTwoBytes) {
  const int64_t automatic = pool(trt_70b_fp8_tp2("auto"));
  const int64_t fp8 = pool(trt_70b_fp8_tp2("fp8"));
  const int64_t bf16 = pool(trt_70b_fp8_tp2("bfloat16"));
  EXPECT_EQ(automatic, fp8);
  EXPECT_NEAR(static_cast<double>(fp8) / static_cast<double>(bf16), 2.0, 0.01);
  // 70B at TP2 with FP8 KV: 80 layers x 2 x 4 KV heads per GPU x 128 x 1 B = 80 KiB per token;
  // ~34 GiB of FP8 weights per GPU leave ~38 GiB, 90% of which is ~440k tokens (not ~200k).
  EXPECT_GT(fp8, 400000);
  EXPECT_LT(fp8, 520000);

  // An unquantized checkpoint keeps its dtype's 2 bytes under "auto".
  DeploymentSpec bf = trt_70b_fp8_tp2("auto");
  bf.model = "meta-llama/Llama-3.1-8B-Instruct";
  bf.tp = 1;
  bf.quantization = "";
  auto d = deploy(bf);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->model.kv_bytes_per_elem, 2.0);
}

TEST(Deployment, TrtllmFreeMemoryFractionScalesWhatIsLeftAfterTheWeights) {
  // KvCacheConfig.free_gpu_memory_fraction is a fraction of the free memory, so halving it halves
  // the pool (vLLM's gpu_memory_utilization, a fraction of the whole GPU, would more than halve it).
  const double full = static_cast<double>(pool(trt_70b_fp8_tp2("auto", 0.9)));
  const double half = static_cast<double>(pool(trt_70b_fp8_tp2("auto", 0.45)));
  EXPECT_NEAR(full / half, 2.0, 0.01);
}

TEST(Deployment, VllmKeepsTheLedgerPoolAndTheModelDtypeForAutoKv) {
  DeploymentSpec s = trt_70b_fp8_tp2("auto");
  s.engine = core::EngineKind::vllm;
  auto d = deploy(s);
  ASSERT_TRUE(d.ok()) << d.error().message();
  EXPECT_EQ(d->model.kv_bytes_per_elem, 2.0);
  EXPECT_EQ(d->kv_pool_source.rfind("ledger", 0), 0u) << d->kv_pool_source;
}

TEST(Deployment, TrtllmOfflineLongOutputRunsTheBatchTheFp8PoolHolds) {
  // trtllm-bench-shaped run, 70B FP8 at TP2 on H100, 128 in / 2048 out, all at t = 0. With the
  // engine's FP8 KV the guaranteed-no-evict scheduler keeps ~190 sequences running; the BF16 pool
  // the preset used to assume held half of them and throughput followed (issue 18).
  auto run = [](const std::string& kv) {
    Scenario s;
    s.engine = "trtllm";
    s.deployment = trt_70b_fp8_tp2(kv);
    s.deployment.max_model_len = 2176;
    auto& w = s.config.workload;
    w.num_requests = 400;
    w.arrival = ArrivalKind::all_at_once;
    w.input = LengthDist::fixed_len(128);
    w.output = LengthDist::fixed_len(2048);
    w.seed = 1;
    EXPECT_TRUE(resolve(s).ok());
    auto r = run_simulation(s.config);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->summary : Summary{};
  };
  const auto fp8 = run("auto"), bf16 = run("bfloat16");
  EXPECT_GT(fp8.running_max, 1.9 * bf16.running_max);
  EXPECT_GT(fp8.running_max, 170);
  EXPECT_GT(fp8.output_throughput, 1.5 * bf16.output_throughput);
}

// The GPU catalog's NVLink bandwidth reaches the cost model as a ratio to the H100 SXM's 900 GB/s.
TEST(Deployment, TheGpusNvlinkBandwidthSetsTheAllReduceLinkRatio) {
  auto ratio = [](const std::string& gpu) {
    DeploymentSpec s = trt_70b_fp8_tp2();
    s.gpu = gpu;
    auto d = deploy(s);
    EXPECT_TRUE(d.ok()) << gpu << ": " << (d.ok() ? "" : d.error().message());
    return d.ok() ? d->hardware.link_ratio : -1.0;
  };
  EXPECT_DOUBLE_EQ(ratio("H100-SXM"), 1.0);
  EXPECT_NEAR(ratio("H100-NVL"), 600.0 / 900.0, 1e-12);
  EXPECT_NEAR(ratio("B200"), 2.0, 1e-12);
}
