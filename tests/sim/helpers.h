#pragma once
// Small configs for the simulator tests: Llama-3.1-8B-like shape on an H100-like GPU.
#include "sim/simulation.h"

namespace simtest {

inline llmtriage::sim::SimConfig tiny_config(int64_t num_blocks, int block_size, int64_t budget, int64_t max_seqs,
                                             bool chunked, bool prefix_caching = false,
                                             const std::string& engine = "vllm") {
  using namespace llmtriage::sim;
  SimConfig c;
  c.preset = engine_preset(engine).value();
  c.num_blocks = num_blocks;
  c.block_size = block_size;
  c.max_model_len = num_blocks * block_size;
  c.scheduler.capacity = c.preset.capacity;
  c.scheduler.max_num_batched_tokens = budget;
  c.scheduler.max_num_seqs = max_seqs;
  c.scheduler.chunked_prefill = chunked;
  c.scheduler.prefill_first = engine == "vllm-v0";
  c.prefix_caching = prefix_caching;
  return c;
}

// "id:tokens id:tokens" of a step plan, in schedule order: the iteration table's cell.
inline std::string cell(const llmtriage::sim::StepPlan& p) {
  std::string s;
  for (const auto& q : p.seqs) s += (s.empty() ? "" : " ") + std::to_string(q.req) + ":" + std::to_string(q.num_new_tokens);
  return s;
}

}  // namespace simtest
