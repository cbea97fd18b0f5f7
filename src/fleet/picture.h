#pragma once
// The fleet as small multiples for `fleet --html` (docs/fleet.md, docs/report.md): per replica,
// its gauges and counter rates at each step of the window (the same Evidence the analysis read),
// the window-only readings (histogram quantiles, prefix-cache hit rate) from its indicators, the
// cells and rows the fleet analysis named, and rows sorted by how far each replica sits from the
// fleet median. Pure: no network, no clock. Drawn by report::fleet_small_multiples.
#include "fleet/analyze.h"
#include "fleet/gather.h"
#include "report/html_report.h"

namespace llmtriage::fleet {

report::FleetPicture fleet_picture(const FleetEvidence& fe, const FleetDiagnosis& d);

}  // namespace llmtriage::fleet
