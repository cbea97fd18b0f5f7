// Fleet small multiples: one row per replica, one cell per column. A sparkline cell draws the
// replica's readings over the window on the column's y scale (shared by every row, so rows
// compare at a glance) over the fleet median at each step (grey); the window's value is written
// beside it. A number cell holds a reading the store gives only for the whole window. Cells the
// fleet's outlier analysis named are red; a replica named by a fleet finding has a red mark and
// the finding ids under its name. A table under the grid holds the same numbers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "report/diagnose_format.h"
#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {
namespace {
namespace small_multiples {  // named: the module builds in unity batches

constexpr double kNameW = 214, kSparkW = 86, kValueW = 42, kNumberW = 74, kHeadH = 44, kRowH = 34, kSparkH = 24,
                 kAxisH = 26, kRight = 6;

double column_width(const FleetPicture::Column& c) { return c.sparkline ? kSparkW + kValueW : kNumberW; }

// The y range of a column over every row and the median: fractions 0..100%, else 0..the largest.
Range column_range(const FleetPicture& p, size_t c) {
  if (p.columns[c].unit == "fraction") return {0, 1};
  double hi = 0;
  auto take = [&](const FleetPicture::Cell& cell) {
    for (double v : cell.v)
      if (std::isfinite(v)) hi = std::max(hi, v);
  };
  for (const auto& r : p.rows)
    if (c < r.cells.size()) take(r.cells[c]);
  if (c < p.median.size()) take(p.median[c]);
  return nice_range(0, hi, 2);
}

std::string cell_value(const FleetPicture::Column& col, const std::optional<double>& v) {
  return v && std::isfinite(*v) ? format_value(*v, col.unit) : "–";
}

// Beside a sparkline there is room for a number only: the column's head gives the unit.
std::string compact_value(const FleetPicture::Column& col, const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return "–";
  if (col.unit == "fraction" || col.unit == "s") return format_value(*v, col.unit);
  const double a = std::fabs(*v);
  if (a >= 10000) return fmt::format("{:.0f}k", *v / 1000);
  return a >= 100 ? fmt::format("{:.0f}", *v) : fmt::format("{:.3g}", *v);
}

// At most n characters (UTF-8 aware enough for our ASCII ids), an ellipsis when cut.
std::string clip_text(const std::string& s, size_t n) { return s.size() <= n ? s : s.substr(0, n - 1) + "…"; }

// A short replica label: the SVG column is narrow; the full name is its tooltip and in the table.
std::string short_name(const std::string& s) {
  constexpr size_t kMax = 26;
  return s.size() <= kMax ? s : s.substr(0, 11) + "…" + s.substr(s.size() - 14);
}

// A sparkline is a few dozen pixels wide: per pixel column its lowest and highest point, in the
// order they came (the envelope on screen), whatever the number of steps.
void sparkline(Svg& svg, const FleetPicture::Cell& cell, const Scale& sx, const Scale& sy, std::string_view cls,
               std::string_view attrs = {}) {
  std::vector<Point> pts;
  for (size_t i = 0; i < cell.t_s.size() && i < cell.v.size(); ++i)
    if (std::isfinite(cell.v[i])) pts.push_back({sx(cell.t_s[i]), sy(std::min(cell.v[i], sy.d1))});
  if (pts.size() == 1) {
    svg.circle(pts[0].x, pts[0].y, 1.8, std::string(cls) + "-dot");
    return;
  }
  std::vector<Point> kept;
  for (size_t i = 0; i < pts.size();) {
    size_t j = i, lo = i, hi = i;
    for (; j < pts.size() && std::floor(pts[j].x) == std::floor(pts[i].x); ++j) {
      if (pts[j].y < pts[lo].y) lo = j;
      if (pts[j].y > pts[hi].y) hi = j;
    }
    if (j - i <= 2) {
      kept.insert(kept.end(), pts.begin() + static_cast<long>(i), pts.begin() + static_cast<long>(j));
    } else {
      kept.push_back(pts[std::min(lo, hi)]);
      kept.push_back(pts[std::max(lo, hi)]);
    }
    i = j;
  }
  svg.polyline(kept, cls, attrs);
}

// Numbers in the embedded JSON to 5 significant digits: readings, not measurements to 1e-16.
nlohmann::json rounded(double v) {
  if (!std::isfinite(v)) return nullptr;
  return std::stod(fmt::format("{:.5g}", v));
}

}  // namespace small_multiples
}  // namespace

