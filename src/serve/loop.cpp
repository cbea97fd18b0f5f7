// The engine thread of `sim serve` (see loop.h).
#include "serve/loop.h"

#include "core/rng.h"

#include <fmt/format.h>

#include <cmath>
#include <ctime>

#include "sim/log_format.h"

namespace llmtriage::serve {

struct Choice {
  int index = 0;
  int32_t req = -1;
  int32_t prompt_tokens = 0;
  ChoicePlan plan;
  int32_t sent = 0;
  double last_token_v = -1;
  std::string text;  // non-streaming: the whole output
  bool done = false;
  bool role_sent = false;
  std::string finish_reason;
};

struct Stream {
  GenRequest req;
  std::shared_ptr<net::ResponseWriter> w;
  std::string id;
  std::string model_json;  // JSON string literal of the served model name
  int64_t created = 0;
  std::vector<Choice> choices;
  int remaining = 0;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  bool ended = false;  // answered, or aborted
  bool sse_started = false;  // SSE headers sent (deferred to the first token under a gateway timeout)
  std::string head;    // chunk prefix: {"id":...,"object":...,"created":...,"model":...,"choices":[
  std::shared_ptr<PendingRecord> rec;  // --records: this request's record until it ends
};

namespace {


std::string json_str(const std::string& s) { return nlohmann::json(s).dump(); }

std::string reason_json(const std::string& s) { return s.empty() ? "null" : json_str(s); }

// --records: the record's request-side fields, when the engine accepts the request.
void start_record(Stream& st, const LoopOptions& o, const Arrival& a) {
  st.rec = std::make_shared<PendingRecord>(o.records);
  ServedRecord& r = st.rec->rec;
  r.id = a.client_id.empty() ? st.id : a.client_id;
  r.response_id = st.id;
  r.received = a.received == SteadyTime{} ? std::chrono::steady_clock::now() : a.received;
  r.model = st.req.model.empty() ? o.served_model_name : st.req.model;
  r.max_tokens = st.req.max_tokens;
  r.n = st.req.n;
  r.temperature = st.req.temperature;
  r.top_p = st.req.top_p;
  r.ignore_eos = st.req.ignore_eos;
  r.stream = st.req.stream;
  r.time_scale = o.time_scale;
  r.input_tokens = st.prompt_tokens;
}

// The response is out (category "") or cut: the record's end. A finished response's last bytes
// are stamped on the connection's loop, after the writes queued before this job.
void end_record(Stream& st, const char* category) {
  if (!st.rec) return;
  ServedRecord& r = st.rec->rec;
  r.error_category = category;
  r.output_tokens = st.completion_tokens;
  if (!st.choices.empty()) r.finish_reason = st.choices.front().finish_reason;
  r.end_engine = std::chrono::steady_clock::now();
  if (*category == 0) st.w->post([p = std::move(st.rec)] { p->rec.end_socket = std::chrono::steady_clock::now(); });
  st.rec.reset();
}

}  // namespace

EngineLoop::EngineLoop(const sim::SimConfig& cfg, LoopOptions opt, LogFn log)
    : engine_(cfg), opt_(std::move(opt)), log_(std::move(log)) {
  if (opt_.served_model_name.empty()) opt_.served_model_name = cfg.model_name;
  for (int i = 0; i < engine_.num_replicas(); ++i)
    metrics_.push_back(std::make_unique<ReplicaMetrics>(opt_.metrics_style, cfg.max_model_len));
  marks_.resize(static_cast<size_t>(engine_.num_replicas()));
  next_log_v_ = opt_.log_interval_s;
}

EngineLoop::~EngineLoop() { stop(); }

void EngineLoop::start() {
  t0_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this] { run(); });
}

void EngineLoop::stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EngineLoop::post(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    inbox_.push_back(std::move(job));
  }
  cv_.notify_one();
}

double EngineLoop::wall_to_virtual(std::chrono::steady_clock::time_point t) const {
  return std::chrono::duration<double>(t - t0_).count() * opt_.time_scale;
}
std::chrono::steady_clock::time_point EngineLoop::virtual_to_wall(double v) const {
  return t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(v / opt_.time_scale));
}
double EngineLoop::virtual_now() const { return wall_to_virtual(std::chrono::steady_clock::now()); }

