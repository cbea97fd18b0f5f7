#include "sim/stats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/quantile.h"

namespace llmtriage::sim {

namespace {
// Buckets by the top bits of the IEEE-754 double: exponent + 10 mantissa bits, i.e. relative
// width 2^-10 (0.1%), no log() on the hot path.
constexpr int kShift = 42;
inline uint64_t bits_of(double v) { uint64_t b; std::memcpy(&b, &v, sizeof b); return b; }
inline double double_of(uint64_t b) { double v; std::memcpy(&v, &b, sizeof v); return v; }
const uint64_t kLoKey = bits_of(1e-6) >> kShift;
const uint64_t kHiKey = bits_of(1e4) >> kShift;
const size_t kBuckets = static_cast<size_t>(kHiKey - kLoKey + 1);
}  // namespace

LogHistogram::LogHistogram() : buckets_(kBuckets, 0) {}

void LogHistogram::add(double v) {
  ++count_;
  sum_ += v;
  if (!(v >= 1e-6)) { ++under_; return; }
  uint64_t k = bits_of(v) >> kShift;
  if (k > kHiKey) k = kHiKey;
  ++buckets_[static_cast<size_t>(k - kLoKey)];
}

double LogHistogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const double rank = q * static_cast<double>(count_ - 1);
  double seen = static_cast<double>(under_);
  if (rank < seen) return 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += static_cast<double>(buckets_[i]);
    if (rank < seen) return double_of(((kLoKey + i) << kShift) | (uint64_t{1} << (kShift - 1)));  // bucket midpoint
  }
  return 1e4;
}

Dist dist_of(std::vector<double> v) {
  Dist d;
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double s = 0;
  for (double x : v) s += x;
  d.count = v.size();
  d.mean = s / static_cast<double>(v.size());
  d.median = *core::quantile_sorted(v, 0.5);
  d.p90 = *core::quantile_sorted(v, 0.9);
  d.p99 = *core::quantile_sorted(v, 0.99);
  return d;
}

nlohmann::json to_json(const Dist& d) {
  return {{"mean", d.mean}, {"median", d.median}, {"p90", d.p90}, {"p99", d.p99}, {"count", d.count}};
}

nlohmann::json Summary::to_json() const {
  using sim::to_json;
  nlohmann::json j;
  j["ttft_ms"] = to_json(ttft_ms);
  j["tpot_ms"] = to_json(tpot_ms);
  j["itl_ms"] = to_json(itl_ms);
  j["e2e_ms"] = to_json(e2e_ms);
  j["queue_ms"] = to_json(queue_ms);
  j["request_throughput"] = request_throughput;
  j["output_throughput"] = output_throughput;
  j["total_token_throughput"] = total_token_throughput;
  j["duration_s"] = duration_s;
  j["completed"] = completed;
  j["rejected"] = rejected;
  j["timed_out"] = timed_out;
  j["retries"] = retries;
  j["aborted"] = aborted;
  j["preemptions"] = preemptions;
  j["steps"] = steps;
  j["prefix_cache_hit_rate"] = prefix_cache_hit_rate;
  j["kv_usage_mean"] = kv_usage_mean;
  j["kv_usage_max"] = kv_usage_max;
  j["waiting_max"] = waiting_max;
  j["running_max"] = running_max;
  j["running_mean"] = running_mean;
  j["kv_cache_tokens"] = kv_cache_tokens;
  j["sim_seconds"] = sim_seconds;
  j["wall_seconds"] = wall_seconds;
  j["livelock"] = livelock;
  return j;
}

}  // namespace llmtriage::sim
