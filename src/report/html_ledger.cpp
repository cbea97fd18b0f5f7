// The memory ledger as a waterfall: the GPU's capacity, the share the engine may use (capacity x
// utilisation), and each block taken out of it in the ledger's order — weights, CUDA graphs,
// activation peak, non-torch, the KV pool — each starting where the previous one ended, with what
// is left and the headroom after them. One stacked bar above sums it up; the engine's own numbers
// (its startup log) are black ticks on their blocks. A table under it holds the same numbers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {

// Layout (pixels): a label column, the bars, room for the value labels on the right.
constexpr double kLedgerW = 1000, kLedgerLabelW = 180, kLedgerRight = 150, kLedgerTop = 40, kLedgerRow = 26;
constexpr double kLedgerBar = 16;

std::string gib(double v) { return fmt::format("{:.2f} GiB", v); }

// The block's colour class by the ledger key it came from.
std::string block_class(const std::string& key) {
  if (key.find("weights") != std::string::npos) return "lg-weights";
  if (key.find("cuda_graph") != std::string::npos) return "lg-graphs";
  if (key.find("activation") != std::string::npos || key.find("compute") != std::string::npos) return "lg-activation";
  if (key.find("non_torch") != std::string::npos) return "lg-nontorch";
  if (key.find("kv") != std::string::npos) return "lg-kv";
  return "lg-other";
}

// Where each block sits on the GiB axis.
struct Placed {
  const LedgerPicture::Block* block;
  double start = 0, end = 0;  // end < start for a negative block (the KV pool short)
};

// A value label beside a bar: after its end when there is room, else before its start.
void bar_label(Svg& svg, const Scale& sx, double lo, double hi, double y, const std::string& s, double right_edge) {
  const double w = 6.3 * static_cast<double>(s.size());
  if (sx(hi) + 6 + w <= right_edge) svg.text(sx(hi) + 6, y, s, "bar-label");
  else svg.text(sx(lo) - 6, y, s, "bar-label", "end");
}

}  // namespace

