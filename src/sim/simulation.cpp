#include "sim/simulation.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <queue>

#include "sim/log_format.h"
#include "sim/replica.h"

namespace llmtriage::sim {

void resolve_scheduler(SimConfig& cfg, std::optional<int64_t> max_num_seqs, std::optional<int64_t> max_num_batched_tokens,
                       std::optional<bool> chunked_prefill, std::optional<bool> prefix_caching) {
  const EnginePreset& p = cfg.preset;
  SchedulerConfig& s = cfg.scheduler;
  s.capacity = p.capacity;
  s.max_num_seqs = max_num_seqs.value_or(p.max_num_seqs);
  s.chunked_prefill = chunked_prefill.value_or(p.chunked_prefill);
  s.prefill_first = p.prefill_first;
  int64_t budget = max_num_batched_tokens.value_or(p.max_num_batched_tokens);
  // Without chunking a whole prompt must fit one step: V0 uses max(max_model_len, 2048).
  // TensorRT-LLM keeps max_num_tokens (8192) and a deployment with longer prompts and no chunking
  // must raise it to hold them: max(max_num_tokens, max_model_len).
  if (budget <= 0 || (!s.chunked_prefill && !max_num_batched_tokens))
    budget = p.kind == core::EngineKind::trtllm ? std::max<int64_t>(cfg.max_model_len, p.max_num_batched_tokens)
                                                : std::max<int64_t>(cfg.max_model_len, 2048);
  s.max_num_batched_tokens = budget;
  cfg.prefix_caching = prefix_caching.value_or(p.prefix_caching);
  cfg.block_size = cfg.block_size > 0 ? cfg.block_size : p.block_size;
}

namespace {

core::Status validate(const SimConfig& c) {
  auto bad = [](const std::string& where, const std::string& exp, const std::string& found) {
    return core::Status(core::make_error(core::ErrorKind::usage, where, exp, found));
  };
  if (c.replicas < 1) return bad("--replicas", "at least 1", std::to_string(c.replicas));
  if (c.block_size < 1) return bad("block_size", "at least 1 token", std::to_string(c.block_size));
  if (c.max_model_len < 1) return bad("--max-model-len", "at least 1 token", std::to_string(c.max_model_len));
  if (c.scheduler.max_num_seqs < 1) return bad("--max-num-seqs", "at least 1", std::to_string(c.scheduler.max_num_seqs));
  if (c.scheduler.max_num_batched_tokens < 1)
    return bad("--max-num-batched-tokens", "at least 1", std::to_string(c.scheduler.max_num_batched_tokens));
  // TensorRT-LLM checks prompts, not max_model_len, against max_num_tokens (trtllm-bench sizes it
  // as the longest prompt + max_batch_size): a prompt that never fits stalls the queue, reported
  // as a stall.
  if (!c.scheduler.chunked_prefill && c.preset.kind != core::EngineKind::trtllm &&
      c.scheduler.max_num_batched_tokens < c.max_model_len)
    return bad("--max-num-batched-tokens", "at least max_model_len (" + std::to_string(c.max_model_len) +
                   ") when chunked prefill is off (vLLM refuses this at startup)",
               std::to_string(c.scheduler.max_num_batched_tokens));
  if (c.num_blocks < 1) return bad("KV pool", "at least one KV block", std::to_string(c.num_blocks));
  const int64_t pool_tokens = c.num_blocks * c.block_size;
  if (pool_tokens < c.max_model_len) {
    // vLLM V1's startup check (vllm/v1/core/kv_cache_utils.py), same wording.
    const double per_tok = c.model.kv_bytes_per_token() / std::max(1, c.hardware.tp);
    return core::Status(core::make_error(
        core::ErrorKind::input, "KV pool", "room for one request of max_model_len tokens",
        std::to_string(pool_tokens) + " tokens",
        fmt::format("ValueError: To serve at least one request with the models's max seq len ({}), ({:.2f} GiB KV "
                    "cache is needed, which is larger than the available KV cache memory ({:.2f} GiB). Based on the "
                    "available memory, the estimated maximum model length is {}. Try increasing "
                    "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
                    c.max_model_len, per_tok * static_cast<double>(c.max_model_len) / 1073741824.0,
                    per_tok * static_cast<double>(pool_tokens) / 1073741824.0, pool_tokens)));
  }
  return core::ok_status();
}

enum class Ev : uint8_t { arrival, step_done, timeout, sample, wake };
struct Event {
  double t;
  uint64_t seq;
  Ev kind;
  int32_t a;
  int32_t b;
  bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

class Cluster {
 public:
  explicit Cluster(const SimConfig& cfg)
      : cfg_(cfg),
        cost_(cfg.model, cfg.hardware, cfg.calibration, cfg.preset),
        router_(cfg.router, cfg.replicas, cfg.workload.seed),
        retry_rng_(cfg.workload.seed ^ 0x7e7eULL) {}

