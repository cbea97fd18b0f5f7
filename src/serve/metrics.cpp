#include "serve/metrics.h"

#include "ingest/prom_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace llmtriage::serve {

namespace {

// vLLM V1 bucket sets (vllm/v1/metrics/loggers.py).
const std::vector<double> kTtft = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25, 0.5,   0.75,
                                   1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
const std::vector<double> kItl = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,  0.3,  0.4, 0.5,
                                  0.75, 1.0,   2.5,  5.0,   7.5, 10.0, 20.0, 40.0, 80.0};
const std::vector<double> kLatency = {0.3,  0.5,  0.8,  1.0,  1.5,  2.0,   2.5,   5.0,   10.0,   15.0,  20.0,
                                      30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
const std::vector<double> kIteration = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
const std::vector<double> kParamsN = {1, 2, 5, 10, 20};
// SGLang 2026 defaults (python/sglang/srt/metrics/collector.py).
const std::vector<double> kSgTtft = {0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400};
const std::vector<double> kSgItl = {0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040, 0.060,
                                    0.080, 0.100, 0.200, 0.400, 0.600, 0.800, 1.000, 2.000, 4.000, 6.000, 8.000};
const std::vector<double> kSgE2e = {0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600, 1200, 1800, 2400};
const std::vector<double> kSgQueue = {0,   0.1, 0.2, 0.5, 1,   2,   3,   4,    5,    10,   15,   20,   30,   40,   50,   60,  70, 80,
                                      90,  100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000};

struct Writer {
  std::string s;
  void head(const std::string& name, const char* type, const std::string& help) {
    s += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }
  void line(const std::string& name, const std::string& labels, double v) {
    s += name;
    if (!labels.empty()) s += "{" + labels + "}";
    s += " " + prom_float(v) + "\n";
  }
  // `pre` are labels sorting before "le", `post` after (the text is alphabetical, as prometheus_client writes).
  void hist(const std::string& name, const std::string& pre, const std::string& post, const core::Histogram& h) {
    auto join = [](const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + "," + b; };
    for (size_t i = 0; i < h.upper_bounds.size(); ++i)
      line(name + "_bucket", join(join(pre, "le=\"" + prom_float(h.upper_bounds[i]) + "\""), post), h.cumulative_counts[i]);
    line(name + "_count", join(pre, post), h.count);
    line(name + "_sum", join(pre, post), h.sum);
  }
};

}  // namespace

std::string prom_float(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v)) return "NaN";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.1f}", v);
  return fmt::format("{}", v);  // shortest round-trip text, as Python's repr
}

std::vector<double> buckets_1_2_5(int64_t max) {
  std::vector<double> b;
  for (double e = 1;; e *= 10)
    for (double m : {1.0, 2.0, 5.0}) {
      if (m * e > static_cast<double>(max)) return b;
      b.push_back(m * e);
    }
}

Hist::Hist(std::vector<double> bounds) : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void Hist::observe(double v, uint64_t times) {
  if (counts_.empty()) return;
  const size_t i = static_cast<size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin());
  counts_[i] += times;  // le is inclusive: v == bound lands in that bound's bucket
  sum_ += v * static_cast<double>(times);
  count_ += times;
}

core::Histogram Hist::to_core() const {
  core::Histogram h;
  uint64_t acc = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    acc += counts_[i];
    h.upper_bounds.push_back(i < bounds_.size() ? bounds_[i] : INFINITY);
    h.cumulative_counts.push_back(static_cast<double>(acc));
  }
  h.sum = sum_;
  h.count = static_cast<double>(count_);
  return h;
}

ReplicaMetrics::ReplicaMetrics(MetricsStyle style, int64_t max_model_len) {
  const auto tok = buckets_1_2_5(max_model_len);
  if (style == MetricsStyle::sglang) {
    ttft = Hist(kSgTtft);
    itl = Hist(kSgItl);
    e2e = Hist(kSgE2e);
    queue = Hist(kSgQueue);
  } else {
    ttft = Hist(kTtft);
    itl = Hist(kItl);
    e2e = Hist(kLatency);
    queue = Hist(kLatency);
  }
  tpot = Hist(kItl);
  inference = Hist(kLatency);
  prefill = Hist(kLatency);
  decode = Hist(kLatency);
  prompt_tokens = Hist(tok);
  generation_tokens = Hist(tok);
  max_generation_tokens = Hist(tok);
  params_max_tokens = Hist(tok);
  params_n = Hist(kParamsN);
  iteration_tokens = Hist(kIteration);
}

void fill_histograms(const ReplicaMetrics& m, core::EngineSample& s) {
  s.ttft_s = m.ttft.to_core();
  s.itl_s = m.itl.to_core();
  s.e2e_s = m.e2e.to_core();
  s.queue_s = m.queue.to_core();
  s.tpot_s = m.tpot.to_core();
  s.prefill_s = m.prefill.to_core();
  s.decode_s = m.decode.to_core();
  s.prompt_tokens = m.prompt_tokens.to_core();
  s.output_tokens = m.generation_tokens.to_core();
}

