// sim::CostModel terms that TTFT depends on: the eager-prefill per-layer cost (only steps with
// prompt tokens, only engines whose prefill runs without CUDA graphs) and the all-reduce's two
// regimes (custom all-reduce for small messages, NCCL ring for large ones; PCIe its own line).
#include "sim/cost_model.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llmtriage::sim;

namespace {

// One request of `prompt` tokens; `computed` of them already in the cache.
SimRequest req(int32_t prompt, int32_t computed, int32_t output = 8, int32_t generated = 0) {
  SimRequest r;
  r.prompt_len = prompt;
  r.num_computed = computed;
  r.max_output = output;
  r.num_output = generated;
  return r;
}

StepPlan plan_for(const std::vector<SimRequest>& reqs, const std::vector<int32_t>& new_tokens) {
  StepPlan p;
  for (size_t i = 0; i < reqs.size(); ++i) {
    p.seqs.push_back({static_cast<int32_t>(i), new_tokens[i], reqs[i].num_computed});
    p.num_tokens += new_tokens[i];
    if (reqs[i].prefill_done()) ++p.num_decode;
    else ++p.num_prefill;
  }
  return p;
}

CostModel model(const std::string& engine, int tp = 1, bool nvlink = true, Calibration c = {}) {
  ModelShape m;  // Llama-3.1-8B-like defaults
  HardwareShape h;
  h.tp = tp;
  h.nvlink = nvlink;
  return CostModel(m, h, c, engine_preset(engine).value());
}

}  // namespace

TEST(CostModel, EagerPrefillCostIsPaidPerLayerOnlyByStepsWithPromptTokensInEnginesWithoutPrefillGraphs) {
  // A decode step (one sequence, context 100) and a prefill step of 1 token that otherwise costs
  // the same: the difference is exactly layers x prefill_layer_us for sglang and vllm-v0, 0 for
  // vllm (V1, piecewise graphs) and trtllm.
  const std::vector<SimRequest> dec = {req(100, 100, 8, 1)};  // prompt done, computing its next token
  const std::vector<SimRequest> pre = {req(101, 100)};         // last prompt token still to compute
  const StepPlan pd = plan_for(dec, {1}), pp = plan_for(pre, {1});
  ASSERT_EQ(pd.num_prefill, 0);
  ASSERT_EQ(pp.num_prefill, 1);
  for (const auto& [engine, per_layer_us] :
       std::vector<std::pair<std::string, double>>{{"sglang", 200}, {"vllm-v0", 200}, {"vllm", 0}, {"trtllm", 0}}) {
    const CostModel cm = model(engine);
    const double diff = cm.step(pp, pre).fixed_s - cm.step(pd, dec).fixed_s;
    EXPECT_NEAR(diff, 32 * per_layer_us * 1e-6, 1e-12) << engine;
  }
  // The calibration overrides the preset (0 turns it off for sglang; 50 turns it on for vllm).
  Calibration off;
  off.prefill_layer_us = 0;
  EXPECT_NEAR(model("sglang", 1, true, off).step(pp, pre).fixed_s, model("sglang").step(pd, dec).fixed_s, 1e-12);
  Calibration on;
  on.prefill_layer_us = 50;
  EXPECT_NEAR(model("vllm", 1, true, on).step(pp, pre).fixed_s - model("vllm").step(pd, dec).fixed_s, 32 * 50e-6, 1e-12);
}

TEST(CostModel, AllReduceUsesTheCheaperOfCustomAndNcclOnNvlinkAndThePcieLineWithoutIt) {
  const Calibration c;
  const double hidden = 4096, layers = 32;
  // Small step: 8 decode tokens -> 64 KiB per all-reduce: the custom all-reduce's latency rules.
  std::vector<SimRequest> small;
  for (int i = 0; i < 8; ++i) small.push_back(req(50, 50, 8, 1));
  const StepPlan ps = plan_for(small, std::vector<int32_t>(8, 1));
  const double msg_s = 8 * hidden * 2;
  EXPECT_NEAR(model("vllm", 2).step(ps, small).allreduce_s, 2 * layers * (c.ar_latency_us * 1e-6 + msg_s / c.ar_bw), 1e-12);
  // Large step: one 8192-token prefill chunk -> 64 MiB per all-reduce: the NCCL line is cheaper.
  const std::vector<SimRequest> big = {req(8192, 0)};
  const StepPlan pb = plan_for(big, {8192});
  const double msg_b = 8192 * hidden * 2;
  const double nccl = c.ar_large_latency_us * 1e-6 + msg_b / c.ar_large_bw;
  ASSERT_LT(nccl, c.ar_latency_us * 1e-6 + msg_b / c.ar_bw);
  EXPECT_NEAR(model("vllm", 2).step(pb, big).allreduce_s, 2 * layers * nccl, 1e-12);
  // PCIe: no custom all-reduce, its own latency and bandwidth, stated for a ring over 4 GPUs
  // (1.5x the message per link); a ring over 2 sends 1x, over 8 1.75x.
  EXPECT_NEAR(model("vllm", 4, false).step(pb, big).allreduce_s,
              2 * layers * (c.ar_latency_pcie_us * 1e-6 + msg_b / c.ar_bw_pcie), 1e-12);
  EXPECT_NEAR(model("vllm", 2, false).step(pb, big).allreduce_s,
              2 * layers * (c.ar_latency_pcie_us * 1e-6 + msg_b / 1.5 / c.ar_bw_pcie), 1e-12);
  EXPECT_NEAR(model("vllm", 8, false).step(pb, big).allreduce_s,
              2 * layers * (c.ar_latency_pcie_us * 1e-6 + msg_b * 1.75 / 1.5 / c.ar_bw_pcie), 1e-12);
  // TP 1: none.
  EXPECT_EQ(model("vllm", 1).step(pb, big).allreduce_s, 0.0);
}

