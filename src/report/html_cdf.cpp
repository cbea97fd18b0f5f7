// Latency CDFs from request records: TTFT, TPOT and E2E, one curve per run (a baseline dashed,
// now solid) on a log x axis, the SLO as a vertical line, P50 and P99 marked on each curve, and
// a table of the same numbers. 100k requests decimate to a few points per pixel column.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/quantile.h"
#include "report/diagnose_format.h"
#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

struct Metric {
  const char* id;     // "ttft_s"
  const char* title;  // "TTFT"
  std::optional<double> slo;
};

// The metric of one request, as docs/metrics.md defines it; nullopt when undefined. TPOT is
// (E2E - TTFT) / (output tokens - 1), undefined for one output token or fewer.
std::optional<double> value_of(const core::RequestRecord& r, const std::string& id) {
  if (r.status != core::RequestStatus::ok) return std::nullopt;
  if (id == "ttft_s") return r.ttft_s;
  if (id == "e2e_s") return r.e2e_s;
  if (!r.ttft_s || !r.e2e_s || !r.output_tokens || *r.output_tokens <= 1) return std::nullopt;
  return (*r.e2e_s - *r.ttft_s) / static_cast<double>(*r.output_tokens - 1);
}

struct Curve {
  const LatencyRun* run;
  std::string id, cls;
  std::vector<double> sorted;  // positive, finite
  size_t dropped = 0;          // <= 0 or not finite: cannot sit on a log axis
};

std::string run_class(const LatencyRun& r, size_t k, size_t n) {
  if (n == 2) return r.baseline ? "run-base" : "run-now";
  return fmt::format("s{}", k % 4);
}

constexpr double kW = 540, kH = 310, kL = 52, kR = 30, kT = 34, kB = 40;

// Text width at the chart's 11 px font, roughly (for keeping labels inside the frame).
double text_width(const std::string& s) { return 6.3 * static_cast<double>(s.size()); }

std::string draw(const Metric& m, const std::vector<Curve>& curves, nlohmann::json& data) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& c : curves)
    if (!c.sorted.empty()) lo = std::min(lo, c.sorted.front()), hi = std::max(hi, c.sorted.back());
  if (m.slo && *m.slo > 0) lo = std::min(lo, *m.slo), hi = std::max(hi, *m.slo);
  const Range xr = log_range(lo, hi);
  Frame f{kL, kT, kW - kL - kR, kH - kT - kB};
  Scale sx{xr.lo, xr.hi, f.left, f.right(), true};
  Scale sy{0, 1, f.bottom(), f.top};
  Svg svg(kW, kH, std::string("chart cdf cdf-") + m.id, std::string(m.title) + " CDF");
  const std::vector<double> yt = {0, 0.25, 0.5, 0.75, 1};
  y_axis(svg, f, sy, yt, "fraction");
  x_axis(svg, f, sx, log_ticks(xr.lo, xr.hi), "s");
  svg.text(f.left, 14, std::string(m.title) + ": share of requests at or below x (log scale)", "chart-title");
  if (m.slo) {
    // The line's label sits in the title row, right-aligned, where no curve or mark label goes.
    svg.line(sx(*m.slo), f.top, sx(*m.slo), f.bottom(), "slo");
    svg.text(kW - 4, 14, "- - SLO " + format_value(*m.slo, "s"), "slo-label", "end");
  }
  data = nlohmann::json::object();
  for (const auto& c : curves) {
    if (c.sorted.empty()) continue;
    const size_t n = c.sorted.size();
    std::vector<Point> pts;
    pts.reserve(n);
    for (size_t i = 0; i < n; ++i) pts.push_back({sx(c.sorted[i]), sy(static_cast<double>(i + 1) / n)});
    const auto keep = decimate_minmax_indices(pts);
    std::vector<Point> kept;
    nlohmann::json cdf = nlohmann::json::array();
    for (size_t i : keep) kept.push_back(pts[i]), cdf.push_back({c.sorted[i], static_cast<double>(i + 1) / n});
    const std::string attrs = fmt::format("data-series=\"{}\"", c.id);
    svg.open_group("run " + c.cls, attrs);
    svg.polyline(kept, "line " + c.cls);
    const double p50 = *core::quantile_sorted(c.sorted, 0.5), p99 = *core::quantile_sorted(c.sorted, 0.99);
    for (auto [q, v] : {std::pair{0.5, p50}, std::pair{0.99, p99}}) {
      const double x = sx(v), y = sy(q);
      const std::string label = fmt::format("p{:g} {}", q * 100, format_value(v, "s"));
      svg.circle(x, y, 3.5, "mark " + c.cls, {}, c.run->label + " " + label);
      // Above-left of a mark is over its curve, below-right is under it: both are empty of this
      // run. A baseline labels above-left and the others below-right, so two runs' labels at the
      // same quantile never share a line; a label that would leave the frame changes side.
      const bool base = c.run->baseline;
      bool left = base;
      if (!left && x + 6 + text_width(label) > f.right()) left = true;
      if (left && x - 6 - text_width(label) < f.left) left = false;
      svg.text(left ? x - 6 : x + 6, base ? y - 6 : y + 14, label, "mark-label", left ? "end" : "start");
    }
    svg.close_group();
    nlohmann::json d = {{"count", n}, {"dropped", c.dropped}, {"p50", p50},
                        {"p90", *core::quantile_sorted(c.sorted, 0.9)}, {"p99", p99}, {"max", c.sorted.back()}};
    if (m.slo) {
      const auto within = std::upper_bound(c.sorted.begin(), c.sorted.end(), *m.slo) - c.sorted.begin();
      d["within_slo"] = static_cast<double>(within) / n;
    } else {
      d["within_slo"] = nullptr;
    }
    d["cdf"] = std::move(cdf);
    data[c.id] = std::move(d);
  }
  return svg.finish();
}

}  // namespace

