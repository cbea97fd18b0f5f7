#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>

#include "core/quantile.h"
#include "diagnose/indicators.h"
#include "ingest/engine_log.h"

namespace llmtriage::diagnose {
namespace {

core::EngineSample sample(double t, const std::string& engine, double running, double waiting, double kv, double preempt,
                          double finished, double gen) {
  core::EngineSample s;
  s.t_s = t;
  s.engine_index = engine;
  s.running = running;
  s.waiting = waiting;
  s.kv_usage = kv;
  s.preemptions_total = preempt;
  s.requests_finished_total = finished;
  s.generation_tokens_total = gen;
  return s;
}

core::Histogram hist(std::vector<double> counts) {
  core::Histogram h;
  h.upper_bounds = {0.1, 1, 10, std::numeric_limits<double>::infinity()};
  h.cumulative_counts = std::move(counts);
  h.count = h.cumulative_counts.back();
  return h;
}

TEST(Indicators, CountersBecomeRatesPerSeriesAndResetsCountFromZero) {
  DiagnoseInput in;
  // Engine "0": preemptions 10 -> 30 -> (restart) 5 over 20 s: increase 20 + 5 = 25.
  in.now.engine_samples.push_back(sample(0, "0", 10, 0, 0.5, 10, 100, 1000));
  in.now.engine_samples.push_back(sample(10, "0", 20, 4, 0.9, 30, 150, 6000));
  in.now.engine_samples.push_back(sample(20, "0", 30, 8, 1.0, 5, 10, 500));
  // Engine "1": steady, no preemptions, 20 requests over 20 s.
  in.now.engine_samples.push_back(sample(0, "1", 2, 0, 0.1, 0, 0, 0));
  in.now.engine_samples.push_back(sample(20, "1", 4, 0, 0.3, 0, 20, 2000));
  const auto ind = build_indicators(in);
  EXPECT_DOUBLE_EQ(*ind.get("preemptions_total"), 25);
  EXPECT_DOUBLE_EQ(*ind.get("preemptions_per_s"), 25.0 / 20);
  // Requests: engine 0: 50 + 10 (after reset) = 60 over 20 s; engine 1: 20 over 20 s -> 4 req/s.
  EXPECT_DOUBLE_EQ(*ind.get("request_rate"), 4.0);
  EXPECT_DOUBLE_EQ(*ind.get("output_tokens_per_s"), (5000 + 500) / 20.0 + 2000 / 20.0);
  EXPECT_DOUBLE_EQ(*ind.get("running"), (20 + 3) / 2.0);  // mean per engine, averaged over engines
  EXPECT_DOUBLE_EQ(*ind.get("waiting_max"), 8);
  EXPECT_DOUBLE_EQ(*ind.get("kv_usage_max"), 1.0);
  EXPECT_NEAR(*ind.get("kv_usage_mean"), (0.5 + 0.9 + 1.0 + 0.1 + 0.3) / 5, 1e-12);
  EXPECT_DOUBLE_EQ(*ind.get("replicas"), 2);
  EXPECT_NE(ind.find("preemptions_total")->source.find("1 counter reset"), std::string::npos);
}

// vLLM V0 prints its running total of preemptions in every 50th warning; stats lines give the
// file a window of 110 s. The rate is the increase between the two readings over the 67 s between
// them (50 / 67 = 0.75/s), never the running total over a duration (250051 / 110 = 2273/s).
TEST(Indicators, ALoggedCumulativeCounterIsADifferenceBetweenLines) {
  const std::string stats =
      "] Avg prompt throughput: 1200.0 tokens/s, Avg generation throughput: 800.0 tokens/s, Running: 128 reqs, "
      "Swapped: 0 reqs, Pending: 40 reqs, GPU KV cache usage: 99.1%, CPU KV cache usage: 0.0%.\n";
  auto preempted = [](const char* ts, int n) {
    return fmt::format("WARNING 03-01 {} scheduler.py:1089] Sequence group cmpl-{} is preempted by "
                       "PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This can affect "
                       "the end-to-end performance. Increase gpu_memory_utilization or tensor_parallel_size to "
                       "provide more KV cache memory. total_num_cumulative_preemption={}\n", ts, n, n);
  };
  const std::string text = "INFO 03-01 10:00:00 metrics.py:345" + stats + preempted("10:00:03", 250001) +
                           "INFO 03-01 10:00:10 metrics.py:345" + stats + preempted("10:01:10", 250051) +
                           "INFO 03-01 10:01:50 metrics.py:345" + stats;
  auto log = ingest::parse_engine_log_text(text);
  DiagnoseInput in;
  in.now.events = log.events;
  in.now.engine_samples = log.timeline;
  const auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("preemptions_per_s"));
  EXPECT_NEAR(*ind.get("preemptions_per_s"), 50.0 / 67, 1e-9);
  EXPECT_DOUBLE_EQ(*ind.get("preemptions_total"), 50);
  EXPECT_NE(ind.find("preemptions_per_s")->source.find("250001 -> 250051 over 67 s"), std::string::npos)
      << ind.find("preemptions_per_s")->source;
  // One reading: a count since the engine started, no rate.
  auto one = ingest::parse_engine_log_text("INFO 03-01 10:00:00 metrics.py:345" + stats + preempted("10:00:03", 250001) +
                                           "INFO 03-01 10:01:50 metrics.py:345" + stats);
  DiagnoseInput in1;
  in1.now.events = one.events;
  in1.now.engine_samples = one.timeline;
  EXPECT_FALSE(build_indicators(in1).get("preemptions_per_s"));
}

TEST(Indicators, A504IsATimeoutAndTheClientsOwnRateIsKeptApart) {
  // `bench` records a gateway's 504 as error_category "http_504": a gateway timeout, not some
  // other error. The engine's finished-request rate may count copies the clients never sent.
  DiagnoseInput in;
  for (int i = 0; i < 10; ++i) {
    core::RequestRecord r;
    r.id = "q" + std::to_string(i);
    r.arrival_s = i;
    r.status = core::RequestStatus::error;
    r.error_category = "http_504";
    r.e2e_s = 0.005;
    in.now.requests.push_back(r);
  }
  const auto ind = build_indicators(in);
  EXPECT_DOUBLE_EQ(*ind.get("timeout_error_share"), 1.0);
  EXPECT_DOUBLE_EQ(*ind.get("records_request_rate"), 1.0);  // 9 gaps over 9 s
}

TEST(Indicators, ABurstOfArrivalsIsRatedOverTheWindowItWasServedIn) {
  // A closed loop's first wave (8 requests sent within a millisecond) whose follow-ups the run's
  // --deadline cut: 7 gaps over 1 ms is no arrival rate (7,000 req/s); the requests over the
  // window they were served in, first arrival to last end, is (8 / 3.9 s).
  DiagnoseInput in;
  for (int i = 0; i < 10; ++i) {
    core::RequestRecord r;
    r.id = "w" + std::to_string(i);
    r.arrival_s = i < 8 ? i * 1.25e-4 : 3.9 + 0.01 * i;
    r.status = i < 8 ? core::RequestStatus::ok : core::RequestStatus::error;
    if (i >= 8) r.error_category = "deadline";
    else {
      r.ttft_s = 0.5;
      r.e2e_s = 3.9 - r.arrival_s;
      r.output_tokens = 64;
    }
    in.now.requests.push_back(r);
  }
  const auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("request_rate"));
  EXPECT_NEAR(*ind.get("request_rate"), 8 / 3.9, 1e-9);
  EXPECT_NE(ind.now.at("request_rate").source.find("one burst"), std::string::npos) << ind.now.at("request_rate").source;
  // Arrivals spread over more than a request's lifetime keep the arrival rate.
  for (int i = 0; i < 8; ++i) in.now.requests[i].arrival_s = i * 1.0, in.now.requests[i].e2e_s = 0.5;
  const auto spread = build_indicators(in);
  EXPECT_DOUBLE_EQ(*spread.get("request_rate"), 1.0);  // 7 gaps over 7 s
}

