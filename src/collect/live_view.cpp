// The live view's frame: the rolling window and what it says now (collect/live_view.h).
#include "collect/live_view.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "ingest/metrics_quantile.h"
#include "ingest/metrics_rate.h"

namespace llmtriage::collect {
namespace {

// One scrape's engine samples folded into one reading: data-parallel engines and models add up
// (running, waiting, counters, histograms with equal buckets); KV usage is the fullest pool's.
struct LiveAgg {
  double t_s = 0;
  std::optional<double> running, waiting, kv_usage, kv_cap;
  std::optional<double> prompt, gen, fin, pre, hits, queries, hit_gauge;
  core::Histogram ttft, itl, queue;
};

void add_opt(std::optional<double>& into, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return;
  into = into.value_or(0) + *v;
}

void max_opt(std::optional<double>& into, const std::optional<double>& v) {
  if (v && std::isfinite(*v) && (!into || *v > *into)) into = *v;
}

void add_hist(core::Histogram& into, const core::Histogram& h) {
  if (h.empty()) return;
  if (into.empty()) {
    into = h;
    return;
  }
  if (into.upper_bounds != h.upper_bounds) return;  // NOTE: unlike buckets are not merged
  for (size_t i = 0; i < h.cumulative_counts.size(); ++i) into.cumulative_counts[i] += h.cumulative_counts[i];
  into.sum += h.sum;
  into.count += h.count;
}

LiveAgg fold(const ScrapeRecord& sc) {
  LiveAgg a;
  a.t_s = sc.t_s;
  for (const auto& e : sc.engine_samples) {
    add_opt(a.running, e.running);
    add_opt(a.waiting, e.waiting);
    max_opt(a.kv_usage, e.kv_usage);
    add_opt(a.kv_cap, e.kv_cache_capacity_tokens);
    add_opt(a.prompt, e.prompt_tokens_total);
    add_opt(a.gen, e.generation_tokens_total);
    add_opt(a.fin, e.requests_finished_total);
    add_opt(a.pre, e.preemptions_total);
    add_opt(a.hits, e.prefix_cache_hits_total);
    add_opt(a.queries, e.prefix_cache_queries_total);
    max_opt(a.hit_gauge, e.prefix_cache_hit_rate);
    add_hist(a.ttft, e.ttft_s);
    add_hist(a.itl, e.itl_s);
    add_hist(a.queue, e.queue_s);
  }
  return a;
}

std::optional<double> live_finite(double v) {
  if (std::isfinite(v)) return v;
  return std::nullopt;
}

Quantiles quantiles_of(const char* name, const core::Histogram& first, const core::Histogram& last, bool single) {
  Quantiles q;
  q.name = name;
  if (last.empty()) return q;
  q.exposed = true;
  bool reset = false;
  core::Histogram d = single ? last : ingest::histogram_delta(last, first, &reset);
  q.since_start = single || reset;
  q.count = d.count;
  if (d.count <= 0) return q;
  q.p50_s = live_finite(ingest::histogram_quantile(0.50, d).value);
  q.p95_s = live_finite(ingest::histogram_quantile(0.95, d).value);
  q.p99_s = live_finite(ingest::histogram_quantile(0.99, d).value);
  return q;
}

std::optional<double> rate_of(const std::vector<LiveAgg>& pts, std::optional<double> LiveAgg::*field) {
  std::vector<ingest::CounterPoint> p;
  for (const auto& a : pts)
    if (a.*field) p.push_back({a.t_s, *(a.*field)});
  return ingest::counter_rate(p);
}

template <class T>
void trim_before(std::vector<T>& v, double cutoff) {
  v.erase(std::remove_if(v.begin(), v.end(), [&](const T& x) { return x.t_s < cutoff; }), v.end());
}

}  // namespace

LiveWindow::LiveWindow(Snapshot base, double keep_s) : snap_(std::move(base)), keep_s_(keep_s) {
  snap_.mode = "live";
  snap_.complete = false;
}

void LiveWindow::add(LiveScrape s) {
  last_error_ = s.metrics.ok ? std::string() : s.metrics.error;
  if (s.engine != core::EngineKind::unknown &&
      (snap_.engine == core::EngineKind::unknown || snap_.engine_detected_by == "engine args")) {
    snap_.engine = s.engine;
    snap_.engine_detected_by = s.engine_detected_by;
  }
  if (!s.metrics.ok) snap_.failures.push_back({s.metrics.t_s, "metrics", s.metrics.source, s.metrics.error});
  const double t = s.metrics.t_s;
  snap_.scrapes.push_back(std::move(s.metrics));
  if (s.slots) snap_.slots.push_back(std::move(*s.slots));
  if (!s.gpu_source.empty()) {
    snap_.gpu_source = s.gpu_source;
    snap_.gpu_note = s.gpu_note;
  }
  for (auto& g : s.gpus) snap_.gpu_samples.push_back(std::move(g));
  for (auto& f : s.failures) snap_.failures.push_back(std::move(f));
  const double cutoff = t - keep_s_;
  trim_before(snap_.scrapes, cutoff);
  trim_before(snap_.slots, cutoff);
  trim_before(snap_.gpu_samples, cutoff);
  trim_before(snap_.failures, cutoff);
  snap_.window_s = keep_s_;
}

Snapshot LiveWindow::recent(double span_s) const {
  Snapshot s = snap_;
  if (!s.scrapes.empty()) {
    const double cutoff = s.scrapes.back().t_s - span_s - 1e-6;
    trim_before(s.scrapes, cutoff);
    trim_before(s.slots, cutoff);
    trim_before(s.gpu_samples, cutoff);
    trim_before(s.failures, cutoff);
  }
  s.window_s = span_s;
  s.created_unix_s = s.scrapes.empty() ? s.created_unix_s : s.scrapes.back().t_s;
  compute_window_stats(s);
  return s;
}

std::optional<double> sim_time_scale(const ScrapeRecord& sc) {
  static const std::string name = "llmtriage_sim_time_scale ";
  if (!sc.ok) return std::nullopt;
  for (size_t at = sc.raw.find(name); at != std::string::npos; at = sc.raw.find(name, at + 1)) {
    if (at != 0 && sc.raw[at - 1] != '\n') continue;  // a HELP line, or a longer name
    const size_t end = sc.raw.find('\n', at);
    const std::string v = sc.raw.substr(at + name.size(), end == std::string::npos ? std::string::npos : end - at - name.size());
    char* stop = nullptr;
    const double x = std::strtod(v.c_str(), &stop);
    if (stop != v.c_str() && std::isfinite(x) && x > 0 && std::fabs(x - 1) > 1e-9) return x;
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {
std::optional<double> last_time_scale(const Snapshot& s) {
  for (auto it = s.scrapes.rbegin(); it != s.scrapes.rend(); ++it)
    if (it->ok) return sim_time_scale(*it);
  return std::nullopt;
}
}  // namespace

Snapshot on_virtual_clock(Snapshot s) {
  const auto scale = last_time_scale(s);
  if (!scale || s.scrapes.empty()) return s;
  const double t0 = s.scrapes.front().t_s;
  auto stretch = [&](double t) { return t0 + (t - t0) * *scale; };
  for (auto& x : s.scrapes) {
    x.t_s = stretch(x.t_s);
    for (auto& e : x.engine_samples) e.t_s = stretch(e.t_s);
  }
  for (auto& x : s.slots) x.t_s = stretch(x.t_s);
  for (auto& x : s.gpu_samples) x.t_s = stretch(x.t_s);
  for (auto& x : s.failures) x.t_s = stretch(x.t_s);
  s.window_s *= *scale;
  compute_window_stats(s);
  return s;
}

Frame compute_frame(const LiveWindow& window, double now, const FrameOptions& o) {
  const Snapshot& s = window.snapshot();
  Frame f;
  f.endpoint = s.endpoint;
  f.engine = core::to_string(s.engine);
  f.engine_version = s.engine_version;
  if (f.engine_version.empty() && s.server) f.engine_version = s.server->build;
  if (!s.models.empty()) f.model = s.models.front().id;
  else if (s.server && !s.server->model_path.empty()) f.model = s.server->model_path;
  f.rate_window_s = o.rate_window_s;
  f.quantile_window_s = o.quantile_window_s;
  f.last_error = window.last_error();
  f.gpu_source = s.gpu_source;
  f.gpu_note = s.gpu_note;

  std::vector<LiveAgg> good;
  for (const auto& sc : s.scrapes) {
    if (sc.ok) good.push_back(fold(sc));
    else ++f.scrapes_failed;
  }
  f.scrapes_ok = static_cast<int>(good.size());
  if (s.engine_settings && s.engine_settings->max_num_seqs) {
    f.concurrency_cap = static_cast<double>(*s.engine_settings->max_num_seqs);
    f.cap_source = "max-num-seqs";
  } else if (s.server && s.server->total_slots) {
    f.concurrency_cap = *s.server->total_slots;
    f.cap_source = "slots (/props)";
  }
  if (!good.empty()) {
    const LiveAgg& last = good.back();
    f.t_unix_s = last.t_s;
    f.age_s = std::max(0.0, now - last.t_s);
    f.stale = f.age_s > o.stale_after_s || !f.last_error.empty();
    for (auto it = s.scrapes.rbegin(); it != s.scrapes.rend(); ++it)
      if (it->ok) {
        f.fetch_s = it->fetch_s;
        if (f.model.empty())
          for (const auto& e : it->engine_samples)
            if (!e.model_name.empty()) { f.model = e.model_name; break; }
        break;
      }
    f.running = last.running;
    f.waiting = last.waiting;
    f.kv_usage = last.kv_usage;
    f.kv_capacity_tokens = last.kv_cap;
    if (f.kv_usage && f.kv_capacity_tokens) f.kv_used_tokens = *f.kv_usage * *f.kv_capacity_tokens;

    // Rates: the scrapes of the last rate_window_s, and at least the last two.
    std::vector<LiveAgg> rp;
    for (const auto& a : good)
      if (a.t_s >= last.t_s - o.rate_window_s - 1e-6) rp.push_back(a);
    if (rp.size() < 2 && good.size() >= 2) rp.assign(good.end() - 2, good.end());
    if (rp.size() >= 2) f.rate_window_s = rp.back().t_s - rp.front().t_s;
    f.prompt_tok_s = rate_of(rp, &LiveAgg::prompt);
    f.generation_tok_s = rate_of(rp, &LiveAgg::gen);
    f.finished_req_s = rate_of(rp, &LiveAgg::fin);
    f.preemptions_per_s = rate_of(rp, &LiveAgg::pre);
    if (rp.size() >= 2 && rp.front().hits && rp.back().hits && rp.front().queries && rp.back().queries) {
      double dq = *rp.back().queries - *rp.front().queries;
      double dh = *rp.back().hits - *rp.front().hits;
      if (dq > 0 && dh >= 0) f.prefix_hit_rate = dh / dq;
    }
    if (!f.prefix_hit_rate) f.prefix_hit_rate = last.hit_gauge;

    // Quantiles: the oldest good scrape inside the window against the newest.
    const LiveAgg* first = &last;
    for (const auto& a : good)
      if (a.t_s >= last.t_s - o.quantile_window_s - 1e-6) {
        first = &a;
        break;
      }
    bool single = first == &last;
    if (!single) f.quantile_window_s = last.t_s - first->t_s;
    f.latency.push_back(quantiles_of("TTFT", first->ttft, last.ttft, single));
    f.latency.push_back(quantiles_of("ITL", first->itl, last.itl, single));
    f.latency.push_back(quantiles_of("queue", first->queue, last.queue, single));
    // The same p99 over the other spans: the oldest good scrape inside each against the newest.
    for (double w : o.p99_windows_s) {
      const LiveAgg* from = &last;
      for (const auto& a : good)
        if (a.t_s >= last.t_s - w - 1e-6) {
          from = &a;
          break;
        }
      const bool one = from == &last;
      const core::Histogram LiveAgg::*fields[] = {&LiveAgg::ttft, &LiveAgg::itl, &LiveAgg::queue};
      for (size_t i = 0; i < f.latency.size(); ++i) {
        std::optional<double> p99;
        if (!one) {
          const Quantiles q = quantiles_of("", from->*fields[i], last.*fields[i], false);
          if (!q.since_start) p99 = q.p99_s;  // across a reset it would be the engine's lifetime
        }
        // The span the scrapes inside really cover (less than asked while the window fills).
        f.latency[i].p99_by_window.push_back({one ? w : last.t_s - from->t_s, p99});
      }
    }
    // The rates between each two consecutive good scrapes: the last minute as sparklines.
    for (size_t i = 1; i < good.size(); ++i) {
      const std::vector<LiveAgg> pair = {good[i - 1], good[i]};
      if (auto r = rate_of(pair, &LiveAgg::prompt)) f.prompt_tok_s_history.push_back(*r);
      if (auto r = rate_of(pair, &LiveAgg::gen)) f.generation_tok_s_history.push_back(*r);
    }
    if (good.size() >= 2) f.history_s = good.back().t_s - good.front().t_s;
  } else {
    f.stale = true;
  }
  if (s.slots.size() >= 2) {
    const SlotsSample& a = s.slots[s.slots.size() - 2];
    const SlotsSample& b = s.slots.back();
    double dt = b.t_s - a.t_s, decoded = 0;
    for (const auto& sb : b.slots) {
      if (!sb.n_decoded) continue;
      int64_t before = 0;
      for (const auto& sa : a.slots)
        if (sa.id == sb.id && sa.n_decoded) before = *sa.n_decoded;
      decoded += static_cast<double>(*sb.n_decoded >= before ? *sb.n_decoded - before : *sb.n_decoded);
    }
    if (dt > 0) f.slots_decode_tok_s = decoded / dt;
  }
  if (!s.slots.empty())
    for (const auto& sl : s.slots.back().slots)
      f.slots.push_back({sl.id, sl.processing, sl.n_ctx, sl.n_prompt_tokens, sl.n_prompt_tokens_processed,
                         sl.n_prompt_tokens_cache, sl.n_decoded, sl.n_remain});
  // The newest reading of each GPU.
  std::map<int, const core::GpuSample*> newest;
  for (const auto& g : s.gpu_samples) newest[g.index] = &g;
  for (const auto& [i, g] : newest)
    f.gpus.push_back({g->index, g->name, g->sm_clock_mhz, g->max_sm_clock_mhz, g->power_w, g->power_limit_w,
                      g->temp_c, g->util, g->mem_used_gib, g->mem_total_gib, g->throttle_names});
  // sim serve's counters advance scale x faster than the wall clock: per virtual second, like its
  // latencies (which its histograms already record in virtual seconds).
  if ((f.time_scale = last_time_scale(s))) {
    const double k = *f.time_scale;
    for (auto* r : {&f.prompt_tok_s, &f.generation_tok_s, &f.finished_req_s, &f.preemptions_per_s, &f.slots_decode_tok_s})
      if (*r) **r /= k;
    for (auto* h : {&f.prompt_tok_s_history, &f.generation_tok_s_history})
      for (double& v : *h) v /= k;
    f.rate_window_s *= k;
    f.quantile_window_s *= k;
    f.history_s *= k;
    for (auto& q : f.latency)
      for (auto& w : q.p99_by_window) w.window_s *= k;
  }
  return f;
}

namespace {
void put_frame(nlohmann::json& j, const char* k, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) j[k] = *v;
}
void put_frame(nlohmann::json& j, const char* k, const std::optional<int64_t>& v) {
  if (v) j[k] = *v;
}
}  // namespace

nlohmann::json to_json(const Frame& f) {
  nlohmann::json j;
  j["format"] = "llmtriage-top-frame";
  j["version"] = 1;
  j["endpoint"] = f.endpoint;
  j["engine"] = f.engine;
  j["engine_version"] = f.engine_version;
  j["model"] = f.model;
  j["t_unix_s"] = f.t_unix_s;
  j["scrape"] = {{"ok", f.scrapes_ok}, {"failed", f.scrapes_failed}, {"stale", f.stale}, {"age_s", f.age_s},
                 {"last_error", f.last_error}};
  put_frame(j["scrape"], "fetch_s", f.fetch_s);
  nlohmann::json sch = nlohmann::json::object();
  put_frame(sch, "running", f.running);
  put_frame(sch, "waiting", f.waiting);
  put_frame(sch, "concurrency_cap", f.concurrency_cap);
  if (!f.cap_source.empty()) sch["cap_source"] = f.cap_source;
  put_frame(sch, "kv_usage", f.kv_usage);
  put_frame(sch, "kv_capacity_tokens", f.kv_capacity_tokens);
  put_frame(sch, "kv_used_tokens", f.kv_used_tokens);
  j["scheduling"] = sch;
  if (f.time_scale) j["time_scale"] = *f.time_scale;
  nlohmann::json r = {{"window_s", f.rate_window_s}};
  put_frame(r, "prompt_tok_s", f.prompt_tok_s);
  put_frame(r, "generation_tok_s", f.generation_tok_s);
  put_frame(r, "finished_req_s", f.finished_req_s);
  put_frame(r, "preemptions_per_s", f.preemptions_per_s);
  put_frame(r, "prefix_hit_rate", f.prefix_hit_rate);
  put_frame(r, "slots_decode_tok_s", f.slots_decode_tok_s);
  r["history"] = {{"span_s", f.history_s}, {"prompt_tok_s", f.prompt_tok_s_history}, {"generation_tok_s", f.generation_tok_s_history}};
  j["rates"] = r;
  nlohmann::json lat = {{"window_s", f.quantile_window_s}};
  for (const auto& q : f.latency) {
    nlohmann::json x = {{"count", q.count}, {"since_start", q.since_start}, {"exposed", q.exposed}};
    put_frame(x, "p50_s", q.p50_s);
    put_frame(x, "p95_s", q.p95_s);
    put_frame(x, "p99_s", q.p99_s);
    for (const auto& w : q.p99_by_window) {
      nlohmann::json y = {{"window_s", w.window_s}};
      put_frame(y, "p99_s", w.p99_s);
      x["p99_by_window"].push_back(y);
    }
    lat[q.name] = x;
  }
  j["latency"] = lat;
  j["slots"] = nlohmann::json::array();
  for (const auto& s : f.slots) {
    nlohmann::json x = {{"id", s.id}, {"busy", s.busy}, {"n_ctx", s.n_ctx}};
    put_frame(x, "prompt_tokens", s.prompt_tokens);
    put_frame(x, "prompt_processed", s.prompt_processed);
    put_frame(x, "prompt_cached", s.prompt_cached);
    put_frame(x, "decoded", s.decoded);
    put_frame(x, "remaining", s.remaining);
    j["slots"].push_back(x);
  }
  j["gpu"] = {{"source", f.gpu_source}, {"note", f.gpu_note}, {"gpus", nlohmann::json::array()}};
  for (const auto& g : f.gpus) {
    nlohmann::json x = {{"index", g.index}, {"name", g.name}, {"throttle", g.throttle}};
    put_frame(x, "sm_clock_mhz", g.sm_clock_mhz);
    put_frame(x, "max_sm_clock_mhz", g.max_sm_clock_mhz);
    put_frame(x, "power_w", g.power_w);
    put_frame(x, "power_limit_w", g.power_limit_w);
    put_frame(x, "temp_c", g.temp_c);
    put_frame(x, "util", g.util);
    put_frame(x, "mem_used_gib", g.mem_used_gib);
    put_frame(x, "mem_total_gib", g.mem_total_gib);
    j["gpu"]["gpus"].push_back(x);
  }
  j["layers"] = nlohmann::json::array();
  for (const auto& l : f.layers) {
    j["layers"].push_back({{"layer", l.layer}, {"state", l.state}, {"text", l.text}});
    if (!l.fix.empty()) j["layers"].back()["fix"] = l.fix;
  }
  j["layers_age_s"] = f.layers_age_s;
  j["paused"] = f.paused;
  if (!f.message.empty()) j["message"] = f.message;
  return j;
}

}  // namespace llmtriage::collect
