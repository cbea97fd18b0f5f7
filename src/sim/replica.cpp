#include "sim/replica.h"

#include <algorithm>
#include <map>
#include <string>

namespace llmtriage::sim {

core::EngineSample engine_sample(const Replica& rep, double t, core::EngineKind engine, const std::string& model_name) {
  core::EngineSample s;
  s.t_s = t;
  s.engine = engine;
  s.model_name = model_name;
  s.engine_index = std::to_string(rep.index);
  s.running = static_cast<double>(rep.sched.running().size());
  s.waiting = static_cast<double>(rep.sched.waiting().size());
  s.kv_usage = rep.kv.usage();
  s.preemptions_total = static_cast<double>(rep.preemptions);
  s.prompt_tokens_total = static_cast<double>(rep.prompt_tokens);
  s.generation_tokens_total = static_cast<double>(rep.generation_tokens);
  s.requests_finished_total = static_cast<double>(rep.finished);
  s.prefix_cache_queries_total = static_cast<double>(rep.kv.prefix_queries_tokens);
  s.prefix_cache_hits_total = static_cast<double>(rep.kv.prefix_hits_tokens);
  s.kv_cache_capacity_tokens = static_cast<double>(rep.kv.num_usable() * rep.kv.block_size());  // the usable pool
  return s;
}

void apply_step(Replica& rep, std::vector<SimRequest>& reqs, double t, bool keep_token_times, LogHistogram& itl,
                std::vector<int32_t>& finished) {
  for (const auto& q : rep.plan.seqs) {
    SimRequest& r = reqs[static_cast<size_t>(q.req)];
    if (r.state != ReqState::running) continue;  // aborted while the step ran
    r.num_computed += q.num_new_tokens;
    if (q.context_before < r.prompt_len) {
      rep.prompt_tokens += static_cast<uint64_t>(std::min(q.num_new_tokens, r.prompt_len - q.context_before));
    }
    rep.kv.cache_full_blocks(r);
    if (r.num_computed < r.num_tokens()) continue;  // a chunk of a longer prefill
    ++r.num_output;
    ++rep.generation_tokens;
    if (r.first_token_s < 0) r.first_token_s = t;
    else itl.add(t - r.last_token_s);
    r.last_token_s = t;
    if (keep_token_times) r.token_offsets_s.push_back(static_cast<float>(t - r.arrival_s));
    if (r.num_output >= r.max_output) {
      r.state = ReqState::finished;
      r.finish_s = t;
      rep.kv.free(r);
      ++rep.finished;
      --rep.outstanding;
      finished.push_back(q.req);
    }
  }
  rep.sched.drop_finished();
}

std::string check_replica(const Replica& rep, const std::vector<SimRequest>& reqs) {
  if (auto e = rep.kv.check(); !e.empty()) return "replica " + std::to_string(rep.index) + ": " + e;
  // Blocks conserved: every ref count equals the number of running requests holding the block.
  std::map<int32_t, int32_t> held;
  for (int32_t id : rep.sched.running()) {
    const SimRequest& r = reqs[static_cast<size_t>(id)];
    if (r.state != ReqState::running) return "request " + std::to_string(id) + " is in the running list but " + to_string(r.state);
    if (r.replica != rep.index) return "request " + std::to_string(id) + " runs on the wrong replica";
    const int64_t need = (static_cast<int64_t>(r.num_computed) + rep.kv.block_size() - 1) / rep.kv.block_size();
    if (static_cast<int64_t>(r.blocks.size()) < need) return "request " + std::to_string(id) + " holds fewer blocks than its computed tokens need";
    if (r.num_computed > r.num_tokens()) return "request " + std::to_string(id) + " computed more tokens than it has";
    for (int32_t b : r.blocks) ++held[b];
  }
  for (int32_t id : rep.sched.waiting()) {
    const SimRequest& r = reqs[static_cast<size_t>(id)];
    if (r.state != ReqState::waiting) return "request " + std::to_string(id) + " is queued but " + to_string(r.state);
    if (!r.blocks.empty()) return "waiting request " + std::to_string(id) + " holds blocks";
  }
  int64_t in_use = 0;
  for (const auto& [b, n] : held) {
    if (rep.kv.ref_count(b) != n) return "block " + std::to_string(b) + " ref count " + std::to_string(rep.kv.ref_count(b)) + " but held by " + std::to_string(n);
    ++in_use;
  }
  if (in_use != rep.kv.num_blocks() - rep.kv.num_free()) return "blocks in use by requests (" + std::to_string(in_use) + ") differ from the pool's count (" + std::to_string(rep.kv.num_blocks() - rep.kv.num_free()) + ")";
  return "";
}

}  // namespace llmtriage::sim
