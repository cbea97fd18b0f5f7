// The A/B delta board: one row per metric, the difference B - A as a share of A with its
// bootstrap interval as a whisker around 0, coloured and worded better / worse / no change (grey
// throughout when the comparison gave no verdict), the absolute numbers beside it, and the
// variable changed in the title. A table under it holds the same numbers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

constexpr double kBoardW = 1000, kBoardLabelW = 150, kBoardPlotW = 430, kBoardTop = 44, kBoardRow = 30;

// "ttft_p99_ms" -> ("TTFT p99", "ms"); "output_throughput_tok_s" -> ("Output throughput", "tok/s").
std::pair<std::string, std::string> metric_name(const std::string& m) {
  if (m == "output_throughput_tok_s") return {"Output throughput", "tok/s"};
  if (m == "output_tokens_mean") return {"Output tokens (mean)", "tokens"};
  const size_t u = m.find('_');
  if (u != std::string::npos && m.size() > 3 && m.substr(m.size() - 3) == "_ms") {
    std::string head = m.substr(0, u);
    for (auto& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return {head + " " + m.substr(u + 1, m.size() - 3 - u - 1), "ms"};
  }
  return {m, ""};
}

std::string signed_value(double v, const std::string& unit) {
  const double a = std::fabs(v);
  const std::string n = a >= 100 ? fmt::format("{:+.0f}", v) : a >= 10 ? fmt::format("{:+.1f}", v) : fmt::format("{:+.2f}", v);
  return unit.empty() ? n : n + " " + unit;
}

std::string verdict_class(const AbBoard& b, const std::string& verdict) {
  if (!b.verdict_given) return "ab-none";
  if (verdict == "better") return "ab-better";
  if (verdict == "worse") return "ab-worse";
  return "ab-same";
}

}  // namespace

ChartOut ab_board(const AbBoard& b) {
  ChartOut out;
  if (b.rows.empty()) return out;
  // One axis for every row: the difference as a share of A (metrics differ in units), symmetric
  // around 0 so "better" and "worse" are the same distance from it.
  double m = 1;
  for (const auto& r : b.rows)
    if (r.a != 0)
      for (double v : {r.lo, r.hi, r.diff}) m = std::max(m, std::fabs(100 * v / r.a));
  const Range xr = nice_range(-m, m, 6);
  const double lim = std::max(std::fabs(xr.lo), std::fabs(xr.hi));
  const double height = kBoardTop + static_cast<double>(b.rows.size()) * kBoardRow + 36;
  Frame f{kBoardLabelW, kBoardTop, kBoardPlotW, static_cast<double>(b.rows.size()) * kBoardRow};
  Scale sx{-lim, lim, f.left, f.right()};
  Svg svg(kBoardW, height, "chart ab-board", "A/B delta board");
  x_axis(svg, f, sx, nice_ticks(-lim, lim, 6), "%");
  svg.text(f.left, 14, fmt::format("B - A as % of A, with its {:g}% interval", 100 * b.confidence), "chart-title");
  svg.text(f.left, 30, "left of 0: B lower; the colour says whether that is better (latency: lower; throughput: higher)", "tick");
  svg.line(sx(0), f.top - 4, sx(0), f.bottom(), "ab-zero");
  nlohmann::json rows = nlohmann::json::array();
  std::string table;
  double y = f.top;
  for (const auto& r : b.rows) {
    const auto [name, unit] = metric_name(r.metric);
    const std::string cls = verdict_class(b, r.verdict);
    const double cy = y + kBoardRow / 2;
    svg.text(f.left - 8, cy + 4, name, "row-label", "end");
    const bool rel = r.a != 0;
    const std::string word = b.verdict_given ? r.verdict : "no verdict";
    const std::string detail = fmt::format("{} → {} {}: {} ({:+.1f}%), interval [{}, {}]", fmt::format("{:.4g}", r.a),
                                           fmt::format("{:.4g}", r.b), unit, signed_value(r.diff, unit), r.rel_pct,
                                           signed_value(r.lo, ""), signed_value(r.hi, ""));
    svg.open_group("ab-row " + cls, fmt::format("data-metric=\"{}\"", html_text(r.metric)));
    if (rel) {
      const double d = sx(100 * r.diff / r.a), lo = sx(100 * r.lo / r.a), hi = sx(100 * r.hi / r.a);
      svg.rect(std::min(sx(0), d), cy - 7, std::fabs(d - sx(0)), 14, "ab-bar");
      svg.line(lo, cy, hi, cy, "ab-whisker");
      svg.line(lo, cy - 5, lo, cy + 5, "ab-whisker");
      svg.line(hi, cy - 5, hi, cy + 5, "ab-whisker");
      svg.circle(d, cy, 4, "ab-dot", {}, name + ": " + detail + " — " + word);
    }
    svg.close_group();
    svg.text(f.right() + 12, cy + 4,
             fmt::format("{} ({:+.1f}%)  [{}, {}]", signed_value(r.diff, unit), r.rel_pct, signed_value(r.lo, ""), signed_value(r.hi, "")),
             "bar-label");
    svg.text(kBoardW - 6, cy + 4, word, "ab-word " + cls, "end");
    rows.push_back({{"metric", r.metric}, {"a", r.a}, {"b", r.b}, {"diff", r.diff}, {"lo", r.lo}, {"hi", r.hi},
                    {"rel_pct", r.rel_pct}, {"verdict", r.verdict}, {"drawn", rel}});
    table += fmt::format("<tr class=\"{}\"><td>{}</td><td>{:.4g}</td><td>{:.4g}</td><td>{}</td><td>{:+.1f}%</td><td>[{}, {}]</td><td class=\"ab-word\">{}</td></tr>\n",
                         cls, html_text(name), r.a, r.b, signed_value(r.diff, unit), r.rel_pct, signed_value(r.lo, ""),
                         signed_value(r.hi, ""), html_text(word));
    y += kBoardRow;
  }
  std::string head = "<p class=\"caption\">Variable changed: <b>" + html_text(b.variable.empty() ? "none named" : b.variable) + "</b></p>\n";
  if (!b.verdict_given)
    head += "<p class=\"verdict\"><b>No verdict</b>: " +
            html_text(b.refusals.empty() ? std::string("see the text output") : b.refusals.front()) +
            " (the differences are shown for information, grey)</p>\n";
  out.html = "<section id=\"ab\"><h2>A/B delta board</h2>\n" + head +
             "<figure class=\"ab-board\">" + svg.finish() + "</figure>\n" +
             "<table class=\"ab-table\"><tr><th>metric</th><th>A</th><th>B</th><th>B - A</th><th>relative</th>"
             "<th>interval</th><th>verdict</th></tr>\n" + table + "</table></section>\n";
  out.data = {{"variable", b.variable}, {"verdict_given", b.verdict_given}, {"refusals", b.refusals},
              {"confidence", b.confidence}, {"metrics", rows}};
  return out;
}

}  // namespace llmtriage::report
