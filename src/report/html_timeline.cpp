// The correlated timeline: stacked lanes sharing one time axis (seconds since the first reading)
// — requests running and waiting (and llama.cpp slots busy), KV usage with preemption ticks,
// prompt and generation tok/s from counter differences, SM clock against its maximum and power
// against its limit per GPU. A lane with no data is left out and the notes say why.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <optional>

#include "ingest/metrics_quantile.h"
#include "report/diagnose_format.h"
#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

struct Series {
  std::string id, label, lane, unit, cls;
  std::vector<double> t, v;  // t: seconds since t0
};

struct Lane {
  std::string id, title, unit;
  bool unit_interval = false;  // a 0..1 fraction: the axis is 0..100%
  // The tick labels carry the unit only where it is short ("40%"); else the title says it.
  std::string axis_unit() const { return unit == "fraction" || unit == "s" ? unit : ""; }
};

const std::vector<Lane>& lanes() {
  static const std::vector<Lane> l = {
      {"latency", "TTFT per scrape interval, p50 and p99 (server histogram)", "s", false},
      {"ttft_parts", "TTFT decomposed, mean per scrape interval: queue, prefill, rest of the server, client/gateway", "s", false},
      {"requests", "Requests: running, waiting", "requests", false},
      {"kv", "KV cache usage (ticks: preemptions)", "fraction", true},
      {"kv_demand", "KV demand against the pool, tokens: (running + waiting) × mean prompt + output length (ticks: preemptions)", "tokens", false},
      {"tokens", "Throughput from counter differences, tok/s", "tok/s", false},
      {"clock", "GPU SM clock against its maximum, MHz", "MHz", false},
      {"power", "GPU power against its limit, W", "W", false},
      {"events", "Events: restarts, failed requests per scrape interval", "requests", false},
  };
  return l;
}

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

// One scrape interval's TTFT in parts (seconds, means over the requests whose first token came in
// the interval): means add up where quantiles do not.
struct TtftParts {
  double from = 0, to = 0;  // seconds since t0
  std::optional<double> queue, prefill, server, client;
};

// Failed requests in one scrape interval.
struct FailedIn {
  double from = 0, to = 0;
  int errors = 0, timeouts = 0;
};

// A limiting throttle reason active on a GPU over [from, to].
struct ThrottleBand {
  double from = 0, to = 0;
  int gpu = 0;
  std::string reason;
};

struct Built {
  std::vector<Series> series;
  std::vector<std::pair<double, double>> preemptions;  // (t, count)
  std::vector<std::pair<double, double>> preempt_rate; // (t, preemptions/s over the interval before t)
  std::vector<Point> requests;                         // (t since t0, TTFT s), sorted by t, inside [0, t1]
  std::vector<TtftParts> parts;                        // intervals with at least one part
  std::vector<FailedIn> failed;                        // intervals with a failed request
  std::vector<double> restarts;                        // t: a counter went down since the previous scrape
  std::vector<ThrottleBand> bands;
  int failures_outside = 0;                            // failed requests outside the readings' time range
  double t0 = 0, t1 = 0;
};

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
  b.series.reserve(16 + 4 * by_gpu.size());  // the references below stay valid
  auto series = [&](std::string id, std::string label, std::string lane, std::string unit, std::string cls) -> Series& {
    b.series.push_back(Series{std::move(id), std::move(label), std::move(lane), std::move(unit), std::move(cls), {}, {}});
    return b.series.back();
  };
  Series& ttft50 = series("ttft_p50", "TTFT p50", "latency", "s", "s0");
  Series& ttft99 = series("ttft_p99", "TTFT p99", "latency", "s", "s1");
  Series& running = series("running", "running", "requests", "requests", "s0");
  Series& waiting = series("waiting", "waiting", "requests", "requests", "s1");
  Series& busy = series("slots_busy", "slots busy", "requests", "requests", "s2");
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
  return b;
}

