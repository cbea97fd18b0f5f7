#pragma once
// Assembling the evidence of a diagnosis from every input the user named: a live endpoint (scraped
// over a window, the snapshot kept on disk), snapshots, logs, request records, bench result
// folders, saved /metrics and GPU readings, sampled outputs, the launch settings, the model and GPU
// as typed, and the same for a healthy baseline. Each input is read with the real readers into one
// core::Evidence per side, with one InputNote per input (ok, or why not); an input that cannot be
// used never ends the run. Knows nothing of how the evidence is judged (that is diagnose's).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collect/snapshot.h"
#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::inputs {

struct Sources {
  // Live.
  std::string endpoint;
  double window_s = 30;    // seconds, checked by the caller
  double interval_s = 5;
  std::string dcgm;
  std::string api_key;     // never written anywhere; scrubbed from every note
  bool no_local_gpu = false;
  std::string keep_snapshot;  // where the live snapshot is written ("" = ./llmtriage-snapshot-<UTC>.json)
  // Offline.
  std::vector<std::string> snapshots, logs, records, benches, outputs, metrics_files, gpu_files;
  std::string engine_args;  // pasted launch settings, verbatim
  std::string model, gpu;   // as typed
  std::optional<int> tp;
  // A healthy period.
  std::vector<std::string> baseline_snapshots, baseline_logs, baseline_records, baseline_benches, baseline_metrics_files;
};

struct Assembled {
  core::Evidence now;
  std::optional<core::Evidence> baseline;  // only when a baseline input held evidence
  std::optional<std::string> snapshot_path;  // the live snapshot, absolute, once written
  bool live = false;
  std::vector<std::string> warnings;  // one line per input that could not be used (for stderr)
  // Something was read: evidence, launch settings, or a model or GPU name.
  bool any_evidence = false;
};

// Called after every live scrape with the snapshot so far (the CLI draws a progress line).
using LiveProgress = std::function<void(const collect::Snapshot&)>;

// Errors only for what the user must fix before anything can be read (a malformed endpoint URL).
core::Result<Assembled> assemble(const Sources& sources, const LiveProgress& progress = {});

}  // namespace llmtriage::inputs
