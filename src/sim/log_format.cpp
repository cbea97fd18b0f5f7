#include "sim/log_format.h"

#include <fmt/format.h>

#include <cmath>

namespace llmtriage::sim {

namespace {
std::string with_commas(int64_t v) {
  std::string s = std::to_string(v < 0 ? -v : v), out;
  int k = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (k && k % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++k;
  }
  return v < 0 ? "-" + out : out;
}
}  // namespace

std::string log_time(double t_s) {
  const int64_t total = static_cast<int64_t>(std::floor(std::max(0.0, t_s)));
  const int64_t day = total / 86400, rem = total % 86400;
  // January has 31 days; runs longer than a month wrap the day (simulated logs are short).
  return fmt::format("01-{:02d} {:02d}:{:02d}:{:02d}", 1 + day % 31, rem / 3600, (rem / 60) % 60, rem % 60);
}

std::string stats_line(core::EngineKind kind, const LogStats& s) {
  if (kind == core::EngineKind::vllm_v0) {
    return fmt::format(
        "INFO {} metrics.py:351] Avg prompt throughput: {:.1f} tokens/s, Avg generation throughput: {:.1f} tokens/s, "
        "Running: {} reqs, Swapped: 0 reqs, Pending: {} reqs, GPU KV cache usage: {:.1f}%, CPU KV cache usage: 0.0%.",
        log_time(s.t_s), s.prompt_tps, s.gen_tps, s.running, s.waiting, s.kv_usage * 100);
  }
  std::string line = fmt::format(
      "INFO {} [loggers.py:123] Engine {:03d}: Avg prompt throughput: {:.1f} tokens/s, Avg generation throughput: "
      "{:.1f} tokens/s, Running: {} reqs, Waiting: {} reqs, ",
      log_time(s.t_s), s.engine_index, s.prompt_tps, s.gen_tps, s.running, s.waiting);
  if (s.preemptions > 0) line += fmt::format("Preemptions: {}, ", s.preemptions);
  line += fmt::format("GPU KV cache usage: {:.1f}%, Prefix cache hit rate: {:.1f}%", s.kv_usage * 100,
                      s.prefix_hit_rate * 100);
  return line;
}

std::string v0_preemption_warning(double t_s, int64_t seq_id, uint64_t total) {
  return fmt::format(
      "WARNING {} scheduler.py:1057] Sequence group {} is preempted by PreemptionMode.RECOMPUTE mode because there is "
      "not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or "
      "tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption={}",
      log_time(t_s), seq_id, total);
}

std::vector<std::string> startup_lines(core::EngineKind kind, int engine_index, int64_t kv_tokens, int64_t num_blocks,
                                       int64_t max_model_len) {
  const double conc = max_model_len > 0 ? static_cast<double>(kv_tokens) / static_cast<double>(max_model_len) : 0;
  if (kind == core::EngineKind::vllm_v0) {
    return {fmt::format("INFO {} executor_base.py:110] # GPU blocks: {}, # CPU blocks: 0", log_time(0), num_blocks),
            fmt::format("INFO {} executor_base.py:115] Maximum concurrency for {} tokens per request: {:.2f}x",
                        log_time(0), max_model_len, conc)};
  }
  (void)engine_index;
  return {fmt::format("INFO {} [kv_cache_utils.py:1087] GPU KV cache size: {} tokens", log_time(0), with_commas(kv_tokens)),
          fmt::format("INFO {} [kv_cache_utils.py:1091] Maximum concurrency for {} tokens per request: {:.2f}x",
                      log_time(0), with_commas(max_model_len), conc)};
}

std::string max_len_error(int64_t max_model_len, int64_t prompt, int64_t max_tokens) {
  return fmt::format(
      "This model's maximum context length is {} tokens. However, you requested {} tokens ({} in the messages, {} in "
      "the completion). Please reduce the length of the messages or completion.",
      max_model_len, prompt + max_tokens, prompt, max_tokens);
}

}  // namespace llmtriage::sim
