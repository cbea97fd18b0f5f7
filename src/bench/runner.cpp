#include "bench/runner.h"

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "core/clock.h"
#include "core/rng.h"
#include "ingest/metrics_engine.h"
#include "net/client.h"

namespace llmtriage::bench {
namespace {

using Clock = net::SteadyClock;
using Tp = Clock::time_point;

Tp at(Tp t0, double s) { return t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s)); }

// Per-request stream state; lives as long as the request's handlers.
struct Stream {
  BenchRecord* rec = nullptr;
  int64_t last_completion = 0;
  bool all_exact = true;
  bool saw_done = false;
};

struct State {
  const RunnerOptions& o;
  Tp t0;
  std::string url;
  std::vector<BenchRecord> recs;
  std::vector<std::string> bodies;
  std::vector<net::RequestHandle> handles;
  std::mutex mu;  // dispatcher state below (callbacks may run on several loops)
  std::condition_variable cv;
  size_t next = 0;
  std::deque<size_t> queue;  // released, waiting for a --max-concurrency slot
  int64_t in_flight = 0, launched = 0, finished = 0, failed = 0;
  std::atomic<bool> stopping{false};
  std::atomic<bool> heartbeat_on{true};
  const char* stop_category = "deadline";  // set before `stopping`
  std::vector<double> loop_lag;  // only touched on loop 0
  net::Client* client = nullptr;

  explicit State(const RunnerOptions& opt) : o(opt) {}
  double rel(Tp t) const { return std::chrono::duration<double>(t - t0).count(); }
  bool all_done_locked() const {
    return next >= recs.size() && queue.empty() && in_flight == 0;
  }
};

// `released`: when a capped request got its slot; nullopt = released at its scheduled instant.
void launch_locked(State& st, size_t i, std::optional<Tp> released);

void on_finished(State& st, size_t i, const net::Outcome& out, Stream& s) {
  BenchRecord& r = *s.rec;
  const Tp done = out.timing.done == Tp{} ? Clock::now() : out.timing.done;
  r.end_s = st.rel(done);
  if (out.timing.sent != Tp{}) r.written_s = st.rel(out.timing.sent);
  if (out.timing.first_byte != Tp{}) r.first_byte_s = st.rel(out.timing.first_byte);
  r.http_status = out.status;
  r.chunk_tokens_exact = s.all_exact && !r.chunk_s.empty();
  if (out.status >= 400) {
    // The status is the cause even when the (non-SSE) error body then fails SSE parsing.
    r.error_category = fmt::format("http_{}", out.status);
    r.error_detail = fmt::format("{} {}", out.status, out.reason);
    // The server's own words: the error document's message (the same reader as an in-stream
    // {"error": ...} chunk), else the start of a non-JSON body (an HTML error page), cut short.
    if (!out.body.empty()) {
      const ChunkInfo doc = parse_chunk(out.body);
      std::string msg = doc.valid_json ? doc.error_message : out.body.substr(0, 200);
      for (char& ch : msg)
        if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';  // an HTML error page's newlines
      if (!msg.empty()) r.error_detail += ": " + msg;
    }
  } else if (!out.ok()) {
    const bool deadline = out.failure == net::Failure::cancelled && st.stopping.load();
    // A stream error seen earlier (malformed chunk) stays the cause; the transport failure is detail.
    if (r.error_category.empty()) {
      r.error_category = deadline ? st.stop_category : failure_category(out.failure);
      r.error_detail = out.error.message();
    }
  } else if (r.error_category.empty() && !s.saw_done) {
    r.error_category = "incomplete_stream";
    r.error_detail = "the stream ended without data: [DONE]";
  }
  std::lock_guard lk(st.mu);
  --st.in_flight;
  ++st.finished;
  if (!r.ok()) ++st.failed;
  (void)i;
  if (!st.stopping.load()) {
    const Tp now = Clock::now();
    if (!st.queue.empty()) {
      const size_t j = st.queue.front();
      st.queue.pop_front();
      launch_locked(st, j, now);
    } else if (!st.o.schedule && st.next < st.recs.size()) {
      const size_t j = st.next++;
      st.recs[j].scheduled_s = st.rel(now);
      launch_locked(st, j, std::nullopt);
    }
  }
  if (st.all_done_locked() || st.stopping.load()) st.cv.notify_all();
}

