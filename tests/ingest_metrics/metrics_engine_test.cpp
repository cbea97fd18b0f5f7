// Engine adapters over every real capture in tests/data/metrics (and the synthetic fixtures for
// versions no real capture exists of): engine detection and the EngineSample values expected.
#include "ingest/metrics_engine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/files.h"
#include "ingest/metrics_quantile.h"

using namespace llmtriage;
using core::EngineKind;
using ingest::adapt_engine_metrics;

namespace {

std::string load(const std::string& name) {
  auto r = core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/" + name);
  EXPECT_TRUE(r.ok()) << name;
  return r.ok() ? *r : std::string();
}

ingest::EngineScrape adapt(const std::string& name, double t = 100) {
  std::string text = load(name);
  auto r = adapt_engine_metrics(text, t, {});
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : ingest::EngineScrape{};
}

double p(double q, const core::Histogram& h) { return ingest::histogram_quantile(q, h).value; }

}  // namespace

TEST(EngineAdapters, SGLangDocsCapture) {
  auto s = adapt("01_sglang_docs_production_metrics.prom");
  EXPECT_EQ(s.engine, EngineKind::sglang);
  EXPECT_EQ(s.malformed, 0u);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(e.engine_index, "");
  EXPECT_EQ(e.engine, EngineKind::sglang);
  EXPECT_DOUBLE_EQ(e.t_s, 100);
  EXPECT_EQ(e.running, 162);
  EXPECT_EQ(e.waiting, 2826);
  EXPECT_EQ(e.kv_usage, 0.28);
  EXPECT_EQ(e.prompt_tokens_total, 8128902);
  EXPECT_EQ(e.generation_tokens_total, 7557572);
  EXPECT_DOUBLE_EQ(*e.prefix_cache_hit_rate, 0.007507552643049313);
  EXPECT_DOUBLE_EQ(*e.generation_throughput_tok_s, 86.50814177726902);
  EXPECT_FALSE(e.prefix_cache_queries_total);  // no cached_tokens_total in this version
  ASSERT_EQ(e.ttft_s.upper_bounds.size(), 21u);
  EXPECT_TRUE(std::isinf(e.ttft_s.upper_bounds.back()));
  EXPECT_EQ(e.ttft_s.count, 11008);
  EXPECT_DOUBLE_EQ(e.ttft_s.sum, 2.3518979474117756e+06);
  // 2826 queued: most TTFTs exceed the last finite bucket (30 s); PromQL then answers 30.
  EXPECT_DOUBLE_EQ(p(0.5, e.ttft_s), 30.0);
  // The old time_per_output_token_seconds name feeds token-level ITL.
  EXPECT_EQ(e.itl_s.count, 7.400757e+06);
  EXPECT_EQ(e.e2e_s.count, 11228);
}

TEST(EngineAdapters, VllmV0AibrixCapture) {
  auto s = adapt("02_vllm_v0_aibrix_runtime_doc.prom");
  EXPECT_EQ(s.engine, EngineKind::vllm_v0);
  EXPECT_NE(s.detected_by.find("vllm:num_requests_swapped"), std::string::npos) << s.detected_by;
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "Qwen/Qwen2.5-Coder-1.5B-Instruct");
  EXPECT_EQ(e.running, 0);
  EXPECT_EQ(e.waiting, 0);
  EXPECT_EQ(e.swapped, 0);
  EXPECT_EQ(e.kv_usage, 0);
  EXPECT_FALSE(e.prefix_cache_hit_rate);  // -1 = prefix caching off
  EXPECT_EQ(e.preemptions_total, 0);
  EXPECT_EQ(e.prompt_tokens_total, 148);
  EXPECT_EQ(e.generation_tokens_total, 955);
  EXPECT_EQ(e.requests_finished_total, 4);
  // cache_config_info: 81767 blocks x 16 tokens.
  EXPECT_EQ(e.kv_cache_capacity_tokens, 81767.0 * 16);
  EXPECT_TRUE(e.ttft_s.empty());
}

TEST(EngineAdapters, VllmV1EarlyWithoutEngineLabel) {
  auto s = adapt("03_vllm_v1early_prodstack_issue318_excerpt.prom");
  EXPECT_EQ(s.engine, EngineKind::vllm);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "Qwen/Qwen2.5-Coder-32B-Instruct");
  EXPECT_EQ(e.engine_index, "");
  EXPECT_EQ(e.running, 0);
  EXPECT_EQ(e.waiting, 0);
  EXPECT_EQ(e.kv_usage, 0);  // from the old gpu_cache_usage_perc
  EXPECT_FALSE(e.swapped);
}

