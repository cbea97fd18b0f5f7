#pragma once
// The scheduling_capacity rules, one function each (docs/rules.md). Each appends the finding it
// located, with its evidence and ordered single-variable remedies, or nothing.
#include <vector>

#include "diagnose/capacity_kit.h"

namespace llmtriage::diagnose::sched {

// scheduling_memory.cpp
void startup_memory(const Context& c, kit::Models& m, std::vector<Finding>& out);  // startup_oom, max_len_exceeds_kv
void request_exceeds_kv_pool(const Context& c, kit::Models& m, std::vector<Finding>& out);
void runtime_oom_unprofiled(const Context& c, kit::Models& m, std::vector<Finding>& out);

// scheduling_queue.cpp
void kv_pool_saturated(const Context& c, kit::Models& m, std::vector<Finding>& out);
void preemption_storm(const Context& c, kit::Models& m, std::vector<Finding>& out);
void long_prefill_blocking(const Context& c, kit::Models& m, std::vector<Finding>& out);
void prefix_cache_miss_routing(const Context& c, kit::Models& m, std::vector<Finding>& out);
void batch_too_large(const Context& c, kit::Models& m, std::vector<Finding>& out);

// The KV pool in tokens: the engine's own figure (metrics/log) when measured, else the ledger's.
struct Pool {
  double tokens = 0;
  EvidenceItem item;
};
std::optional<Pool> kv_pool(const Context& c, kit::Models& m);

}  // namespace llmtriage::diagnose::sched