TEST(Indicators, TheClientsConcurrencyShowsTheQueueTheEnginesGaugeCannot) {
  // One llama.cpp slot (max_num_seqs 1, running 1) behind 4 closed-loop clients: each request is
  // 1 s in flight and a new one is sent as one ends, so 4 are in flight over the 6 s span; the
  // engine's gauge saw at most one deferred request (its HTTP threads hold the rest off).
  DiagnoseInput in;
  for (int i = 0; i < 24; ++i) {
    core::RequestRecord r;
    r.id = "q" + std::to_string(i);
    r.arrival_s = r.send_s.emplace(i / 4);
    r.e2e_s = 1.0;
    r.ttft_s = 0.8;
    r.output_tokens = 96;
    in.now.requests.push_back(r);
  }
  in.now.deployment.settings.max_num_seqs = 1;
  in.now.engine_samples = {sample(0, "", 1, 1, 0, 0, 0, 0), sample(3, "", 1, 0, 0, 0, 12, 1000), sample(6, "", 1, 1, 0, 0, 24, 2000)};
  auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("client_in_flight_mean"));
  EXPECT_DOUBLE_EQ(*ind.get("client_in_flight_mean"), 4.0);  // 24 x 1 s in flight over 6 s
  ASSERT_TRUE(ind.get("waiting_client"));
  EXPECT_DOUBLE_EQ(*ind.get("waiting_client"), 3.0);  // beyond the 1 running

  // Below the cap the difference is not a queue in front of the scheduler (network, think time).
  in.now.deployment.settings.max_num_seqs = 8;
  ind = build_indicators(in);
  EXPECT_FALSE(ind.get("waiting_client"));
  // Several replicas behind the records: one engine's cap says nothing about the clients' total.
  in.now.deployment.settings.max_num_seqs = 1;
  in.now.engine_samples.push_back(sample(0, "1", 1, 0, 0, 0, 0, 0));
  in.now.engine_samples.push_back(sample(6, "1", 1, 0, 0, 0, 24, 2000));
  for (auto& e : in.now.engine_samples)
    if (e.engine_index.empty()) e.engine_index = "0";
  ind = build_indicators(in);
  EXPECT_FALSE(ind.get("waiting_client"));
}

