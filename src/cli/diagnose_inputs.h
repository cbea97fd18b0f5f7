#pragma once
// Gathering the evidence for `llmtriage diagnose`: every input the user named (live endpoint,
// snapshot, logs, request records, bench result folders, engine arguments, model/GPU, sampled
// outputs, dashboard readings, and the same for a healthy baseline) read with the real readers
// into one DiagnoseInput. An input that cannot be used (unreadable, endpoint down, a log of
// another model, a model or GPU the catalog does not know) becomes an InputNote with ok=false and
// one stderr line; the diagnosis goes on with the rest. Only bad flags are errors here.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collect/snapshot.h"
#include "core/result.h"
#include "diagnose/diagnose.h"

namespace llmtriage::cli {

// The flags of `llmtriage diagnose` that name evidence (and how to judge it).
struct DiagnoseFlags {
  // Live.
  std::string endpoint;
  double window_s = 30;    // --window: a duration (docs/cli.md), seconds
  double interval_s = 5;   // --interval
  std::string dcgm;
  std::string api_key;
  bool no_local_gpu = false;
  std::string keep_snapshot;  // where the live snapshot is written ("" = ./llmtriage-snapshot-<UTC>.json)
  // Offline.
  std::vector<std::string> snapshots, logs, records, benches, outputs, metrics_files, gpu_files;
  std::string engine_args;
  std::string model, gpu;
  std::optional<int> tp;
  // A healthy period.
  std::vector<std::string> baseline_snapshots, baseline_logs, baseline_records, baseline_benches, baseline_metrics_files;
  // Judgement.
  std::vector<std::string> symptoms;
  std::string slo;
  std::string thresholds_file;
  std::vector<std::string> observe, observe_files;
  bool no_what_if = false;
};

struct Gathered {
  diagnose::DiagnoseInput input;
  std::vector<std::string> warnings;  // one line per input that could not be used (for stderr)
  bool any_evidence = false;          // something at all was read
};

// Called after every live scrape with the snapshot so far (the CLI draws a progress line).
using LiveProgress = std::function<void(const collect::Snapshot&)>;

// Reads every input. Errors only for bad flags or flag values (unknown --symptom, bad --slo,
// unknown --observe name, unreadable --thresholds, no input named at all): exit code 2.
core::Result<Gathered> gather_inputs(const DiagnoseFlags& flags, const LiveProgress& progress = {});

// Response texts from a file: one per line, or JSONL objects with a text field ("text",
// "output", "content", "response", "generated_text", or OpenAI choices[0].text/message.content).
core::Result<std::vector<std::string>> read_outputs_file(const std::string& path);

// Whether two model names denote the same model: HF ids compared normalized, and a local path or
// a served name compared by its last component ("/models/Llama-3.1-8B" == "meta-llama/Llama-3.1-8B").
bool same_model(const std::string& a, const std::string& b);

}  // namespace llmtriage::cli
