#pragma once
// One engine replica: its KV cache, scheduler and counters, plus the step bookkeeping shared by
// the event-driven cluster and the hand-driven Engine.
#include <cstdint>
#include <string>
#include <vector>

#include "core/evidence.h"

#include "sim/cost_model.h"
#include "sim/kv_cache.h"
#include "sim/scheduler.h"
#include "sim/stats.h"

namespace llmtriage::sim {

struct Replica {
  Replica(int idx, const SchedulerConfig& sc, std::vector<SimRequest>& reqs, int64_t num_blocks, int block_size,
          bool prefix_caching)
      : index(idx), kv(num_blocks, block_size, prefix_caching), sched(sc, reqs, kv), base_prefix_caching(prefix_caching) {}
  int index;
  KvCache kv;
  Scheduler sched;
  StepPlan plan;
  bool base_prefix_caching;
  bool busy = false;
  int64_t outstanding = 0;
  // Counters since start (vLLM's *_total).
  uint64_t preemptions = 0, prompt_tokens = 0, generation_tokens = 0, finished = 0;
  // At the last log line.
  uint64_t log_prompt = 0, log_gen = 0, log_preempt = 0, log_q = 0, log_h = 0;
};

// Applies a finished step at time t: computed tokens, sampled tokens (ITL into `itl`), block
// registration in the prefix cache, completion. Appends the indexes of finished requests.
void apply_step(Replica& rep, std::vector<SimRequest>& reqs, double t, bool keep_token_times, LogHistogram& itl,
                std::vector<int32_t>& finished);

// The replica's state at time t as one engine sample: running/waiting/KV gauges and the vLLM-style
// *_total counters (prefix cache in tokens, capacity = blocks x block size).
core::EngineSample engine_sample(const Replica& rep, double t, core::EngineKind engine, const std::string& model_name);

// Consistency of one replica against the request table; "" when fine.
std::string check_replica(const Replica& rep, const std::vector<SimRequest>& reqs);

}  // namespace llmtriage::sim