TEST(Indicators, TheEnginesOwnDecodeTimingIsATpotWhenNothingBetterMeasuredIt) {
  // llama.cpp's print_timings: the decode line is a TPOT, the prompt line (prefill) is not.
  DiagnoseInput in;
  auto parsed = ingest::parse_engine_log_text(
      "print_timings: prompt eval time =    9327.12 ms /   144 tokens (   64.77 ms per token,    15.44 tokens per second)\n"
      "print_timings:        eval time =    3956.15 ms /    13 runs   (  304.32 ms per token,     3.29 tokens per second)\n");
  for (auto& e : parsed.signature_events) in.now.events.push_back(e);
  auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("tpot_p50_s"));
  EXPECT_NEAR(*ind.get("tpot_p50_s"), 0.30432, 1e-9);
  ASSERT_TRUE(ind.get("output_tokens_per_s"));
  // Ollama's --verbose "eval rate" the same way; its "prompt eval rate" is prefill.
  DiagnoseInput ol;
  auto p2 = ingest::parse_engine_log_text("prompt eval rate:     92.07 tokens/s\neval rate:            3.29 tokens/s\n");
  for (auto& e : p2.signature_events) ol.now.events.push_back(e);
  ind = build_indicators(ol);
  ASSERT_TRUE(ind.get("tpot_p50_s"));
  EXPECT_NEAR(*ind.get("tpot_p50_s"), 1 / 3.29, 1e-9);
}