// "2026-12-04 03:47:12 UTC"; a small value is a log's relative clock, said as such.
std::string utc(double unix_s) {
  if (unix_s < 1e8) return fmt::format("{:g} s on the source's own clock", unix_s);
  const std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// The height of one interval's stack: queue, prefill, the rest of the server's TTFT, and what the
// client saw beyond the server.
struct Stack {
  double queue = 0, prefill = 0, rest = 0, gateway = 0;
};
Stack stack_of(const TtftParts& p) {
  Stack k;
  k.queue = p.queue.value_or(0);
  k.prefill = p.prefill.value_or(0);
  if (p.server) k.rest = std::max(0.0, *p.server - k.queue - k.prefill);
  if (p.server && p.client) k.gateway = std::max(0.0, *p.client - *p.server);
  return k;
}
double stack_top(const TtftParts& p) {
  const Stack k = stack_of(p);
  return k.queue + k.prefill + k.rest + k.gateway;
}

void draw_parts(Svg& svg, const Built& b, const Scale& sx, const Scale& sy) {
  struct Seg {
    const char* id;
    const char* cls;
    const char* what;
    double Stack::*v;
  };
  static const Seg segs[] = {{"ttft_queue_mean", "s0", "queue", &Stack::queue},
                             {"ttft_prefill_mean", "s2", "prefill", &Stack::prefill},
                             {"ttft_server_mean", "s4", "rest of the server's TTFT", &Stack::rest},
                             {"ttft_client_minus_server", "s1", "client/gateway", &Stack::gateway}};
  for (const auto& seg : segs) {
    svg.open_group(std::string("bars ") + seg.cls, fmt::format("data-series=\"{}\"", seg.id));
    for (const auto& p : b.parts) {
      const Stack k = stack_of(p);
      double base = 0;
      for (const auto& below : segs) {
        if (below.id == seg.id) break;
        base += k.*(below.v);
      }
      const double v = k.*(seg.v);
      if (v <= 0) continue;
      const double x0 = sx(p.from) + 0.5, x1 = std::max(sx(p.to) - 0.5, x0 + 1);
      const double y1 = sy(std::min(base, sy.d1)), y0 = sy(std::min(base + v, sy.d1));
      svg.rect(x0, y0, x1 - x0, std::max(y1 - y0, 0.5), "bar");
      svg.title(fmt::format("{} to {}: {} {}", format_value(p.from, "s"), format_value(p.to, "s"), seg.what, format_value(v, "s")));
    }
    svg.close_group();
  }
}

// Failed requests per interval as stacked bars (errors, then timeouts), restarts as lines across.
void draw_events(Svg& svg, const Built& b, const Scale& sx, const Scale& sy, const Frame& f) {
  for (const auto& e : b.failed) {
    const double x0 = sx(e.from) + 0.5, x1 = std::max(sx(e.to) - 0.5, x0 + 1.5);
    const std::string tip = fmt::format("{} to {}: {} error(s), {} timeout(s)", format_value(e.from, "s"), format_value(e.to, "s"),
                                        e.errors, e.timeouts);
    svg.open_group("event-bar");
    svg.title(tip);
    if (e.errors > 0) svg.rect(x0, sy(e.errors), x1 - x0, sy(0) - sy(e.errors), "ev-error");
    if (e.timeouts > 0) svg.rect(x0, sy(e.errors + e.timeouts), x1 - x0, sy(e.errors) - sy(e.errors + e.timeouts), "ev-timeout");
    svg.close_group();
  }
  for (double t : b.restarts) {
    svg.open_group("restart");
    svg.title("restart before " + format_value(t, "s") + ": a counter went down since the previous scrape");
    svg.line(sx(t), f.top, sx(t), f.bottom(), "restart-line");
    svg.text(sx(t) + 3, f.top + 10, "restart", "restart-label");
    svg.close_group();
  }
}

constexpr size_t kMaxDots = 1500;
constexpr double kWidth = 1100, kLeft = 72, kRight = 24, kLaneTop = 8, kLaneHeight = 96, kAxisBelow = 30;

// `slo`: a horizontal line on the latency lane, drawn when the data reaches a quarter of it (else
// it would flatten the readings; the legend says where it is).
std::string draw_lane(const Lane& lane, const std::vector<const Series*>& ss, const Built& b, bool last,
                      std::optional<double> slo) {
  const double height = kLaneTop + kLaneHeight + (last ? kAxisBelow : 8);
  Frame f{kLeft, kLaneTop, kWidth - kLeft - kRight, kLaneHeight};
  Scale sx{0, std::max(b.t1, 1e-9), f.left, f.right()};
  double ymax = lane.unit_interval ? 1.0 : 0.0;
  for (const auto* s : ss)
    for (double v : s->v) ymax = std::max(ymax, v);
  if (lane.id == "ttft_parts") {  // the stacks' heights (a negative client - server adds nothing)
    ymax = 0;
    for (const auto& p : b.parts) ymax = std::max(ymax, stack_top(p));
  }
  if (lane.id == "events") {
    ymax = 1;
    for (const auto& e : b.failed) ymax = std::max(ymax, static_cast<double>(e.errors + e.timeouts));
  }
  const bool dots = lane.id == "latency" && !b.requests.empty();
  if (dots)
    for (const auto& r : b.requests) ymax = std::max(ymax, r.y);
  if (lane.id != "latency") slo.reset();
  const bool slo_drawn = slo && ymax >= *slo / 4;
  if (slo_drawn) ymax = std::max(ymax, *slo);
  const Range yr = lane.unit_interval ? Range{0, 1} : nice_range(0, ymax, 4);
  Scale sy{yr.lo, yr.hi, f.bottom(), f.top};
  Svg svg(kWidth, height, "chart lane", lane.title);
  // What the JS needs to map the pointer to a time (the same for every lane).
  svg.open_group("lane-frame", fmt::format("data-lane=\"{}\" data-left=\"{}\" data-width=\"{}\" data-top=\"{}\" data-height=\"{}\" "
                                          "data-t1=\"{}\"",
                                          lane.id, px(f.left), px(f.width), px(f.top), px(f.height), b.t1));
  y_axis(svg, f, sy, nice_ticks(yr.lo, yr.hi, 4), lane.axis_unit());
  const auto xt = nice_ticks(0, b.t1, 10);
  svg.open_group("x-ticks");  // hidden by report.js while zoomed: it draws the zoomed range's own
  if (last) {
    x_axis(svg, f, sx, xt, "s");
  } else {
    svg.line(f.left, f.bottom(), f.right(), f.bottom(), "axis");
    for (double t : xt) svg.line(sx(t), f.top, sx(t), f.bottom(), "grid");
    // The time labels the page shows under the last lane only; a lane exported alone (--svg)
    // shows its own (report.css hides them on the page).
    svg.open_group("x-labels-hidden");
    for (double t : xt) svg.text(sx(t), f.bottom() + 16, tick_label(t, "s"), "tick", "middle");
    svg.close_group();
  }
  svg.close_group();
  // The readings, clipped to the frame: report.js stretches this group to zoom into a time range.
  svg.clip_rect("clip-" + lane.id, f.left, f.top - 1, f.width, f.height + 2);
  svg.open_group("plot-clip", fmt::format("clip-path=\"url(#clip-{})\"", lane.id));
  svg.open_group("plot");
  // Each request's TTFT at the time it was sent, under the lines: a dot each up to kMaxDots, else
  // one stroke per pixel column from the lowest to the highest (the envelope, not every request).
  if (dots) {
    svg.open_group("requests", "data-series=\"request_ttft\"");
    std::vector<Point> pts;
    for (const auto& r : b.requests) pts.push_back({sx(r.x), sy(std::min(r.y, yr.hi))});
    if (pts.size() <= kMaxDots) {
      for (size_t i = 0; i < pts.size(); ++i)
        svg.circle(pts[i].x, pts[i].y, 1.6, "req-dot", {},
                   fmt::format("request sent at {}: TTFT {}", format_value(b.requests[i].x, "s"), format_value(b.requests[i].y, "s")));
    } else {
      const auto keep = decimate_minmax_indices(pts);
      for (size_t k = 0; k < keep.size();) {
        double lo = pts[keep[k]].y, hi = lo;
        const double col = std::floor(pts[keep[k]].x);
        size_t j = k;
        for (; j < keep.size() && std::floor(pts[keep[j]].x) == col; ++j)
          lo = std::min(lo, pts[keep[j]].y), hi = std::max(hi, pts[keep[j]].y);
        svg.line(col + 0.5, hi - 0.8, col + 0.5, lo + 0.8, "req-range");
        k = j;
      }
    }
    svg.close_group();
  }
  // Throttle-reason bands under the clock lines: one translucent band per GPU and reason.
  if (lane.id == "clock")
    for (const auto& band : b.bands) {
      const double x0 = sx(band.from), x1 = std::max(sx(band.to), x0 + 2);
      svg.open_group("throttle-band " + band.reason);
      svg.title(fmt::format("GPU {}: {} from {} to {}", band.gpu, band.reason, format_value(band.from, "s"), format_value(band.to, "s")));
      svg.rect(x0, f.top, x1 - x0, f.height, "band");
      if (x1 - x0 > 60) svg.text(x0 + 3, f.top + 11, fmt::format("GPU {} {}", band.gpu, band.reason), "band-label");
      svg.close_group();
    }
  if (lane.id == "ttft_parts") draw_parts(svg, b, sx, sy);
  if (lane.id == "events") draw_events(svg, b, sx, sy, f);
  // Limits (dashed) first, so the readings are drawn over them.
  std::vector<const Series*> order = ss;
  if (lane.id == "ttft_parts") order.clear();  // drawn as stacks above
  std::stable_partition(order.begin(), order.end(), [](const Series* s) { return s->cls == "limit"; });
  for (const auto* s : order) {
    std::vector<Point> pts;
    for (size_t i = 0; i < s->t.size(); ++i) pts.push_back({sx(s->t[i]), sy(std::min(s->v[i], yr.hi))});
    const std::string attrs = fmt::format("data-series=\"{}\"", s->id);
    svg.polyline(decimate_minmax(pts), "line " + s->cls, attrs);
    if (pts.size() <= 80) {
      svg.open_group("dots " + s->cls, attrs);
      for (size_t i = 0; i < pts.size(); ++i)
        svg.circle(pts[i].x, pts[i].y, 2.2, "dot", {},
                   fmt::format("{} {} at {}", s->label, format_value(s->v[i], s->unit), format_value(s->t[i], "s")));
      svg.close_group();
    }
  }
  if (slo_drawn) {
    svg.line(f.left, sy(*slo), f.right(), sy(*slo), "slo");
    svg.text(f.right() - 2, sy(*slo) - 3, "SLO " + format_value(*slo, "s"), "slo-label", "end");
  }
  if (lane.id == "kv" || lane.id == "kv_demand")
    for (const auto& [t, n] : b.preemptions) {
      svg.line(sx(t), f.top, sx(t), f.top + 10, "preempt");
      svg.circle(sx(t), f.top + 3, 3, "preempt-dot", {}, fmt::format("{:g} preemption(s) before {}", n, tick_label(t, "s")));
    }
  svg.close_group();
  svg.close_group();
  svg.open_group("zoom-ticks");  // filled by report.js while zoomed
  svg.close_group();
  svg.line(f.left, f.top, f.left, f.bottom(), "crosshair", "visibility=\"hidden\"");  // moved by report.js
  std::string legend;
  for (const auto* s : ss) legend += legend_item(s->id, s->cls, s->label);
  if (dots) legend += legend_item("request_ttft", "req", fmt::format("each request's TTFT ({} sent)", b.requests.size()));
  if ((lane.id == "kv" || lane.id == "kv_demand") && !b.preemptions.empty()) {
    double peak = 0;
    for (const auto& [t, r] : b.preempt_rate) peak = std::max(peak, r);
    legend += fmt::format("<span class=\"legend-note\">▮ preemptions (peak {:.3g}/s)</span>", peak);
  }
  if (lane.id == "events") {
    if (!b.restarts.empty()) legend += "<span class=\"legend-note\">| restart (a counter went down)</span>";
    legend += "<span class=\"legend-hint\"><span class=\"swatch-box ev-error\"></span>errors <span class=\"swatch-box ev-timeout\"></span>timeouts</span>";
  }
  if (lane.id == "clock" && !b.bands.empty()) legend += "<span class=\"legend-hint\"><span class=\"swatch-box band-swatch\"></span>a limiting throttle reason active</span>";
  if (slo && !slo_drawn) legend += "<span class=\"legend-note\">SLO " + format_value(*slo, "s") + ": far above these readings</span>";
  else if (slo) legend += "<span class=\"legend-note\">- - SLO " + format_value(*slo, "s") + "</span>";
  return fmt::format("<div class=\"lane\" id=\"lane-{}\"><div class=\"lane-head\"><span class=\"lane-title\">{}</span>{}</div>\n{}\n</div>\n",
                     lane.id, html_text(lane.title), legend, svg.finish());
}

}  // namespace

