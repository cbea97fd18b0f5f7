#pragma once
// One replica's scheduler, a vLLM V1-like iteration loop split in two stages:
//  - batch stage (pure): how many tokens each request gets this step, under the token budget
//    (max_num_batched_tokens), max_num_seqs and chunking (`tokens_for`);
//  - capacity stage: whether the KV blocks for those tokens exist. Each reservation is first tried
//    on a scratch accountant (`KvAccountant`, a copy of the available-block count) and only then
//    committed to the KV cache; a running request that cannot grow preempts the most recently
//    admitted one (recompute), as vLLM V1's scheduler does.
// Order: running requests first (decodes and in-flight chunked prefills, "decode-first"), then
// the waiting queue in FCFS order; no new admissions in a step that preempted (vLLM V1).
// prefill_first (vLLM V0): if any waiting request can be admitted, the step runs only prefills.
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/engine_preset.h"
#include "sim/kv_cache.h"
#include "sim/request.h"

namespace llmtriage::sim {

struct SchedulerConfig {
  CapacityPolicy capacity = CapacityPolicy::max_utilization;
  int64_t max_num_seqs = 256;
  int64_t max_num_batched_tokens = 8192;
  bool chunked_prefill = true;
  bool prefill_first = false;
  // vLLM V0 --num-scheduler-steps N: the batch is fixed for N decode steps; new requests join
  // only at the start of a window (when nothing runs, at once).
  int multi_step = 1;
};

struct ScheduledSeq {
  int32_t req = 0;
  int32_t num_new_tokens = 0;
  int32_t context_before = 0;  // tokens already in the cache before this step (attention reads them)
};

struct StepPlan {
  std::vector<ScheduledSeq> seqs;
  std::vector<int32_t> preempted;
  std::vector<int32_t> admitted;
  int64_t num_tokens = 0;
  int32_t num_decode = 0;   // sequences computing exactly their next token after the prompt
  int32_t num_prefill = 0;  // sequences computing prompt (or recompute) tokens
  void clear() {
    seqs.clear(); preempted.clear(); admitted.clear();
    num_tokens = 0; num_decode = 0; num_prefill = 0;
  }
};

// Batch-stage policy (pure): tokens to schedule for `r` with `budget` left. Without chunking a
// prefill that does not fit the budget whole gets 0 (it waits for a step with room).
int32_t tokens_for(const SimRequest& r, int32_t cached_tokens, int64_t budget, bool chunked);

// Scratch accountant for the capacity stage: reservations are tried here, then committed.
struct KvAccountant {
  int64_t available = 0;
  bool try_reserve(int64_t blocks) {
    if (blocks > available) return false;
    available -= blocks;
    return true;
  }
};

class Scheduler {
 public:
  Scheduler(SchedulerConfig cfg, std::vector<SimRequest>& reqs, KvCache& kv)
      : cfg_(cfg), reqs_(reqs), kv_(kv) {}

  const SchedulerConfig& config() const { return cfg_; }
  void set_config(const SchedulerConfig& c) { cfg_ = c; }
  void enqueue(int32_t req);             // arrival: back of the waiting queue
  // Fills `plan` for the next step and commits the KV allocations and preemptions.
  void schedule(StepPlan& plan, uint64_t& admit_counter);
  // Removes a request wherever it is (abort / timeout); frees its blocks.
  void remove(int32_t req);
  // After the step: drop finished requests from the running list (keeps order).
  void drop_finished();

  const std::deque<int32_t>& waiting() const { return waiting_; }
  const std::vector<int32_t>& running() const { return running_; }

 private:
  void preempt(int32_t victim, StepPlan& plan);
  bool schedule_running(StepPlan& plan, int64_t& budget);
  void schedule_waiting(StepPlan& plan, int64_t& budget, uint64_t& admit_counter);
  void add(StepPlan& plan, int32_t req, int32_t n);
  void schedule_running_reservations();

  SchedulerConfig cfg_;
  std::vector<SimRequest>& reqs_;
  KvCache& kv_;
  std::deque<int32_t> waiting_;
  std::vector<int32_t> running_;  // admission order
  std::vector<int32_t> hits_;     // scratch
  int64_t reserved_future_ = 0;   // guaranteed_no_evict: blocks promised to running requests
  uint64_t step_index_ = 0;       // steps scheduled so far (multi-step windows)
};

}  // namespace llmtriage::sim
