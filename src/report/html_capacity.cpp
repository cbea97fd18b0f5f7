// The capacity curve: the loads a `capacity` search tried, on one x axis (offered load), in two
// panels — P99 TTFT and P99 TPOT on a log y with their SLO lines, then goodput (and, for a rate
// search, the rate the client really sent at against the diagonal of the rate it was asked for)
// — the answer as a green line through both, the lowest failing load as a red one. Passing loads
// are filled dots, failing ones open; a client-bound trial is ringed. A table holds the numbers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

constexpr double kCapW = 1000, kCapL = 70, kCapR = 150, kCapPanelH = 230, kCapGap = 44, kCapTop = 40;

std::string load_text(double v, const std::string& unit) { return fmt::format("{:.4g} {}", v, unit); }

struct CapSeries {
  const char* id;
  const char* label;
  const char* cls;
  std::vector<std::pair<double, double>> pts;  // (load, value)
};

// Dots (filled where the load passed, open where it failed) and the line through them.
void draw_series(Svg& svg, const CapSeries& s, const Scale& sx, const Scale& sy, const CapacityPicture& c,
                 const std::string& unit, const std::string& value_unit) {
  std::vector<Point> line;
  for (const auto& [x, v] : s.pts) line.push_back({sx(x), sy(v)});
  svg.open_group(std::string("cap-series ") + s.cls, fmt::format("data-series=\"{}\"", s.id));
  svg.polyline(line, std::string("line ") + s.cls);
  for (size_t i = 0; i < s.pts.size(); ++i) {
    const auto& [x, v] = s.pts[i];
    bool pass = false;
    for (const auto& p : c.curve)
      if (p.load == x) pass = p.pass;
    svg.circle(line[i].x, line[i].y, 4, std::string("mark ") + s.cls + (pass ? "" : " cap-fail"), {},
               fmt::format("{} at {}: {:.4g} {}{}", s.label, load_text(x, unit), v, value_unit, pass ? "" : " (load failed)"));
  }
  svg.close_group();
}

// The answer and the lowest failing load: vertical lines through a panel; labels on the first.
void answer_lines(Svg& svg, const Frame& f, const Scale& sx, const CapacityPicture& c, bool labels) {
  if (c.capacity) {
    svg.line(sx(*c.capacity), f.top, sx(*c.capacity), f.bottom(), "cap-answer");
    if (labels)
      svg.text(sx(*c.capacity) - 4, f.top - 6, fmt::format("capacity {}{}", c.at_max_load ? ">= " : "", load_text(*c.capacity, c.unit)),
               "cap-answer-label", "end");
  }
  if (c.failing_above) {
    svg.line(sx(*c.failing_above), f.top, sx(*c.failing_above), f.bottom(), "cap-failing");
    if (labels) svg.text(sx(*c.failing_above) + 4, f.top - 6, "fails at " + load_text(*c.failing_above, c.unit), "cap-failing-label");
  }
}

}  // namespace

