// /metrics exposition: our own parser reads it back into the EngineSample the simulator produced.
#include "serve/metrics.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "ingest/metrics_engine.h"
#include "sim/scenario.h"

namespace llmtriage::serve {

namespace {

sim::SimConfig config(int replicas) {
  sim::Scenario s;
  s.deployment.kv_cache_tokens = 50000;
  s.deployment.max_model_len = 4096;
  s.config.replicas = replicas;
  EXPECT_TRUE(sim::resolve(s).ok());
  return s.config;
}

// Runs a small load through the engine and fills the histograms the way the server does.
void run_load(sim::OnlineEngine& e, std::vector<std::unique_ptr<ReplicaMetrics>>& ms, MetricsStyle style) {
  for (int i = 0; i < e.num_replicas(); ++i) ms.push_back(std::make_unique<ReplicaMetrics>(style, 4096));
  for (int i = 0; i < 12; ++i) e.add(0.01 * i, 200 + 50 * i, 10 + i);
  std::vector<double> last(12, -1);
  e.advance(0.0, nullptr);
  while (std::isfinite(e.next_event_s()))
    e.advance(e.next_event_s(), [&](const sim::StepReport& r) {
      auto& m = *ms[static_cast<size_t>(r.replica)];
      m.iteration_tokens.observe(static_cast<double>(r.plan->num_tokens));
      for (const auto& q : r.plan->seqs) {
        const auto& rq = e.request(q.req);
        if (rq.num_output == 0 || rq.last_token_s != r.end_s) continue;
        if (last[static_cast<size_t>(q.req)] < 0) m.ttft.observe(r.end_s - rq.arrival_s);
        else m.itl.observe(r.end_s - last[static_cast<size_t>(q.req)]);
        last[static_cast<size_t>(q.req)] = r.end_s;
      }
      for (int32_t id : r.finished) {
        const auto& rq = e.request(id);
        m.e2e.observe(rq.finish_s - rq.arrival_s);
        m.queue.observe(rq.first_scheduled_s - rq.arrival_s);
        m.prefill.observe(rq.first_token_s - rq.first_scheduled_s);
        m.decode.observe(rq.last_token_s - rq.first_token_s);
        m.tpot.observe((rq.last_token_s - rq.first_token_s) / (rq.num_output - 1));
        m.prompt_tokens.observe(rq.prompt_len);
        m.generation_tokens.observe(rq.num_output);
        ++m.finished[id % 2 ? 0 : 1];
      }
    });
  e.add(10.0, 300, 50);  // one still running at scrape time
  e.add(10.0, 300, 50, 0, 0, 0, 0);
  e.advance(10.0, nullptr);
  e.advance(e.next_event_s(), nullptr);
}

void expect_same_histogram(const core::Histogram& a, const core::Histogram& b, const char* what) {
  ASSERT_EQ(a.upper_bounds.size(), b.upper_bounds.size()) << what;
  for (size_t i = 0; i < a.upper_bounds.size(); ++i) {
    if (std::isinf(a.upper_bounds[i])) EXPECT_TRUE(std::isinf(b.upper_bounds[i])) << what;
    else EXPECT_DOUBLE_EQ(a.upper_bounds[i], b.upper_bounds[i]) << what;
    EXPECT_DOUBLE_EQ(a.cumulative_counts[i], b.cumulative_counts[i]) << what << " bucket " << i;
  }
  EXPECT_NEAR(a.sum, b.sum, 1e-9 * std::max(1.0, std::fabs(a.sum))) << what;
  EXPECT_DOUBLE_EQ(a.count, b.count) << what;
}

}  // namespace

TEST(ServeMetrics, VllmExpositionParsesBackIntoTheSameEngineSamples) {
  sim::OnlineEngine e(config(2));
  std::vector<std::unique_ptr<ReplicaMetrics>> ms;
  run_load(e, ms, MetricsStyle::vllm);
  std::vector<core::EngineSample> produced;
  std::vector<const ReplicaMetrics*> ptrs;
  for (int i = 0; i < 2; ++i) {
    produced.push_back(exposed_sample(e, i, *ms[static_cast<size_t>(i)], "my-model", 100.0));
    ptrs.push_back(ms[static_cast<size_t>(i)].get());
  }
  ASSERT_GT(*produced[0].running + *produced[1].running, 0.0);
  const std::string text = render_vllm(produced, ptrs, CacheInfo{16, "auto", true, 0.9, 3125});
  ingest::AdaptOptions ao;
  ao.strict = true;
  auto scrape = ingest::adapt_engine_metrics(text, 100.0, ao);
  ASSERT_TRUE(scrape.ok()) << scrape.error().message();
  EXPECT_EQ(scrape->engine, core::EngineKind::vllm);
  EXPECT_EQ(scrape->malformed, 0u);
  ASSERT_EQ(scrape->samples.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto& a = produced[i];
    const auto& b = scrape->samples[i];
    EXPECT_EQ(b.model_name, "my-model");
    EXPECT_EQ(b.engine_index, a.engine_index);
    for (auto f : {&core::EngineSample::running, &core::EngineSample::waiting, &core::EngineSample::kv_usage,
                   &core::EngineSample::preemptions_total, &core::EngineSample::prompt_tokens_total,
                   &core::EngineSample::generation_tokens_total, &core::EngineSample::requests_finished_total,
                   &core::EngineSample::prefix_cache_queries_total, &core::EngineSample::prefix_cache_hits_total}) {
      ASSERT_TRUE((b.*f).has_value());
      EXPECT_DOUBLE_EQ(*(b.*f), *(a.*f));
    }
    expect_same_histogram(a.ttft_s, b.ttft_s, "ttft");
    expect_same_histogram(a.itl_s, b.itl_s, "itl");
    expect_same_histogram(a.tpot_s, b.tpot_s, "tpot");
    expect_same_histogram(a.e2e_s, b.e2e_s, "e2e");
    expect_same_histogram(a.queue_s, b.queue_s, "queue");
    expect_same_histogram(a.prefill_s, b.prefill_s, "prefill");
    expect_same_histogram(a.decode_s, b.decode_s, "decode");
    expect_same_histogram(a.prompt_tokens, b.prompt_tokens, "prompt tokens");
    expect_same_histogram(a.output_tokens, b.output_tokens, "output tokens");
  }
}

TEST(ServeMetrics, AShrunkKvPoolIsReportedAsTheEngineWouldShowIt) {
  // kv_pool_shrink 0.7: the engine can use 30% of its blocks. vLLM has no withheld blocks; an
  // engine with less KV memory starts with fewer blocks, and usage is over those. So the
  // exposition says num_gpu_blocks = the usable pool and usage over it.
  sim::SimConfig cfg = config(1);
  sim::Fault f;
  f.kind = sim::FaultKind::kv_pool_shrink;
  f.factor = 0.7;
  f.start_s = 0;
  f.end_s = 1e9;
  cfg.faults.push_back(f);
  const int64_t blocks = cfg.num_blocks;
  sim::OnlineEngine e(cfg);
  std::vector<std::unique_ptr<ReplicaMetrics>> ms;
  run_load(e, ms, MetricsStyle::vllm);
  const auto s = exposed_sample(e, 0, *ms[0], "m", 100.0);
  const int64_t usable = blocks - static_cast<int64_t>(0.7 * static_cast<double>(blocks));
  EXPECT_DOUBLE_EQ(*s.kv_cache_capacity_tokens, static_cast<double>(usable * 16));
  const auto& kv = e.replica(0).kv;
  EXPECT_NEAR(*s.kv_usage, static_cast<double>(kv.num_blocks() - kv.num_free()) / static_cast<double>(usable), 1e-12);
  const std::string text = render_vllm({s}, {ms[0].get()}, CacheInfo{16, "auto", true, 0.9, blocks});
  EXPECT_NE(text.find(fmt::format("num_gpu_blocks=\"{}\"", usable)), std::string::npos) << text;
  auto scrape = ingest::adapt_engine_metrics(text, 100.0, {});
  ASSERT_TRUE(scrape.ok());
  ASSERT_EQ(scrape->samples.size(), 1u);
  EXPECT_DOUBLE_EQ(*scrape->samples[0].kv_cache_capacity_tokens, static_cast<double>(usable * 16));
}

TEST(ServeMetrics, SglangStyleParsesBackToo) {
  sim::OnlineEngine e(config(1));
  std::vector<std::unique_ptr<ReplicaMetrics>> ms;
  run_load(e, ms, MetricsStyle::sglang);
  auto s = exposed_sample(e, 0, *ms[0], "m", 5.0);
  const std::string text = render_sglang({s}, {ms[0].get()});
  auto scrape = ingest::adapt_engine_metrics(text, 5.0);
  ASSERT_TRUE(scrape.ok());
  EXPECT_EQ(scrape->engine, core::EngineKind::sglang);
  ASSERT_EQ(scrape->samples.size(), 1u);
  const auto& b = scrape->samples[0];
  EXPECT_DOUBLE_EQ(*b.running, *s.running);
  EXPECT_DOUBLE_EQ(*b.waiting, *s.waiting);
  EXPECT_DOUBLE_EQ(*b.kv_usage, *s.kv_usage);
  EXPECT_DOUBLE_EQ(*b.generation_tokens_total, *s.generation_tokens_total);
  EXPECT_DOUBLE_EQ(*b.kv_cache_capacity_tokens, *s.kv_cache_capacity_tokens);
  expect_same_histogram(s.ttft_s, b.ttft_s, "ttft");
  expect_same_histogram(s.e2e_s, b.e2e_s, "e2e");
}

TEST(ServeMetrics, FloatsAndBucketsPrintAsPrometheusClientDoes) {
  EXPECT_EQ(prom_float(1), "1.0");
  EXPECT_EQ(prom_float(0.001), "0.001");
  EXPECT_EQ(prom_float(2560), "2560.0");
  EXPECT_EQ(prom_float(INFINITY), "+Inf");
  EXPECT_EQ(prom_float(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(buckets_1_2_5(4096), (std::vector<double>{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000}));
  Hist h({0.1, 1.0});
  h.observe(0.1);  // le is inclusive
  h.observe(0.5, 2);
  h.observe(7);
  auto c = h.to_core();
  EXPECT_EQ(c.cumulative_counts, (std::vector<double>{1, 3, 4}));
  EXPECT_DOUBLE_EQ(c.sum, 0.1 + 1.0 + 7);
}

}  // namespace llmtriage::serve
