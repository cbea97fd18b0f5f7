// The timeline's readings before drawing (html_timeline_data.h).
#include "report/html_timeline_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "ingest/metrics_quantile.h"

namespace llmtriage::report::timeline {
namespace {

// One reading per scrape: samples at the same instant (several models or data-parallel engines)
// summed (gauges of requests, counters) or maxed (KV usage).
struct Agg {
  double t = 0;
  std::optional<double> running, waiting, kv, preempt, prompt_total, gen_total, prompt_rate, gen_rate, finished_total;
  std::optional<double> kv_capacity, kv_used;  // tokens: the pool, and usage x pool
  core::Histogram ttft, queue, prefill, prompt_len, output_len;
};

void add(std::optional<double>& into, const std::optional<double>& v) {
  if (v) into = into.value_or(0) + *v;
}

// Bucket-wise sum (data-parallel engines of one scrape); another bucket layout keeps the first.
void add(core::Histogram& into, const core::Histogram& h) {
  if (h.empty()) return;
  if (into.empty()) {
    into = h;
    return;
  }
  if (into.upper_bounds != h.upper_bounds) return;
  for (size_t i = 0; i < h.cumulative_counts.size(); ++i) into.cumulative_counts[i] += h.cumulative_counts[i];
  into.sum += h.sum;
  into.count += h.count;
}

std::vector<Agg> aggregate(std::vector<core::EngineSample> samples) {
  std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.t_s < b.t_s; });
  std::vector<Agg> out;
  for (const auto& s : samples) {
    if (out.empty() || out.back().t != s.t_s) {
      out.emplace_back();
      out.back().t = s.t_s;
    }
    Agg& a = out.back();
    add(a.running, s.running);
    add(a.waiting, s.waiting);
    if (s.kv_usage) a.kv = std::max(a.kv.value_or(0), *s.kv_usage);
    add(a.preempt, s.preemptions_total);
    add(a.prompt_total, s.prompt_tokens_total);
    add(a.gen_total, s.generation_tokens_total);
    add(a.prompt_rate, s.prompt_throughput_tok_s);
    add(a.gen_rate, s.generation_throughput_tok_s);
    add(a.ttft, s.ttft_s);
    add(a.queue, s.queue_s);
    add(a.prefill, s.prefill_s);
    add(a.prompt_len, s.prompt_tokens);
    add(a.output_len, s.output_tokens);
    add(a.finished_total, s.requests_finished_total);
    add(a.kv_capacity, s.kv_cache_capacity_tokens);
    if (s.kv_usage && s.kv_cache_capacity_tokens) add(a.kv_used, *s.kv_usage * *s.kv_cache_capacity_tokens);
  }
  return out;
}

// A mean over the interval from a histogram's difference: sum / count; none across a reset or
// an interval without an observation.
std::optional<double> mean_between(const core::Histogram& now, const core::Histogram& before) {
  if (now.empty() || before.empty()) return std::nullopt;
  const double dc = now.count - before.count, ds = now.sum - before.sum;
  if (dc <= 0 || ds < 0) return std::nullopt;
  return ds / dc;
}

// NVML's clocks-event reasons that hold the clock below what the load asks for (gpu_throttle.cpp
// decodes them); idle, application clocks and sync boost are not a limit.
bool limiting(const std::string& reason) {
  return reason == "sw_power_cap" || reason == "hw_slowdown" || reason == "sw_thermal_slowdown" ||
         reason == "hw_thermal_slowdown" || reason == "hw_power_brake_slowdown";
}


// Which of the timeline's per-reading series a finding's indicator is judged on. The diagnosis
// reads a window statistic (waiting's median, KV usage's maximum); its onset on the timeline is
// the first single reading that crosses the same threshold: when the condition first showed, not
// when the window's statistic settled. "@..." series are derived here (preemptions per second
// over each scrape interval; SM clock / max and power / limit per GPU reading). Indicators with no
// per-reading series (log events, settings, request counts) get no onset.
struct OnsetSource {
  const char* indicator;
  const char* series;
};
constexpr OnsetSource kOnsetSources[] = {
    {"waiting", "waiting"},         {"waiting_p50", "waiting"},       {"waiting_max", "waiting"},
    {"running", "running"},         {"running_max", "running"},       {"kv_usage", "kv_usage"},
    {"kv_usage_max", "kv_usage"},   {"kv_usage_mean", "kv_usage"},    {"ttft_p99_s", "ttft_p99"},
    {"ttft_p50_s", "ttft_p50"},     {"preemptions_per_s", "@preempt_rate"},
    {"clock_ratio", "@clock_ratio"}, {"power_ratio", "@power_ratio"},
};