void EngineLoop::run() {
  std::deque<std::function<void()>> jobs;
  auto step_cb = [this](const sim::StepReport& s) { on_step(s); };
  for (;;) {
    {
      std::unique_lock<std::mutex> lk(mu_);
      if (stop_) break;
      jobs.swap(inbox_);
    }
    for (auto& j : jobs) j();
    jobs.clear();
    const double v = virtual_now();
    engine_.advance(v, step_cb);
    if (v >= next_log_v_) {
      log_stats(v);
      next_log_v_ = (std::floor(v / opt_.log_interval_s) + 1) * opt_.log_interval_s;
    }
    int64_t waiting = 0;
    for (int i = 0; i < engine_.num_replicas(); ++i) waiting += static_cast<int64_t>(engine_.replica(i).sched.waiting().size());
    waiting_.store(waiting, std::memory_order_relaxed);
    const double next = std::min(engine_.next_event_s(), next_log_v_);
    std::unique_lock<std::mutex> lk(mu_);
    if (stop_) break;
    if (inbox_.empty()) cv_.wait_until(lk, virtual_to_wall(next), [this] { return stop_ || !inbox_.empty(); });
  }
}

void EngineLoop::submit(GenRequest req, std::shared_ptr<net::ResponseWriter> w, Arrival a) {
  queued_.fetch_sub(1, std::memory_order_relaxed);
  if (w->closed()) return;  // the client left while the request waited for the engine thread
  auto st = std::make_shared<Stream>();
  st->w = std::move(w);
  st->req = std::move(req);
  const uint64_t salt = core::splitmix64_mix(next_id_++ ^ static_cast<uint64_t>(t0_.time_since_epoch().count()));
  const char* prefix = st->req.chat ? "chatcmpl-" : "cmpl-";
  st->id = a.client_id.empty() ? fmt::format("{}{:016x}", prefix, salt) : prefix + a.client_id;
  st->created = static_cast<int64_t>(std::time(nullptr));
  st->model_json = json_str(opt_.served_model_name);
  st->head = fmt::format(R"({{"id":{},"object":"{}","created":{},"model":{},"choices":[)", json_str(st->id),
                         st->req.chat ? "chat.completion.chunk" : "text_completion", st->created, st->model_json);
  const double v = virtual_now();
  const auto& cfg = engine_.config();
  int idx = 0;
  for (const Prompt& p : st->req.prompts) {
    const int64_t max_tokens = st->req.max_tokens.value_or(cfg.max_model_len - p.tokens);
    for (int j = 0; j < st->req.n; ++j, ++idx) {
      Choice c;
      c.index = idx;
      c.prompt_tokens = p.tokens;
      c.plan = plan_choice(st->req, p, idx, max_tokens, salt);
      c.req = engine_.add(v, p.tokens, c.plan.output_tokens, p.content_key, 0, 0, -1, p.token_keys,
                          st->choices.empty() ? -1 : st->choices.front().req);
      st->choices.push_back(std::move(c));
    }
    st->prompt_tokens += p.tokens;
  }
  st->remaining = static_cast<int>(st->choices.size());
  for (size_t i = 0; i < st->choices.size(); ++i) {
    const int32_t id = st->choices[i].req;
    if (id < 0) continue;  // validated before: cannot happen
    by_req_[id] = {st, static_cast<int>(i)};
    ++metrics_[static_cast<size_t>(engine_.request(id).replica)]->requests_received;
  }
  if (opt_.records) start_record(*st, opt_, a);
  ++live_streams_;
  // Under a gateway timeout the simulated gateway holds the response until the first token, so a
  // request it cuts before then gets a 504 with a body, streaming or not (docs/serve.md, Faults).
  if (st->req.stream && !sim::active_fault(engine_.faults(), sim::FaultKind::gateway_timeout, v)) {
    st->w->begin_sse();
    st->sse_started = true;
  }
  std::weak_ptr<Stream> weak = st;
  st->w->on_close([this, weak] {
    post([this, weak] {
      if (auto s = weak.lock()) abort_stream(s);
    });
  });
  if (st->w->closed()) abort_stream(st);
  engine_.advance(v, [this](const sim::StepReport& s) { on_step(s); });  // an idle engine starts now
}