  core::Result<SimResult> run() {
    const auto wall0 = std::chrono::steady_clock::now();
    auto clients = generate(cfg_.workload);
    if (!clients.ok()) return std::move(clients).error();
    clients_ = std::move(clients.value());
    for (const auto& f : cfg_.faults)
      if (f.kind == FaultKind::long_prompt_burst) {
        auto extra = burst(f.start_s, f.end_s, f.rate_rps, f.input_len, f.output_len, cfg_.workload.seed + 17);
        clients_.insert(clients_.end(), extra.begin(), extra.end());
      }
    closed_ = cfg_.workload.arrival == ArrivalKind::closed_loop;
    if (!closed_) std::stable_sort(clients_.begin(), clients_.end(), [](auto& a, auto& b) { return a.arrival_s < b.arrival_s; });
    keep_times_ = cfg_.keep_token_times < 0 ? clients_.size() <= 20000 : cfg_.keep_token_times == 1;
    const int n = std::max(1, cfg_.workload.n);
    reqs_.reserve(clients_.size() * static_cast<size_t>(n) + 16);
    pending_.assign(clients_.size(), 0);
    for (int i = 0; i < cfg_.replicas; ++i)
      reps_.push_back(std::make_unique<Replica>(i, cfg_.scheduler, reqs_, cfg_.num_blocks, cfg_.block_size, cfg_.prefix_caching));
    outstanding_.assign(static_cast<size_t>(cfg_.replicas), 0);

    if (cfg_.keep_log) startup_log();
    if (closed_) {
      const int64_t c = std::max<int64_t>(1, cfg_.workload.concurrency);
      for (; next_client_ < clients_.size() && static_cast<int64_t>(next_client_) < c; ++next_client_)
        push(0.0, Ev::arrival, static_cast<int32_t>(next_client_), 0);
    } else if (!clients_.empty()) {
      push(clients_[0].arrival_s, Ev::arrival, 0, 0);
      next_client_ = 1;
    }
    for (const auto& f : cfg_.faults) {
      if (f.start_s > 0 && f.start_s < cfg_.max_sim_s) push(f.start_s, Ev::wake, 0, 0);
      if (f.end_s < cfg_.max_sim_s) push(f.end_s, Ev::wake, 0, 0);
    }
    if (cfg_.sample_interval_s > 0) push(0.0, Ev::sample, 0, 0);

    while (!q_.empty() && !result_.livelock) {
      const Event e = q_.top();
      q_.pop();
      if (e.t > cfg_.max_sim_s) break;
      now_ = e.t;
      if (e.kind != Ev::sample && e.kind != Ev::wake) last_activity_s_ = e.t;
      switch (e.kind) {
        case Ev::arrival: on_arrival(e.a, e.b); break;
        case Ev::step_done: on_step_done(e.a); break;
        case Ev::timeout: on_timeout(e.a); break;
        case Ev::sample: on_sample(); break;
        case Ev::wake:
          for (auto& r : reps_) if (!r->busy) start_step(*r);
          break;
      }
    }
    int64_t left = 0;
    for (auto& r : reps_) left += r->outstanding;
    if (left > 0 && !result_.livelock) {
      result_.livelock = true;
      result_.livelock_detail = std::to_string(left) + " requests can never be scheduled (the KV pool or budget cannot hold them)";
    }
    if (result_.livelock) {
      core::Event ev;
      ev.t_s = now_;
      ev.kind = core::EventKind::error;
      ev.source = "sim";
      ev.text = "livelock: " + result_.livelock_detail;
      result_.events.push_back(ev);
    }
    finish_summary();
    result_.summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return std::move(result_);
  }

