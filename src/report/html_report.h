#pragma once
// The HTML report (docs/report.md): one self-contained file — no network, no script library —
// drawn from a diagnosis, a timeline of engine and GPU readings, and request records. Charts are
// inline SVG generated here; the data is embedded as JSON (<script type="application/json"
// id="llmtriage-data">) so `jq` reads it back; a few KB of hand-written JS add tooltips, a shared
// crosshair and series toggles, and the page reads the same with JS off and in print.
//
// Plain inputs, parsed at the edge: the CLI reads snapshots, bench folders and diagnosis JSON
// (src/cli/report_inputs.cpp) and fills these structs.
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/slo.h"
#include "diagnose/finding.h"

namespace llmtriage::report {

inline constexpr const char* kHtmlDataFormat = "llmtriage-html-report";
inline constexpr int kHtmlDataVersion = 1;

// llama.cpp /slots at one scrape: how many slots were processing a request, of how many.
struct SlotsReading {
  double t_s = 0;  // unix time, as EngineSample::t_s
  int busy = 0;
  int total = 0;
};

// What the correlated timeline draws: engine and GPU readings on one time axis.
struct TimelineData {
  std::string source;                      // "snap.json" (shown under the chart)
  std::vector<core::EngineSample> engine;  // time-ordered
  std::vector<core::GpuSample> gpu;        // time-ordered
  std::vector<SlotsReading> slots;         // time-ordered
  // Requests as the client saw them, on the same clock: when each was sent (unix s) and its TTFT.
  // Drawn as dots on the TTFT lane within the readings' time range.
  struct RequestTtft {
    double sent_unix_s = 0;
    double ttft_s = 0;
  };
  std::vector<RequestTtft> requests;
};

// One set of request records (a bench run, --records): the latency CDFs draw each run.
struct LatencyRun {
  std::string label;   // "baseline", "now", or the folder name
  bool baseline = false;
  std::string source;  // the folder or file it came from
  std::vector<core::RequestRecord> requests;
};

struct HtmlReport {
  std::string title;                            // the page's <title> and heading
  std::string generated_by;                     // "llmtriage 0.1.0"
  std::vector<std::string> sources;             // every input, as given
  std::optional<diagnose::Report> diagnosis;    // the layer strip and the findings
  std::optional<TimelineData> timeline;
  std::vector<LatencyRun> runs;                 // baseline(s) first
  core::Slo slo;                                // the SLO line on the CDFs (unset: none drawn)
  std::vector<std::string> notes;               // what could not be drawn, and why
};

// The whole page.
std::string render_html(const HtmlReport& report);

}  // namespace llmtriage::report