void EngineLoop::on_step(const sim::StepReport& s) {
  ++steps_;
  const auto now = std::chrono::steady_clock::now();
  const double lag = std::chrono::duration<double, std::milli>(now - virtual_to_wall(s.end_s)).count();
  if (s.plan && !s.plan->seqs.empty()) {
    lag_ms_.add(std::max(lag, 1e-6));
    lag_max_ms_ = std::max(lag_max_ms_, lag);
    metrics_[static_cast<size_t>(s.replica)]->iteration_tokens.observe(static_cast<double>(s.plan->num_tokens));
    for (const auto& q : s.plan->seqs) {
      auto it = by_req_.find(q.req);
      if (it == by_req_.end()) continue;  // a ghost (ghost_step) or a request cut in this step
      auto st = it->second.first;  // keep alive: emit may end the stream
      Choice& c = st->choices[static_cast<size_t>(it->second.second)];
      const auto& r = engine_.request(q.req);
      if (r.num_output > c.sent) emit(*st, c, r.num_output, s.end_s);
    }
  }
  ghost_step(s);
  for (int32_t id : s.timed_out) {
    auto it = by_req_.find(id);
    if (it != by_req_.end()) {
      const auto st = it->second.first;  // a copy: the cut erases the map entry holding it
      gateway_cut(st, s.end_s);
    } else if (engine_.origin(id) != sim::Origin::client) {
      ghosts_.erase(id);
      ++metrics_[static_cast<size_t>(engine_.request(id).replica)]->finished[static_cast<size_t>(Finish::abort)];
    }
  }
  if (!s.preempted.empty() && engine_.config().preset.kind == core::EngineKind::vllm_v0) {
    const uint64_t total = engine_.replica(s.replica).preemptions;
    for (size_t i = 0; i < s.preempted.size(); ++i) {
      const uint64_t n = total - s.preempted.size() + i + 1;
      if (n % 50 == 1) log_(sim::v0_preemption_warning(s.end_s, s.preempted[i], n));
    }
  }
}

void EngineLoop::emit(Stream& st, Choice& c, int32_t upto, double t) {
  ReplicaMetrics& m = *metrics_[static_cast<size_t>(engine_.request(c.req).replica)];
  const bool chat = st.req.chat;
  if (st.req.stream && !st.sse_started) {
    st.w->begin_sse();
    st.sse_started = true;
  }
  for (int32_t k = c.sent; k < upto; ++k) {
    if (c.last_token_v < 0) m.ttft.observe(t - engine_.request(c.req).arrival_s);
    else m.itl.observe(t - c.last_token_v);
    c.last_token_v = t;
    const std::string piece = token_text(c.plan, k);
    const bool last = k + 1 >= c.plan.output_tokens;
    ++st.completion_tokens;
    if (!st.req.stream) {
      c.text += piece;
      continue;
    }
    std::string usage;
    if (st.req.continuous_usage)
      usage = fmt::format(R"(,"usage":{{"prompt_tokens":{},"total_tokens":{},"completion_tokens":{}}})", st.prompt_tokens,
                          st.prompt_tokens + st.completion_tokens, st.completion_tokens);
    const std::string fin = last ? json_str(c.plan.finish_reason) : "null";
    const std::string stop = last ? reason_json(c.plan.stop_reason) : "null";
    if (chat) {
      if (!c.role_sent) {
        c.role_sent = true;
        st.w->send_event(st.head + fmt::format(R"({{"index":{},"delta":{{"role":"assistant","content":""}},"logprobs":null,"finish_reason":null}}]}})", c.index));
      }
      st.w->send_event(st.head + fmt::format(R"({{"index":{},"delta":{{"content":{}}},"logprobs":null,"finish_reason":{},"stop_reason":{}}}]{}}})",
                                             c.index, json_str(piece), fin, stop, usage));
    } else {
      st.w->send_event(st.head + fmt::format(R"({{"index":{},"text":{},"logprobs":null,"finish_reason":{},"stop_reason":{}}}]{}}})",
                                             c.index, json_str(piece), fin, stop, usage));
    }
  }
  if (st.rec && st.rec->rec.first_token_engine == SteadyTime{} && upto > c.sent) {
    // --records: the first token's bytes are queued; stamp when the connection's loop has handed
    // them to the socket (its jobs run in order). Non-streamed answers keep the engine's instant.
    st.rec->rec.first_token_engine = std::chrono::steady_clock::now();
    st.rec->rec.sim_ttft_s = t - engine_.request(c.req).arrival_s;
    if (st.req.stream) st.w->post([p = st.rec] { p->rec.first_token_socket = std::chrono::steady_clock::now(); });
  }
  c.sent = upto;
  if (c.sent >= c.plan.output_tokens) finish_choice(st, c, c.plan.finish_reason);
}

