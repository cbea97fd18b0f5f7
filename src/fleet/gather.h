#pragma once
// From a Prometheus-compatible store to one Evidence per replica (and its baseline), with a
// fixed number of queries whatever the fleet's size:
//   1. which engine metric families exist under the selector        (instant, grouped by name)
//   2. engine gauges and counters over the window at `step`          (one query_range)
//   3. engine histograms at the window's two ends                    (one query_range, step = window)
//   4. DCGM GPU series over the window at `step`                     (one query_range)
// and 2-4 again at the baseline window when one is asked for. Each replica's values at each step
// are rendered back into exposition text and read by the same engine and DCGM adapters a scrape
// uses (src/ingest), so names, renames and units have one source of truth. Memory grows with
// replicas x steps (steps are capped), never with the store's raw samples.
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"
#include "fleet/prom_client.h"

namespace llmtriage::fleet {

struct GatherOptions {
  std::string selector;                 // '{job="vllm"}', 'job="vllm"' or "" (everything)
  std::string gpu_selector;             // matchers for the DCGM series ("" = all DCGM_FI_* series)
  std::string replica_label = "instance";
  double end_s = 0;                     // unix seconds: the window's end
  double window_s = 1800;
  double step_s = 0;                    // 0 = window / 60, at least 1 s
  std::optional<double> baseline_end_s; // the baseline window's end (same length), when wanted
  int max_steps = 240;                  // caps memory per replica
};

struct ReplicaEvidence {
  std::string replica;                  // the replica label's value
  core::Evidence now;
  std::optional<core::Evidence> baseline;
  std::vector<std::string> notes;       // "no engine series in the window", "GPU series joined by host"
};

struct FleetEvidence {
  core::EngineKind engine = core::EngineKind::unknown;
  std::string engine_detected_by;
  std::vector<ReplicaEvidence> replicas;  // sorted by replica
  double step_s = 0, start_s = 0, end_s = 0;
  std::optional<double> baseline_start_s, baseline_end_s;
  std::vector<std::string> notes;         // store warnings, partial data, surprises
  int gpu_series_unjoined = 0;            // GPU series whose host matched no replica
};

core::Result<FleetEvidence> gather(PromClient& client, const GatherOptions& options);

// Helpers, exposed for tests.
// The selector's matchers without braces: '{job="vllm"}' -> 'job="vllm"'; checks quotes balance.
core::Result<std::string> selector_matchers(const std::string& selector);
// "{<name matcher>, <selector matchers>}".
std::string with_matchers(const std::string& name_matcher, const std::string& matchers);
// Renders one series' sample as an exposition line: name{labels} value.
std::string exposition_line(const std::string& name, const Labels& labels, double value);
// "host:port" -> "host"; "[::1]:9090" -> "::1"; other values unchanged.
std::string host_of(const std::string& instance);

}  // namespace llmtriage::fleet