ChartOut fleet_small_multiples(const FleetPicture& p) {
  using namespace small_multiples;
  ChartOut out;
  if (p.rows.empty() || p.columns.empty()) return out;
  double width = kNameW + kRight;
  for (const auto& c : p.columns) width += column_width(c);
  const double height = kHeadH + static_cast<double>(p.rows.size()) * kRowH + kAxisH;
  const double t1 = std::max(p.t1_s, 1e-9);
  std::vector<Range> ranges;
  for (size_t c = 0; c < p.columns.size(); ++c) ranges.push_back(column_range(p, c));

  Svg svg(width, height, "chart fleet-grid", "fleet small multiples: one row per replica");
  // The fleet median of each column is the same line in every row: drawn once, used in each.
  {
    svg.open_defs();
    double x = kNameW;
    for (size_t c = 0; c < p.columns.size(); ++c) {
      const auto& col = p.columns[c];
      if (col.sparkline && c < p.median.size()) {
        const Frame f{x + 2, (kRowH - kSparkH) / 2, kSparkW - 8, kSparkH};
        sparkline(svg, p.median[c], Scale{0, t1, f.left, f.right()}, Scale{ranges[c].lo, ranges[c].hi, f.bottom(), f.top},
                  "spark-median", fmt::format("id=\"fleet-median-{}\"", c));
      }
      x += column_width(col);
    }
    svg.close_defs();
  }
  // Headers: the column's name and its y range in its unit (the axis of every cell below).
  double x = kNameW;
  svg.text(4, 16, "replica", "chart-title");
  svg.text(4, 32, "distance from median", "tick");
  for (size_t c = 0; c < p.columns.size(); ++c) {
    const auto& col = p.columns[c];
    svg.text(x + 2, 16, col.label, "chart-title");
    svg.text(x + 2, 32,
             col.sparkline ? fmt::format("y {} – {}", tick_label(ranges[c].lo, col.unit), tick_label(ranges[c].hi, col.unit))
                           : "window",
             "tick");
    x += column_width(col);
  }
  for (size_t r = 0; r < p.rows.size(); ++r) {
    const auto& row = p.rows[r];
    const double top = kHeadH + static_cast<double>(r) * kRowH;
    svg.open_group(row.differs ? "fleet-row differs" : "fleet-row",
                   fmt::format("data-replica=\"{}\"", xml_escape(row.replica)));
    if (r % 2 == 1) svg.rect(0, top, width - kRight, kRowH, "fleet-band");
    std::string named;
    for (const auto& f : row.findings) named += (named.empty() ? "" : ", ") + f;
    svg.open_group("fleet-name");
    svg.title(row.replica + (named.empty() ? "" : "\nnamed by: " + named));
    if (row.differs) svg.text(4, top + 15, "✖", "fleet-mark");
    svg.text(row.differs ? 18 : 4, top + 15, short_name(row.replica), row.differs ? "row-label fleet-differs" : "row-label");
    std::string sub = row.farthest.empty() ? "at the median" : fmt::format("z {:.1f} {}", row.distance, row.farthest);
    if (!row.findings.empty()) {
      sub = fmt::format("z {:.1f} · ", row.distance) + row.findings.front() +
            (row.findings.size() > 1 ? fmt::format(" +{}", row.findings.size() - 1) : "");
    }
    svg.text(row.differs ? 18 : 4, top + 28, clip_text(sub, 36), row.findings.empty() ? "tick" : "tick fleet-finding");
    svg.close_group();
    x = kNameW;
    for (size_t c = 0; c < p.columns.size(); ++c) {
      const auto& col = p.columns[c];
      const FleetPicture::Cell empty;
      const auto& cell = c < row.cells.size() ? row.cells[c] : empty;
      const std::string tip =
          fmt::format("{} · {}: {}{}", row.replica, col.label, cell_value(col, cell.value),
                      cell.outlier_text.empty() ? std::string() : "\n" + cell.outlier_text);
      svg.open_group(cell.outlier ? "fleet-cell outlier" : "fleet-cell", fmt::format("data-col=\"{}\"", col.id));
      svg.title(tip);
      if (col.sparkline) {
        const Frame f{x + 2, top + (kRowH - kSparkH) / 2, kSparkW - 8, kSparkH};
        svg.rect(f.left, f.top, f.width, f.height, cell.outlier ? "spark-bg outlier" : "spark-bg");
        const Scale sx{0, t1, f.left, f.right()};
        const Scale sy{ranges[c].lo, ranges[c].hi, f.bottom(), f.top};
        if (c < p.median.size() && p.median[c].v.size() > 1) svg.use(fmt::format("fleet-median-{}", c), 0, top, "spark-median-use");
        sparkline(svg, cell, sx, sy, cell.outlier ? "spark outlier" : "spark");
        svg.text(x + kSparkW - 2, top + 21, compact_value(col, cell.value), cell.outlier ? "spark-value outlier" : "spark-value");
      } else {
        if (cell.outlier) svg.rect(x + 1, top + 5, kNumberW - 6, kRowH - 10, "spark-bg outlier");
        svg.text(x + kNumberW - 8, top + 21, cell_value(col, cell.value), cell.outlier ? "spark-value outlier" : "spark-value", "end");
      }
      svg.close_group();
      x += column_width(col);
    }
    svg.close_group();
  }
  // The time axis under each sparkline column: the window's start and end, seconds.
  const double axis_y = kHeadH + static_cast<double>(p.rows.size()) * kRowH;
  x = kNameW;
  svg.line(kNameW, axis_y, width - kRight, axis_y, "axis");
  svg.text(4, axis_y + 16, "time since window start", "tick");
  for (const auto& col : p.columns) {
    if (col.sparkline) {
      svg.text(x + 2, axis_y + 16, "0", "tick");
      svg.text(x + kSparkW - 6, axis_y + 16, tick_label(p.t1_s, "s"), "tick", "end");
    }
    x += column_width(col);
  }
  const std::string svg_text = svg.finish();

  // The table: the same numbers, every replica, in the rows' order.
  std::string table = "<table class=\"fleet-table\"><thead><tr><th>replica</th><th>distance (robust z)</th>";
  for (const auto& col : p.columns) table += "<th>" + html_text(col.label) + "</th>";
  table += "<th>named by</th></tr></thead><tbody>\n";
  for (const auto& row : p.rows) {
    table += fmt::format("<tr{}><td>{}</td><td>{}</td>", row.differs ? " class=\"fleet-differs-row\"" : "", html_text(row.replica),
                         row.farthest.empty() ? "0" : html_text(fmt::format("{:.1f} ({})", row.distance, row.farthest)));
    for (size_t c = 0; c < p.columns.size(); ++c) {
      const bool o = c < row.cells.size() && row.cells[c].outlier;
      table += fmt::format("<td{}>{}</td>", o ? " class=\"outlier\"" : "",
                           html_text(cell_value(p.columns[c], c < row.cells.size() ? row.cells[c].value : std::nullopt)));
    }
    std::string f;
    for (const auto& id : row.findings) f += (f.empty() ? "" : ", ") + id;
    table += "<td>" + html_text(f) + "</td></tr>\n";
  }
  table += "</tbody></table>\n";
  std::string from;
  for (const auto& col : p.columns)
    if (!col.from.empty()) from += "<li><b>" + html_text(col.label) + "</b>: " + html_text(col.from) + "</li>";
  out.html = fmt::format(
      "<section id=\"fleet\"><h2>Replicas</h2>\n<p class=\"caption\">{} replicas over {} (step {}), sorted by how far each "
      "sits from the fleet median; every column shares one y scale; grey: the fleet median at each step; red: a reading the "
      "fleet analysis calls an outlier; ✖: a replica that differs. Hover a cell for its value.</p>\n<figure class=\"fleet\">{}"
      "</figure>\n{}<ul class=\"fleet-from caption\">{}</ul></section>\n",
      p.rows.size(), html_text(tick_label(p.t1_s, "s")), html_text(tick_label(p.step_s, "s")), svg_text, table, from);

  nlohmann::json cols = nlohmann::json::array();
  for (const auto& c : p.columns)
    cols.push_back({{"id", c.id}, {"label", c.label}, {"unit", c.unit}, {"sparkline", c.sparkline}, {"from", c.from}});
  // One time grid for every sparkline (the store's steps): each cell's readings on it, null where
  // that replica has none.
  std::vector<double> grid;
  for (const auto& r : p.rows)
    for (const auto& c : r.cells) grid.insert(grid.end(), c.t_s.begin(), c.t_s.end());
  for (const auto& c : p.median) grid.insert(grid.end(), c.t_s.begin(), c.t_s.end());
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  auto on_grid = [&](const FleetPicture::Cell& c) {
    nlohmann::json v = nlohmann::json::array();
    size_t k = 0;
    for (double t : grid) {
      while (k < c.t_s.size() && c.t_s[k] < t) ++k;
      v.push_back(k < c.t_s.size() && c.t_s[k] == t && k < c.v.size() ? rounded(c.v[k]) : nlohmann::json(nullptr));
    }
    return v;
  };
  auto cell_json = [&](const FleetPicture::Cell& c, bool spark) {
    nlohmann::json j = {{"outlier", c.outlier}};
    if (spark) j["v"] = on_grid(c);
    j["value"] = c.value && std::isfinite(*c.value) ? nlohmann::json(*c.value) : nlohmann::json(nullptr);
    if (!c.outlier_text.empty()) j["outlier_text"] = c.outlier_text;
    return j;
  };
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : p.rows) {
    nlohmann::json cells = nlohmann::json::object();
    for (size_t c = 0; c < p.columns.size() && c < r.cells.size(); ++c)
      cells[p.columns[c].id] = cell_json(r.cells[c], p.columns[c].sparkline);
    rows.push_back({{"replica", r.replica}, {"distance", r.distance}, {"farthest", r.farthest}, {"differs", r.differs},
                    {"findings", r.findings}, {"cells", cells}});
  }
  nlohmann::json median = nlohmann::json::object();
  for (size_t c = 0; c < p.columns.size() && c < p.median.size(); ++c)
    if (p.columns[c].sparkline) median[p.columns[c].id] = on_grid(p.median[c]);
  out.data = {{"t0_unix_s", p.t0_unix_s}, {"t1_s", p.t1_s}, {"step_s", p.step_s}, {"t_s", grid}, {"columns", cols},
              {"rows", rows}, {"median", median}, {"notes", p.notes}};
  return out;
}

}  // namespace llmtriage::report
