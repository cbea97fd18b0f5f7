#include "sim/scheduler.h"

#include <algorithm>

namespace llmtriage::sim {

int32_t tokens_for(const SimRequest& r, int32_t cached_tokens, int64_t budget, bool chunked) {
  const int64_t remaining = static_cast<int64_t>(r.num_tokens()) - std::max(r.num_computed, cached_tokens);
  if (remaining <= 0 || budget <= 0) return 0;
  if (remaining <= budget) return static_cast<int32_t>(remaining);
  return chunked ? static_cast<int32_t>(budget) : 0;
}

void Scheduler::enqueue(int32_t req) {
  reqs_[req].state = ReqState::waiting;
  waiting_.push_back(req);
}

void Scheduler::add(StepPlan& plan, int32_t req, int32_t n) {
  SimRequest& r = reqs_[req];
  plan.seqs.push_back({req, n, r.num_computed});
  plan.num_tokens += n;
  if (r.prefill_done() && n == 1 && r.num_computed + 1 == r.num_tokens()) ++plan.num_decode;
  else ++plan.num_prefill;
}

void Scheduler::preempt(int32_t victim, StepPlan& plan) {
  SimRequest& v = reqs_[victim];
  kv_.free(v);
  v.num_computed = 0;
  v.state = ReqState::waiting;
  ++v.preemptions;
  waiting_.push_front(victim);
  plan.preempted.push_back(victim);
}

// Returns false when a preemption happened (no admissions this step).
bool Scheduler::schedule_running(StepPlan& plan, int64_t& budget) {
  bool preempted = false;
  int64_t future_blocks = 0;  // guaranteed_no_evict: blocks running requests may still claim
  for (size_t i = 0; i < running_.size();) {
    const int32_t id = running_[i];
    SimRequest& r = reqs_[id];
    const int32_t n = tokens_for(r, 0, budget, true);  // admitted prefills always continue in chunks
    bool scheduled = false;
    if (n > 0) {
      for (;;) {
        KvAccountant scratch{kv_.num_available()};
        if (scratch.try_reserve(kv_.blocks_needed(r, r.num_computed + n, {}))) {
          kv_.allocate(r, r.num_computed + n, {});
          scheduled = true;
          break;
        }
        if (cfg_.capacity == CapacityPolicy::guaranteed_no_evict) break;  // never evicts
        const int32_t victim = running_.back();
        running_.pop_back();
        preempt(victim, plan);
        preempted = true;
        if (victim == id) break;
      }
      if (!scheduled && (running_.empty() || running_.size() <= i || running_[i] != id)) break;
    }
    if (scheduled) {
      add(plan, id, n);
      budget -= n;
    }
    const int64_t bs = kv_.block_size();
    const int64_t max_blocks = (r.prompt_len + r.max_output + bs - 1) / bs;
    future_blocks += std::max<int64_t>(0, max_blocks - static_cast<int64_t>(r.blocks.size()));
    ++i;
  }
  reserved_future_ = future_blocks;
  return !preempted;
}

void Scheduler::schedule_waiting(StepPlan& plan, int64_t& budget, uint64_t& admit_counter) {
  while (!waiting_.empty() && budget > 0 && static_cast<int64_t>(running_.size()) < cfg_.max_num_seqs) {
    const int32_t id = waiting_.front();
    SimRequest& r = reqs_[id];
    hits_.clear();
    const int32_t hit_tokens = kv_.find_cached_prefix(r, hits_);
    const int32_t n = tokens_for(r, hit_tokens, budget, cfg_.chunked_prefill);
    if (n == 0) break;  // FCFS: the head blocks the queue
    // Capacity stage, on a scratch accountant first.
    KvAccountant scratch{kv_.num_available()};
    if (cfg_.capacity == CapacityPolicy::guaranteed_no_evict) {
      scratch.available -= reserved_future_;
      const int64_t all = kv_.blocks_needed(r, r.prompt_len + r.max_output, hits_);
      if (!scratch.try_reserve(all)) break;
      const int64_t bs = kv_.block_size();
      const int64_t now = kv_.blocks_needed(r, hit_tokens + n, hits_);
      reserved_future_ += std::max<int64_t>(0, all - now);
      (void)bs;
    } else if (!scratch.try_reserve(kv_.blocks_needed(r, hit_tokens + n, hits_))) {
      break;
    }
    kv_.allocate(r, hit_tokens + n, hits_);  // commit
    kv_.count_lookup(r.num_tokens(), hit_tokens);
    r.prefix_hit_tokens = hit_tokens;
    r.num_computed = hit_tokens;
    r.state = ReqState::running;
    r.admit_seq = ++admit_counter;
    waiting_.pop_front();
    running_.push_back(id);
    plan.admitted.push_back(id);
    add(plan, id, n);
    budget -= n;
  }
}

void Scheduler::schedule(StepPlan& plan, uint64_t& admit_counter) {
  plan.clear();
  int64_t budget = cfg_.max_num_batched_tokens;
  reserved_future_ = 0;
  const bool window_open = cfg_.multi_step <= 1 || running_.empty() ||
                           step_index_ % static_cast<uint64_t>(cfg_.multi_step) == 0;
  ++step_index_;
  if (!window_open) {
    schedule_running(plan, budget);
    return;
  }
  if (cfg_.prefill_first) {
    // V0: prefills alone when any can start; otherwise decodes.
    if (cfg_.capacity == CapacityPolicy::guaranteed_no_evict) schedule_running_reservations();
    schedule_waiting(plan, budget, admit_counter);
    if (!plan.seqs.empty()) return;
    schedule_running(plan, budget);
    return;
  }
  if (schedule_running(plan, budget)) schedule_waiting(plan, budget, admit_counter);
}

void Scheduler::schedule_running_reservations() {
  const int64_t bs = kv_.block_size();
  int64_t f = 0;
  for (int32_t id : running_) {
    const SimRequest& r = reqs_[id];
    f += std::max<int64_t>(0, (r.prompt_len + r.max_output + bs - 1) / bs - static_cast<int64_t>(r.blocks.size()));
  }
  reserved_future_ = f;
}

void Scheduler::remove(int32_t req) {
  SimRequest& r = reqs_[req];
  if (r.state == ReqState::waiting) {
    auto it = std::find(waiting_.begin(), waiting_.end(), req);
    if (it != waiting_.end()) waiting_.erase(it);
  } else if (r.state == ReqState::running) {
    auto it = std::find(running_.begin(), running_.end(), req);
    if (it != running_.end()) running_.erase(it);
  }
  kv_.free(r);
}

void Scheduler::drop_finished() {
  running_.erase(std::remove_if(running_.begin(), running_.end(),
                                [&](int32_t id) { return reqs_[id].state != ReqState::running; }),
                 running_.end());
}

}  // namespace llmtriage::sim