void launch_locked(State& st, size_t i, std::optional<Tp> released) {
  BenchRecord& r = st.recs[i];
  r.released_s = released ? std::max(r.scheduled_s, st.rel(*released)) : r.scheduled_s;
  auto s = std::make_shared<Stream>();
  s->rec = &r;
  net::Request req;
  req.method = net::Method::post;
  req.url = st.url;
  req.body = std::move(st.bodies[i]);
  req.bearer_token = st.o.api_key;
  req.timeouts = st.o.timeouts;
  req.headers.push_back({"X-Request-Id", r.id});
  net::StreamHandlers h;
  h.on_event = [s, &st](const net::SseEvent& ev, Tp arrived) {
    BenchRecord& rec = *s->rec;
    if (ev.is_done()) {
      s->saw_done = true;
      return;
    }
    if (ev.data.empty()) return;
    const ChunkInfo c = parse_chunk(ev.data);
    if (!c.valid_json) {
      if (rec.error_category.empty()) {
        rec.error_category = "malformed_sse";
        rec.error_detail = fmt::format("chunk {} is not a JSON object: {:.60}", rec.chunk_s.size() + 1, ev.data);
      }
      return;
    }
    if (c.error) {
      if (rec.error_category.empty()) {
        rec.error_category = "stream_error";
        rec.error_detail = c.error_message;
      }
      return;
    }
    if (c.prompt_tokens) rec.server_prompt_tokens = c.prompt_tokens;
    if (c.completion_tokens) rec.server_completion_tokens = c.completion_tokens;
    if (c.prompt_ms) rec.server_prompt_s = *c.prompt_ms / 1e3;
    if (c.predicted_ms) rec.server_predicted_s = *c.predicted_ms / 1e3;
    if (c.cache_n) rec.server_cached_tokens = c.cache_n;
    // Tokens in this chunk: the difference of cumulative usage when every chunk carries it (vLLM
    // continuous_usage_stats), else one per content chunk (llama.cpp streams one token per chunk).
    // Usage on a chunk without content, once counting is by chunks, is the closing summary (llama.cpp's
    // last chunk: empty text, finish_reason, usage, timings): not a token arrival.
    int64_t k = 0;
    if (c.has_choices && c.completion_tokens && (s->all_exact || c.has_content)) {
      k = *c.completion_tokens - s->last_completion;
    } else if (c.has_content) {
      k = 1;
      s->all_exact = false;
    }
    if (c.has_content || k > 0) {
      k = std::max<int64_t>(0, k);
      s->last_completion += k;
      rec.chunk_s.push_back(st.rel(arrived));
      rec.chunk_tokens.push_back(static_cast<int32_t>(k));
    }
  };
  h.on_done = [s, &st, i](const net::Outcome& out) { on_finished(st, i, out, *s); };
  ++st.in_flight;
  ++st.launched;
  r.send_s = st.rel(Clock::now());
  st.handles[i] = st.client->start(std::move(req), std::move(h));
}

// Open loop: release everything due, then sleep until the next instant (absolute, no drift).
void tick(State& st) {
  std::lock_guard lk(st.mu);
  if (st.stopping.load()) return;
  const auto& sched = *st.o.schedule;
  const Tp now = Clock::now();
  while (st.next < st.recs.size() && at(st.t0, sched[st.next]) <= now) {
    const size_t i = st.next++;
    if (st.o.max_concurrency && st.in_flight >= *st.o.max_concurrency) st.queue.push_back(i);
    else launch_locked(st, i, std::nullopt);
  }
  if (st.next < st.recs.size()) st.client->post_at(at(st.t0, sched[st.next]), [&st] { tick(st); });
  if (st.all_done_locked()) st.cv.notify_all();
}