TEST(Indicators, FailedRequestsDurationsShowTheDeadlineWithoutEnteringLatencies) {
  // A bench's failed request carries its time to failure apart from e2e_s: the timeouts cluster at
  // the deadline (30 s here), and no latency percentile counts them.
  DiagnoseInput in;
  for (int i = 0; i < 20; ++i) {
    core::RequestRecord r;
    r.id = "t" + std::to_string(i);
    r.arrival_s = i;
    r.status = core::RequestStatus::error;
    r.error_category = "timeout_idle";
    r.failed_after_s = 30.0 + 0.01 * i;
    in.now.requests.push_back(r);
  }
  core::RequestRecord ok;
  ok.id = "ok";
  ok.arrival_s = 0.5;
  ok.ttft_s = 0.2;
  ok.e2e_s = 1.0;
  ok.output_tokens = 10;
  in.now.requests.push_back(ok);
  const auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("timeout_cluster_s"));
  EXPECT_NEAR(*ind.get("timeout_cluster_s"), 30.1, 0.2);
  ASSERT_TRUE(ind.get("e2e_p99_s"));
  EXPECT_DOUBLE_EQ(*ind.get("e2e_p99_s"), 1.0);
}

TEST(Indicators, HistogramPercentilesComeFromTheWindowNotSinceStart) {
  DiagnoseInput in;
  auto a = sample(0, "", 1, 0, 0, 0, 0, 0);
  auto b = sample(30, "", 1, 0, 0, 0, 0, 0);
  // Before the window: 1000 fast requests (<= 0.1 s). In the window: 100 requests all in (1, 10].
  a.ttft_s = hist({1000, 1000, 1000, 1000});
  b.ttft_s = hist({1000, 1000, 1100, 1100});
  in.now.engine_samples = {a, b};
  const auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("ttft_p50_s"));
  EXPECT_GT(*ind.get("ttft_p50_s"), 1.0);  // since-start would say 0.05
  EXPECT_NEAR(*ind.get("ttft_p99_s"), 1 + 9 * 0.99, 1e-9);
}

TEST(Indicators, GpuSpreadPowerRatioAndThrottleReasons) {
  DiagnoseInput in;
  for (int t = 0; t < 2; ++t)
    for (int g = 0; g < 2; ++g) {
      core::GpuSample s;
      s.t_s = t;
      s.index = g;
      s.util = g == 0 ? 0.9 : 0.3;
      s.power_w = 350;
      s.power_limit_w = 700;
      s.sm_clock_mhz = 1980;
      s.max_sm_clock_mhz = 1980;
      s.temp_c = g == 0 ? 60 : 70;
      if (g == 1) s.throttle_names = {"sw_thermal_slowdown"};
      in.now.gpu_samples.push_back(s);
    }
  const auto ind = build_indicators(in);
  EXPECT_NEAR(*ind.get("gpu_util_spread"), 0.6, 1e-12);
  EXPECT_DOUBLE_EQ(*ind.get("power_ratio"), 0.5);
  EXPECT_DOUBLE_EQ(*ind.get("clock_ratio"), 1.0);
  EXPECT_DOUBLE_EQ(*ind.get("temp_c"), 70);
  EXPECT_EQ(*ind.get("throttle_thermal"), 1);
  EXPECT_EQ(*ind.get("throttle_power"), 0);
}

core::RequestRecord rec(const std::string& id, double arrival, int64_t in, int64_t out, double ttft, double e2e) {
  core::RequestRecord r;
  r.id = id;
  r.arrival_s = arrival;
  r.input_tokens = in;
  r.output_tokens = out;
  r.ttft_s = ttft;
  r.e2e_s = e2e;
  return r;
}

