#pragma once
// A snapshot: everything captured from one inference server over a window, before anything is
// restarted (a restart wipes the KV cache and every counter). One self-describing, versioned
// JSON file (docs/snapshot.md), written atomically, with no secret in it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::collect {

inline constexpr const char* kSnapshotFormat = "llmtriage-snapshot";
inline constexpr int kSnapshotVersion = 1;

// One /metrics exposition as scraped (or read from a file), adapted to engine samples.
struct ScrapeRecord {
  double t_s = 0;                     // unix time of the scrape (file: its mtime or order index)
  std::string source;                 // URL (redacted) or file path
  bool ok = false;
  std::string error;                  // why it failed (ok == false)
  double fetch_s = 0;                 // request duration (live)
  size_t bytes = 0;
  size_t series = 0;
  size_t malformed = 0;
  std::vector<std::string> parse_errors;  // first few malformed lines, "line N: ..."
  std::vector<core::EngineSample> engine_samples;
  std::string raw;                    // the exposition as received: the evidence itself
};

// Something that did not work, kept so the reader knows what is missing and why.
struct CaptureFailure {
  double t_s = 0;
  std::string what;    // "metrics", "dcgm", "version", "models", "gpu"
  std::string source;  // URL (redacted) or path
  std::string error;
};

struct ModelInfo {
  std::string id;
  std::string root;
  std::string owned_by;   // "vllm", "sglang", "llamacpp": tells servers apart
  std::optional<int64_t> max_model_len;
};

// A llama.cpp server's own description of itself (GET /props, GET /v1/models "meta"): what its
// /metrics cannot say. Source: tools/server/server-context.cpp (handle_props, handle_slots,
// handle_models) of llama.cpp b10470.
struct ServerProps {
  std::string source;                   // the URL it came from (redacted)
  std::optional<int> total_slots;       // -np / --parallel: requests served at once
  std::optional<int64_t> ctx_per_slot;  // KV cells per slot (n_ctx / n_parallel unless --kv-unified)
  std::optional<int64_t> ctx_train;     // the model's trained context (GGUF context_length)
  std::optional<int64_t> n_params;
  std::optional<int64_t> model_bytes;   // tensor bytes
  std::string build;                    // "b10470-34af94cd9"
  std::string model_path;
  std::string model_ftype;              // "F16", "Q4_K - Medium"
};

// One slot of GET /slots. Fields other than id, n_ctx and is_processing appear once the slot has
// served a task.
struct SlotState {
  int id = 0;
  int64_t n_ctx = 0;
  bool processing = false;
  std::optional<int64_t> n_prompt_tokens, n_prompt_tokens_processed, n_prompt_tokens_cache, n_decoded, n_remain;
};

struct SlotsSample {
  double t_s = 0;
  std::vector<SlotState> slots;
  int busy() const;
};

// What the window says, per (model, engine index): current gauges, rates from counters and
// percentiles from the difference of the first and last histogram in the window.
struct HistogramStats {
  double count = 0;                   // observations in the window
  std::optional<double> mean, p50, p90, p99;
  bool since_start = false;           // one scrape only (or a reset): lifetime, not windowed
};

struct WindowStats {
  std::string model_name;
  std::string engine_index;
  int scrapes = 0;
  double window_s = 0;                // last - first scrape time
  std::optional<double> running, waiting, kv_usage;          // last scrape
  std::optional<double> running_max, waiting_max, kv_usage_max;
  std::optional<double> kv_cache_capacity_tokens;
  std::optional<double> prompt_tok_s, generation_tok_s, finished_req_s, preemptions_per_s;
  std::optional<double> preemptions_total;                    // last scrape
  std::optional<double> prefix_cache_hit_rate;                // window hits/queries, or the gauge
  int counter_resets = 0;             // an engine restart inside the window
  HistogramStats ttft_s, itl_s, tpot_s, e2e_s, queue_s, prompt_tokens, output_tokens;
};

struct GpuStats {
  int index = 0;
  std::string name;
  int samples = 0;
  core::GpuSample last;
  std::optional<double> power_w_max, temp_c_max, sm_clock_mhz_min;
  std::vector<std::string> throttle_names_seen;  // union over the window
};

struct Snapshot {
  int version = kSnapshotVersion;
  std::string llmtriage_version;
  double created_unix_s = 0;
  std::string created_utc;            // "2026-12-02T23:59:01Z"
  std::string mode;                   // "live" or "files"
  std::string endpoint;               // redacted
  std::string dcgm_endpoint;          // redacted
  std::vector<std::string> files;
  double window_s = 0;                // requested
  double interval_s = 0;
  bool complete = false;              // false while capturing, or when interrupted

  core::EngineKind engine = core::EngineKind::unknown;
  std::string engine_detected_by;
  std::string engine_version;         // from the server's version endpoint, when it has one
  std::vector<ModelInfo> models;      // /v1/models
  std::optional<ServerProps> server;  // llama.cpp /props (+ /v1/models meta)
  std::vector<SlotsSample> slots;     // llama.cpp /slots, one per scrape (time-ordered)
  std::string engine_args;            // as given, secrets redacted
  std::string engine_args_note;       // how (or whether) they were parsed
  std::optional<core::EngineSettings> engine_settings;  // parsed from engine_args

  std::vector<ScrapeRecord> scrapes;  // time-ordered
  std::string gpu_source;             // "nvml", "nvidia-smi", "dcgm", "none", "" (not asked)
  std::string gpu_note;
  std::vector<core::GpuSample> gpu_samples;  // time-ordered
  std::vector<CaptureFailure> failures;

  // Derived (recomputed on load; stored for readers without llmtriage).
  std::vector<WindowStats> window;
  std::vector<GpuStats> gpus;
};

// Recomputes snapshot.window and snapshot.gpus from the scrapes and GPU samples.
void compute_window_stats(Snapshot& snapshot);

nlohmann::json to_json(const Snapshot& snapshot);
core::Result<Snapshot> snapshot_from_json(const nlohmann::json& j, const std::string& source);

// Atomic write (temp + fsync + rename). `secret` (the API key used, if any) is replaced by
// "<redacted>" wherever it would appear in the file.
core::Status write_snapshot(const std::string& path, const Snapshot& snapshot,
                            const std::string& secret = {});
core::Result<Snapshot> read_snapshot(const std::string& path);

// The snapshot as Evidence for the analyzers: engine samples of every ok scrape, GPU samples,
// deployment (engine, version, model) and one InputNote per source and per failure.
core::Evidence snapshot_to_evidence(const Snapshot& snapshot, const std::string& path = {});

}  // namespace llmtriage::collect
