// OnlineEngine: replicas stepping on virtual clocks the caller advances (see online.h).
#include "sim/online.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>

#include "sim/rng.h"

namespace llmtriage::sim {

namespace {

// Prefix-affinity key: the prompt's first blocks, so requests sharing a system prompt (or any
// long common prefix) hash alike while a differing tail does not matter. Four blocks (64 tokens
// at block 16) is long enough to tell prompts apart and short enough to be inside a shared prefix.
constexpr int kAffinityBlocks = 4;

}  // namespace

struct Rep {
  Rep(int idx, const SimConfig& c, std::vector<SimRequest>& reqs)
      : r(idx, c.scheduler, reqs, c.num_blocks, c.block_size, c.prefix_caching) {}
  Replica r;
  double now = 0;       // start of the running step, or the last time it went idle
  double step_end = 0;  // when busy
};

struct OnlineEngine::Impl {
  struct Meta {
    Origin origin = Origin::client;
    int32_t group = 0;  // first id of the client request's choices (siblings are contiguous)
  };
  // A timed thing the engine does by itself besides steps.
  enum class Due : uint8_t { gateway_deadline, retry_arrival };
  struct Pending {
    double t;
    uint64_t seq;
    Due kind;
    int32_t id;
    bool operator>(const Pending& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };

  explicit Impl(const SimConfig& c)
      : cfg(c), cost(c.model, c.hardware, c.calibration, c.preset),
        router(c.router, std::max(1, c.replicas), c.workload.seed),
        burst_rng(c.workload.seed ^ 0xb0b5ULL), retry_rng(c.workload.seed ^ 0x7e7eULL) {
    reqs.reserve(4096);
    const int n = std::max(1, c.replicas);
    for (int i = 0; i < n; ++i) reps.push_back(std::make_unique<Rep>(i, cfg, reqs));
    outstanding.assign(static_cast<size_t>(n), 0);
    for (const auto& f : c.faults) add_fault(f);
  }
  SimConfig cfg;
  CostModel cost;
  Router router;
  Rng burst_rng, retry_rng;
  std::vector<Fault> faults;
  std::vector<double> burst_next;  // per fault: next synthetic arrival (+inf: none / not a burst)
  std::vector<SimRequest> reqs;
  std::vector<Meta> meta;  // parallel to reqs
  std::vector<std::unique_ptr<Rep>> reps;
  std::vector<int64_t> outstanding;  // router input, rebuilt per routing decision
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> due;
  uint64_t due_seq = 0;
  uint64_t admit = 0;
  uint64_t next_key = 1;
  uint64_t timed_out = 0, retries = 0, bursts = 0;
  LogHistogram itl;  // apply_step wants one; the server keeps its own histograms
  std::vector<int32_t> finished;

  void add_fault(const Fault& f) {
    faults.push_back(f);
    burst_next.push_back(std::numeric_limits<double>::infinity());
    if (f.kind == FaultKind::long_prompt_burst && f.rate_rps > 0)
      burst_next.back() = f.start_s + burst_rng.exponential(1.0 / f.rate_rps);
  }

  uint64_t prefix_key(const SimRequest& r) const {
    if (!r.token_keys || r.token_keys->empty()) return r.group_key ? r.group_key : r.content_key;
    const size_t n = std::min(r.token_keys->size(), static_cast<size_t>(kAffinityBlocks) * static_cast<size_t>(cfg.block_size));
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (size_t i = 0; i < n; ++i) h = mix64(h, (*r.token_keys)[i]);
    return h;
  }

  int route(const SimRequest& r, double t) {
    for (size_t i = 0; i < reps.size(); ++i) outstanding[i] = reps[i]->r.outstanding;
    return router.route(prefix_key(r), outstanding, fault_state(faults, t).no_affinity);
  }

  // Enqueues r (arrival t) on `replica` (< 0: routed); -1 when it exceeds max_model_len.
  int32_t enqueue(double t, SimRequest r, int replica, Origin origin, int32_t sibling_of) {
    if (static_cast<int64_t>(r.prompt_len) + r.max_output > cfg.max_model_len) return -1;
    if (replica < 0 || replica >= static_cast<int>(reps.size())) replica = route(r, t);
    Rep& rep = *reps[static_cast<size_t>(replica)];
    r.arrival_s = std::max(t, rep.now);  // never before the replica's clock
    r.replica = static_cast<int16_t>(replica);
    const int32_t id = static_cast<int32_t>(reqs.size());
    Meta m;
    m.origin = origin;
    m.group = sibling_of >= 0 && sibling_of < id ? meta[static_cast<size_t>(sibling_of)].group : id;
    if (m.group != id) r.client_id = reqs[static_cast<size_t>(m.group)].client_id;
    if (const Fault* gw = active_fault(faults, FaultKind::gateway_timeout, r.arrival_s); gw && gw->timeout_s > 0)
      due.push({r.arrival_s + gw->timeout_s, due_seq++, Due::gateway_deadline, id});
    reqs.push_back(std::move(r));
    meta.push_back(m);
    rep.r.sched.enqueue(id);
    ++rep.r.outstanding;
    return id;
  }

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