 private:
  void push(double t, Ev k, int32_t a, int32_t b) { q_.push({t, seq_++, k, a, b}); }

  void on_arrival(int32_t ci, int32_t attempt) {
    const ClientRequest& c = clients_[static_cast<size_t>(ci)];
    if (!closed_ && attempt == 0 && next_client_ < clients_.size()) {
      push(clients_[next_client_].arrival_s, Ev::arrival, static_cast<int32_t>(next_client_), 0);
      ++next_client_;
    }
    const FaultState fs = fault_state(cfg_.faults, now_);
    const uint64_t key = c.group_key ? c.group_key : c.content_key;
    const int rep_idx = router_.route(key, outstanding_, fs.no_affinity);
    Replica& rep = *reps_[static_cast<size_t>(rep_idx)];
    const Fault* gw = active_fault(cfg_.faults, FaultKind::gateway_timeout, now_);
    const int n = std::max(1, cfg_.workload.n);
    pending_[static_cast<size_t>(ci)] = static_cast<uint16_t>(n);
    for (int s = 0; s < n; ++s) {
      SimRequest r;
      r.client_id = static_cast<uint32_t>(ci);
      r.attempt = static_cast<uint16_t>(attempt);
      r.sample = static_cast<uint16_t>(s);
      r.content_key = c.content_key;
      r.group_key = c.group_key;
      r.shared_prefix_len = c.shared_prefix_len;
      r.prompt_len = c.prompt_len;
      r.max_output = std::max(1, c.output_len);
      r.arrival_s = now_;
      r.replica = static_cast<int16_t>(rep_idx);
      const int32_t id = static_cast<int32_t>(reqs_.size());
      reqs_.push_back(std::move(r));
      SimRequest& rr = reqs_.back();
      if (static_cast<int64_t>(c.prompt_len) + std::max(c.max_tokens, c.output_len) > cfg_.max_model_len) {
        rr.state = ReqState::rejected;
        rr.finish_s = now_;
        ++rejected_;
        if (rejected_ <= 5) {
          core::Event ev;
          ev.t_s = now_;
          ev.kind = core::EventKind::error;
          ev.source = "sim";
          ev.text = max_len_error(cfg_.max_model_len, c.prompt_len, std::max(c.max_tokens, c.output_len));
          result_.events.push_back(ev);
        }
        client_done(ci);
        continue;
      }
      if (gw) push(now_ + gw->timeout_s, Ev::timeout, id, 0);
      rep.sched.enqueue(id);
      ++rep.outstanding;
      ++outstanding_[static_cast<size_t>(rep_idx)];
    }
    if (!rep.busy) start_step(rep);
  }

  void client_done(int32_t ci) {
    auto& p = pending_[static_cast<size_t>(ci)];
    if (p > 0) --p;
    if (p == 0 && closed_ && next_client_ < clients_.size()) {
      push(now_, Ev::arrival, static_cast<int32_t>(next_client_), 0);
      ++next_client_;
    }
  }