ChartOut ledger_waterfall(const LedgerPicture& l) {
  ChartOut out;
  if (!(l.total_gib > 0)) return out;  // a host-only ledger: no GPU to draw
  // The waterfall: usable blocks one after the other from 0; headroom blocks from usable_gib.
  std::vector<Placed> placed;
  double at = 0, at_headroom = l.usable_gib;
  for (const auto& b : l.blocks) {
    double& cursor = b.in_headroom ? at_headroom : at;
    placed.push_back({&b, cursor, cursor + b.gib});
    cursor += b.gib;
  }
  const double left = l.usable_gib - at;  // < 0: the blocks need more than the usable share
  const double headroom = l.total_gib - l.usable_gib;
  double hi = std::max({l.total_gib, at, at_headroom});
  for (const auto& p : placed)
    if (p.block->measured_gib) hi = std::max(hi, p.start + *p.block->measured_gib);
  const Range xr = nice_range(0, hi, 8);
  const size_t rows = 1 + placed.size() + (left > 0.005 ? 1 : 0) + (headroom > 0.005 ? 1 : 0);
  const double height = kLedgerTop + 12 + static_cast<double>(rows) * kLedgerRow + 34;
  Frame f{kLedgerLabelW, kLedgerTop, kLedgerW - kLedgerLabelW - kLedgerRight, static_cast<double>(rows) * kLedgerRow + 12};
  Scale sx{xr.lo, xr.hi, f.left, f.right()};
  Svg svg(kLedgerW, height, "chart ledger-waterfall", "GPU memory ledger waterfall");
  x_axis(svg, f, sx, nice_ticks(xr.lo, xr.hi, 8), "GiB");
  svg.text(f.left, 14, "GPU memory per GPU: where each GiB goes at startup (GiB)", "chart-title");
  // The capacity and the usable share as vertical lines through every row, labelled on top.
  svg.line(sx(l.total_gib), f.top - 8, sx(l.total_gib), f.bottom(), "ledger-capacity");
  svg.text(sx(l.total_gib), f.top - 12, "GPU " + gib(l.total_gib), "ledger-ref-label", "middle");
  if (headroom > 0.005) {
    svg.line(sx(l.usable_gib), f.top - 8, sx(l.usable_gib), f.bottom(), "ledger-usable");
    const std::string u = fmt::format("usable {} (x {:g})", gib(l.usable_gib), l.utilization);
    // Beside the capacity's label, on the side away from it.
    svg.text(sx(l.usable_gib) - 4, f.top - 12 - 12, u, "ledger-ref-label", "end");
  }
  double y = f.top + 6;
  auto row_label = [&](const std::string& s) { svg.text(f.left - 8, y + kLedgerBar / 2 + 4, s, "row-label", "end"); };
  // The stacked bar: every block in place, then what is left and the headroom.
  row_label("All blocks");
  if (headroom > 0.005)
    svg.rect(sx(l.usable_gib), y, sx(l.total_gib) - sx(l.usable_gib), kLedgerBar, "ledger-bar lg-headroom");
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& p : placed) {
    const double x0 = sx(std::min(p.start, p.end)), x1 = sx(std::max(p.start, p.end));
    const std::string cls = p.block->gib < 0 ? "lg-short" : block_class(p.block->key);
    svg.open_group("ledger-seg");
    svg.rect(x0, y, x1 - x0, kLedgerBar, "ledger-bar " + cls);
    svg.title(p.block->label + ": " + gib(p.block->gib));
    svg.close_group();
    if (x1 - x0 > 6.3 * static_cast<double>(p.block->label.size()) + 8)
      svg.text((x0 + x1) / 2, y + kLedgerBar / 2 + 4, p.block->label, "seg-label", "middle");
  }
  if (left > 0.005) svg.rect(sx(at), y, sx(l.usable_gib) - sx(at), kLedgerBar, "ledger-bar lg-left");
  y += kLedgerRow;
  // One row per block, floating where the previous one ended.
  for (const auto& p : placed) {
    const auto& b = *p.block;
    row_label(b.label);
    const double lo = std::min(p.start, p.end), hi_b = std::max(p.start, p.end);
    const std::string cls = b.gib < 0 ? "lg-short" : block_class(b.key);
    svg.open_group("ledger-row", fmt::format("data-block=\"{}\"", html_text(b.key)));
    svg.rect(sx(lo), y, std::max(1.0, sx(hi_b) - sx(lo)), kLedgerBar, "ledger-bar " + cls);
    svg.title(fmt::format("{}: {} (from {} to {})", b.label, gib(b.gib), gib(lo), gib(hi_b)));
    // The part past the usable share (or the capacity, for the headroom) does not fit.
    const double limit = b.in_headroom ? l.total_gib : l.usable_gib;
    if (b.gib > 0 && p.end > limit + 1e-9)
      svg.rect(sx(std::max(lo, limit)), y, sx(p.end) - sx(std::max(lo, limit)), kLedgerBar, "ledger-over");
    svg.close_group();
    std::string label = b.gib < 0 ? "short by " + gib(-b.gib) : gib(b.gib);
    if (b.measured_gib) {
      const double mx = sx(p.start + *b.measured_gib);
      svg.line(mx, y - 3, mx, y + kLedgerBar + 3, "ledger-measured");
      svg.circle(mx, y - 3, 3, "ledger-measured-dot", {}, fmt::format("{} in the engine log: {}", b.label, gib(*b.measured_gib)));
      label += fmt::format(" (log {:.2f})", *b.measured_gib);
    }
    // After the bar and the engine's tick, whichever ends later.
    const double label_end = b.measured_gib ? std::max(hi_b, p.start + *b.measured_gib) : hi_b;
    bar_label(svg, sx, lo, label_end, y + kLedgerBar / 2 + 4, label, kLedgerW - 4);
    blocks.push_back({{"key", b.key}, {"label", b.label}, {"gib", b.gib}, {"start_gib", p.start}, {"in_headroom", b.in_headroom},
                      {"measured_gib", b.measured_gib ? nlohmann::json(*b.measured_gib) : nlohmann::json()}});
    y += kLedgerRow;
  }
  if (left > 0.005) {
    row_label("Left unused");
    svg.rect(sx(at), y, sx(l.usable_gib) - sx(at), kLedgerBar, "ledger-bar lg-left");
    bar_label(svg, sx, at, l.usable_gib, y + kLedgerBar / 2 + 4, gib(left), kLedgerW - 4);
    y += kLedgerRow;
  }
  if (headroom > 0.005) {
    row_label("Headroom");
    svg.rect(sx(l.usable_gib), y, sx(l.total_gib) - sx(l.usable_gib), kLedgerBar, "ledger-bar lg-headroom");
    bar_label(svg, sx, l.usable_gib, l.total_gib, y + kLedgerBar / 2 + 4,
              fmt::format("{} (1 - {:g})", gib(headroom), l.utilization), kLedgerW - 4);
  }
  std::string rows_html;
  for (const auto& p : placed) {
    const auto& b = *p.block;
    std::string measured = "—", diff = "—";
    if (b.measured_gib) {
      measured = gib(*b.measured_gib);
      if (*b.measured_gib != 0) diff = fmt::format("{:+.1f}%", 100 * (b.gib - *b.measured_gib) / std::fabs(*b.measured_gib));
    }
    rows_html += fmt::format("<tr><td><span class=\"swatch-box {}\"></span>{}</td><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{}</td><td>{}</td></tr>\n",
                             b.gib < 0 ? "lg-short" : block_class(b.key), html_text(b.label), b.in_headroom ? "headroom" : "usable",
                             gib(b.gib), 100 * b.gib / l.total_gib, measured, diff);
  }
  if (left > 0.005)
    rows_html += fmt::format("<tr><td><span class=\"swatch-box lg-left\"></span>Left unused</td><td>usable</td><td>{}</td><td>{:.1f}%</td><td>—</td><td>—</td></tr>\n",
                             gib(left), 100 * left / l.total_gib);
  if (headroom > 0.005)
    rows_html += fmt::format("<tr><td><span class=\"swatch-box lg-headroom\"></span>Headroom</td><td>—</td><td>{}</td><td>{:.1f}%</td><td>—</td><td>—</td></tr>\n",
                             gib(headroom), 100 * headroom / l.total_gib);
  const std::string verdict_cls = l.verdict == "fits" ? "sev-ok" : "sev-warning";
  out.html = "<section id=\"ledger\"><h2>Memory ledger</h2>\n<p class=\"caption\">" + html_text(l.title) + "</p>\n" +
             fmt::format("<p class=\"verdict {}\"><b>{}</b>{}{}</p>\n", verdict_cls, html_text(l.verdict), l.verdict_detail.empty() ? "" : ": ",
                         html_text(l.verdict_detail)) +
             "<figure class=\"ledger\">" + svg.finish() + "</figure>\n" +
             (l.measured_source.empty() ? std::string()
                                        : "<p class=\"caption\">Black ticks: the engine's own numbers, from " +
                                              html_text(l.measured_source) + ".</p>\n") +
             fmt::format("<table class=\"ledger-table\"><tr><th>block</th><th>in</th><th>GiB</th><th>of {}</th><th>engine log</th>"
                         "<th>ledger vs log</th></tr>\n",
                         gib(l.total_gib)) +
             rows_html + "</table></section>\n";
  out.data = {{"title", l.title},
              {"total_gib", l.total_gib},
              {"usable_gib", l.usable_gib},
              {"utilization", l.utilization},
              {"utilization_flag", l.utilization_flag},
              {"headroom_gib", headroom},
              {"left_gib", left},
              {"verdict", l.verdict},
              {"verdict_detail", l.verdict_detail},
              {"measured_source", l.measured_source.empty() ? nlohmann::json() : nlohmann::json(l.measured_source)},
              {"blocks", blocks}};
  return out;
}

}  // namespace llmtriage::report
