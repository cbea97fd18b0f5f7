// The correlated timeline: stacked lanes sharing one time axis (seconds since the first reading)
// — requests running and waiting (and llama.cpp slots busy), KV usage with preemption ticks,
// prompt and generation tok/s from counter differences, SM clock against its maximum and power
// against its limit per GPU. A lane with no data is left out and the notes say why.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
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
      {"requests", "Requests: running, waiting", "requests", false},
      {"kv", "KV cache usage (ticks: preemptions)", "fraction", true},
      {"tokens", "Throughput from counter differences, tok/s", "tok/s", false},
      {"clock", "GPU SM clock against its maximum, MHz", "MHz", false},
      {"power", "GPU power against its limit, W", "W", false},
  };
  return l;
}

// One reading per scrape: samples at the same instant (several models or data-parallel engines)
// summed (gauges of requests, counters) or maxed (KV usage).
struct Agg {
  double t = 0;
  std::optional<double> running, waiting, kv, preempt, prompt_total, gen_total, prompt_rate, gen_rate;
  core::Histogram ttft;
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
  }
  return out;
}

struct Built {
  std::vector<Series> series;
  std::vector<std::pair<double, double>> preemptions;  // (t, count)
  std::vector<Point> requests;                         // (t since t0, TTFT s), sorted by t, inside [0, t1]
  double t0 = 0, t1 = 0;
};

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
  b.series.reserve(9 + 4 * by_gpu.size());  // the references below stay valid
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
    if (a.preempt && p.preempt && *a.preempt > *p.preempt) b.preemptions.emplace_back(a.t - t0, *a.preempt - *p.preempt);
  }
  for (const auto& s : tl.slots) {
    push(busy, s.t_s, static_cast<double>(s.busy));
    push(total, s.t_s, static_cast<double>(s.total));
  }
  int k = 0;
  for (const auto& [idx, gs] : by_gpu) {
    const std::string n = fmt::format("GPU {}", idx), cls = fmt::format("s{}", k++ % 4);
    Series& clock = series(fmt::format("gpu{}_sm_clock", idx), n + " SM clock", "clock", "MHz", cls);
    Series& maxc = series(fmt::format("gpu{}_max_sm_clock", idx), n + " max SM clock", "clock", "MHz", "limit");
    Series& power = series(fmt::format("gpu{}_power", idx), n + " power", "power", "W", cls);
    Series& limit = series(fmt::format("gpu{}_power_limit", idx), n + " power limit", "power", "W", "limit");
    for (const auto* g : gs) {
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
  svg.open_group("lane-frame", fmt::format("data-lane=\"{}\" data-left=\"{}\" data-width=\"{}\" data-t1=\"{}\"", lane.id,
                                          px(f.left), px(f.width), b.t1));
  y_axis(svg, f, sy, nice_ticks(yr.lo, yr.hi, 4), lane.axis_unit());
  const auto xt = nice_ticks(0, b.t1, 10);
  if (last) {
    x_axis(svg, f, sx, xt, "s");
  } else {
    svg.line(f.left, f.bottom(), f.right(), f.bottom(), "axis");
    for (double t : xt) svg.line(sx(t), f.top, sx(t), f.bottom(), "grid");
  }
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
  // Limits (dashed) first, so the readings are drawn over them.
  std::vector<const Series*> order = ss;
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
  svg.line(f.left, f.top, f.left, f.bottom(), "crosshair", "visibility=\"hidden\"");  // moved by report.js
  if (lane.id == "kv")
    for (const auto& [t, n] : b.preemptions) {
      svg.line(sx(t), f.top, sx(t), f.top + 10, "preempt");
      svg.circle(sx(t), f.top + 3, 3, "preempt-dot", {}, fmt::format("{:g} preemption(s) before {}", n, tick_label(t, "s")));
    }
  std::string legend;
  for (const auto* s : ss) legend += legend_item(s->id, s->cls, s->label);
  if (dots) legend += legend_item("request_ttft", "req", fmt::format("each request's TTFT ({} sent)", b.requests.size()));
  if (lane.id == "kv" && !b.preemptions.empty()) legend += "<span class=\"legend-note\">▮ preemptions</span>";
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
    if (!ss.empty() || (lane.id == "latency" && !b.requests.empty())) {
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
      "engine and {} GPU readings · hover a dot for its value (with scripts on: a crosshair over every lane; click a legend entry to hide its series)</p>\n<div class=\"lanes\">\n",
      html_text(tl.source), utc(b.t0), tl.engine.size(), tl.gpu.size());
  for (size_t i = 0; i < drawn.size(); ++i) html += draw_lane(*drawn[i].first, drawn[i].second, b, i + 1 == drawn.size(), ttft_slo_s);
  out.html = html + "</div></section>\n";

  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : b.series)
    series.push_back({{"id", s.id}, {"label", s.label}, {"lane", s.lane}, {"unit", s.unit}, {"t_s", s.t}, {"v", s.v}});
  nlohmann::json pre = nlohmann::json::array();
  for (const auto& [t, n] : b.preemptions) pre.push_back({{"t_s", t}, {"count", n}});
  out.data = {{"source", tl.source}, {"t0_unix_s", b.t0}, {"t1_s", b.t1}, {"series", series}, {"preemptions", pre},
              {"requests_drawn", b.requests.size()}};
  return out;
}

}  // namespace llmtriage::report
