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
    std::optional<double> e2e_s = {};  // with it, the request counts as the client's in flight until sent + e2e
  };
  std::vector<RequestTtft> requests;
  // Requests that failed, on the same clock: the events lane counts errors and timeouts per
  // scrape interval, at the time each failed (sent + failed_after_s, else when it was sent).
  struct RequestFailure {
    double sent_unix_s = 0;
    std::optional<double> failed_after_s;
    std::string category;  // "timeout_ttfb", "http_503", ...: a timeout when it names one
  };
  std::vector<RequestFailure> failures = {};  // "= {}": brace-initialised TimelineData elsewhere may leave it out
  // Instants on the events lane: when the snapshot was taken (unix s), and each finding's onset,
  // the first reading whose value crosses the finding's own threshold (render_html fills the
  // watches from the diagnosis; html_timeline_data.cpp maps each indicator to its lane's series).
  std::optional<double> snapshot_unix_s = {};
  struct Watch {
    std::string finding;    // the finding's id: the mark's label
    std::string indicator;  // "waiting_p50", "kv_usage_max", "preemptions_per_s", "clock_ratio", ...
    std::string op;         // ">", ">=", "<", "<="
    double threshold = 0;
  };
  std::vector<Watch> watches = {};
};

// One set of request records (a bench run, --records): the latency CDFs draw each run.
struct LatencyRun {
  std::string label;   // "baseline", "now", or the folder name
  bool baseline = false;
  std::string source;  // the folder or file it came from
  std::vector<core::RequestRecord> requests;
};

// The memory ledger as the waterfall draws it (html_ledger.cpp), filled by `llmtriage ledger` from
// the ledger it computed: per GPU, GiB. Blocks in order; each starts where the previous one ended
// (the waterfall), those in the headroom start at usable_gib.
struct LedgerPicture {
  std::string title;         // "meta-llama/Llama-3.1-8B-Instruct on H100-SXM, vLLM V1 >= 0.21 ..."
  double total_gib = 0;      // the GPU's capacity (torch-visible)
  double usable_gib = 0;     // total x utilisation
  double utilization = 0;    // the fraction the engine may use
  std::string utilization_flag;  // "--gpu-memory-utilization", "--mem-fraction-static"
  struct Block {
    std::string key;         // "weights_gib" (the ledger's JSON key)
    std::string label;       // "Weights"
    double gib = 0;          // < 0 for the KV pool: short by that much
    bool in_headroom = false;  // outside the usable share (vLLM < 0.21's CUDA graphs)
    std::optional<double> measured_gib;  // the engine's own number (its startup log)
  };
  std::vector<Block> blocks;
  std::string verdict, verdict_detail;
  std::string measured_source;  // the log the measured numbers come from ("" none)
};

// The capacity search as the curve draws it (html_capacity.cpp), filled by `llmtriage capacity`.
struct CapacityPicture {
  std::string by;            // "rate" or "concurrency"
  std::string unit;          // "req/s", "concurrent requests"
  std::string slo;           // as given: "ttft=500ms,tpot=50ms"
  std::optional<double> ttft_slo_ms, tpot_slo_ms;
  double target_pct = 99;
  std::optional<double> capacity, failing_above, knee;
  bool at_max_load = false, out_of_reach = false;
  struct Point {
    double load = 0;                   // offered
    int trials = 0;
    double attainment_pct = 0, ci_low = 0, ci_high = 0;
    double goodput_rps = 0, ttft_p99_ms = 0, tpot_p99_ms = 0, e2e_p99_ms = 0;
    std::optional<double> realized_load;  // rate runs: the rate the client sent at (mean of trials)
    bool pass = false, stopped_early = false, client_bound = false;
  };
  std::vector<Point> curve;  // by load
  std::vector<std::string> notes;
};

// An A/B comparison as the delta board draws it (html_ab_board.cpp), filled by `llmtriage ab`.
struct AbBoard {
  std::string variable;      // "max_num_seqs: 256 -> 128", or why no single variable
  bool verdict_given = false;
  std::vector<std::string> refusals;
  double confidence = 0.95;
  struct Row {
    std::string metric;      // "ttft_p99_ms"
    double a = 0, b = 0, diff = 0, lo = 0, hi = 0, rel_pct = 0;
    std::string verdict;     // "better", "worse", "no significant change"
  };
  std::vector<Row> rows;
};

// A fleet's replicas as small multiples (html_fleet.cpp), filled by `llmtriage fleet`
// (src/fleet/picture.h): one row per replica, one cell per column — a sparkline over the window
// against the fleet median at each step, or one number for the window where the store gives only
// the window's ends (histogram quantiles). Rows are drawn in the order given (the fleet sorts them
// by distance from the fleet median); every column shares one y scale across rows.
struct FleetPicture {
  double t0_unix_s = 0;  // the window's start
  double t1_s = 0;       // its length, s
  double step_s = 0;
  struct Column {
    std::string id, label, unit;  // "waiting", "waiting", "requests"; unit as tick_label takes it
    bool sparkline = true;        // false: one number for the window
    std::string from;             // where its numbers come from, for the caption/tooltip
  };
  std::vector<Column> columns;
  struct Cell {
    std::vector<double> t_s, v;    // the sparkline; t_s since t0_unix_s
    std::optional<double> value;   // the window's reading: the sparkline's mean, or the number
    bool outlier = false;          // named by the fleet's outlier analysis
    std::string outlier_text;      // "waiting 12 vs fleet median 0.5 (robust z +inf)"
  };
  struct Row {
    std::string replica;
    double distance = 0;           // robust z of the column farthest from the fleet median
    std::string farthest;          // that column's id ("" when every column sits at the median)
    bool differs = false;          // an outlier, or named by a fleet finding
    std::vector<std::string> findings;  // fleet finding ids that name this replica
    std::vector<Cell> cells;       // one per column
  };
  std::vector<Row> rows;
  std::vector<Cell> median;        // per column: the fleet median at each step (sparklines only)
  std::vector<std::string> notes;  // what the grid leaves out, and why
};

struct HtmlReport {
  std::string title;                            // the page's <title> and heading
  std::string generated_by;                     // "llmtriage 0.1.0"
  std::vector<std::string> sources;             // every input, as given
  std::optional<diagnose::Report> diagnosis;    // the layer strip and the findings
  std::optional<TimelineData> timeline;
  std::vector<LatencyRun> runs;                 // baseline(s) first
  core::Slo slo;                                // the SLO line on the CDFs (unset: none drawn)
  std::optional<AbBoard> ab;                    // the A/B delta board
  std::optional<CapacityPicture> capacity;      // the capacity curve
  std::optional<LedgerPicture> ledger;          // the memory ledger waterfall
  std::optional<FleetPicture> fleet;            // the fleet's small multiples
  std::vector<std::string> notes;               // what could not be drawn, and why
};

// The whole page.
std::string render_html(const HtmlReport& report);

// Each chart of the page as a standalone SVG file (`--svg DIR`, for a ticket or a post-mortem):
// the same drawing, with the SVG namespace, an XML declaration, a white background and the
// report's chart styles inlined (CSS variables resolved), so it opens alone in a browser, an
// image viewer or a document. Named after what it draws: "timeline-kv.svg", "cdf-ttft_s.svg",
// "fleet-grid.svg", "ledger-waterfall.svg", "capacity.svg", "ab-board.svg".
struct StandaloneSvg {
  std::string name;  // file name, ".svg" included
  std::string text;
};
std::vector<StandaloneSvg> standalone_svgs(const HtmlReport& report);

}  // namespace llmtriage::report