TEST(Indicators, RecordsLengthsLatenciesCapsAndErrorCategories) {
  DiagnoseInput in;
  in.now.deployment.settings.max_model_len = 4096;
  for (int i = 0; i < 8; ++i) {
    auto r = rec("r" + std::to_string(i), i, 4096, 256, 0.5, 0.5 + 255 * 0.02);
    r.max_tokens = 256;
    in.now.requests.push_back(r);
  }
  in.now.requests.push_back(rec("r8", 8, 100, 1, 0.1, 0.1));
  auto t1 = rec("r9", 9, 100, 0, 0, 0);
  t1.status = core::RequestStatus::error;
  t1.error_category = "timeout_ttfb";
  t1.e2e_s = 5.0;
  t1.ttft_s.reset();
  auto t2 = t1;
  t2.id = "r9#1";
  t2.e2e_s = 5.1;
  auto br = rec("r11", 10, 100, 0, 0.2, 3);
  br.status = core::RequestStatus::error;
  br.error_category = "incomplete_stream";
  in.now.requests.insert(in.now.requests.end(), {t1, t2, br});
  const auto ind = build_indicators(in);
  EXPECT_EQ(*ind.get("records_count"), 12);
  EXPECT_EQ(*ind.get("records_ok"), 9);
  EXPECT_DOUBLE_EQ(*ind.get("error_rate"), 3.0 / 12);
  EXPECT_DOUBLE_EQ(*ind.get("max_tokens_mode"), 256);
  EXPECT_DOUBLE_EQ(*ind.get("output_len_max_share"), 8.0 / 9);
  EXPECT_DOUBLE_EQ(*ind.get("one_token_output_share"), 1.0 / 9);
  EXPECT_DOUBLE_EQ(*ind.get("timeout_error_share"), 2.0 / 12);
  EXPECT_NEAR(*ind.get("timeout_cluster_s"), 5.05, 1e-9);
  EXPECT_DOUBLE_EQ(*ind.get("timeout_cluster_share"), 1.0);
  EXPECT_DOUBLE_EQ(*ind.get("stream_break_share"), 1.0 / 12);
  EXPECT_DOUBLE_EQ(*ind.get("retry_duplicate_share"), 1.0 / 12);
  EXPECT_NEAR(*ind.get("tpot_p50_s"), 0.02, 1e-12);
  EXPECT_DOUBLE_EQ(*ind.get("longest_input_tokens"), 4096);
  EXPECT_DOUBLE_EQ(*ind.get("inputs_at_max_model_len_share"), 8.0 / 12);
  EXPECT_DOUBLE_EQ(*ind.get("request_rate"), 11.0 / 10);
}

TEST(Indicators, EventsSettingsOutputsAndObservationsOverride) {
  DiagnoseInput in;
  core::Event kv;
  kv.kind = core::EventKind::startup_memory;
  kv.source = "vllm.log:12";
  kv.fields["kv_tokens"] = 120000;
  core::Event oom;
  oom.kind = core::EventKind::oom;
  oom.source = "vllm.log:40";
  oom.labels["phase"] = "runtime";
  core::Event trunc;
  trunc.kind = core::EventKind::context_truncated;
  in.now.events = {kv, oom, trunc, trunc};
  in.now.deployment.settings.tensor_parallel_size = 2;
  in.now.deployment.settings.enable_chunked_prefill = false;
  in.now.deployment.settings.kv_cache_dtype = "fp8_e4m3";
  in.now.outputs = {"<|im_start|>assistant Hello", "fine answer", "ok"};
  in.now.engine_samples.push_back(sample(0, "", 5, 40, 0.97, 0, 0, 0));
  ASSERT_TRUE(add_observation(in.observations, "waiting=3", "--observe").ok());
  ASSERT_TRUE(add_observation(in.observations, "baseline_input_len_mean=300", "--observe").ok());
  const auto ind = build_indicators(in);
  EXPECT_EQ(*ind.get("kv_capacity_tokens"), 120000);
  EXPECT_EQ(ind.find("kv_capacity_tokens_log")->source, "log: vllm.log:12");
  EXPECT_EQ(*ind.get("oom_events"), 1);
  EXPECT_EQ(*ind.get("startup_oom_events"), 0);
  EXPECT_EQ(*ind.get("truncation_events"), 2);
  EXPECT_EQ(*ind.get("tp"), 2);
  EXPECT_EQ(*ind.get("chunked_prefill"), 0);
  EXPECT_EQ(*ind.get("kv_cache_quantized"), 1);
  EXPECT_NEAR(*ind.get("template_marker_share"), 1.0 / 3, 1e-12);
  EXPECT_EQ(*ind.get("waiting"), 3);
  EXPECT_EQ(ind.find("waiting")->source, "observe waiting=3");
  EXPECT_EQ(ind.replaced.at("waiting").value, 40);
  EXPECT_EQ(*ind.base("input_len_mean"), 300);
  const auto item = ind.item("waiting", 10, ">=");
  EXPECT_EQ(item.unit, "requests");
  EXPECT_EQ(*item.threshold, 10);
  EXPECT_EQ(ind.item("nothing_here").source, "not measured");
}