// A timer every 2 ms on the dispatch loop: its lateness is how far the loop falls behind.
void heartbeat(State& st, Tp due) {
  st.loop_lag.push_back(std::max(0.0, std::chrono::duration<double>(Clock::now() - due).count()));
  if (!st.heartbeat_on.load()) return;
  const Tp nxt = due + std::chrono::milliseconds(2);
  st.client->post_at(nxt, [&st, nxt] { heartbeat(st, nxt); });
}

Scrape scrape_once(net::Client& c, const RunnerOptions& o, const std::string& url, const std::string& phase, Tp t0) {
  Scrape s;
  s.phase = phase;
  s.unix_s = core::unix_now_s();
  s.t_s = std::chrono::duration<double>(Clock::now() - t0).count();
  net::Request req;
  req.url = url;
  req.bearer_token = o.api_key;
  net::Timeouts t;
  t.total = std::chrono::milliseconds(5000);
  req.timeouts = t;
  auto r = c.fetch(std::move(req));
  if (!r) s.error = r.error().message();
  else if (r->status != 200) s.error = fmt::format("HTTP {} from {}", r->status, url);
  else s.text = std::move(r->body);
  return s;
}

bool shows_waiting(const std::string& text) {
  auto a = ingest::adapt_engine_metrics(text, 0);
  if (!a) return false;
  for (const auto& smp : a->samples)
    if (smp.waiting && *smp.waiting > 0) return true;
  return false;
}

// Unique enough to tell runs apart in a server's records: the Unix clock in microseconds and
// the pid, mixed; 12 hex digits.
std::string new_run_tag() {
  const auto us = static_cast<uint64_t>(core::unix_now_s() * 1e6);
  return fmt::format("{:012x}", core::splitmix64_mix(us ^ (static_cast<uint64_t>(::getpid()) << 40)) >> 16);
}

}  // namespace

std::string failure_category(net::Failure f) { return net::to_string(f); }

