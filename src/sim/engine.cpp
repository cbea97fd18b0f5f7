// Engine: one replica driven step by step (tests' iteration tables; the HTTP server's engine).
#include <algorithm>
#include <string>

#include "sim/replica.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

struct Engine::Impl {
  Impl(const SimConfig& c, int idx)
      : cfg(c),
        cost(c.model, c.hardware, c.calibration, c.preset),
        rep(idx, c.scheduler, reqs, c.num_blocks, c.block_size, c.prefix_caching) {}
  SimConfig cfg;
  CostModel cost;
  std::vector<SimRequest> reqs;
  Replica rep;
  double now = 0;
  uint64_t admit = 0;
  uint64_t next_key = 1;
  LogHistogram itl;
  std::vector<int32_t> finished;
};

Engine::Engine(const SimConfig& cfg, int replica_index) : impl_(std::make_unique<Impl>(cfg, replica_index)) {
  impl_->reqs.reserve(1024);
}
Engine::~Engine() = default;

int32_t Engine::add(int32_t prompt_len, int32_t output_len, uint64_t content_key, uint64_t group_key,
                    int32_t shared_prefix_len) {
  auto& m = *impl_;
  SimRequest r;
  r.client_id = static_cast<uint32_t>(m.reqs.size());
  r.prompt_len = std::max(1, prompt_len);
  r.max_output = std::max(1, output_len);
  r.content_key = content_key ? content_key : (0x1234567ULL + 2 * m.next_key++) | 1;
  r.group_key = group_key;
  r.shared_prefix_len = shared_prefix_len;
  r.arrival_s = m.now;
  r.replica = static_cast<int16_t>(m.rep.index);
  const int32_t id = static_cast<int32_t>(m.reqs.size());
  const bool reject = static_cast<int64_t>(r.prompt_len) + r.max_output > m.cfg.max_model_len;
  m.reqs.push_back(std::move(r));
  if (reject) {
    m.reqs.back().state = ReqState::rejected;
    return -1;
  }
  m.rep.sched.enqueue(id);
  ++m.rep.outstanding;
  return id;
}

const StepPlan& Engine::step() {
  auto& m = *impl_;
  m.rep.sched.schedule(m.rep.plan, m.admit);
  m.rep.preemptions += m.rep.plan.preempted.size();
  for (int32_t id : m.rep.plan.admitted)
    if (m.reqs[static_cast<size_t>(id)].first_scheduled_s < 0) m.reqs[static_cast<size_t>(id)].first_scheduled_s = m.now;
  if (m.rep.plan.seqs.empty()) return m.rep.plan;
  m.now += m.cost.step(m.rep.plan, m.reqs).step_s;
  m.finished.clear();
  apply_step(m.rep, m.reqs, m.now, true, m.itl, m.finished);
  return m.rep.plan;
}

void Engine::abort(int32_t req) {
  auto& m = *impl_;
  SimRequest& r = m.reqs[static_cast<size_t>(req)];
  if (r.state != ReqState::waiting && r.state != ReqState::running) return;
  m.rep.sched.remove(req);
  r.state = ReqState::aborted;
  r.finish_s = m.now;
  --m.rep.outstanding;
}

double Engine::now_s() const { return impl_->now; }
const SimRequest& Engine::request(int32_t i) const { return impl_->reqs[static_cast<size_t>(i)]; }
const std::vector<int32_t>& Engine::running() const { return impl_->rep.sched.running(); }
size_t Engine::num_waiting() const { return impl_->rep.sched.waiting().size(); }
const KvCache& Engine::kv() const { return impl_->rep.kv; }
uint64_t Engine::preemptions_total() const { return impl_->rep.preemptions; }

std::string Engine::check_invariants() const {
  const auto& m = *impl_;
  if (auto e = check_replica(m.rep, m.reqs); !e.empty()) return e;
  // No request lost or duplicated: every live request is in exactly one queue.
  size_t live = 0;
  for (const auto& r : m.reqs) live += (r.state == ReqState::waiting || r.state == ReqState::running) ? 1 : 0;
  if (live != m.rep.sched.running().size() + m.rep.sched.waiting().size())
    return std::to_string(live) + " live requests but " + std::to_string(m.rep.sched.running().size()) + " running + " +
           std::to_string(m.rep.sched.waiting().size()) + " waiting";
  // Tokens conserved: generated tokens counted by the engine = sum over requests.
  uint64_t out = 0;
  for (const auto& r : m.reqs) out += static_cast<uint64_t>(r.num_output);
  if (out != m.rep.generation_tokens)
    return "requests hold " + std::to_string(out) + " generated tokens, the engine counted " +
           std::to_string(m.rep.generation_tokens);
  return "";
}

}  // namespace llmtriage::sim