TEST(Indicators, NothingGivenNothingInvented) {
  DiagnoseInput in;
  const auto ind = build_indicators(in);
  EXPECT_TRUE(ind.now.empty());
  EXPECT_TRUE(ind.baseline.empty());
}

}  // namespace
}  // namespace llmtriage::diagnose

namespace llmtriage::diagnose {
namespace {

// Records' percentiles use core/quantile.h's definition (type 7) by selection; they must match it.
TEST(Indicators, RecordPercentilesMatchTheQuantileDefinition) {
  DiagnoseInput in;
  std::vector<double> ttfts;
  uint64_t x = 12345;
  for (int i = 0; i < 1001; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double t = static_cast<double>(x >> 40) / 1e6;
    ttfts.push_back(t);
    in.now.requests.push_back(rec("q" + std::to_string(i), i, 100 + i % 37, 10, t, t + 1));
  }
  const auto ind = build_indicators(in);
  EXPECT_DOUBLE_EQ(*ind.get("ttft_p50_s"), *core::quantile(ttfts, 0.5));
  EXPECT_DOUBLE_EQ(*ind.get("ttft_p99_s"), *core::quantile(ttfts, 0.99));
  std::vector<double> lens;
  for (int i = 0; i < 1001; ++i) lens.push_back(100 + i % 37);
  EXPECT_DOUBLE_EQ(*ind.get("input_len_p99"), *core::quantile(lens, 0.99));
  EXPECT_DOUBLE_EQ(*ind.get("input_len_p50"), *core::quantile(lens, 0.5));
}

}  // namespace
}  // namespace llmtriage::diagnose

namespace llmtriage::diagnose {
namespace {

TEST(Indicators, QuantizationFromTheCheckpointNameWhenNoFlagSaysIt) {
  DiagnoseInput in;
  in.now.deployment.model = "Qwen/Qwen2.5-32B-Instruct-GPTQ-Int4";
  auto ind = build_indicators(in);
  ASSERT_TRUE(ind.get("weights_quantized"));
  EXPECT_EQ(*ind.get("weights_quantized"), 1);
  EXPECT_NE(ind.find("weights_quantized")->source.find("gptq"), std::string::npos);
  in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  EXPECT_FALSE(build_indicators(in).get("weights_quantized"));
  in.now.deployment.model = "Qwen/Qwen2.5-32B-Instruct-AWQ";
  in.now.deployment.settings.quantization = "none";  // the flag wins over the name
  EXPECT_EQ(*build_indicators(in).get("weights_quantized"), 0);
}

}  // namespace
}  // namespace llmtriage::diagnose

// An evidence item's baseline reads in the indicator's unit, with its source only when that is
// another kind of source than the value's own.
TEST(IndicatorsItem, BaselineTextInTheUnitAndWithoutARepeatedSource) {
  llmtriage::diagnose::Indicators ind;
  ind.now["kv_usage_max"] = {0.98, "metrics (4 samples, 1 engine series, 13 s): max"};
  ind.baseline["kv_usage_max"] = {0.33, "metrics (3 samples, 1 engine series, 8 s): max"};
  ind.now["input_len_mean"] = {3000, "records (60 requests)"};
  ind.baseline["input_len_mean"] = {16890, "observe baseline_input_len_mean=16890"};
  EXPECT_EQ(ind.item("kv_usage_max", 0.9, ">=").text, "baseline 33%");
  EXPECT_EQ(ind.item("input_len_mean").text, "baseline 16890 tokens (observe baseline_input_len_mean=16890)");
}