TEST(EngineAdapters, Vllm0_10WithDeprecatedAndNewNamesAndCreatedSeries) {
  auto s = adapt("04_vllm_v0.10.0_prodstack_issue617_excerpt.prom");
  EXPECT_EQ(s.engine, EngineKind::vllm);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "zai-org/GLM-4.5");
  EXPECT_EQ(e.engine_index, "0");
  EXPECT_DOUBLE_EQ(*e.kv_usage, 9.75010481363281e-06);
  EXPECT_EQ(e.prefix_cache_queries_total, 32);
  EXPECT_EQ(e.prefix_cache_hits_total, 0);  // *_created gauges (Unix times) are not read as counters
}

TEST(EngineAdapters, VllmDataParallelEngineOneWithTruncatedHistogram) {
  auto s = adapt("05_vllm_v1_dp_engine1_pr22227_excerpt.prom");
  EXPECT_EQ(s.engine, EngineKind::vllm);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.engine_index, "1");
  EXPECT_EQ(e.model_name, "/home/jovyan/qwen3-8b");
  EXPECT_EQ(e.ttft_s.upper_bounds.size(), 13u);
  EXPECT_TRUE(std::isnan(p(0.5, e.ttft_s)));  // no +Inf bucket: PromQL gives NaN
  ASSERT_FALSE(s.notes.empty());
  EXPECT_NE(s.notes[0].find("no +Inf bucket"), std::string::npos);
}

TEST(EngineAdapters, VllmAllBucketsEqualExcerpt) {
  auto s = adapt("06_vllm_v0.5.1_issue6337_ttft_all_buckets_equal_excerpt.prom");
  // An excerpt without any V0/V1 marker cannot tell the generation apart: read as vLLM.
  EXPECT_EQ(s.engine, EngineKind::vllm);
  EXPECT_NE(s.detected_by.find("assumed V1"), std::string::npos) << s.detected_by;
  ASSERT_EQ(s.samples.size(), 1u);
  EXPECT_EQ(s.samples[0].ttft_s.cumulative_counts, std::vector<double>(6, 208.0));
}

TEST(EngineAdapters, TritonTensorRtLlmBackend) {
  auto s = adapt("07_trtllm_triton_backend_readme.prom");
  EXPECT_EQ(s.engine, EngineKind::trtllm);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "tensorrt_llm");
  EXPECT_EQ(e.running, 0);   // request_type="active"
  EXPECT_EQ(e.waiting, 1);   // request_type="waiting"
  EXPECT_EQ(e.kv_usage, 0.4875);
  EXPECT_EQ(e.kv_cache_capacity_tokens, 6239.0 * 64);
  EXPECT_EQ(e.requests_finished_total, 0);
}

TEST(EngineAdapters, DcgmExporterIsNoEngineAndItsElisionsAreReported) {
  auto s = adapt("08_dcgm_exporter_readme.prom");
  EXPECT_EQ(s.engine, EngineKind::unknown);
  EXPECT_TRUE(s.samples.empty());
  EXPECT_EQ(s.malformed, 2u);  // the two "..." lines
  ASSERT_EQ(s.errors.size(), 2u);
  EXPECT_EQ(s.errors[0].message(), "line 9: expected a metric name, found '.'");
}

TEST(EngineAdapters, LlamaCppServer) {
  auto s = adapt("09_llamacpp_pr13196_comment_excerpt.prom");
  EXPECT_EQ(s.engine, EngineKind::llamacpp);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "");
  EXPECT_EQ(e.prompt_tokens_total, 143);
  EXPECT_EQ(e.generation_tokens_total, 673);
  EXPECT_FALSE(e.kv_usage);  // removed from llama.cpp in May 2025
}

// A real llama-server (b10470) scraped with 4 slots busy and 4 requests deferred.
TEST(EngineAdapters, LlamaCppB10470SlotsBusyAndDeferred) {
  auto s = adapt("11_llamacpp_b10470_8parallel_4slots.prom");
  EXPECT_EQ(s.engine, EngineKind::llamacpp);
  EXPECT_EQ(s.malformed, 0u);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.running, 4);
  EXPECT_EQ(e.waiting, 4);
  EXPECT_EQ(e.generation_tokens_total, 10240);
  // prompt_tokens_total excludes cached tokens: queries are evaluated + cached.
  EXPECT_EQ(e.prompt_tokens_total, 2576);
  EXPECT_EQ(e.prefix_cache_hits_total, 0);
  EXPECT_EQ(e.prefix_cache_queries_total, 2576);
  EXPECT_EQ(e.longest_sequence_tokens, 394);  // n_tokens_max: a high-water mark, typed counter
  // The reset-on-read per-slot gauges are not throughput: never read (0 here while generating).
  EXPECT_FALSE(e.generation_throughput_tok_s);
  EXPECT_FALSE(e.prompt_throughput_tok_s);
  EXPECT_FALSE(e.kv_usage);
}