  void start_step(Replica& rep) {
    const FaultState fs = fault_state(cfg_.faults, now_);
    rep.kv.set_prefix_caching(rep.base_prefix_caching && !fs.prefix_cache_off);
    rep.kv.set_withheld(static_cast<int64_t>(fs.kv_withheld_fraction * static_cast<double>(rep.kv.num_blocks())));
    rep.sched.schedule(rep.plan, admit_counter_);
    for (int32_t id : rep.plan.admitted) {
      SimRequest& r = reqs_[static_cast<size_t>(id)];
      if (r.first_scheduled_s < 0) r.first_scheduled_s = now_;
    }
    for (int32_t id : rep.plan.preempted) {
      ++rep.preemptions;
      ++preemptions_;
      const SimRequest& r = reqs_[static_cast<size_t>(id)];
      if (cfg_.keep_log && cfg_.preset.kind == core::EngineKind::vllm_v0 && rep.preemptions % 50 == 1)
        result_.log_lines.push_back(v0_preemption_warning(now_, id, rep.preemptions));
      if (r.preemptions >= cfg_.livelock_preemptions && !result_.livelock) {
        result_.livelock = true;
        result_.livelock_detail = "request " + std::to_string(r.client_id) + " was preempted " +
                                  std::to_string(r.preemptions) + " times on replica " + std::to_string(rep.index) +
                                  " without finishing (the KV pool cannot hold the running set)";
      }
    }
    if (rep.plan.seqs.empty()) {
      rep.busy = false;
      return;
    }
    const StepCost c = cost_.step(rep.plan, reqs_, fs.clock_factor, slow_factor(cfg_.faults, now_, rep.index));
    rep.busy = true;
    ++steps_;
    const double u = rep.kv.usage();
    usage_time_ += u * c.step_s;
    running_time_ += static_cast<double>(rep.sched.running().size()) * c.step_s;
    busy_time_ += c.step_s;
    usage_max_ = std::max(usage_max_, u);
    running_max_ = std::max(running_max_, static_cast<double>(rep.sched.running().size()));
    waiting_max_ = std::max(waiting_max_, static_cast<double>(rep.sched.waiting().size()));
    push(now_ + c.step_s, Ev::step_done, rep.index, 0);
  }

  void on_step_done(int32_t ri) {
    Replica& rep = *reps_[static_cast<size_t>(ri)];
    finished_.clear();
    apply_step(rep, reqs_, now_, keep_times_, itl_, finished_);
    for (int32_t id : finished_) {
      --outstanding_[static_cast<size_t>(ri)];
      client_done(static_cast<int32_t>(reqs_[static_cast<size_t>(id)].client_id));
    }
#ifndef NDEBUG
    // Debug and sanitizer builds check the replica's invariants (a scan of its queues and blocks)
    // every 64th step: every step made long scenarios quadratic (minutes under ASan).
    if (auto e = (++debug_steps_ % 64 == 0) ? check_replica(rep, reqs_) : std::string();
        !e.empty() && !result_.livelock) {
      result_.livelock = true;
      result_.livelock_detail = "invariant broken: " + e;
    }
#endif
    start_step(rep);
  }

  void on_timeout(int32_t id) {
    SimRequest& r = reqs_[static_cast<size_t>(id)];
    if (r.state != ReqState::waiting && r.state != ReqState::running) return;
    if (r.first_token_s >= 0) return;  // first byte arrived: the gateway's budget is met
    Replica& rep = *reps_[static_cast<size_t>(r.replica)];
    rep.sched.remove(id);
    r.state = ReqState::aborted;
    r.finish_s = now_;
    --rep.outstanding;
    --outstanding_[static_cast<size_t>(r.replica)];
    ++timed_out_;
    const Fault* retry = active_fault(cfg_.faults, FaultKind::client_retries, now_);
    if (retry && r.sample == 0 && r.attempt < retry->max_retries) {
      double delay = retry->backoff_s;
      if (retry->exponential_backoff) delay = retry->backoff_s * std::pow(2.0, r.attempt) * (0.75 + 0.5 * retry_rng_.uniform());
      ++retries_;
      pending_[r.client_id] = 0;
      push(now_ + delay, Ev::arrival, static_cast<int32_t>(r.client_id), r.attempt + 1);
    } else {
      client_done(static_cast<int32_t>(r.client_id));
    }
    if (!rep.busy) start_step(rep);
  }