ChartOut timeline_chart(const TimelineData& tl, std::optional<double> ttft_slo_s, std::vector<std::string>& notes) {
  ChartOut out;
  const Built b = build(tl);
  if (b.series.empty()) {
    notes.push_back("timeline: no engine or GPU readings in " + (tl.source.empty() ? std::string("the input") : tl.source));
    return out;
  }
  std::vector<std::pair<const Lane*, std::vector<const Series*>>> drawn;
  for (const auto& lane : lanes()) {
    std::vector<const Series*> ss;
    for (const auto& s : b.series)
      if (s.lane == lane.id) ss.push_back(&s);
    if (lane.id == "events") {
      if (!b.failed.empty() || !b.restarts.empty()) drawn.emplace_back(&lane, std::move(ss));
      else notes.push_back(tl.failures.empty() ? "timeline: no events lane (no restart in the readings, no failed request on their clock)"
                                               : "timeline: no events lane (no restart; the failed requests fall outside the readings' time range)");
      if (b.failures_outside > 0 && !b.failed.empty())
        notes.push_back(fmt::format("timeline: {} failed request(s) outside the readings' time range are not on the events lane", b.failures_outside));
    } else if (lane.id == "ttft_parts") {
      if (!b.parts.empty()) drawn.emplace_back(&lane, std::move(ss));
      else notes.push_back("timeline: no TTFT decomposition (the readings carry no queue- or prefill-time histogram, e.g. vLLM "
                           "request_queue_time_seconds / request_prefill_time_seconds, and no client TTFT beside a server TTFT "
                           "histogram on the same clock)");
    } else if (lane.id == "kv_demand") {
      const bool has_demand = std::any_of(ss.begin(), ss.end(), [](const Series* x) { return x->id == "kv_demand_tokens"; });
      const bool has_pool = std::any_of(ss.begin(), ss.end(), [](const Series* x) { return x->id == "kv_capacity_tokens"; });
      if (has_demand && has_pool) drawn.emplace_back(&lane, std::move(ss));
      else notes.push_back(std::string("timeline: no KV demand against capacity (") +
                           (has_pool ? "no prompt-length histogram to size the requests by"
                                     : "the pool's size in tokens is not in the readings: vLLM cache_config_info, SGLang max_total_num_tokens") +
                           ")");
    } else if (!ss.empty() || (lane.id == "latency" && !b.requests.empty())) {
      drawn.emplace_back(&lane, std::move(ss));
    } else if (lane.id == "latency") {
      notes.push_back("timeline: no TTFT lane (the readings carry no TTFT histogram, or fewer than two scrapes of it)");
    } else if (lane.id == "tokens") {
      notes.push_back("timeline: no token rates (fewer than two readings with token counters)");
    } else if (lane.id == "clock" || lane.id == "power") {
      if (tl.gpu.empty()) {
        if (lane.id == "clock") notes.push_back("timeline: no GPU lanes (no GPU readings in the input)");
      } else {
        notes.push_back("timeline: the GPU readings hold no " + std::string(lane.id == "clock" ? "SM clock" : "power"));
      }
    } else {
      notes.push_back("timeline: no " + lane.title + " in the readings");
    }
  }
  std::string html = fmt::format(
      "<section id=\"timeline\"><h2>Timeline</h2>\n<p class=\"caption\">{} · seconds since the first reading, {} · {} "
      "engine and {} GPU readings · hover a dot for its value (with scripts on: a crosshair over every lane; click a legend entry to hide its series; drag across a lane to zoom into that time range, double-click to see it all)</p>\n<div class=\"lanes\">\n",
      html_text(tl.source), utc(b.t0), tl.engine.size(), tl.gpu.size());
  for (size_t i = 0; i < drawn.size(); ++i) html += draw_lane(*drawn[i].first, drawn[i].second, b, i + 1 == drawn.size(), ttft_slo_s);
  out.html = html + "</div></section>\n";

  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : b.series)
    series.push_back({{"id", s.id}, {"label", s.label}, {"lane", s.lane}, {"unit", s.unit}, {"t_s", s.t}, {"v", s.v}});
  nlohmann::json pre = nlohmann::json::array();
  for (const auto& [t, n] : b.preemptions) pre.push_back({{"t_s", t}, {"count", n}});
  nlohmann::json failed = nlohmann::json::array(), bands = nlohmann::json::array();
  for (const auto& e : b.failed) failed.push_back({{"from_s", e.from}, {"to_s", e.to}, {"errors", e.errors}, {"timeouts", e.timeouts}});
  for (const auto& x : b.bands) bands.push_back({{"gpu", x.gpu}, {"reason", x.reason}, {"from_s", x.from}, {"to_s", x.to}});
  for (size_t i = 0; i < pre.size() && i < b.preempt_rate.size(); ++i) pre[i]["per_s"] = b.preempt_rate[i].second;
  out.data = {{"source", tl.source}, {"t0_unix_s", b.t0}, {"t1_s", b.t1}, {"series", series}, {"preemptions", pre},
              {"requests_drawn", b.requests.size()}, {"restarts_s", b.restarts}, {"failed", failed}, {"throttle_bands", bands}};
  return out;
}

}  // namespace llmtriage::report