core::EngineSample exposed_sample(const sim::OnlineEngine& e, int i, const ReplicaMetrics& m, const std::string& model,
                                  double t_s) {
  core::EngineSample s = e.sample(i, t_s);
  s.model_name = model;
  uint64_t n = 0;
  for (auto c : m.finished) n += c;
  s.requests_finished_total = static_cast<double>(n);
  fill_histograms(m, s);
  return s;
}

std::string render_vllm(const std::vector<core::EngineSample>& samples, const std::vector<const ReplicaMetrics*>& metrics,
                        const CacheInfo& cache) {
  Writer w;
  auto pre = [](const core::EngineSample& s) { return "engine=\"" + ingest::escape_label_value(s.engine_index) + "\""; };
  auto post = [](const core::EngineSample& s) { return "model_name=\"" + ingest::escape_label_value(s.model_name) + "\""; };
  auto labels = [&](const core::EngineSample& s) { return pre(s) + "," + post(s); };
  auto gauge = [&](const char* name, const char* help, auto get) {
    w.head(name, "gauge", help);
    for (const auto& s : samples) w.line(name, labels(s), get(s));
  };
  auto counter = [&](const char* name, const char* help, auto get) {
    w.head(name, "counter", help);
    for (const auto& s : samples) w.line(name, labels(s), get(s));
  };
  gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
        [](const auto& s) { return s.running.value_or(0); });
  gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
        [](const auto& s) { return s.waiting.value_or(0); });
  gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.",
        [](const auto& s) { return s.kv_usage.value_or(0); });
  counter("vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.",
          [](const auto& s) { return s.prefix_cache_queries_total.value_or(0); });
  counter("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.",
          [](const auto& s) { return s.prefix_cache_hits_total.value_or(0); });
  counter("vllm:num_preemptions_total", "Cumulative number of preemption from the engine.",
          [](const auto& s) { return s.preemptions_total.value_or(0); });
  counter("vllm:prompt_tokens_total", "Number of prefill tokens processed.",
          [](const auto& s) { return s.prompt_tokens_total.value_or(0); });
  counter("vllm:generation_tokens_total", "Number of generation tokens processed.",
          [](const auto& s) { return s.generation_tokens_total.value_or(0); });
  w.head("vllm:request_success_total", "counter", "Count of successfully processed requests.");
  for (size_t i = 0; i < samples.size(); ++i)
    for (size_t r = 0; r < kFinishNames.size(); ++r)
      w.line("vllm:request_success_total",
             pre(samples[i]) + ",finished_reason=\"" + kFinishNames[r] + "\"," + post(samples[i]),
             static_cast<double>(metrics[i]->finished[r]));
  struct H {
    const char* name;
    const char* help;
    const Hist ReplicaMetrics::*h;
  };
  const H hists[] = {
      {"vllm:request_prompt_tokens", "Number of prefill tokens processed.", &ReplicaMetrics::prompt_tokens},
      {"vllm:request_generation_tokens", "Number of generation tokens processed.", &ReplicaMetrics::generation_tokens},
      {"vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.", &ReplicaMetrics::iteration_tokens},
      {"vllm:request_max_num_generation_tokens", "Histogram of maximum number of requested generation tokens.",
       &ReplicaMetrics::max_generation_tokens},
      {"vllm:request_params_n", "Histogram of the n request parameter.", &ReplicaMetrics::params_n},
      {"vllm:request_params_max_tokens", "Histogram of the max_tokens request parameter.", &ReplicaMetrics::params_max_tokens},
      {"vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", &ReplicaMetrics::ttft},
      {"vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", &ReplicaMetrics::itl},
      {"vllm:request_time_per_output_token_seconds", "Histogram of time_per_output_token_seconds per request.",
       &ReplicaMetrics::tpot},
      {"vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", &ReplicaMetrics::e2e},
      {"vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", &ReplicaMetrics::queue},
      {"vllm:request_inference_time_seconds", "Histogram of time spent in RUNNING phase for request.",
       &ReplicaMetrics::inference},
      {"vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.", &ReplicaMetrics::prefill},
      {"vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.", &ReplicaMetrics::decode},
  };
  for (const auto& h : hists) {
    w.head(h.name, "histogram", h.help);
    for (size_t i = 0; i < samples.size(); ++i) w.hist(h.name, pre(samples[i]), post(samples[i]), (metrics[i]->*h.h).to_core());
  }
  w.head("vllm:cache_config_info", "gauge", "Information of the LLMEngine CacheConfig");
  for (const auto& s : samples) {
    // The engine's usable pool: a kv_pool_shrink fault reads as an engine that started with that
    // many blocks (vLLM sizes the pool once; it has no withheld blocks to report).
    const int64_t blocks = s.kv_cache_capacity_tokens && cache.block_size > 0
                               ? static_cast<int64_t>(*s.kv_cache_capacity_tokens) / cache.block_size
                               : cache.num_gpu_blocks;
    w.line("vllm:cache_config_info",
           fmt::format("block_size=\"{}\",cache_dtype=\"{}\",enable_prefix_caching=\"{}\",engine=\"{}\","
                       "gpu_memory_utilization=\"{}\",num_gpu_blocks=\"{}\"",
                       cache.block_size, ingest::escape_label_value(cache.cache_dtype), cache.prefix_caching ? "True" : "False",
                       ingest::escape_label_value(s.engine_index), cache.gpu_memory_utilization, blocks),
           1.0);
  }
  return w.s;
}