  void on_sample() {
    const bool log_now = cfg_.keep_log && cfg_.log_interval_s > 0 &&
                         std::fmod(now_ + 1e-9, cfg_.log_interval_s) < cfg_.sample_interval_s * 0.5 && now_ > 0;
    for (auto& rp : reps_) {
      Replica& rep = *rp;
      if (cfg_.keep_samples) {
        result_.samples.push_back(engine_sample(rep, now_, cfg_.preset.kind, cfg_.model_name));
      }
      if (log_now) {
        LogStats ls;
        ls.t_s = now_;
        ls.engine_index = rep.index;
        ls.prompt_tps = static_cast<double>(rep.prompt_tokens - rep.log_prompt) / cfg_.log_interval_s;
        ls.gen_tps = static_cast<double>(rep.generation_tokens - rep.log_gen) / cfg_.log_interval_s;
        ls.running = static_cast<int64_t>(rep.sched.running().size());
        ls.waiting = static_cast<int64_t>(rep.sched.waiting().size());
        ls.preemptions = static_cast<int64_t>(rep.preemptions - rep.log_preempt);
        ls.kv_usage = rep.kv.usage();
        const uint64_t dq = rep.kv.prefix_queries_tokens - rep.log_q, dh = rep.kv.prefix_hits_tokens - rep.log_h;
        ls.prefix_hit_rate = dq ? static_cast<double>(dh) / static_cast<double>(dq) : 0.0;
        result_.log_lines.push_back(stats_line(cfg_.preset.kind, ls));
        if (ls.preemptions > 0) {
          core::Event ev;
          ev.t_s = now_;
          ev.kind = core::EventKind::preemption;
          ev.source = "sim:engine " + std::to_string(rep.index);
          ev.text = result_.log_lines.back();
          ev.fields["preemptions"] = static_cast<double>(ls.preemptions);
          ev.fields["preemptions_total"] = static_cast<double>(rep.preemptions);
          result_.events.push_back(std::move(ev));
        }
        rep.log_prompt = rep.prompt_tokens;
        rep.log_gen = rep.generation_tokens;
        rep.log_preempt = rep.preemptions;
        rep.log_q = rep.kv.prefix_queries_tokens;
        rep.log_h = rep.kv.prefix_hits_tokens;
      }
    }
    // Keep sampling while something can still happen: pending events or a busy replica. Work
    // left with neither is a stall, reported as a livelock when the loop ends.
    bool busy = false;
    for (auto& r : reps_) busy |= r->busy;
    if (busy || !q_.empty()) push(now_ + cfg_.sample_interval_s, Ev::sample, 0, 0);
  }

  void startup_log() {
    const int64_t tokens = cfg_.num_blocks * cfg_.block_size;
    for (int i = 0; i < cfg_.replicas; ++i)
      for (auto& l : startup_lines(cfg_.preset.kind, i, tokens, cfg_.num_blocks, cfg_.max_model_len))
        result_.log_lines.push_back(l);
  }

  void finish_summary();