// The all-reduce's bandwidth terms scale with the GPU's NVLink bandwidth against the H100 SXM's
// (where the constants were measured); its latencies do not.
TEST(CostModel, AllReduceBandwidthScalesWithTheNvlinkOfTheGpu) {
  const Calibration c;
  const double hidden = 4096, layers = 32;
  const std::vector<SimRequest> big = {req(8192, 0)};
  const StepPlan pb = plan_for(big, {8192});
  const double msg_b = 8192 * hidden * 2;
  auto at = [&](double link) {
    ModelShape m;
    HardwareShape h;
    h.tp = 2;
    h.link_ratio = link;
    return CostModel(m, h, c, engine_preset("vllm").value()).step(pb, big).allreduce_s;
  };
  EXPECT_NEAR(at(1.0), 2 * layers * (c.ar_large_latency_us * 1e-6 + msg_b / c.ar_large_bw), 1e-12);
  // An RTX 3090 bridge (112.5 of 900 GB/s): the bandwidth term 8x, the latency as it was.
  EXPECT_NEAR(at(0.125), 2 * layers * (c.ar_large_latency_us * 1e-6 + msg_b / (c.ar_large_bw * 0.125)), 1e-12);
  EXPECT_GT(at(0.125), 7 * at(1.0));
  EXPECT_LT(at(2.0), at(1.0));
}

TEST(CostModel, CalibrationFileAcceptsTheNewKeysAndStillRejectsUnknownOnes) {
  auto c = Calibration::from_json_text(
      R"({"prefill_layer_us": 120, "ar_large_latency_us": 25, "ar_large_bw": 3e11, "ar_bw_pcie": 1.5e10})", "cal.json");
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(c->prefill_layer_us, 120);
  EXPECT_EQ(c->ar_large_latency_us, 25);
  EXPECT_EQ(c->ar_large_bw, 3e11);
  EXPECT_EQ(c->ar_bw_pcie, 1.5e10);
  auto bad = Calibration::from_json_text(R"({"prefill_layer": 120})", "cal.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("prefill_layer_us"), std::string::npos) << bad.error().message();
}

// The calibration file a tool writes (sim calibrate, the fidelity runner) reads back to the same
// constants: every key, including the ones left to the engine preset when unset.
TEST(Calibration, ToJsonReadsBackToTheSameConstants) {
  Calibration c;
  c.mfu = 0.41;
  c.mfu_fp8 = 0.52;
  c.mfu_fp4 = 0.37;
  c.gemm_k0 = 300;
  c.mbu = 0.63;
  c.attn_eff = 0.74;
  c.layer_fixed_us = 55;
  c.ar_latency_us = 11;
  c.ar_latency_pcie_us = 41;
  c.ar_bw = 1.1e11;
  c.ar_large_latency_us = 31;
  c.ar_large_bw = 2.6e11;
  c.ar_bw_pcie = 2.1e10;
  c.cpu_step_ms = 1.5;
  c.cpu_per_seq_us = 12;
  c.cpu_overlapped = 1;
  c.prefill_layer_us = 190;
  auto back = Calibration::from_json_text(c.to_json().dump(), "test");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->to_json(), c.to_json());
  EXPECT_EQ(c.to_json().size(), 17u);  // every key of the table
  EXPECT_EQ(back->mfu_fp4, 0.37);
  EXPECT_EQ(back->prefill_layer_us, 190);
  EXPECT_EQ(back->cpu_overlapped, 1);
  // Unset preset-dependent keys stay unset (the preset decides), not written as -1.
  const Calibration d;
  const auto j = d.to_json();
  EXPECT_FALSE(j.contains("cpu_step_ms"));
  EXPECT_FALSE(j.contains("cpu_overlapped"));
  EXPECT_FALSE(j.contains("prefill_layer_us"));
  EXPECT_TRUE(j.contains("ar_bw_pcie"));
}