void EngineLoop::finish_choice(Stream& st, Choice& c, const std::string& reason) {
  if (c.done) return;
  c.done = true;
  c.finish_reason = reason;
  const auto& r = engine_.request(c.req);
  ReplicaMetrics& m = *metrics_[static_cast<size_t>(r.replica)];
  const size_t ri = reason == "stop" ? 0 : reason == "length" ? 1 : reason == "abort" ? 2 : 3;
  ++m.finished[ri];
  if (reason != "abort" && r.finish_s >= 0) observe_done(m, r);
  by_req_.erase(c.req);
  if (--st.remaining == 0) complete(st);
}

void EngineLoop::observe_done(ReplicaMetrics& m, const sim::SimRequest& r) {
  m.e2e.observe(r.finish_s - r.arrival_s);
  if (r.first_scheduled_s >= 0) {
    m.queue.observe(r.first_scheduled_s - r.arrival_s);
    m.inference.observe(r.finish_s - r.first_scheduled_s);
    m.prefill.observe(r.first_token_s - r.first_scheduled_s);
  }
  m.decode.observe(r.last_token_s - r.first_token_s);
  if (r.num_output > 1) m.tpot.observe((r.last_token_s - r.first_token_s) / (r.num_output - 1));
  m.prompt_tokens.observe(r.prompt_len);
  m.generation_tokens.observe(r.num_output);
}

// Requests without a client (burst, retry copies) are counted in /metrics like any other: a real
// engine cannot tell who sent what. Their tokens go nowhere.
void EngineLoop::ghost_step(const sim::StepReport& s) {
  if (!s.plan || s.plan->seqs.empty()) return;
  for (const auto& q : s.plan->seqs) {
    if (engine_.origin(q.req) == sim::Origin::client) continue;
    const auto& r = engine_.request(q.req);
    ReplicaMetrics& m = *metrics_[static_cast<size_t>(r.replica)];
    auto [it, fresh] = ghosts_.try_emplace(q.req);
    if (fresh) ++m.requests_received;
    Ghost& g = it->second;
    for (; g.sent < r.num_output; ++g.sent) {
      if (g.last_v < 0) m.ttft.observe(s.end_s - r.arrival_s);
      else m.itl.observe(s.end_s - g.last_v);
      g.last_v = s.end_s;
    }
  }
  for (int32_t id : s.finished) {
    if (engine_.origin(id) == sim::Origin::client) continue;
    const auto& r = engine_.request(id);
    ReplicaMetrics& m = *metrics_[static_cast<size_t>(r.replica)];
    ++m.finished[static_cast<size_t>(Finish::length)];  // fixed lengths, as with ignore_eos
    observe_done(m, r);
    m.max_generation_tokens.observe(r.num_output);
    ghosts_.erase(id);
  }
}