  const SimConfig& cfg_;
  CostModel cost_;
  Router router_;
  Rng retry_rng_;
  std::vector<ClientRequest> clients_;
  std::vector<uint16_t> pending_;
  size_t next_client_ = 0;
  bool closed_ = false, keep_times_ = false;
  std::vector<SimRequest> reqs_;
  std::vector<std::unique_ptr<Replica>> reps_;
  std::vector<int64_t> outstanding_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q_;
  uint64_t seq_ = 0, admit_counter_ = 0;
  double now_ = 0;
  double last_activity_s_ = 0;  // last arrival, step end or timeout (samples excluded)
  LogHistogram itl_;
  std::vector<int32_t> finished_;
  uint64_t preemptions_ = 0, steps_ = 0, rejected_ = 0, timed_out_ = 0, retries_ = 0;
  double usage_time_ = 0, running_time_ = 0, busy_time_ = 0, usage_max_ = 0, running_max_ = 0, waiting_max_ = 0;
  uint64_t debug_steps_ = 0;  // steps seen, for the sampled invariant check (debug builds)
  SimResult result_;
};

void Cluster::finish_summary() {
  Summary& s = result_.summary;
  std::vector<double> ttft, tpot, e2e, queue;
  double t_end = 0, t_begin = reqs_.empty() ? 0 : reqs_.front().arrival_s;
  uint64_t in_tok = 0, out_tok = 0;
  result_.records.reserve(reqs_.size());
  for (size_t i = 0; i < reqs_.size(); ++i) {
    const SimRequest& r = reqs_[i];
    t_begin = std::min(t_begin, r.arrival_s);
    core::RequestRecord rec;
    rec.id = "req-" + std::to_string(r.client_id);
    if (r.sample) rec.id += "." + std::to_string(r.sample);
    if (r.attempt) rec.id += "#" + std::to_string(r.attempt);
    rec.arrival_s = r.arrival_s;
    rec.send_s = r.arrival_s;
    rec.input_tokens = r.prompt_len;
    rec.output_tokens = r.num_output;
    rec.model = cfg_.model_name;
    rec.max_tokens = std::max(clients_[r.client_id].max_tokens, clients_[r.client_id].output_len);
    rec.n = std::max(1, cfg_.workload.n);
    rec.ignore_eos = cfg_.workload.ignore_eos;
    if (r.first_scheduled_s >= 0) rec.queue_s = r.first_scheduled_s - r.arrival_s;
    if (r.first_token_s >= 0) rec.ttft_s = r.first_token_s - r.arrival_s;
    if (r.finish_s >= 0) rec.e2e_s = r.finish_s - r.arrival_s;
    for (float o : r.token_offsets_s) {
      rec.chunk_times_s.push_back(o);
      rec.chunk_tokens.push_back(1);
    }
    switch (r.state) {
      case ReqState::finished: {
        rec.status = core::RequestStatus::ok;
        const double tt = r.first_token_s - r.arrival_s, ee = r.finish_s - r.arrival_s;
        ttft.push_back(tt * 1e3);
        e2e.push_back(ee * 1e3);
        if (r.num_output > 1) tpot.push_back((ee - tt) / (r.num_output - 1) * 1e3);
        if (r.first_scheduled_s >= 0) queue.push_back((r.first_scheduled_s - r.arrival_s) * 1e3);
        in_tok += static_cast<uint64_t>(r.prompt_len);
        out_tok += static_cast<uint64_t>(r.num_output);
        ++s.completed;
        t_end = std::max(t_end, r.finish_s);
        break;
      }
      case ReqState::rejected:
        rec.status = core::RequestStatus::error;
        rec.error_category = "http_400";
        rec.output_tokens = 0;
        break;
      case ReqState::aborted:
        rec.status = core::RequestStatus::error;
        rec.error_category = "timeout_ttfb";
        t_end = std::max(t_end, r.finish_s);
        break;
      case ReqState::pending: case ReqState::waiting: case ReqState::running:
        rec.status = core::RequestStatus::error;
        rec.error_category = "unfinished";
        ++s.aborted;
        break;
    }
    result_.records.push_back(std::move(rec));
  }
  s.ttft_ms = dist_of(std::move(ttft));
  s.tpot_ms = dist_of(std::move(tpot));
  s.e2e_ms = dist_of(std::move(e2e));
  s.queue_ms = dist_of(std::move(queue));
  s.itl_ms.count = itl_.count();
  s.itl_ms.mean = itl_.mean() * 1e3;
  s.itl_ms.median = itl_.quantile(0.5) * 1e3;
  s.itl_ms.p90 = itl_.quantile(0.9) * 1e3;
  s.itl_ms.p99 = itl_.quantile(0.99) * 1e3;
  s.duration_s = std::max(0.0, t_end - t_begin);
  if (s.duration_s > 0) {
    s.request_throughput = static_cast<double>(s.completed) / s.duration_s;
    s.output_throughput = static_cast<double>(out_tok) / s.duration_s;
    s.total_token_throughput = static_cast<double>(in_tok + out_tok) / s.duration_s;
  }
  s.rejected = rejected_;
  s.timed_out = timed_out_;
  s.retries = retries_;
  s.preemptions = preemptions_;
  s.steps = steps_;
  uint64_t q = 0, h = 0;
  for (auto& r : reps_) { q += r->kv.prefix_queries_tokens; h += r->kv.prefix_hits_tokens; }
  s.prefix_cache_hit_rate = q ? static_cast<double>(h) / static_cast<double>(q) : 0;
  s.kv_usage_mean = busy_time_ > 0 ? usage_time_ / busy_time_ : 0;
  s.kv_usage_max = usage_max_;
  s.running_mean = busy_time_ > 0 ? running_time_ / busy_time_ : 0;
  s.running_max = running_max_;
  s.waiting_max = waiting_max_;
  s.kv_cache_tokens = static_cast<uint64_t>(cfg_.num_blocks * cfg_.block_size);
  s.sim_seconds = last_activity_s_;
  s.livelock = result_.livelock;
}

}  // namespace

core::Result<SimResult> run_simulation(const SimConfig& cfg) {
  if (auto st = validate(cfg); !st.ok()) return st.error();
  Cluster c(cfg);
  return c.run();
}

}  // namespace llmtriage::sim
