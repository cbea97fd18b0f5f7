#pragma once
// The HTML report's inputs (report::HtmlReport) from saved results — a diagnosis JSON (`diagnose
// --json`), a snapshot (`snapshot`, `diagnose --keep-snapshot`), a bench folder (`bench --out`) —
// or from a diagnosis just made. Reading only: the drawing is src/report/html_*.
#include <optional>
#include <string>
#include <vector>

#include "bench/ab.h"
#include "core/result.h"
#include "core/slo.h"
#include "diagnose/diagnose.h"
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
report::HtmlReport html_from_diagnosis(const diagnose::DiagnoseInput& in, const diagnose::Report& r);

// Renders and writes atomically.
core::Status write_html_report(const std::string& path, const report::HtmlReport& html);

// The delta board (docs/report.md) from an A/B just made: its rows are r.metrics as `ab --json`
// prints them; the variable is the one setting that differs. `ab --html` and `drill --html`.
report::AbBoard delta_board(const bench::AbResult& r, const bench::AbOptions& ao);

}  // namespace llmtriage::cli
