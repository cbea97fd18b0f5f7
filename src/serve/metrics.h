#pragma once
// /metrics of `sim serve`: per-replica histograms fed by the simulated requests, and the
// exposition in vLLM V1's names, types, labels and buckets (or SGLang's with --metrics-style
// sglang). Bucket sets: vLLM vllm/v1/metrics/loggers.py (V1), SGLang
// python/sglang/srt/metrics/collector.py (2026 defaults); see docs/serve.md for the list.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "sim/online.h"

namespace llmtriage::serve {

enum class MetricsStyle { vllm, sglang };

class Hist {
 public:
  Hist() = default;
  explicit Hist(std::vector<double> bounds);
  void observe(double v, uint64_t times = 1);
  core::Histogram to_core() const;  // cumulative, ending with +Inf
  const std::vector<double>& bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_;  // per bucket, last = above every bound
  double sum_ = 0;
  uint64_t count_ = 0;
};

// vLLM's finished_reason label values (FINISH_REASON_STRINGS).
enum class Finish { stop, length, abort, error, repetition };
inline constexpr std::array<const char*, 5> kFinishNames = {"stop", "length", "abort", "error", "repetition"};

struct ReplicaMetrics {
  ReplicaMetrics(MetricsStyle style, int64_t max_model_len);
  Hist ttft, itl, tpot, e2e, queue, inference, prefill, decode;
  Hist prompt_tokens, generation_tokens, max_generation_tokens, params_n, params_max_tokens, iteration_tokens;
  std::array<uint64_t, 5> finished{};  // by Finish
  uint64_t requests_received = 0;
  double gen_throughput = 0;           // tokens/s over the last log interval (SGLang gauge)
  double last_prefill_hit_rate = 0;    // SGLang cache_hit_rate: of the last prefill batch
};

// Static engine configuration shown in vllm:cache_config_info.
struct CacheInfo {
  int block_size = 16;
  std::string cache_dtype = "auto";
  bool prefix_caching = true;
  double gpu_memory_utilization = 0.9;
  int64_t num_gpu_blocks = 0;
};

// One replica at scrape time: gauges/counters from the simulator plus its histograms.
// fill_histograms copies the histograms into the sample's core::Histogram fields.
void fill_histograms(const ReplicaMetrics& m, core::EngineSample& s);
// What /metrics exposes for replica i: the simulator's gauges and counters, finished requests
// of every reason (vLLM's request_success_total summed), and the histograms.
core::EngineSample exposed_sample(const sim::OnlineEngine& e, int i, const ReplicaMetrics& m, const std::string& model,
                                  double t_s);

std::string render_vllm(const std::vector<core::EngineSample>& samples, const std::vector<const ReplicaMetrics*>& metrics,
                        const CacheInfo& cache);
std::string render_sglang(const std::vector<core::EngineSample>& samples,
                          const std::vector<const ReplicaMetrics*>& metrics);

// vLLM's build_1_2_5_buckets: 1, 2, 5, 10, 20, 50, ... while <= max.
std::vector<double> buckets_1_2_5(int64_t max);
// Prometheus-client float text: "1.0", "0.001", "+Inf", "2560.0".
std::string prom_float(double v);

}  // namespace llmtriage::serve
