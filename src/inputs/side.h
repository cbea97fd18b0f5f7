#pragma once
// One side of a diagnosis (now, or a healthy baseline) assembled from the inputs the user named:
// each reader's output merged into one Evidence, with one InputNote per input (ok or why not).
// inputs/assemble.h drives it for `diagnose`; `report` reads bench folders with it.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/names.h"
#include "collect/snapshot.h"
#include "core/evidence.h"

namespace llmtriage::inputs {

// Replaces every occurrence of each secret (3 characters or more) with "<redacted>".
void scrub_secrets(std::string& text, const std::vector<std::string>& secrets);
// The secret parts of a URL: the user-info password and the query values collect::redact_url_secrets hides.
std::vector<std::string> url_secrets(const std::string& url);

// Later sources win field by field (precedence: logs < snapshots < engine args < flags).
void merge_settings(core::EngineSettings& into, const core::EngineSettings& later);

// One side (now or baseline) being assembled. Engine samples from /metrics (snapshots, bench
// scrapes, the endpoint) and from log stats lines are kept apart: their clocks differ (a log
// without a year is relative), so the log timeline is used only when no /metrics sample exists.
struct EvidenceSide {
  std::string prefix;  // "" or "baseline "
  core::Evidence ev;
  std::vector<core::EngineSample> metric_samples;
  std::vector<std::pair<size_t, std::vector<core::EngineSample>>> log_timelines;  // (inputs index, samples)
  core::EngineSettings from_logs, from_snapshots;
  std::vector<std::string>* warnings = nullptr;
  const std::string* model_flag = nullptr;
  std::vector<std::string> secrets;  // never written: the API key, URL passwords and tokens
  // A log read whose lines were all unknown (a client's exception, another program's output):
  // said under Inputs with its first unknown lines, and the diagnosis goes on without it.
  bool unknown_text_read = false;

  void note(std::string source, std::string kind, bool ok, std::string text) {
    scrub_secrets(source, secrets);
    scrub_secrets(text, secrets);
    // Readers' errors start with the path; the note sits next to it already.
    if (text.rfind(source + ": ", 0) == 0) text = text.substr(source.size() + 2);
    if (!ok && warnings) warnings->push_back(fmt::format("{}{} {}: {}", prefix, kind, source, text));
    ev.inputs.push_back({std::move(source), std::move(kind), ok, std::move(text)});
  }
  void deployment_from(const core::Deployment& d) {
    auto& me = ev.deployment;
    if (me.model.empty()) me.model = d.model;
    if (me.gpu.empty()) me.gpu = d.gpu;
    if (me.num_gpus == 0) me.num_gpus = d.num_gpus;
    if (me.engine == core::EngineKind::unknown) me.engine = d.engine;
    if (me.engine_version.empty()) me.engine_version = d.engine_version;
  }
  // A source naming another model than --model contradicts the user: not used.
  std::optional<std::string> contradicts(const std::string& model) const {
    if (!model_flag || model_flag->empty() || model.empty() || catalog::same_model(model, *model_flag)) return std::nullopt;
    // A local checkpoint directory ("/opt/ml/model", SageMaker's layout) does not say which model
    // it holds: it cannot contradict an id given with --model.
    auto local = [](const std::string& m) { return m.front() == '/' || m.front() == '.' || m.front() == '~'; };
    if (local(model) != local(*model_flag)) return std::nullopt;
    return fmt::format("it is from model '{}', --model says '{}': not used", model, *model_flag);
  }
};

inline std::string plural(size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

size_t ok_scrapes(const collect::Snapshot& s);
// `live`: the snapshot this run just took (its endpoint note already says how the scrapes went).
void add_snapshot(EvidenceSide& side, const collect::Snapshot& snap, const std::string& path, bool live = false);
void read_snapshot_file(EvidenceSide& side, const std::string& path);
void read_log(EvidenceSide& side, const std::string& path);
void read_records(EvidenceSide& side, const std::string& path, const char* kind = "records");
// A `llmtriage bench --out` folder: summary.json, records.jsonl, metrics.jsonl.
void read_bench(EvidenceSide& side, const std::string& dir);
// metrics_files.cpp: a saved /metrics text (engine and/or GPU series) and a GPU readings file
// (nvidia-smi CSV or a saved dcgm-exporter text); each is one reading at the file's mtime.
void read_metrics_file(EvidenceSide& side, const std::string& path);
void read_gpu_file(EvidenceSide& side, const std::string& path);
// Chooses the engine samples (metrics over log stats lines) and sorts the timelines.
void finish_side(EvidenceSide& side);
bool has_evidence(const core::Evidence& e);

}  // namespace llmtriage::inputs