ChartOut capacity_curve(const CapacityPicture& c) {
  ChartOut out;
  if (c.curve.empty()) return out;
  double lo = INFINITY, hi = 0;
  for (const auto& p : c.curve) lo = std::min(lo, p.load), hi = std::max(hi, p.load);
  // Bracketing doubles the load: a log axis when the loads span more than a factor of 4.
  const bool logx = lo > 0 && hi / lo > 4;
  Scale sx;
  std::vector<double> xticks;
  Frame f1{kCapL, kCapTop, kCapW - kCapL - kCapR, kCapPanelH};
  Frame f2{kCapL, kCapTop + kCapPanelH + kCapGap, f1.width, kCapPanelH};
  if (logx) {
    const Range r = log_range(lo / 1.3, hi * 1.3);
    sx = {r.lo, r.hi, f1.left, f1.right(), true};
    xticks = log_ticks(r.lo, r.hi);
  } else {
    const Range r = nice_range(0, hi * 1.1);
    sx = {r.lo, r.hi, f1.left, f1.right()};
    xticks = nice_ticks(r.lo, r.hi);
  }
  const std::string xunit = c.by == "rate" ? "req/s" : "";
  Svg svg(kCapW, f2.bottom() + 44, "chart capacity", "capacity curve");
  // Panel 1: P99 TTFT and TPOT, log y (ms), the SLO lines.
  CapSeries ttft{"cap_ttft_p99", "P99 TTFT", "s0", {}}, tpot{"cap_tpot_p99", "P99 TPOT", "s3", {}};
  double ylo = INFINITY, yhi = 0;
  for (const auto& p : c.curve) {
    if (p.ttft_p99_ms > 0) ttft.pts.push_back({p.load, p.ttft_p99_ms});
    if (p.tpot_p99_ms > 0) tpot.pts.push_back({p.load, p.tpot_p99_ms});
  }
  for (const auto* s : {&ttft, &tpot})
    for (const auto& [x, v] : s->pts) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
  for (const auto& slo : {c.ttft_slo_ms, c.tpot_slo_ms})
    if (slo && *slo > 0) ylo = std::min(ylo, *slo), yhi = std::max(yhi, *slo);
  svg.text(f1.left, 14, fmt::format("P99 latency against offered load (log scale), SLO {} for >= {:g}% of requests", c.slo, c.target_pct),
           "chart-title");
  if (yhi > 0) {
    const Range yr = log_range(ylo / 1e3, yhi / 1e3);  // in seconds, so the tick labels read "ms" / "s"
    const Scale sy{yr.lo * 1e3, yr.hi * 1e3, f1.bottom(), f1.top, true};
    const Scale sy_s{yr.lo, yr.hi, f1.bottom(), f1.top, true};
    y_axis(svg, f1, sy_s, log_ticks(yr.lo, yr.hi), "s");
    x_axis(svg, f1, sx, xticks, xunit);
    answer_lines(svg, f1, sx, c, true);
    for (const auto& [slo, cls, name] : {std::tuple{c.ttft_slo_ms, "s0", "TTFT"}, std::tuple{c.tpot_slo_ms, "s3", "TPOT"}})
      if (slo && *slo > 0) {
        svg.line(f1.left, sy(*slo), f1.right(), sy(*slo), std::string("cap-slo ") + cls);
        svg.text(f1.right() + 6, sy(*slo) + 4, fmt::format("{} SLO {:g} ms", name, *slo), std::string("cap-slo-label ") + cls);
      }
    draw_series(svg, ttft, sx, sy, c, c.unit, "ms");
    draw_series(svg, tpot, sx, sy, c, c.unit, "ms");
  }
  // Panel 2: goodput, and for a rate search the realised rate against the offered one.
  CapSeries good{"cap_goodput", "goodput", "s2", {}}, real{"cap_realized", "realised rate", "s4", {}};
  double g_hi = 0;
  for (const auto& p : c.curve) {
    good.pts.push_back({p.load, p.goodput_rps});
    g_hi = std::max(g_hi, p.goodput_rps);
    if (p.realized_load) real.pts.push_back({p.load, *p.realized_load}), g_hi = std::max(g_hi, *p.realized_load);
  }
  if (c.by == "rate") g_hi = std::max(g_hi, sx.d1);
  const Range gr = nice_range(0, std::max(g_hi, 1e-3));
  const Scale sg{gr.lo, gr.hi, f2.bottom(), f2.top};
  svg.text(f2.left, f2.top - 12,
           c.by == "rate" ? "Goodput and the rate really sent, against the rate asked for (req/s)" : "Goodput against concurrency (req/s)",
           "chart-title");
  y_axis(svg, f2, sg, nice_ticks(gr.lo, gr.hi), "req/s");
  x_axis(svg, f2, sx, xticks, xunit);
  svg.text((f2.left + f2.right()) / 2, f2.bottom() + 34, "offered load (" + c.unit + ")", "tick", "middle");
  answer_lines(svg, f2, sx, c, false);
  if (c.by == "rate") {  // realised = offered, where the client kept up
    std::vector<Point> diag;
    const int n = 40;
    for (int i = 0; i <= n; ++i) {
      const double x = sx.log ? sx.d0 * std::pow(sx.d1 / sx.d0, static_cast<double>(i) / n) : sx.d0 + (sx.d1 - sx.d0) * i / n;
      if (x <= gr.hi) diag.push_back({sx(x), sg(x)});
    }
    svg.polyline(diag, "cap-diagonal");
  }
  draw_series(svg, good, sx, sg, c, c.unit, "req/s");
  if (!real.pts.empty()) draw_series(svg, real, sx, sg, c, c.unit, "req/s");
  // A ring on each client-bound load; worded beside it only when few (the legend says what a ring is).
  size_t bound = 0;
  for (const auto& p : c.curve) bound += p.client_bound;
  for (const auto& p : c.curve)
    if (p.client_bound) {
      const double v = p.realized_load.value_or(p.goodput_rps);
      svg.circle(sx(p.load), sg(v), 8, "cap-client-bound", {}, fmt::format("client-bound at {}", load_text(p.load, c.unit)));
      if (bound <= 2) svg.text(sx(p.load) + 10, sg(v) - 8, "client-bound", "cap-client-label");
    }
  if (c.knee)  // under the goodput dot: the realised rate, when drawn, runs above it
    for (const auto& p : c.curve)
      if (p.load == *c.knee) svg.text(sx(p.load), sg(p.goodput_rps) + 18, "knee", "cap-knee-label", "middle");
  // Legend and table.
  std::string legend = legend_item("cap_ttft_p99", "s0", "P99 TTFT") + legend_item("cap_tpot_p99", "s3", "P99 TPOT") +
                       legend_item("cap_goodput", "s2", "goodput");
  if (!real.pts.empty()) legend += legend_item("cap_realized", "s4", "realised rate");
  legend += "<span class=\"legend-hint\">filled dot: the load passed; open: it failed; orange ring: client-bound (the load generator lagged)</span>";
  std::string rows;
  nlohmann::json curve = nlohmann::json::array();
  for (const auto& p : c.curve) {
    std::string flags = p.pass ? "pass" : "FAIL";
    if (p.stopped_early) flags += ", stopped early";
    if (p.client_bound) flags += ", client-bound";
    rows += fmt::format("<tr class=\"{}\"><td>{:.4g}</td><td>{}</td><td>{:.1f}% [{:.1f}, {:.1f}]</td><td>{:.4g}</td><td>{}</td>"
                        "<td>{:.1f}</td><td>{:.2f}</td><td>{}</td></tr>\n",
                        p.pass ? "cap-pass" : "cap-fail-row", p.load, p.trials, p.attainment_pct, p.ci_low, p.ci_high, p.goodput_rps,
                        p.realized_load ? fmt::format("{:.4g}", *p.realized_load) : "—", p.ttft_p99_ms, p.tpot_p99_ms, flags);
    curve.push_back({{"load", p.load}, {"trials", p.trials}, {"attainment_pct", p.attainment_pct},
                     {"attainment_ci95", {p.ci_low, p.ci_high}}, {"goodput_rps", p.goodput_rps}, {"ttft_p99_ms", p.ttft_p99_ms},
                     {"tpot_p99_ms", p.tpot_p99_ms}, {"e2e_p99_ms", p.e2e_p99_ms},
                     {"realized_load", p.realized_load ? nlohmann::json(*p.realized_load) : nlohmann::json()}, {"pass", p.pass},
                     {"stopped_early", p.stopped_early}, {"client_bound", p.client_bound}});
  }
  const std::string answer =
      c.capacity ? fmt::format("<p class=\"verdict sev-ok\"><b>Capacity: {}{}</b> meet {} for >= {:g}% of requests{}</p>\n",
                               c.at_max_load ? "at least " : "", html_text(load_text(*c.capacity, c.unit)), html_text(c.slo), c.target_pct,
                               c.failing_above ? html_text(fmt::format(" ({} does not)", load_text(*c.failing_above, c.unit))) : "")
                 : fmt::format("<p class=\"verdict sev-warning\"><b>No load tried</b> meets {} for {:g}% of requests</p>\n",
                               html_text(c.slo), c.target_pct);
  std::string notes;
  for (const auto& n : c.notes) notes += "<li>" + html_text(n) + "</li>\n";
  out.html = "<section id=\"capacity\"><h2>Capacity</h2>\n" + answer + "<div class=\"legend\">" + legend + "</div>\n" +
             "<figure class=\"capacity\">" + svg.finish() + "</figure>\n" +
             "<table class=\"capacity-table\"><tr><th>load (" + html_text(c.unit) + ")</th><th>trials</th><th>attainment (95% CI)</th>"
             "<th>goodput/s</th><th>realised</th><th>p99 TTFT ms</th><th>p99 TPOT ms</th><th></th></tr>\n" + rows + "</table>\n" +
             (notes.empty() ? "" : "<ul class=\"notes\">" + notes + "</ul>\n") + "</section>\n";
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  out.data = {{"by", c.by}, {"unit", c.unit}, {"slo", c.slo}, {"ttft_slo_ms", opt(c.ttft_slo_ms)}, {"tpot_slo_ms", opt(c.tpot_slo_ms)},
              {"target_attainment_pct", c.target_pct}, {"capacity", opt(c.capacity)}, {"failing_above", opt(c.failing_above)},
              {"knee", opt(c.knee)}, {"at_max_load", c.at_max_load}, {"out_of_reach", c.out_of_reach}, {"notes", c.notes},
              {"curve", curve}};
  return out;
}

}  // namespace llmtriage::report
