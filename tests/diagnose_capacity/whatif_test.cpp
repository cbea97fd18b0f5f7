// Simulator what-ifs on the observed deployment and workload (src/diagnose/whatif.h).
#include <gtest/gtest.h>

#include "diagnose/capacity_kit.h"
#include "diagnose/whatif.h"
#include "diagnose_capacity/capacity_helpers.h"

namespace llmtriage::diagnose {
namespace {

using testing::Case;

// 200 requests at 4 req/s: 400-token prompts and two 24k-token prompts (1%: the P99 is
// a short request stuck behind a long prefill, as in data/scenarios/ttft-spike-long-prefill.json).
std::vector<core::RequestRecord> long_prompt_records() {
  std::vector<core::RequestRecord> out;
  for (int i = 0; i < 200; ++i) {
    core::RequestRecord r;
    r.id = "r" + std::to_string(i);
    r.arrival_s = i * 0.25;
    r.input_tokens = i % 100 == 37 ? 24000 : 400;
    r.output_tokens = 150;
    out.push_back(r);
  }
  return out;
}

Case v0_no_chunking() {
  Case c;
  c.in.what_if = true;
  auto& d = c.in.now.deployment;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  d.engine = core::EngineKind::vllm_v0;
  d.settings.enable_chunked_prefill = false;
  d.settings.max_model_len = 32768;
  c.in.now.requests = long_prompt_records();
  // The engine's reported pool (metrics): small, so the simulator's Debug-build invariant checks
  // (every block, every step) stay cheap.
  c.set({{"kv_capacity_tokens", 60000}});
  return c;
}

void chunked_on(sim::Scenario& s) {
  s.chunked_prefill = true;
  s.max_num_batched_tokens = 2048;  // V0's chunked budget (the analyzer's remedy sets the same)
}

TEST(WhatIf, ChunkedPrefillLowersPredictedP99TtftOnLongPrompts) {
  Case c = v0_no_chunking();
  // The engine's completion counter says 1 req/s (an overloaded engine completes fewer than
  // arrive): the records' arrivals, 4 req/s, drive the what-if.
  c.set({{"request_rate", 1.0}});
  auto w = whatif_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok()) << w.error().message();
  EXPECT_NE(w->workload_basis.find("records (200 requests): 4.00 req/s"), std::string::npos) << w->workload_basis;
  ASSERT_TRUE(w->baseline.starts);
  EXPECT_GT(w->baseline.completed, 150u);
  auto after = predict_changed(*w, chunked_on);
  ASSERT_TRUE(after.ok()) << after.error().message();
  EXPECT_LT(after->ttft_p99_s, w->baseline.ttft_p99_s);
  EXPECT_GT(w->baseline.ttft_p99_s, 0.0);
}

TEST(WhatIf, SameEvidenceSamePrediction) {
  Case c = v0_no_chunking();
  auto a = whatif_setup(c.in, c.ind);
  auto b = whatif_setup(c.in, c.ind);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->baseline.ttft_p99_s, b->baseline.ttft_p99_s);
  EXPECT_EQ(a->baseline.tpot_p99_s, b->baseline.tpot_p99_s);
  EXPECT_EQ(a->baseline.output_tokens_per_s, b->baseline.output_tokens_per_s);
  auto x = predict_changed(*a, chunked_on), y = predict_changed(*b, chunked_on);
  ASSERT_TRUE(x.ok() && y.ok());
  EXPECT_EQ(x->ttft_p99_s, y->ttft_p99_s);
}

TEST(WhatIf, WorkloadFromIndicatorsWhenNoRecords) {
  Case c;
  auto& d = c.in.now.deployment;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  c.set({{"request_rate", 5}, {"input_len_mean", 1000}, {"input_len_p99", 4000}, {"output_len_mean", 200}});
  auto w = whatif_setup(c.in, c.ind, 100);
  ASSERT_TRUE(w.ok()) << w.error().message();
  EXPECT_NE(w->workload_basis.find("indicators: 5.00 req/s"), std::string::npos) << w->workload_basis;
  EXPECT_EQ(w->scenario.config.workload.input.kind, sim::LengthDist::Kind::lognormal);
  EXPECT_GT(w->scenario.config.workload.input.sigma, 0.3);  // p99 = 4 x mean is a wide spread
  EXPECT_GT(w->baseline.output_tokens_per_s, 0.0);
}

TEST(WhatIf, NoWorkloadIsAnErrorNamingWhatIsMissing) {
  Case c;
  c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.in.now.deployment.gpu = "H100-SXM";
  c.set({{"input_len_mean", 1000}});
  auto w = whatif_setup(c.in, c.ind);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message().find("request_rate"), std::string::npos) << w.error().message();
  Case none;
  auto v = whatif_setup(none.in, none.ind);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message().find("model"), std::string::npos) << v.error().message();
}