  // Starts an idle replica that has work at time t (reporting preemptions its schedule made).
  void kick(Rep& rp, double t, const std::function<void(const StepReport&)>& on_step) {
    if (rp.r.busy || (rp.r.sched.waiting().empty() && rp.r.sched.running().empty())) return;
    std::vector<int32_t> pre;
    start_step(rp, std::max(t, rp.now), &pre);
    if (!pre.empty() && on_step) {
      StepPlan empty;
      StepReport s;
      s.replica = rp.r.index;
      s.start_s = s.end_s = rp.now;
      s.plan = &empty;
      s.preempted = std::move(pre);
      on_step(s);
    }
  }

  bool abort(int32_t id, double t) {
    SimRequest& r = reqs[static_cast<size_t>(id)];
    if (r.state != ReqState::waiting && r.state != ReqState::running) return false;
    Replica& rep = reps[static_cast<size_t>(r.replica)]->r;
    rep.sched.remove(id);
    r.state = ReqState::aborted;
    r.finish_s = t;
    --rep.outstanding;
    return true;
  }

  // The gateway's deadline for `id` at t: the whole client request (its choices) is cut unless one
  // of them has a first token; each cut request may come back as a retry copy.
  void on_deadline(int32_t id, double t, const std::function<void(const StepReport&)>& on_step) {
    const int32_t g = meta[static_cast<size_t>(id)].group;
    int32_t end = g;
    while (end < static_cast<int32_t>(reqs.size()) && meta[static_cast<size_t>(end)].group == g) ++end;
    for (int32_t j = g; j < end; ++j)
      if (reqs[static_cast<size_t>(j)].first_token_s >= 0) return;  // the first byte went out in time
    StepReport s;
    StepPlan empty;
    s.plan = &empty;
    s.start_s = s.end_s = t;
    std::vector<int> touched;
    const Fault* retry = active_fault(faults, FaultKind::client_retries, t);
    for (int32_t j = g; j < end; ++j) {
      if (!abort(j, t)) continue;
      ++timed_out;
      s.timed_out.push_back(j);
      const SimRequest& r = reqs[static_cast<size_t>(j)];
      touched.push_back(r.replica);
      s.replica = r.replica;
      if (retry && r.attempt < retry->max_retries) {
        double delay = retry->backoff_s;
        if (retry->exponential_backoff) delay = retry->backoff_s * std::pow(2.0, r.attempt) * (0.75 + 0.5 * retry_rng.uniform());
        due.push({t + std::max(0.0, delay), due_seq++, Due::retry_arrival, j});
      }
    }
    if (s.timed_out.empty()) return;
    if (on_step) on_step(s);
    for (int ri : touched) kick(*reps[static_cast<size_t>(ri)], t, on_step);  // freed KV may admit waiters
  }

  void on_retry(int32_t of, double t, const std::function<void(const StepReport&)>& on_step) {
    const SimRequest& o = reqs[static_cast<size_t>(of)];
    SimRequest r;
    r.client_id = o.client_id;
    r.attempt = static_cast<uint16_t>(o.attempt + 1);
    r.sample = o.sample;
    r.content_key = o.content_key;  // the same prompt: its blocks hit the cache like a real retry
    r.group_key = o.group_key;
    r.shared_prefix_len = o.shared_prefix_len;
    r.token_keys = o.token_keys;
    r.prompt_len = o.prompt_len;
    r.max_output = o.max_output;
    const int32_t id = enqueue(t, std::move(r), -1, Origin::retry, -1);
    if (id < 0) return;
    ++retries;
    kick(*reps[static_cast<size_t>(reqs[static_cast<size_t>(id)].replica)], t, on_step);
  }

