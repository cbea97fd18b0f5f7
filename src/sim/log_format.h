#pragma once
// Engine log lines in the engines' own formats, so the log parsers read simulated logs like real
// ones. Timestamps: virtual time t_s added to 01-01 00:00:00 (vLLM prints month-day, no year).
// Formats: the project's reference notes on vLLM logging (vllm/v1/metrics/loggers.py,
// vllm/engine/metrics.py, vllm/core/scheduler.py, vllm/v1/core/kv_cache_utils.py).
#include <cstdint>
#include <string>
#include <vector>

#include "core/engine_settings.h"

namespace llmtriage::sim {

struct LogStats {
  double t_s = 0;
  int engine_index = 0;
  double prompt_tps = 0, gen_tps = 0;
  int64_t running = 0, waiting = 0, preemptions = 0;  // preemptions within the interval
  double kv_usage = 0, prefix_hit_rate = 0;            // fractions 0..1
};

// "INFO 01-01 00:00:10 [loggers.py:123] Engine 000: Avg prompt throughput: ..." (V1, >= 0.11:
// "Preemptions: N" only when N > 0), or the V0 line for vllm_v0.
std::string stats_line(core::EngineKind kind, const LogStats& s);
// V0's warning (printed for the 1st, 51st, ... preemption).
std::string v0_preemption_warning(double t_s, int64_t seq_id, uint64_t total);
// Startup lines reporting the KV pool (V1: "GPU KV cache size: N tokens", "Maximum concurrency").
std::vector<std::string> startup_lines(core::EngineKind kind, int engine_index, int64_t kv_tokens, int64_t num_blocks,
                                       int64_t max_model_len);
// The OpenAI-server 400 error text for a request longer than max_model_len.
std::string max_len_error(int64_t max_model_len, int64_t prompt, int64_t max_tokens);
// "01-01 00:00:10" for virtual time t_s.
std::string log_time(double t_s);

}  // namespace llmtriage::sim