RunResult run_load(const RequestSet& set, const RunnerOptions& o) {
  RunResult res;
  const Tp wall0 = Clock::now();
  const Tp deadline = o.deadline_s > 0 ? at(wall0, o.deadline_s) : Tp::max();
  State st(o);
  st.url = o.base_url + api_path(o.body.api);
  const size_t n = set.requests.size();
  res.run_tag = o.run_tag.empty() ? new_run_tag() : o.run_tag;
  st.recs.resize(n);
  st.bodies.reserve(n);
  st.handles.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& spec = set.requests[i];
    auto& r = st.recs[i];
    r.index = static_cast<int64_t>(i);
    r.id = fmt::format("{}-{}", res.run_tag, r.index);
    r.set_id = spec.id;
    r.warmup = static_cast<int64_t>(i) < o.warmup;
    r.input_tokens = spec.input_tokens;
    r.max_tokens = spec.max_tokens;
    r.ignore_eos = spec.pin_output;
    r.model = o.body.model;
    if (o.schedule) r.scheduled_s = (*o.schedule)[i];
    st.bodies.push_back(build_body(spec, o.body));  // before the clock starts: dispatch only sends
  }

  // Scrapes run on their own client (own loop), so they never delay a dispatch.
  const bool scraping = o.scrape_interval_s > 0;
  const std::string murl = o.metrics_url.empty() ? o.base_url + "/metrics" : o.metrics_url;
  std::unique_ptr<net::Client> sc;
  std::mutex smu;
  std::condition_variable scv;
  bool scrape_stop = false;
  std::thread scraper;
  bool scrape_during = false;
  if (scraping) {
    sc = std::make_unique<net::Client>(net::ClientOptions{}, 1);
    res.scrapes.push_back(scrape_once(*sc, o, murl, "before", Clock::now()));
    res.scrapes.back().t_s = -o.start_delay_s;
    // No /metrics here (404): keep the one failed attempt as the record of why, scrape no more.
    scrape_during = res.scrapes.back().error.find("HTTP 404") == std::string::npos;
  }
  auto start_scraper = [&] {
    if (scrape_during) {
      scraper = std::thread([&] {
        std::unique_lock lk(smu);
        while (!scv.wait_for(lk, std::chrono::duration<double>(o.scrape_interval_s), [&] { return scrape_stop; })) {
          lk.unlock();
          auto s = scrape_once(*sc, o, murl, "during", st.t0);
          if (!s.text.empty() && shows_waiting(s.text)) res.server_waiting = true;
          else if (!s.text.empty() && !res.server_waiting) res.server_waiting = false;
          lk.lock();
          res.scrapes.push_back(std::move(s));
        }
      });
    }
  };
  {
    net::ClientOptions co;
    co.timeouts = o.timeouts;
    co.max_idle_per_host = 1u << 16;  // every stream's connection stays pooled for the next request
    net::Client client(co, std::max(1, o.client_threads));
    st.client = &client;
    {
      // The loop must be up (threads started, TLS context built) before the clock starts, or the
      // first requests go out late: one round trip through it, then t0.
      std::promise<void> ready;
      client.post([&ready] { ready.set_value(); });
      ready.get_future().wait();
    }
    st.t0 = at(Clock::now(), o.start_delay_s);
    res.start_unix_s = core::unix_now_s() + o.start_delay_s;
    start_scraper();  // after t0: it stamps scrapes relative to it
    client.post_at(st.t0, [&st] { heartbeat(st, st.t0); });
    if (o.schedule) {
      client.post_at(st.t0, [&st] { tick(st); });
    } else {
      client.post_at(st.t0, [&st] {
        std::lock_guard lk(st.mu);
        const Tp now = Clock::now();
        while (st.next < st.recs.size() && st.in_flight < std::max<int64_t>(1, st.o.concurrency)) {
          const size_t i = st.next++;
          st.recs[i].scheduled_s = st.rel(now);
          launch_locked(st, i, std::nullopt);
        }
        if (st.all_done_locked()) st.cv.notify_all();
      });
    }
    std::unique_lock lk(st.mu);
    for (;;) {
      if (st.cv.wait_for(lk, std::chrono::milliseconds(100), [&] { return st.all_done_locked(); })) break;
      if (o.on_progress) {
        RunProgress p{st.launched, st.finished, st.failed, static_cast<int64_t>(n), static_cast<size_t>(st.in_flight),
                      std::chrono::duration<double>(Clock::now() - st.t0).count()};
        lk.unlock();
        o.on_progress(p);
        lk.lock();
      }
      const bool interrupted = o.stop && o.stop->load();
      if (Clock::now() >= deadline || interrupted) {
        (interrupted ? res.interrupted : res.deadline_hit) = true;
        st.stop_category = interrupted ? "interrupted" : "deadline";
        st.stopping = true;
        std::vector<net::RequestHandle> hs = st.handles;
        lk.unlock();
        for (const auto& h : hs)
          if (h.valid()) h.cancel();
        lk.lock();
        // Cancellations come back as on_done; wait for them (bounded: net cancels promptly).
        st.cv.wait_for(lk, std::chrono::seconds(5), [&] { return st.in_flight == 0; });
        break;
      }
    }
    st.heartbeat_on = false;
    res.connections_opened = client.connections_opened();
    lk.unlock();
    // Destroying the client cancels anything left and joins its loops: after this no callback
    // touches st, and the records are final.
  }
  for (size_t i = 0; i < n; ++i) {
    auto& r = st.recs[i];
    if (!r.send_s && r.error_category.empty()) {
      r.error_category = res.deadline_hit || res.interrupted ? st.stop_category : "not_sent";
      r.error_detail = "never sent: the run ended first";
    }
  }
  if (scraping) {
    {
      std::lock_guard lk(smu);
      scrape_stop = true;
    }
    scv.notify_all();
    if (scraper.joinable()) scraper.join();
    if (Clock::now() < deadline && (res.scrapes.empty() || res.scrapes.front().error.find("HTTP 404") == std::string::npos))
      res.scrapes.push_back(scrape_once(*sc, o, murl, "after", st.t0));
  }
  res.loop_lag_s = core::summarize(st.loop_lag);
  res.records = std::move(st.recs);
  res.wall_s = std::chrono::duration<double>(Clock::now() - wall0).count();
  return res;
}

}  // namespace llmtriage::bench