void EngineLoop::complete(Stream& st) {
  if (st.ended) return;
  st.ended = true;
  --live_streams_;
  ++completed_;
  ReplicaMetrics& m = *metrics_[static_cast<size_t>(engine_.request(st.choices.front().req).replica)];
  m.params_n.observe(st.req.n);
  if (st.req.max_tokens) m.params_max_tokens.observe(static_cast<double>(*st.req.max_tokens));
  int32_t mx = 0;
  for (const auto& c : st.choices) mx = std::max(mx, c.sent);
  m.max_generation_tokens.observe(mx);
  if (st.req.stream) {
    if (st.req.include_usage)
      st.w->send_event(st.head + fmt::format(R"(],"usage":{}}})", usage_json(st.prompt_tokens, st.completion_tokens).dump()));
    st.w->send_event("[DONE]");
    st.w->finish();
    end_record(st, "");
    return;
  }
  nlohmann::json choices = nlohmann::json::array();
  for (const auto& c : st.choices) {
    nlohmann::json ch = {{"index", c.index}, {"logprobs", nullptr}, {"finish_reason", c.finish_reason}};
    ch["stop_reason"] = c.plan.stop_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.plan.stop_reason);
    if (st.req.chat) ch["message"] = {{"role", "assistant"}, {"content", c.text}, {"tool_calls", nlohmann::json::array()}};
    else ch["text"] = c.text;
    choices.push_back(std::move(ch));
  }
  nlohmann::json body = {{"id", st.id}, {"object", st.req.chat ? "chat.completion" : "text_completion"},
                         {"created", st.created}, {"model", opt_.served_model_name}, {"choices", std::move(choices)},
                         {"usage", usage_json(st.prompt_tokens, st.completion_tokens)}};
  st.w->respond(200, body.dump());
  end_record(st, "");
}

void EngineLoop::abort_stream(const std::shared_ptr<Stream>& st) {
  if (st->ended) return;
  st->ended = true;
  --live_streams_;
  ++aborted_;
  end_record(*st, "client_closed");
  drop_choices(*st, virtual_now());
}

void EngineLoop::drop_choices(Stream& st, double v) {
  for (auto& c : st.choices) {
    if (c.done || c.req < 0) continue;
    c.done = true;
    engine_.abort(c.req, v);  // a no-op for a request the gateway already cut in the engine
    ++metrics_[static_cast<size_t>(engine_.request(c.req).replica)]->finished[static_cast<size_t>(Finish::abort)];
    by_req_.erase(c.req);
  }
}

// The simulated gateway gave up on a request with no first token: 504 in the OpenAI error shape
// (SSE headers are held back under a gateway timeout, so a stream gets the same answer).
void EngineLoop::gateway_cut(const std::shared_ptr<Stream>& st, double v) {
  if (st->ended) return;
  st->ended = true;
  --live_streams_;
  ++gateway_timeouts_;
  end_record(*st, "http_504");
  drop_choices(*st, v);
  double budget = 0;
  if (const sim::SimRequest* r = st->choices.empty() || st->choices.front().req < 0 ? nullptr : &engine_.request(st->choices.front().req))
    budget = v - r->arrival_s;
  const ApiError e{504, "gateway_timeout",
                   fmt::format("Gateway timeout: no response from the upstream engine within {:.3f} s "
                               "(simulated gateway, fault gateway_timeout)", budget), ""};
  if (!st->sse_started) st->w->respond(504, error_body(e));
  else st->w->finish();  // headers already out: the gateway can only cut the stream
}

void EngineLoop::log_stats(double v) {
  for (int i = 0; i < engine_.num_replicas(); ++i) {
    const sim::Replica& rep = engine_.replica(i);
    LogMark& mk = marks_[static_cast<size_t>(i)];
    sim::LogStats ls;
    ls.t_s = v;
    ls.engine_index = i;
    const double span = opt_.log_interval_s;
    ls.prompt_tps = static_cast<double>(rep.prompt_tokens - mk.prompt) / span;
    ls.gen_tps = static_cast<double>(rep.generation_tokens - mk.gen) / span;
    ls.running = static_cast<int64_t>(rep.sched.running().size());
    ls.waiting = static_cast<int64_t>(rep.sched.waiting().size());
    ls.preemptions = static_cast<int64_t>(rep.preemptions - mk.preempt);
    ls.kv_usage = rep.kv.usage();
    const uint64_t dq = rep.kv.prefix_queries_tokens - mk.q, dh = rep.kv.prefix_hits_tokens - mk.h;
    ls.prefix_hit_rate = dq ? static_cast<double>(dh) / static_cast<double>(dq) : 0.0;
    ReplicaMetrics& m = *metrics_[static_cast<size_t>(i)];
    m.gen_throughput = ls.gen_tps;
    if (dq) m.last_prefill_hit_rate = ls.prefix_hit_rate;
    // vLLM logs the stats line only while the engine is not idle.
    const bool active = ls.running > 0 || ls.waiting > 0 || rep.prompt_tokens != mk.prompt || rep.generation_tokens != mk.gen;
    if (active) log_(sim::stats_line(engine_.config().preset.kind, ls));
    mk = {rep.prompt_tokens, rep.generation_tokens, rep.preemptions, rep.kv.prefix_queries_tokens, rep.kv.prefix_hits_tokens};
  }
}