std::string render_sglang(const std::vector<core::EngineSample>& samples,
                          const std::vector<const ReplicaMetrics*>& metrics) {
  Writer w;
  const bool dp = samples.size() > 1;
  auto pre = [&](const core::EngineSample& s) { return dp ? "dp_rank=\"" + ingest::escape_label_value(s.engine_index) + "\"" : std::string(); };
  auto post = [](const core::EngineSample& s) { return "model_name=\"" + ingest::escape_label_value(s.model_name) + "\""; };
  auto labels = [&](const core::EngineSample& s) { return dp ? pre(s) + "," + post(s) : post(s); };
  auto one = [&](const char* name, const char* type, const char* help, auto get) {
    w.head(name, type, help);
    for (size_t i = 0; i < samples.size(); ++i) w.line(name, labels(samples[i]), get(samples[i], *metrics[i]));
  };
  using S = core::EngineSample;
  using M = ReplicaMetrics;
  one("sglang:num_running_reqs", "gauge", "The number of running requests.", [](const S& s, const M&) { return s.running.value_or(0); });
  one("sglang:num_queue_reqs", "gauge", "The number of requests in the waiting queue.", [](const S& s, const M&) { return s.waiting.value_or(0); });
  one("sglang:num_used_tokens", "gauge", "The number of used tokens.",
      [](const S& s, const M&) { return std::round(s.kv_usage.value_or(0) * s.kv_cache_capacity_tokens.value_or(0)); });
  one("sglang:token_usage", "gauge", "The token usage.", [](const S& s, const M&) { return s.kv_usage.value_or(0); });
  one("sglang:max_total_num_tokens", "gauge", "Maximum total number of tokens in the KV cache pool.",
      [](const S& s, const M&) { return s.kv_cache_capacity_tokens.value_or(0); });
  one("sglang:gen_throughput", "gauge", "The generation throughput (token/s).", [](const S&, const M& m) { return m.gen_throughput; });
  one("sglang:cache_hit_rate", "gauge", "The prefix cache hit rate.", [](const S&, const M& m) { return m.last_prefill_hit_rate; });
  one("sglang:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
      [](const S& s, const M&) { return s.prompt_tokens_total.value_or(0); });
  one("sglang:generation_tokens_total", "counter", "Number of generation tokens processed.",
      [](const S& s, const M&) { return s.generation_tokens_total.value_or(0); });
  one("sglang:cached_tokens_total", "counter", "Number of cached prompt tokens.",
      [](const S& s, const M&) { return s.prefix_cache_hits_total.value_or(0); });
  one("sglang:num_requests_total", "counter", "Number of requests processed.", [](const S&, const M& m) {
    uint64_t n = 0;
    for (auto c : m.finished) n += c;
    return static_cast<double>(n);
  });
  one("sglang:num_aborted_requests_total", "counter", "Number of requests aborted.",
      [](const S&, const M& m) { return static_cast<double>(m.finished[static_cast<size_t>(Finish::abort)]); });
  one("sglang:num_retracted_requests_total", "counter", "Number of retracted requests.",
      [](const S& s, const M&) { return s.preemptions_total.value_or(0); });
  struct H {
    const char* name;
    const char* help;
    const Hist ReplicaMetrics::*h;
  };
  const H hists[] = {
      {"sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.", &ReplicaMetrics::ttft},
      {"sglang:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", &ReplicaMetrics::itl},
      {"sglang:e2e_request_latency_seconds", "Histogram of End-to-end request latency in seconds", &ReplicaMetrics::e2e},
      {"sglang:queue_time_seconds", "Histogram of queueing time in seconds.", &ReplicaMetrics::queue},
  };
  for (const auto& h : hists) {
    w.head(h.name, "histogram", h.help);
    for (size_t i = 0; i < samples.size(); ++i) w.hist(h.name, pre(samples[i]), post(samples[i]), (metrics[i]->*h.h).to_core());
  }
  return w.s;
}

}  // namespace llmtriage::serve