ChartOut latency_cdfs(const std::vector<LatencyRun>& runs, const core::Slo& slo, std::vector<std::string>& notes) {
  ChartOut out;
  if (runs.empty()) return out;
  const Metric metrics[] = {{"ttft_s", "TTFT", slo.ttft_s}, {"tpot_s", "TPOT", slo.tpot_s}, {"e2e_s", "E2E", slo.e2e_s}};
  std::string charts, rows, legend;
  nlohmann::json runs_json = nlohmann::json::array();
  for (size_t k = 0; k < runs.size(); ++k) {
    legend += legend_item(fmt::format("run{}", k), run_class(runs[k], k, runs.size()),
                          runs[k].label + (runs[k].baseline ? " (baseline)" : ""));
    size_t failed = 0;
    for (const auto& r : runs[k].requests) failed += r.status != core::RequestStatus::ok;
    runs_json.push_back({{"id", fmt::format("run{}", k)}, {"label", runs[k].label}, {"baseline", runs[k].baseline},
                         {"source", runs[k].source}, {"requests", runs[k].requests.size()}, {"failed", failed},
                         {"metrics", nlohmann::json::object()}});
  }
  for (const auto& m : metrics) {
    std::vector<Curve> curves;
    bool any = false;
    for (size_t k = 0; k < runs.size(); ++k) {
      Curve c{&runs[k], fmt::format("run{}", k), run_class(runs[k], k, runs.size()), {}, 0};
      for (const auto& r : runs[k].requests) {
        const auto v = value_of(r, m.id);
        if (!v) continue;
        if (*v > 0 && std::isfinite(*v)) c.sorted.push_back(*v);
        else ++c.dropped;
      }
      std::sort(c.sorted.begin(), c.sorted.end());
      if (c.dropped) notes.push_back(fmt::format("{} {}: {} value(s) <= 0 left off the log axis", runs[k].label, m.title, c.dropped));
      any |= !c.sorted.empty();
      curves.push_back(std::move(c));
    }
    if (!any) {
      notes.push_back(fmt::format("latency: no {} in the records", m.title));
      continue;
    }
    nlohmann::json data;
    charts += "<figure class=\"cdf\">" + draw(m, curves, data) + "</figure>\n";
    for (size_t k = 0; k < curves.size(); ++k) {
      const std::string& id = curves[k].id;
      if (!data.contains(id)) continue;
      const auto& d = data[id];
      const std::string within = d["within_slo"].is_null() ? "—" : fmt::format("{:.1f}%", 100 * d["within_slo"].get<double>());
      rows += fmt::format("<tr data-series=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                          id, m.title, html_text(runs[k].label), d["count"].get<size_t>(), format_value(d["p50"], "s"),
                          format_value(d["p90"], "s"), format_value(d["p99"], "s"), format_value(d["max"], "s"), within);
      runs_json[k]["metrics"][m.id] = data[id];
    }
  }
  if (charts.empty()) return out;
  out.html = "<section id=\"latency\"><h2>Latency CDF</h2>\n<div class=\"legend\">" + legend + "</div>\n<div class=\"cdfs\">\n" +
             charts + "</div>\n<table class=\"quantiles\"><tr><th>metric</th><th>run</th><th>requests</th><th>p50</th>"
             "<th>p90</th><th>p99</th><th>max</th><th>within SLO</th></tr>\n" + rows + "</table></section>\n";
  nlohmann::json sj = {{"ttft_s", slo.ttft_s ? nlohmann::json(*slo.ttft_s) : nlohmann::json()},
                       {"tpot_s", slo.tpot_s ? nlohmann::json(*slo.tpot_s) : nlohmann::json()},
                       {"e2e_s", slo.e2e_s ? nlohmann::json(*slo.e2e_s) : nlohmann::json()}};
  out.data = {{"slo", sj}, {"runs", runs_json}};
  return out;
}

}  // namespace llmtriage::report