std::string EngineLoop::render_metrics() {
  std::vector<core::EngineSample> samples;
  std::vector<const ReplicaMetrics*> ms;
  const double t = static_cast<double>(std::time(nullptr));
  for (int i = 0; i < engine_.num_replicas(); ++i) {
    samples.push_back(exposed_sample(engine_, i, *metrics_[static_cast<size_t>(i)], opt_.served_model_name, t));
    ms.push_back(metrics_[static_cast<size_t>(i)].get());
  }
  // What an engine started that way would report: prefix caching as the replicas run it now (a
  // prefix_cache_off fault reads as --no-enable-prefix-caching, as kv_pool_shrink reads as a
  // smaller num_gpu_blocks).
  CacheInfo cache = opt_.cache;
  if (sim::fault_state(engine_.faults(), virtual_now()).prefix_cache_off) cache.prefix_caching = false;
  std::string text = opt_.metrics_style == MetricsStyle::sglang ? render_sglang(samples, ms) : render_vllm(samples, ms, cache);
  // Not an engine's metric: the clock the counters and histograms above run on, so a reader
  // (`llmtriage top`) can give rates per virtual second. Only when it is not the wall clock.
  if (opt_.time_scale != 1.0)
    text += fmt::format("# HELP llmtriage_sim_time_scale Virtual seconds per wall second of this simulated engine (sim serve "
                        "--time-scale): its counters and histograms run on the virtual clock.\n"
                        "# TYPE llmtriage_sim_time_scale gauge\nllmtriage_sim_time_scale {}\n",
                        opt_.time_scale);
  return text;
}

nlohmann::json fault_fields(const sim::Fault& f) {
  using sim::FaultKind;
  switch (f.kind) {
    case FaultKind::clock_throttle: case FaultKind::kv_pool_shrink: return {{"factor", f.factor}};
    case FaultKind::slow_replica: return {{"factor", f.factor}, {"replica", f.replica}};
    case FaultKind::no_affinity: case FaultKind::prefix_cache_off: return nlohmann::json::object();
    case FaultKind::long_prompt_burst: return {{"rate_rps", f.rate_rps}, {"input_len", f.input_len}, {"output_len", f.output_len}};
    case FaultKind::gateway_timeout: return {{"timeout_s", f.timeout_s}};
    case FaultKind::client_retries:
      return {{"max_retries", f.max_retries}, {"backoff_s", f.backoff_s}, {"exponential_backoff", f.exponential_backoff}};
  }
  return nlohmann::json::object();
}

nlohmann::json EngineLoop::fault_json() const {
  nlohmann::json arr = nlohmann::json::array();
  const double v = virtual_now();
  for (const auto& f : engine_.faults()) {
    nlohmann::json j = {{"kind", sim::to_string(f.kind)}, {"start_s", f.start_s}, {"active", f.active(v)}};
    j["end_s"] = f.end_s >= 1e299 ? nlohmann::json(nullptr) : nlohmann::json(f.end_s);
    j.update(fault_fields(f));
    arr.push_back(std::move(j));
  }
  return {{"virtual_time_s", v}, {"faults", arr}};
}

nlohmann::json EngineLoop::stats_json() {
  return {{"virtual_time_s", virtual_now()},
          {"time_scale", opt_.time_scale},
          {"steps", steps_},
          {"live_streams", live_streams_},
          {"completed", completed_},
          {"aborted", aborted_},
          {"gateway_timeouts", gateway_timeouts_},
          {"engine_timed_out", engine_.timed_out_count()},
          {"retries", engine_.retry_count()},
          {"burst_requests", engine_.burst_count()},
          {"requests", engine_.num_requests()},
          {"clock_lag_ms", {{"count", lag_ms_.count()}, {"p50", lag_ms_.quantile(0.5)}, {"p90", lag_ms_.quantile(0.9)},
                            {"p99", lag_ms_.quantile(0.99)}, {"max", lag_max_ms_}}}};
}

}  // namespace llmtriage::serve