TEST(WhatIf, ObservedPoolScalesByTheLedgersRatio) {
  Case c;
  auto& d = c.in.now.deployment;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  d.settings.max_model_len = 8192;
  c.set({{"request_rate", 5}, {"input_len_mean", 1000}, {"output_len_mean", 200}, {"kv_capacity_tokens", 50000}});
  auto w = whatif_setup(c.in, c.ind, 100);
  ASSERT_TRUE(w.ok()) << w.error().message();
  EXPECT_TRUE(w->pool_observed);
  EXPECT_EQ(w->baseline.kv_cache_tokens, 50000);
  auto fp8 = predict_changed(*w, [](sim::Scenario& s) { s.deployment.kv_cache_dtype = "fp8"; });
  ASSERT_TRUE(fp8.ok()) << fp8.error().message();
  // bf16 -> fp8 halves the bytes per token: about twice the tokens (block rounding aside).
  EXPECT_NEAR(static_cast<double>(fp8->kv_cache_tokens) / 50000.0, 2.0, 0.1);
}

TEST(WhatIf, RemedyStatesUncertaintyAndReproduction) {
  Case c = v0_no_chunking();
  auto w = whatif_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok());
  auto after = predict_changed(*w, chunked_on);
  ASSERT_TRUE(after.ok());
  Remedy ok = whatif_remedy("enable-chunked-prefill", "false", "true", *w, *after, Metric::ttft_p99,
                            w->baseline.ttft_p99_s * 1.2);
  EXPECT_EQ(ok.basis, "sim");
  ASSERT_TRUE(ok.uncertainty.has_value());
  EXPECT_DOUBLE_EQ(*ok.uncertainty, kSimTtftUncertainty);
  EXPECT_NE(ok.predicted_effect.find("P99 TTFT"), std::string::npos) << ok.predicted_effect;
  EXPECT_NE(ok.predicted_effect.find("+-30%"), std::string::npos) << ok.predicted_effect;
  // An observation 10x the simulated baseline: only the direction is trusted, and the remedy says so.
  Remedy far = whatif_remedy("enable-chunked-prefill", "false", "true", *w, *after, Metric::ttft_p99,
                             w->baseline.ttft_p99_s * 10);
  EXPECT_NE(far.predicted_effect.find("does not reproduce"), std::string::npos) << far.predicted_effect;
  EXPECT_GE(*far.uncertainty, 1.0);
}

TEST(WhatIf, LongPrefillFindingCarriesASimulatedRemedy) {
  Case c = v0_no_chunking();
  c.set({{"waiting_p50", 0}, {"input_len_p99", 24000}});
  // Observed P99 TTFT: the simulator's own baseline (a reproduced symptom).
  auto w = whatif_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok());
  c.set({{"ttft_p99_s", std::max(w->baseline.ttft_p99_s, c.in.slo.ttft_p99_s + 0.5)}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "long_prefill_blocking");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  const Remedy& m = f->remedies[0];
  EXPECT_EQ(m.change, "enable-chunked-prefill");
  EXPECT_EQ(m.basis, "sim");
  EXPECT_NE(m.predicted_effect.find("P99 TTFT"), std::string::npos) << m.predicted_effect;
}

TEST(WhatIf, RemediesAreOrderedByTheirPrediction) {
  auto rem = [](const char* change) {
    Remedy r;
    r.change = change;
    return r;
  };
  kit::Scored s = {{rem("max-num-seqs"), 131.0}, {rem("kv-cache-dtype"), 1.23}, {rem("router"), std::nullopt},
                   {rem("replicas"), 0.61}};
  auto ttft = kit::ordered(s, Metric::ttft_p99);
  ASSERT_EQ(ttft.size(), 4u);
  EXPECT_EQ(ttft[0].change, "replicas");
  EXPECT_EQ(ttft[1].change, "kv-cache-dtype");
  EXPECT_EQ(ttft[2].change, "max-num-seqs");
  EXPECT_EQ(ttft[3].change, "router");  // unpredicted ones keep their place after the predicted
  auto tput = kit::ordered(s, Metric::throughput);
  EXPECT_EQ(tput[0].change, "max-num-seqs");  // higher throughput first
}

TEST(WhatIf, WhatIfOffGivesQualitativeRemedies) {
  Case c = v0_no_chunking();
  c.in.what_if = false;
  c.set({{"waiting_p50", 0}, {"input_len_p99", 24000}, {"ttft_p99_s", 8}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "long_prefill_blocking");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->remedies[0].basis, "qualitative");
}

}  // namespace
}  // namespace llmtriage::diagnose
