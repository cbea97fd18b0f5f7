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
#include "report/html_timeline_data.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

using timeline::Built;
using timeline::Series;
using timeline::TtftParts;

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
      {"requests", "Requests: running, waiting (the engine), in flight (the client)", "requests", false},
      {"kv", "KV cache usage (ticks: preemptions)", "fraction", true},
      {"kv_demand", "KV demand against the pool, tokens: (running + waiting) × mean prompt + output length (ticks: preemptions)", "tokens", false},
      {"tokens", "Throughput from counter differences, tok/s", "tok/s", false},
      {"clock", "GPU SM clock against its maximum, MHz", "MHz", false},
      {"power", "GPU power against its limit, W", "W", false},
      {"events", "Events: restarts, failed requests per scrape interval, the snapshot, each finding's onset", "requests", false},
  };
  return l;
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
  // The snapshot and each finding's onset: a dashed line with its name, staggered so that close
  // instants stay readable; the tooltip says what the instant is.
  for (size_t i = 0; i < b.marks.size(); ++i) {
    const auto& m = b.marks[i];
    const std::string cls = m.kind == "snapshot" ? "snapshot" : "onset";
    svg.open_group(cls + "-mark");
    svg.title(format_value(m.t, "s") + ": " + m.detail);
    svg.line(sx(m.t), f.top, sx(m.t), f.bottom(), cls + "-line");
    const bool near_right = sx(m.t) > f.right() - 160;  // the label goes left of its line there
    svg.text(near_right ? sx(m.t) - 3 : sx(m.t) + 3, f.top + 22 + 12 * static_cast<double>(i % 5), m.label, cls + "-label",
             near_right ? "end" : "start");
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
    if (std::any_of(b.marks.begin(), b.marks.end(), [](const timeline::Mark& m) { return m.kind == "onset"; }))
      legend += "<span class=\"legend-note\">¦ a finding's onset (its first reading over its threshold)</span>";
    if (std::any_of(b.marks.begin(), b.marks.end(), [](const timeline::Mark& m) { return m.kind == "snapshot"; }))
      legend += "<span class=\"legend-note\">¦ the snapshot</span>";
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
  const Built b = timeline::build(tl);
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
      if (!b.failed.empty() || !b.restarts.empty() || !b.marks.empty()) drawn.emplace_back(&lane, std::move(ss));
      else notes.push_back(tl.failures.empty() ? "timeline: no events lane (no restart in the readings, no failed request on their clock, no finding's onset)"
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
  nlohmann::json marks = nlohmann::json::array();
  for (const auto& m : b.marks) marks.push_back({{"t_s", m.t}, {"kind", m.kind}, {"label", m.label}, {"detail", m.detail}});
  out.data = {{"source", tl.source}, {"t0_unix_s", b.t0}, {"t1_s", b.t1}, {"series", series}, {"preemptions", pre},
              {"requests_drawn", b.requests.size()}, {"restarts_s", b.restarts}, {"failed", failed}, {"throttle_bands", bands}, {"marks", marks}};
  return out;
}

}  // namespace llmtriage::report
