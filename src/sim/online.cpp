// OnlineEngine: replicas stepping on virtual clocks the caller advances (see online.h).
#include "sim/online.h"

#include <algorithm>
#include <string>

namespace llmtriage::sim {

struct Rep {
  Rep(int idx, const SimConfig& c, std::vector<SimRequest>& reqs)
      : r(idx, c.scheduler, reqs, c.num_blocks, c.block_size, c.prefix_caching) {}
  Replica r;
  double now = 0;       // start of the running step, or the last time it went idle
  double step_end = 0;  // when busy
};

struct OnlineEngine::Impl {
  explicit Impl(const SimConfig& c) : cfg(c), cost(c.model, c.hardware, c.calibration, c.preset), faults(c.faults) {
    reqs.reserve(4096);
    const int n = std::max(1, c.replicas);
    for (int i = 0; i < n; ++i) reps.push_back(std::make_unique<Rep>(i, cfg, reqs));
  }
  SimConfig cfg;
  CostModel cost;
  std::vector<Fault> faults;
  std::vector<SimRequest> reqs;
  std::vector<std::unique_ptr<Rep>> reps;
  uint64_t admit = 0;
  uint64_t next_key = 1;
  LogHistogram itl;  // apply_step wants one; the server keeps its own histograms
  std::vector<int32_t> finished;

