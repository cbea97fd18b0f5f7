#pragma once
// What each part of the HTML report hands the page assembler (html_page.cpp): its HTML (inline
// SVG, legend, table) and its share of the embedded JSON.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/slo.h"
#include "diagnose/finding.h"
#include "report/html_report.h"

namespace llmtriage::report {

struct ChartOut {
  std::string html;     // "" when the input holds nothing to draw
  nlohmann::json data;  // null when nothing was drawn
};

// Text for HTML element content and attribute values (& < > " ' escaped, input made printable).
std::string html_text(std::string_view s);

// A legend entry that toggles its series with JS, and is a plain label without it: a swatch of
// the series' class and its name.
std::string legend_item(std::string_view series_id, std::string_view css_class, std::string_view label);

// html_layer_strip.cpp: the verdict as a picture, one cell per layer.
ChartOut layer_strip(const diagnose::Report& report);
// html_findings.cpp: findings with evidence and remedies, cleared and not-judged layers, inputs.
std::string findings_html(const diagnose::Report& report);
// html_timeline.cpp: stacked lanes on one time axis. Adds to `notes` the lanes it could not draw.
// `ttft_slo_s`: the SLO line on the TTFT lane.
ChartOut timeline_chart(const TimelineData& timeline, std::optional<double> ttft_slo_s, std::vector<std::string>& notes);
// html_cdf.cpp: latency CDFs (TTFT, TPOT, E2E), one curve per run, SLO line, P50/P99 marks.
ChartOut latency_cdfs(const std::vector<LatencyRun>& runs, const core::Slo& slo, std::vector<std::string>& notes);

// html_ledger.cpp: the memory ledger as a waterfall, each block's GiB labelled, the engine's own
// numbers as markers.
ChartOut ledger_waterfall(const LedgerPicture& ledger);
// html_capacity.cpp: P99 TTFT/TPOT (log y) and goodput against offered load, the SLO, the answer.
ChartOut capacity_curve(const CapacityPicture& capacity);
// html_ab_board.cpp: one row per metric, the difference B - A with its interval around 0.
ChartOut ab_board(const AbBoard& board);

// html_fleet.cpp: one sparkline row per replica, the fleet median behind each, outliers marked.
ChartOut fleet_small_multiples(const FleetPicture& fleet);

// html_assets.cpp: the template, CSS and JS files of src/report/html/, embedded at build time.
std::string_view page_template();
std::string_view page_css();
std::string_view page_js();

}  // namespace llmtriage::report
