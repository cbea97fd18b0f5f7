#pragma once
// The scheduling_capacity rules, one function each (docs/rules.md). Each appends the finding it
// located, with its evidence and ordered single-variable remedies, or nothing.
#include <optional>
#include <string>
#include <vector>

#include "diagnose/capacity_kit.h"

namespace llmtriage::diagnose::sched {

// scheduling_memory.cpp
void startup_memory(const Context& c, kit::Models& m, std::vector<Finding>& out);  // startup_oom, max_len_exceeds_kv
void request_exceeds_kv_pool(const Context& c, kit::Models& m, std::vector<Finding>& out);
void runtime_oom_unprofiled(const Context& c, kit::Models& m, std::vector<Finding>& out);

// scheduling_records.cpp: TTFT up with TPOT flat against a baseline (client records)
void queue_from_records(const Context& c, kit::Models& m, std::vector<Finding>& out);
// the engine reports prefix caching off where the baseline hit (prefix_caching == 0)
void prefix_caching_off(const Context& c, kit::Models& m, std::vector<Finding>& out);

// scheduling_context.cpp
void request_exceeds_context(const Context& c, kit::Models& m, std::vector<Finding>& out);

// scheduling_queue.cpp
void kv_pool_saturated(const Context& c, kit::Models& m, std::vector<Finding>& out);
void preemption_storm(const Context& c, kit::Models& m, std::vector<Finding>& out);
void long_prefill_blocking(const Context& c, kit::Models& m, std::vector<Finding>& out);
void prefix_cache_miss_routing(const Context& c, kit::Models& m, std::vector<Finding>& out);
void batch_too_large(const Context& c, kit::Models& m, std::vector<Finding>& out);

// What counts as a deep queue on this engine: sched.waiting_deep_share x the concurrency it runs
// (the smaller of max_num_seqs -- llama.cpp's slots -- and the largest running batch seen), no
// less than sched.waiting_deep_min and no more than sched.waiting_deep; sched.waiting_deep alone
// when neither is known. By Little's law a queue of half the running batch adds about half a
// service time to every request; a fixed 10 would call 8 waiting behind 4 slots "no queue".
struct QueueDepth {
  double threshold = 0;
  std::string basis;  // "0.5 x 4 running (max-num-seqs/slots 4)", "" when the fixed threshold applied
  // The queue reading judged against it: the engine's median waiting, or the requests the clients
  // held beyond the engine's running cap (waiting_client) when that is larger -- a queue the
  // engine's gauge cannot show (llama.cpp's HTTP threads, a listen backlog). Unset: none measured.
  std::optional<double> waiting;
  std::string reading;  // its indicator's name
};
QueueDepth deep_queue(const Context& c);
// The waiting reading compared with deep_queue's threshold, the basis in its text.
EvidenceItem waiting_item(const Context& c, const QueueDepth& q, const char* op);

// The KV pool in tokens: the engine's own figure (metrics/log) when measured, else the ledger's.
struct Pool {
  double tokens = 0;
  EvidenceItem item;
};
std::optional<Pool> kv_pool(const Context& c, kit::Models& m);

}  // namespace llmtriage::diagnose::sched