  // Schedules the next step of `rep` at time t; returns false (and idles) when nothing runs.
  bool start_step(Rep& rep, double t, std::vector<int32_t>* preempted) {
    Replica& r = rep.r;
    const FaultState fs = fault_state(faults, t);
    r.kv.set_prefix_caching(r.base_prefix_caching && !fs.prefix_cache_off);
    r.kv.set_withheld(static_cast<int64_t>(fs.kv_withheld_fraction * static_cast<double>(r.kv.num_blocks())));
    r.sched.schedule(r.plan, admit);
    for (int32_t id : r.plan.admitted) {
      SimRequest& q = reqs[static_cast<size_t>(id)];
      if (q.first_scheduled_s < 0) q.first_scheduled_s = t;
    }
    r.preemptions += r.plan.preempted.size();
    if (preempted) preempted->insert(preempted->end(), r.plan.preempted.begin(), r.plan.preempted.end());
    rep.now = t;
    if (r.plan.seqs.empty()) {
      r.busy = false;
      return false;
    }
    const StepCost c = cost.step(r.plan, reqs, fs.clock_factor, slow_factor(faults, t, r.index));
    r.busy = true;
    rep.step_end = t + c.step_s;
    return true;
  }
};

OnlineEngine::OnlineEngine(const SimConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
OnlineEngine::~OnlineEngine() = default;

int OnlineEngine::num_replicas() const { return static_cast<int>(impl_->reps.size()); }
const SimConfig& OnlineEngine::config() const { return impl_->cfg; }

int32_t OnlineEngine::add(double t, int32_t prompt_len, int32_t output_len, uint64_t content_key, uint64_t group_key,
                          int32_t shared_prefix_len, int replica, std::shared_ptr<const std::vector<uint64_t>> token_keys) {
  auto& m = *impl_;
  if (replica < 0 || replica >= static_cast<int>(m.reps.size())) {
    replica = 0;  // least outstanding requests (ties: lowest index)
    for (size_t i = 1; i < m.reps.size(); ++i)
      if (m.reps[i]->r.outstanding < m.reps[static_cast<size_t>(replica)]->r.outstanding) replica = static_cast<int>(i);
  }
  Rep& rep = *m.reps[static_cast<size_t>(replica)];
  SimRequest r;
  r.client_id = static_cast<uint32_t>(m.reqs.size());
  r.prompt_len = std::max(1, prompt_len);
  r.max_output = std::max(1, output_len);
  r.content_key = content_key ? content_key : (0x1234567ULL + 2 * m.next_key++) | 1;
  r.group_key = group_key;
  r.shared_prefix_len = shared_prefix_len;
  r.token_keys = std::move(token_keys);
  r.arrival_s = std::max(t, rep.now);  // never before the replica's clock
  r.replica = static_cast<int16_t>(replica);
  if (static_cast<int64_t>(r.prompt_len) + r.max_output > m.cfg.max_model_len) return -1;
  const int32_t id = static_cast<int32_t>(m.reqs.size());
  m.reqs.push_back(std::move(r));
  rep.r.sched.enqueue(id);
  ++rep.r.outstanding;
  return id;
}

void OnlineEngine::abort(int32_t id, double t) {
  auto& m = *impl_;
  SimRequest& r = m.reqs[static_cast<size_t>(id)];
  if (r.state != ReqState::waiting && r.state != ReqState::running) return;
  Replica& rep = m.reps[static_cast<size_t>(r.replica)]->r;
  rep.sched.remove(id);
  r.state = ReqState::aborted;
  r.finish_s = t;
  --rep.outstanding;
}

void OnlineEngine::advance(double t, const std::function<void(const StepReport&)>& on_step) {
  auto& m = *impl_;
  StepReport rep_out;
  for (;;) {
    Rep* next = nullptr;
    for (auto& rp : m.reps)
      if (rp->r.busy && rp->step_end <= t && (!next || rp->step_end < next->step_end)) next = rp.get();
    if (!next) break;
    Replica& r = next->r;
    const double end = next->step_end;
    m.finished.clear();
    apply_step(r, m.reqs, end, false, m.itl, m.finished);
    rep_out.replica = r.index;
    rep_out.start_s = next->now;
    rep_out.end_s = end;
    rep_out.finished = m.finished;
    rep_out.preempted.clear();
    // The plan is overwritten by the next schedule: report before scheduling, preemptions after.
    StepPlan ran = r.plan;
    m.start_step(*next, end, &rep_out.preempted);
    rep_out.plan = &ran;
    if (on_step) on_step(rep_out);
  }
  for (auto& rp : m.reps) {
    if (rp->r.busy || (rp->r.sched.waiting().empty() && rp->r.sched.running().empty())) continue;
    std::vector<int32_t> pre;
    m.start_step(*rp, std::max(t, rp->now), &pre);
    if (!pre.empty() && on_step) {
      StepPlan empty;
      StepReport s;
      s.replica = rp->r.index;
      s.start_s = s.end_s = rp->now;
      s.plan = &empty;
      s.preempted = std::move(pre);
      on_step(s);
    }
  }
}

double OnlineEngine::next_event_s() const {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& rp : impl_->reps)
    if (rp->r.busy) best = std::min(best, rp->step_end);
  return best;
}

void OnlineEngine::add_fault(const Fault& f) { impl_->faults.push_back(f); }
void OnlineEngine::clear_faults(double t) {
  for (auto& f : impl_->faults)
    if (f.end_s > t) f.end_s = std::max(f.start_s, t);
}
const std::vector<Fault>& OnlineEngine::faults() const { return impl_->faults; }

const SimRequest& OnlineEngine::request(int32_t id) const { return impl_->reqs[static_cast<size_t>(id)]; }
size_t OnlineEngine::num_requests() const { return impl_->reqs.size(); }
const Replica& OnlineEngine::replica(int i) const { return impl_->reps[static_cast<size_t>(i)]->r; }

core::EngineSample OnlineEngine::sample(int i, double t) const {
  const auto& m = *impl_;
  const Replica& rep = m.reps[static_cast<size_t>(i)]->r;
  return engine_sample(rep, t, m.cfg.preset.kind, m.cfg.model_name);
}

std::string OnlineEngine::check_invariants() const {
  for (const auto& rp : impl_->reps)
    if (auto e = check_replica(rp->r, impl_->reqs); !e.empty()) return e;
  return "";
}

}  // namespace llmtriage::sim