bool crosses(double v, const std::string& op, double th) {
  if (op == ">") return v > th;
  if (op == ">=") return v >= th;
  if (op == "<") return v < th;
  if (op == "<=") return v <= th;
  return false;
}

// (t, value) pairs of a series, or of a derived one.
std::vector<std::pair<double, double>> readings_of(const Built& b, const std::string& id) {
  std::vector<std::pair<double, double>> out;
  if (id == "@preempt_rate") return b.preempt_rate;
  if (id == "@clock_ratio" || id == "@power_ratio") {
    const bool clock = id == "@clock_ratio";
    for (const auto& s : b.series) {
      const std::string suffix = clock ? "_sm_clock" : "_power";
      if (s.id.size() <= suffix.size() || s.id.compare(s.id.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
      const std::string limit_id = s.id.substr(0, s.id.size() - suffix.size()) + (clock ? "_max_sm_clock" : "_power_limit");
      for (const auto& l : b.series) {
        if (l.id != limit_id) continue;
        std::map<double, double> lim;
        for (size_t i = 0; i < l.t.size(); ++i) lim[l.t[i]] = l.v[i];
        for (size_t i = 0; i < s.t.size(); ++i)
          if (auto it = lim.find(s.t[i]); it != lim.end() && it->second > 0) out.emplace_back(s.t[i], s.v[i] / it->second);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  for (const auto& s : b.series)
    if (s.id == id)
      for (size_t i = 0; i < s.t.size(); ++i) out.emplace_back(s.t[i], s.v[i]);
  return out;
}

// Each watched finding's onset: the first instant at which every one of its conditions that has a
// per-reading series holds at once (each series read as a step: its latest reading at or before
// that instant). A finding's conditions are conjunctive (the scheduling rule needs a queue AND
// room in the KV pool AND the batch at its cap), so one reading alone would date it too early.
// A finding needs at least one rising condition (> or >=) or a clock drop among them: a "<"
// alone on the queue or the KV pool is context (room to spare), true from an idle start.
// A finding whose readings never meet its conditions together gets no mark (its window statistic
// crossed, no single instant did: e.g. a median over a burst).
void add_onsets(const TimelineData& tl, Built& b) {
  struct Cond {
    const TimelineData::Watch* w;
    const OnsetSource* src;
    std::vector<std::pair<double, double>> pts;
  };
  std::vector<std::string> order;
  std::map<std::string, std::vector<Cond>> by_finding;
  for (const auto& w : tl.watches) {
    if (!by_finding.count(w.finding)) order.push_back(w.finding);
    auto& conds = by_finding[w.finding];
    for (const auto& o : kOnsetSources)
      if (w.indicator == o.indicator) {
        auto pts = readings_of(b, o.series);
        if (!pts.empty()) conds.push_back({&w, &o, std::move(pts)});
      }
  }
  auto label_of = [&](const std::string& id) {
    if (id == "@preempt_rate") return std::string("preemptions/s");
    if (id == "@clock_ratio") return std::string("SM clock / max");
    if (id == "@power_ratio") return std::string("power / limit");
    for (const auto& x : b.series)
      if (x.id == id) return x.label;
    return id;
  };
  for (const auto& finding : order) {
    const auto& conds = by_finding[finding];
    const bool rising = std::any_of(conds.begin(), conds.end(), [](const Cond& c) {
      return c.w->op == ">" || c.w->op == ">=" || std::string(c.src->series) == "@clock_ratio";
    });
    if (conds.empty() || !rising) continue;
    std::vector<double> times;
    for (const auto& c : conds)
      for (const auto& [t, v] : c.pts) times.push_back(t);
    std::sort(times.begin(), times.end());
    for (double t : times) {
      bool all = true;
      std::string readings;
      for (const auto& c : conds) {
        auto it = std::upper_bound(c.pts.begin(), c.pts.end(), t, [](double x, const std::pair<double, double>& p) { return x < p.first; });
        if (it == c.pts.begin() || !std::isfinite(std::prev(it)->second) || !crosses(std::prev(it)->second, c.w->op, c.w->threshold)) {
          all = false;
          break;
        }
        readings += fmt::format("{}{} {} {:.4g} (it read {:.4g})", readings.empty() ? "" : ", ", label_of(c.src->series), c.w->op,
                                c.w->threshold, std::prev(it)->second);
      }
      if (!all) continue;
      b.marks.push_back({t, "onset", finding, finding + " begins: the first reading with " + readings});
      break;
    }
  }
}

}  // namespace

Built build(const TimelineData& tl) {
  Built b;
  const auto agg = aggregate(tl.engine);
  double t0 = INFINITY, t1 = -INFINITY;
  for (const auto& a : agg) t0 = std::min(t0, a.t), t1 = std::max(t1, a.t);
  for (const auto& g : tl.gpu) t0 = std::min(t0, g.t_s), t1 = std::max(t1, g.t_s);
  for (const auto& s : tl.slots) t0 = std::min(t0, s.t_s), t1 = std::max(t1, s.t_s);
  if (!std::isfinite(t0)) return b;
  b.t0 = t0;
  b.t1 = t1 - t0;

  std::map<int, std::vector<const core::GpuSample*>> by_gpu;
  for (const auto& g : tl.gpu) by_gpu[g.index].push_back(&g);
  constexpr size_t kFixedSeries = 17, kPerGpu = 4;  // the series() calls below: their references must stay valid
  b.series.reserve(kFixedSeries + kPerGpu * by_gpu.size());
  auto series = [&](std::string id, std::string label, std::string lane, std::string unit, std::string cls) -> Series& {
    if (b.series.size() == b.series.capacity()) throw std::logic_error("timeline: more series than reserved (kFixedSeries)");
    b.series.push_back(Series{std::move(id), std::move(label), std::move(lane), std::move(unit), std::move(cls), {}, {}});
    return b.series.back();
  };
  Series& ttft50 = series("ttft_p50", "TTFT p50", "latency", "s", "s0");
  Series& ttft99 = series("ttft_p99", "TTFT p99", "latency", "s", "s1");
  Series& running = series("running", "running", "requests", "requests", "s0");
  Series& waiting = series("waiting", "waiting", "requests", "requests", "s1");
  Series& busy = series("slots_busy", "slots busy", "requests", "requests", "s2");
  Series& in_flight = series("client_in_flight", "client in flight", "requests", "requests", "s3");
  Series& total = series("slots_total", "slots", "requests", "requests", "limit");
  Series& kv = series("kv_usage", "KV usage", "kv", "fraction", "s0");
  Series& prompt = series("prompt_tok_s", "prompt tok/s", "tokens", "tok/s", "s0");
  Series& gen = series("generation_tok_s", "generation tok/s", "tokens", "tok/s", "s1");
  Series& queue = series("ttft_queue_mean", "queue", "ttft_parts", "s", "s0");
  Series& prefill = series("ttft_prefill_mean", "prefill", "ttft_parts", "s", "s2");
  Series& server = series("ttft_server_mean", "rest of the server's TTFT", "ttft_parts", "s", "s4");
  Series& gateway = series("ttft_client_minus_server", "client/gateway (client - server)", "ttft_parts", "s", "s1");
  Series& capacity = series("kv_capacity_tokens", "KV pool", "kv_demand", "tokens", "limit");
  Series& used = series("kv_used_tokens", "KV in use", "kv_demand", "tokens", "s0");
  Series& demand = series("kv_demand_tokens", "KV demand", "kv_demand", "tokens", "s1");
  // Each request's first token on the scrapes' clock, for the client's mean TTFT per interval.
  std::vector<std::pair<double, double>> firsts;  // (t of first token since t0, TTFT)
  for (const auto& r : tl.requests)
    if (std::isfinite(r.ttft_s)) firsts.emplace_back(r.sent_unix_s + r.ttft_s - t0, r.ttft_s);
  std::sort(firsts.begin(), firsts.end());
  std::optional<double> len_prompt, len_output;  // the last interval's mean lengths, carried forward
  auto push = [&](Series& s, double t, const std::optional<double>& v) {
    if (v && std::isfinite(*v)) s.t.push_back(t - t0), s.v.push_back(*v);
  };
  for (size_t i = 0; i < agg.size(); ++i) {
    const Agg& a = agg[i];
    push(running, a.t, a.running);
    push(waiting, a.t, a.waiting);
    push(kv, a.t, a.kv);
    if (i == 0) continue;
    const Agg& p = agg[i - 1];
    const double dt = a.t - p.t;
    // A counter that went down is an engine restart: no rate across it.
    auto rate = [&](const std::optional<double>& now, const std::optional<double>& before) -> std::optional<double> {
      if (!now || !before || dt <= 0 || *now < *before) return std::nullopt;
      return (*now - *before) / dt;
    };
    push(prompt, a.t, a.prompt_rate ? a.prompt_rate : rate(a.prompt_total, p.prompt_total));
    push(gen, a.t, a.gen_rate ? a.gen_rate : rate(a.gen_total, p.gen_total));
    // Windowed quantiles as PromQL computes them: histogram_quantile over the difference of two
    // scrapes; none across a reset or an interval without a first token.
    if (!a.ttft.empty() && !p.ttft.empty()) {
      bool reset = false;
      const core::Histogram d = ingest::histogram_delta(a.ttft, p.ttft, &reset);
      if (!reset && d.count > 0) {
        const double q50 = ingest::histogram_quantile(0.5, d).value, q99 = ingest::histogram_quantile(0.99, d).value;
        if (std::isfinite(q50)) push(ttft50, a.t, q50);
        if (std::isfinite(q99)) push(ttft99, a.t, q99);
      }
    }
    if (a.preempt && p.preempt && *a.preempt > *p.preempt) {
      b.preemptions.emplace_back(a.t - t0, *a.preempt - *p.preempt);
      if (dt > 0) b.preempt_rate.emplace_back(a.t - t0, (*a.preempt - *p.preempt) / dt);
    }
    // A restart: any counter lower than at the previous scrape.
    const auto down = [](const std::optional<double>& n, const std::optional<double>& o) { return n && o && *n < *o; };
    if (down(a.prompt_total, p.prompt_total) || down(a.gen_total, p.gen_total) || down(a.preempt, p.preempt) ||
        down(a.finished_total, p.finished_total) || (!a.ttft.empty() && !p.ttft.empty() && a.ttft.count < p.ttft.count))
      b.restarts.push_back(a.t - t0);
    // TTFT in parts: the server's histograms' means over the interval, the client's mean over the
    // requests whose first token came in it.
    TtftParts part{p.t - t0, a.t - t0, mean_between(a.queue, p.queue), mean_between(a.prefill, p.prefill),
                   mean_between(a.ttft, p.ttft), std::nullopt};
    {
      auto lo = std::upper_bound(firsts.begin(), firsts.end(), std::make_pair(part.from, std::numeric_limits<double>::infinity()));
      double sum = 0;
      int n = 0;
      for (auto it = lo; it != firsts.end() && it->first <= part.to; ++it) sum += it->second, ++n;
      if (n > 0) part.client = sum / n;
    }
    push(queue, a.t, part.queue);
    push(prefill, a.t, part.prefill);
    push(server, a.t, part.server);
    if (part.client && part.server) push(gateway, a.t, *part.client - *part.server);
    if (part.queue || part.prefill || (part.client && part.server)) b.parts.push_back(part);
    // KV demand: what the requests in the engine would hold at their full length.
    if (auto m = mean_between(a.prompt_len, p.prompt_len)) len_prompt = m;
    if (auto m = mean_between(a.output_len, p.output_len)) len_output = m;
    if (len_prompt && (a.running || a.waiting))
      push(demand, a.t, (a.running.value_or(0) + a.waiting.value_or(0)) * (*len_prompt + len_output.value_or(0)));
  }
  for (const auto& a : agg) {
    push(capacity, a.t, a.kv_capacity);
    push(used, a.t, a.kv_used);
  }
  // Failed requests per scrape interval (prev, this], at the time each failed.
  if (agg.size() >= 2) {
    std::map<double, FailedIn> by_end;
    for (const auto& f : tl.failures) {
      const double t = f.sent_unix_s + f.failed_after_s.value_or(0);
      auto it = std::lower_bound(agg.begin(), agg.end(), t, [](const Agg& x, double v) { return x.t < v; });
      if (it == agg.begin() && t == agg.front().t) ++it;  // the first scrape's instant: the first interval
      if (it == agg.begin() || it == agg.end()) {
        ++b.failures_outside;
        continue;
      }
      FailedIn& slot = by_end[it->t];
      slot.from = std::prev(it)->t - t0;
      slot.to = it->t - t0;
      if (f.category.find("timeout") != std::string::npos) ++slot.timeouts;
      else ++slot.errors;
    }
    for (const auto& [t, f] : by_end) b.failed.push_back(f);
  }
  // The client's requests in flight at each scrape: sent and not yet answered (sent + E2E) or
  // failed (sent + failed_after). Above running + waiting, the difference is held between the
  // client and the engine: a gateway's queue, the network, or a router. Only with E2E on the records.
  if (std::any_of(tl.requests.begin(), tl.requests.end(), [](const TimelineData::RequestTtft& r) { return r.e2e_s.has_value(); })) {
    std::vector<std::pair<double, int>> edges;  // (unix s, +1 sent / -1 done)
    for (const auto& r : tl.requests)
      if (r.e2e_s && std::isfinite(*r.e2e_s)) edges.insert(edges.end(), {{r.sent_unix_s, +1}, {r.sent_unix_s + *r.e2e_s, -1}});
    for (const auto& f : tl.failures) edges.insert(edges.end(), {{f.sent_unix_s, +1}, {f.sent_unix_s + f.failed_after_s.value_or(0), -1}});
    std::sort(edges.begin(), edges.end());  // at one instant, a -1 before a +1: done before sent
    size_t k = 0;
    int open = 0;
    for (const auto& a : agg) {
      for (; k < edges.size() && edges[k].first <= a.t; ++k) open += edges[k].second;
      push(in_flight, a.t, static_cast<double>(open));
    }
  }
  for (const auto& s : tl.slots) {
    push(busy, s.t_s, static_cast<double>(s.busy));
    push(total, s.t_s, static_cast<double>(s.total));
  }
  int k = 0;
  for (const auto& [idx_, gs] : by_gpu) {
    const int idx = idx_;  // a copy: clang 14 cannot capture structured bindings
    const std::string n = fmt::format("GPU {}", idx), cls = fmt::format("s{}", k++ % 4);
    Series& clock = series(fmt::format("gpu{}_sm_clock", idx), n + " SM clock", "clock", "MHz", cls);
    Series& maxc = series(fmt::format("gpu{}_max_sm_clock", idx), n + " max SM clock", "clock", "MHz", "limit");
    Series& power = series(fmt::format("gpu{}_power", idx), n + " power", "power", "W", cls);
    Series& limit = series(fmt::format("gpu{}_power_limit", idx), n + " power limit", "power", "W", "limit");
    for (size_t i = 0; i < gs.size(); ++i) {
      const auto* g = gs[i];
      // A band from this reading to the next while a limiting reason is active.
      const double to = (i + 1 < gs.size() ? gs[i + 1]->t_s : g->t_s) - t0;
      for (const auto& reason : g->throttle_names)
        if (limiting(reason)) {
          auto open = std::find_if(b.bands.rbegin(), b.bands.rend(), [&](const ThrottleBand& x) {
            return x.gpu == idx && x.reason == reason && x.to >= g->t_s - t0 - 1e-9;
          });
          if (open != b.bands.rend()) open->to = std::max(open->to, to);
          else b.bands.push_back({g->t_s - t0, to, idx, reason});
        }
      push(clock, g->t_s, g->sm_clock_mhz);
      push(maxc, g->t_s, g->max_sm_clock_mhz);
      push(power, g->t_s, g->power_w);
      push(limit, g->t_s, g->power_limit_w);
    }
  }
  std::erase_if(b.series, [](const Series& s) { return s.t.empty(); });
  for (const auto& r : tl.requests) {
    const double t = r.sent_unix_s - t0;
    if (t >= 0 && t <= b.t1 && std::isfinite(r.ttft_s)) b.requests.push_back({t, r.ttft_s});
  }
  std::sort(b.requests.begin(), b.requests.end(), [](const Point& a, const Point& c) { return a.x < c.x; });
  add_onsets(tl, b);
  if (tl.snapshot_unix_s) {
    const double t = *tl.snapshot_unix_s - t0;
    if (t >= -1 && t <= b.t1 + 1)  // a snapshot taken a second after its last scrape is still this run's
      b.marks.push_back({std::clamp(t, 0.0, b.t1), "snapshot", "snapshot", "the snapshot was taken " + fmt::format("{:.4g} s", t) + " after the first reading"});
  }
  std::sort(b.marks.begin(), b.marks.end(), [](const Mark& x, const Mark& y) { return x.t < y.t; });
  return b;
}

}  // namespace llmtriage::report::timeline