  void on_burst(size_t fi, double t, const std::function<void(const StepReport&)>& on_step) {
    const Fault& f = faults[fi];
    burst_next[fi] = t + burst_rng.exponential(1.0 / f.rate_rps);
    SimRequest r;
    r.client_id = static_cast<uint32_t>(reqs.size());
    r.prompt_len = std::max(1, f.input_len);
    r.max_output = std::max(1, f.output_len);
    r.content_key = burst_rng.next_u64() | 1;  // unique prompts: no prefix-cache help
    const int32_t id = enqueue(t, std::move(r), -1, Origin::burst, -1);
    if (id < 0) return;  // longer than max_model_len: the engine refuses it as it would a client's
    ++bursts;
    kick(*reps[static_cast<size_t>(reqs[static_cast<size_t>(id)].replica)], t, on_step);
  }

  double next_burst(size_t* which) const {
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < faults.size(); ++i)
      if (burst_next[i] < faults[i].end_s && burst_next[i] < best) {
        best = burst_next[i];
        if (which) *which = i;
      }
    return best;
  }
};

OnlineEngine::OnlineEngine(const SimConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}
OnlineEngine::~OnlineEngine() = default;

int OnlineEngine::num_replicas() const { return static_cast<int>(impl_->reps.size()); }
const SimConfig& OnlineEngine::config() const { return impl_->cfg; }

int32_t OnlineEngine::add(double t, int32_t prompt_len, int32_t output_len, uint64_t content_key, uint64_t group_key,
                          int32_t shared_prefix_len, int replica, std::shared_ptr<const std::vector<uint64_t>> token_keys,
                          int32_t sibling_of) {
  auto& m = *impl_;
  SimRequest r;
  r.client_id = static_cast<uint32_t>(m.reqs.size());
  r.prompt_len = std::max(1, prompt_len);
  r.max_output = std::max(1, output_len);
  r.content_key = content_key ? content_key : (0x1234567ULL + 2 * m.next_key++) | 1;
  r.group_key = group_key;
  r.shared_prefix_len = shared_prefix_len;
  r.token_keys = std::move(token_keys);
  return m.enqueue(t, std::move(r), replica, Origin::client, sibling_of);
}

void OnlineEngine::abort(int32_t id, double t) { impl_->abort(id, t); }

void OnlineEngine::advance(double t, const std::function<void(const StepReport&)>& on_step) {
  auto& m = *impl_;
  StepReport rep_out;
  for (;;) {
    // The earliest of: a step end, a gateway deadline or retry, a burst arrival (steps first on ties).
    Rep* next = nullptr;
    for (auto& rp : m.reps)
      if (rp->r.busy && rp->step_end <= t && (!next || rp->step_end < next->step_end)) next = rp.get();
    const double step_t = next ? next->step_end : std::numeric_limits<double>::infinity();
    const double due_t = m.due.empty() ? std::numeric_limits<double>::infinity() : m.due.top().t;
    size_t bi = 0;
    const double burst_t = m.next_burst(&bi);
    if (due_t <= t && due_t < step_t && due_t <= burst_t) {
      const Impl::Pending p = m.due.top();
      m.due.pop();
      if (p.kind == Impl::Due::gateway_deadline) m.on_deadline(p.id, p.t, on_step);
      else m.on_retry(p.id, p.t, on_step);
      continue;
    }
    if (burst_t <= t && burst_t < step_t) {
      m.on_burst(bi, burst_t, on_step);
      continue;
    }
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
  for (auto& rp : m.reps) m.kick(*rp, t, on_step);
}

double OnlineEngine::next_event_s() const {
  const auto& m = *impl_;
  double best = m.next_burst(nullptr);
  if (!m.due.empty()) best = std::min(best, m.due.top().t);
  for (const auto& rp : m.reps)
    if (rp->r.busy) best = std::min(best, rp->step_end);
  return best;
}

void OnlineEngine::add_fault(const Fault& f) { impl_->add_fault(f); }
void OnlineEngine::clear_faults(double t) {
  for (auto& f : impl_->faults)
    if (f.end_s > t) f.end_s = std::max(f.start_s, t);
}
const std::vector<Fault>& OnlineEngine::faults() const { return impl_->faults; }

const SimRequest& OnlineEngine::request(int32_t id) const { return impl_->reqs[static_cast<size_t>(id)]; }
Origin OnlineEngine::origin(int32_t id) const { return impl_->meta[static_cast<size_t>(id)].origin; }
uint64_t OnlineEngine::timed_out_count() const { return impl_->timed_out; }
uint64_t OnlineEngine::retry_count() const { return impl_->retries; }
uint64_t OnlineEngine::burst_count() const { return impl_->bursts; }
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