TEST(EngineAdapters, TrtllmServeUnprefixedNames) {
  auto s = adapt("10_trtllm_serve_pr5785_excerpt.prom");
  EXPECT_EQ(s.engine, EngineKind::trtllm);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.model_name, "undefined");
  EXPECT_EQ(e.ttft_s.count, 2);
  EXPECT_DOUBLE_EQ(p(0.5, e.ttft_s), 1.25);  // both in the first (2.5 s) bucket of the excerpt
}

TEST(EngineAdapters, VllmV1TwoModelsTwoDataParallelEnginesKeptApart) {
  auto s = adapt("synthetic_vllm_v1_0.11_two_models_dp2.prom");
  EXPECT_EQ(s.engine, EngineKind::vllm);
  ASSERT_EQ(s.samples.size(), 3u);
  const auto& a0 = s.samples[0];
  const auto& a1 = s.samples[1];
  const auto& b0 = s.samples[2];
  EXPECT_EQ(a0.model_name, "a");
  EXPECT_EQ(a0.engine_index, "0");
  EXPECT_EQ(a1.engine_index, "1");
  EXPECT_EQ(b0.model_name, "b");
  EXPECT_EQ(a0.running, 12);
  EXPECT_EQ(a0.waiting, 3);
  EXPECT_EQ(a0.kv_usage, 0.61);  // kv_cache_usage_perc wins over the deprecated twin (0.99)
  EXPECT_EQ(a0.prefix_cache_queries_total, 10000);
  EXPECT_EQ(a0.prefix_cache_hits_total, 4000);
  EXPECT_EQ(a0.preemptions_total, 7);
  EXPECT_EQ(a0.requests_finished_total, 321);  // stop + length + abort
  EXPECT_EQ(a0.kv_cache_capacity_tokens, 27000.0 * 16);
  EXPECT_EQ(a1.kv_cache_capacity_tokens, 26000.0 * 16);
  EXPECT_EQ(b0.kv_cache_capacity_tokens, 27000.0 * 16);
  EXPECT_EQ(a1.running, 9);
  EXPECT_EQ(a0.ttft_s.count, 400);
  EXPECT_EQ(a0.itl_s.count, 1000);
  EXPECT_EQ(b0.ttft_s.count, 10);
  EXPECT_EQ(a0.ttft_s.upper_bounds.size(), 23u);
  EXPECT_TRUE(a0.tpot_s.empty());
}

TEST(EngineAdapters, TgiRouterMetrics) {
  auto s = adapt("synthetic_tgi.prom");
  EXPECT_EQ(s.engine, EngineKind::tgi);
  ASSERT_EQ(s.samples.size(), 1u);
  const auto& e = s.samples[0];
  EXPECT_EQ(e.running, 32);
  EXPECT_EQ(e.waiting, 17);
  EXPECT_EQ(e.requests_finished_total, 1234);
  EXPECT_EQ(e.kv_cache_capacity_tokens, 163840);
  EXPECT_EQ(e.e2e_s.count, 1234);
  EXPECT_EQ(e.tpot_s.count, 1234);
  EXPECT_TRUE(e.ttft_s.empty());  // TGI exports no TTFT histogram
}

TEST(EngineAdapters, UnderscoreSeparatorRewriteIsAccepted) {
  // Some proxies rewrite "sglang:" to "sglang_" (SGLang router /engine_metrics).
  auto r = adapt_engine_metrics("sglang_num_running_reqs{model_name=\"m\"} 5\n"
                                "sglang_num_queue_reqs{model_name=\"m\"} 7\n", 1, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->engine, EngineKind::sglang);
  ASSERT_EQ(r->samples.size(), 1u);
  EXPECT_EQ(r->samples[0].running, 5);
  EXPECT_EQ(r->samples[0].waiting, 7);
}

TEST(EngineAdapters, StrictModeFailsOnTheFirstMalformedLine) {
  ingest::AdaptOptions opt;
  opt.strict = true;
  opt.source = "m.prom";
  auto r = adapt_engine_metrics("vllm:num_requests_running 1\nvllm:num_requests_waiting{ 2\n", 1, opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "m.prom:2");
  auto lenient = adapt_engine_metrics("vllm:num_requests_running 1\nvllm:num_requests_waiting{ 2\n", 1, {});
  ASSERT_TRUE(lenient.ok());
  EXPECT_EQ(lenient->malformed, 1u);
  EXPECT_EQ(lenient->samples.at(0).running, 1);
}

TEST(EngineAdapters, GivenEngineOverridesDetection) {
  ingest::AdaptOptions opt;
  opt.engine = EngineKind::vllm_v0;
  auto r = adapt_engine_metrics("vllm:num_requests_running{model_name=\"m\"} 3\n", 1, opt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->engine, EngineKind::vllm_v0);
  EXPECT_EQ(r->detected_by, "given");
  EXPECT_EQ(r->samples.at(0).engine, EngineKind::vllm_v0);
}