// The GEMM-shape factor (issue 18, third step; opt-in, gemm_k0 = 0 by default): kappa(K) =
// K / (K + K0) per GEMM, FLOP-weighted over a model's per-GPU GEMMs, relative to a Llama-3-8B layer
// at TP 1. The reference shape runs at exactly mfu (its step times do not move); deeper K (70B's
// hidden 8192) runs faster, K split by TP (O and down projections) slower; K0 doubles with the
// FP8 peak.
TEST(CostModel, GemmEfficiencyGrowsWithTheReductionDepthRelativeToTheEightBLayer) {
  ModelShape b8;  // Llama-3.1-8B-like defaults = the reference layer
  ModelShape b70 = b8;
  b70.n_layers = 80;
  b70.hidden = 8192;
  b70.n_heads = 64;
  b70.intermediate = 28672;
  EXPECT_EQ(b8.gemm_k_time_factor(2, 0), 1.0);
  // 8B at TP 1, K0 290: QKV/O/gate-up at K 4096 (4096+290)/4096, down at K 14336 (14336+290)/14336,
  // weighted by their parameters (25.2M, 16.8M, 117.4M; 58.7M).
  const double q = 4096.0 * 4096, kv = 2.0 * 4096 * 1024, gu = 2.0 * 4096 * 14336, dn = 4096.0 * 14336;
  const double want = ((q + kv + q + gu) * 4386.0 / 4096 + dn * 14626.0 / 14336) / (q + kv + q + gu + dn);
  EXPECT_NEAR(b8.gemm_k_time_factor(1, 290), want, 1e-12);
  EXPECT_LT(b70.gemm_k_time_factor(2, 580), b8.gemm_k_time_factor(1, 580));  // deeper K, faster
  EXPECT_GT(b70.gemm_k_time_factor(8, 580), b70.gemm_k_time_factor(2, 580));  // TP splits O/down K

  // A compute-bound step (4096 prompt tokens): the reference's GEMM time is the same with the
  // factor on or off; 70B FP8 at TP 2 is faster by its factor relative to the reference's.
  const std::vector<SimRequest> reqs = {req(4096, 0)};
  const StepPlan p = plan_for(reqs, {4096});
  const Calibration off;  // the default: off
  EXPECT_EQ(off.gemm_k0, 0.0);
  Calibration on;
  on.gemm_k0 = 290;  // XLA's H100 table (docs/sim.md)
  auto gemm = [&](const ModelShape& m, int tp, bool fp8, const Calibration& c) {
    HardwareShape h;
    h.tp = tp;
    if (fp8) h.peak_flops = 2 * h.peak_attn_flops;
    return CostModel(m, h, c, engine_preset("trtllm").value()).step(p, reqs).gemm_s;
  };
  for (bool fp8 : {false, true}) {
    EXPECT_EQ(gemm(b8, 1, fp8, on), gemm(b8, 1, fp8, off)) << fp8;
    const double k0 = fp8 ? 580 : 290;
    const double ratio = b70.gemm_k_time_factor(2, k0) / b8.gemm_k_time_factor(1, k0);
    EXPECT_LT(ratio, 1.0);
    // lm_head (one sampled sequence, K = 8192 vs the reference's 4096) moves by its own factor; its
    // FLOPs are <0.1% of this step's, so the step follows the layers' factor.
    EXPECT_NEAR(gemm(b70, 2, fp8, on) / gemm(b70, 2, fp8, off), ratio, 1e-3) << fp8;
  }
}

// A compute-bound step's GEMM time divides by the efficiency of the GEMM's dtype, chosen by the
// peak's ratio to bf16: mfu (bf16), mfu_fp8 (2x, FP8), mfu_fp4 (4x, Blackwell FP4). Changing one
// factor moves only its dtype.
TEST(CostModel, EachGemmDtypeRunsAtItsOwnEfficiency) {
  const std::vector<SimRequest> reqs = {req(4096, 0)};
  const StepPlan p = plan_for(reqs, {4096});
  auto gemm = [&](double peak_ratio, const Calibration& c) {
    HardwareShape h;
    h.peak_flops = peak_ratio * h.peak_attn_flops;
    return CostModel(ModelShape{}, h, c, engine_preset("trtllm").value()).step(p, reqs).gemm_s;
  };
  const Calibration base;
  EXPECT_EQ(base.mfu_fp4, 0.40);
  Calibration half_fp4 = base;
  half_fp4.mfu_fp4 = base.mfu_fp4 / 2;
  EXPECT_NEAR(gemm(4, half_fp4) / gemm(4, base), 2.0, 1e-12);
  EXPECT_EQ(gemm(2, half_fp4), gemm(2, base));
  EXPECT_EQ(gemm(1, half_fp4), gemm(1, base));
  // At equal efficiency FP4 would be twice as fast as FP8; at 0.40 vs 0.50 it is 1.6x.
  EXPECT_NEAR(gemm(2, base) / gemm(4, base), 2.0 * base.mfu_fp4 / base.mfu_fp8, 1e-12);
  // Out-of-range values are refused when read from a file.
  EXPECT_FALSE(Calibration::from_json_text(R"({"mfu_fp4": 1.5})", "t").ok());
}
