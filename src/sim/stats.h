#pragma once
// Latency statistics of a run and the summary `sim run` prints. ITL (every gap between two
// tokens of a request) is kept in a log-bucketed histogram (relative resolution 0.1%) so a
// million-request run does not hold every gap; TTFT/TPOT/E2E are exact (one value per request).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmtriage::sim {

class LogHistogram {
 public:
  LogHistogram();
  void add(double v);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0; }
  double quantile(double q) const;  // linear-in-rank within the bucket's geometric midpoint

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0, under_ = 0;
  double sum_ = 0;
};

struct Dist {
  double mean = 0, median = 0, p90 = 0, p99 = 0;
  size_t count = 0;
};
Dist dist_of(std::vector<double> v);
nlohmann::json to_json(const Dist& d);

// Units: ms for latencies, per second for throughputs, seconds for times.
struct Summary {
  Dist ttft_ms, tpot_ms, itl_ms, e2e_ms, queue_ms;
  double request_throughput = 0;       // completed requests / duration
  double output_throughput = 0;        // generated tokens of completed requests / duration
  double total_token_throughput = 0;   // (prompt + generated) tokens of completed requests / duration
  double duration_s = 0;               // first arrival -> last completion (vllm bench's duration)
  uint64_t completed = 0, rejected = 0, timed_out = 0, retries = 0, aborted = 0;
  uint64_t preemptions = 0;
  uint64_t steps = 0;
  double prefix_cache_hit_rate = 0;    // hits / queries, tokens
  double kv_usage_mean = 0, kv_usage_max = 0;  // time-weighted over steps, 0..1
  double waiting_max = 0, running_max = 0, running_mean = 0;
  uint64_t kv_cache_tokens = 0;        // per replica
  double sim_seconds = 0;              // virtual time simulated
  double wall_seconds = 0;             // host time taken
  bool livelock = false;
  nlohmann::json to_json() const;
};

}  // namespace llmtriage::sim
