#pragma once
// The HTML report's inputs (report::HtmlReport) from saved results — a diagnosis JSON (`diagnose
// --json`), a snapshot (`snapshot`, `diagnose --keep-snapshot`), a bench folder (`bench --out`) —
// or from a diagnosis just made. Reading only: the drawing is src/report/html_*.
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bench/ab.h"
#include "core/result.h"
#include "core/slo.h"
#include "diagnose/diagnose.h"
#include "ledger/ledger.h"
#include "report/html_report.h"

namespace llmtriage::cli {

// Each input is told apart by what it is: a folder (or its summary.json) is a bench result; a
// JSON file with "format" llmtriage-diagnosis or llmtriage-snapshot is that. Bench folders are
// drawn in the order given, the first as the baseline when there are two or more. A diagnosis
// whose snapshot_path names a readable snapshot brings its timeline when no snapshot is given.
// `slo` overrides the bench summaries' SLO. An input that cannot be read is an error naming it.
core::Result<report::HtmlReport> load_report_inputs(const std::vector<std::string>& inputs,
                                                    const std::optional<core::Slo>& slo);

// The HTML report of a diagnosis just made: its layer strip and findings, the timeline of the
// evidence it read (llama.cpp slots from the kept snapshot), the CDFs of its request records
// (now, and the baseline's), the SLO it judged against.
// Each request's TTFT and each failure of `ev` on the scrapes' clock in `t` (a bench folder's
// records are offset by its run's start; unix-time records are taken as they are); a note in
// `notes` when the records' clock is unknown or does not overlap the scrapes.
void put_requests_on_clock(const core::Evidence& ev, report::TimelineData& t, std::vector<std::string>& notes);

report::HtmlReport html_from_diagnosis(const diagnose::DiagnoseInput& in, const diagnose::Report& r);

// The waterfall's blocks (docs/report.md) from a ledger, in the ledger's order, with the engine's
// own number for each where its startup log stated one (`logged`: log key -> value, from
// `log_file`). `ledger --html` and `diagnose --html`.
report::LedgerPicture ledger_picture(const ledger::LedgerReport& r, const std::map<std::string, double>& logged,
                                     const std::string& log_file);

// Renders and writes atomically.
core::Status write_html_report(const std::string& path, const report::HtmlReport& html);

// A command's `--html FILE` and `--svg DIR`: the page to FILE, each chart as a standalone SVG to
// DIR/<name>.svg (DIR created when missing); what was written said on stderr ("llmtriage CMD:
// ..."). Either may be "" (not asked). The first failure, or nullopt when everything was written.
std::optional<core::Error> write_pictures(std::ostream& err, const std::string& command, const std::string& html_path,
                                          const std::string& svg_dir, const report::HtmlReport& html);

// The delta board (docs/report.md) from an A/B just made: its rows are r.metrics as `ab --json`
// prints them; the variable is the one setting that differs. `ab --html` and `drill --html`.
report::AbBoard delta_board(const bench::AbResult& r, const bench::AbOptions& ao);

}  // namespace llmtriage::cli
