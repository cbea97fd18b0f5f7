#pragma once
// `llmtriage top`'s frame model: what the live view shows, computed from the scrapes of the last
// window alone (no terminal, no clock, no network here; docs/top.md). The rolling window is kept
// as a Snapshot, so the same window statistics, the same Evidence conversion (and through the CLI
// the same diagnosis) and the same snapshot file serve the view and `s`.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "collect/snapshot.h"

namespace llmtriage::collect {

// What one tick of scraping brought back: the /metrics scrape (ok or not), llama.cpp's /slots,
// GPU readings, and what failed.
struct LiveScrape {
  ScrapeRecord metrics;
  std::optional<SlotsSample> slots;
  std::vector<core::GpuSample> gpus;
  std::string gpu_source;                 // "dcgm", "nvml", "nvidia-smi", "none", "" (not read)
  std::string gpu_note;
  std::vector<CaptureFailure> failures;   // dcgm, slots, ...: shown, kept in the snapshot
  core::EngineKind engine = core::EngineKind::unknown;  // as the metric names say
  std::string engine_detected_by;
};

// One layer's line: the diagnosis of the recent samples, reduced to what fits on a row.
struct LayerLine {
  std::string layer;  // "load", "scheduling_capacity", ... (diagnose::to_string(Layer))
  std::string state;  // "critical", "warning", "info", "suspected", "clear", "not judged"
  std::string text;   // the finding's title and its key reading, or what cleared it / is missing
  std::string fix = {};  // a finding at warning or above: its first listed remedy, in the engine's flag names
};

struct Quantiles {
  std::string name;   // "TTFT", "ITL", "queue"
  double count = 0;   // observations finished in the window
  std::optional<double> p50_s, p95_s, p99_s;
  // The p99 over the shorter and the longer windows beside the main one (FrameOptions::
  // p99_windows_s, e.g. 5 s and 60 s): a p99 over 5 s above the one over 60 s is a tail rising now.
  struct WindowP99 {
    double window_s = 0;   // the span the scrapes inside cover (as asked once the kept window is full)
    std::optional<double> p99_s;
  };
  std::vector<WindowP99> p99_by_window;
  bool since_start = false;  // one scrape (or a reset) in the window: the engine's lifetime
  bool exposed = false;      // the engine exports this histogram at all
};

struct SlotRow {
  int id = 0;
  bool busy = false;
  int64_t n_ctx = 0;
  std::optional<int64_t> prompt_tokens, prompt_processed, prompt_cached, decoded, remaining;
};

struct GpuRow {
  int index = 0;
  std::string name;
  std::optional<double> sm_clock_mhz, max_sm_clock_mhz, power_w, power_limit_w, temp_c, util;
  std::optional<double> mem_used_gib, mem_total_gib;
  std::vector<std::string> throttle;
};

struct Frame {
  // header
  std::string endpoint;
  std::string engine;            // "vllm", "llamacpp", ...
  std::string engine_version;
  std::string model;
  double t_unix_s = 0;           // time of the last good scrape (0: none yet)
  // scrape health
  int scrapes_ok = 0, scrapes_failed = 0;   // in the window
  bool stale = false;            // the readings shown are older than the last attempt
  double age_s = 0;              // now - last good scrape
  std::string last_error;        // the last attempt's failure ("" when it succeeded)
  std::optional<double> fetch_s; // the last good scrape's duration
  // scheduling
  std::optional<double> running, waiting;
  std::optional<double> concurrency_cap;  // max-num-seqs, or llama.cpp's slots
  std::string cap_source;                 // "max-num-seqs", "slots (/props)"
  std::optional<double> kv_usage;         // 0..1
  std::optional<double> kv_capacity_tokens, kv_used_tokens;
  // rates from counter differences over rate_window_s (never from the reset-on-read gauges)
  double rate_window_s = 0;
  std::optional<double> prompt_tok_s, generation_tok_s, finished_req_s, preemptions_per_s;
  std::optional<double> prefix_hit_rate;
  // llama.cpp adds a request's tokens to its counters only when the request ends (server-context.cpp
  // metrics.on_prediction at release), so the counter rates read 0 while long generations run: the
  // tokens decoded per second from the last two /slots samples say what is happening now.
  // NOTE: /slots has no task id here; a slot whose decoded count went down started a new task,
  // and its new count is taken as decoded since the previous sample.
  std::optional<double> slots_decode_tok_s;
  // Prompt and generation tok/s between each two consecutive good scrapes of the kept window
  // (oldest first): the sparklines over the last minute.
  std::vector<double> prompt_tok_s_history, generation_tok_s_history;
  double history_s = 0;  // the span they cover
  // latency quantiles from histogram deltas over quantile_window_s
  double quantile_window_s = 0;
  // `sim serve` at a time scale (its llmtriage_sim_time_scale gauge): its counters and histograms
  // run on the virtual clock, so the rates above are per virtual second and both windows are given
  // in virtual seconds (wall span x scale). Unset for a real engine.
  std::optional<double> time_scale;
  std::vector<Quantiles> latency;
  std::vector<SlotRow> slots;             // llama.cpp /slots, last sample
  std::string gpu_source, gpu_note;
  std::vector<GpuRow> gpus;
  std::vector<LayerLine> layers;          // filled by the caller (the diagnosis lives above collect)
  bool explain = false;                   // the `e` key: what each line means, below the frame
  double layers_age_s = 0;                // how old the layer judgement is
  // view state
  bool paused = false;
  std::string message;                    // "snapshot written to ...", key help
};

struct FrameOptions {
  double rate_window_s = 5;       // rates over the scrapes of the last N s (at least two scrapes)
  double quantile_window_s = 15;  // quantiles over the histogram delta of the last N s
  double stale_after_s = 3;       // a good scrape older than this is stale
  std::vector<double> p99_windows_s = {5, 60};  // the p99 also over these spans, beside the main window
};

// The rolling window: a Snapshot whose scrapes, /slots samples and GPU samples older than keep_s
// (relative to the newest scrape) are dropped as new ones arrive.
class LiveWindow {
 public:
  // `base` carries what is read once: endpoint, engine, version, models, /props, settings.
  LiveWindow(Snapshot base, double keep_s);
  void add(LiveScrape scrape);
  const Snapshot& snapshot() const { return snap_; }
  // The snapshot of the last `span_s` seconds only (window statistics recomputed): what the
  // diagnosis and `s` read.
  Snapshot recent(double span_s) const;
  // The last attempt failed (and why), for the header.
  const std::string& last_error() const { return last_error_; }

 private:
  Snapshot snap_;
  double keep_s_;
  std::string last_error_;
};

// The simulated engine's time scale (virtual seconds per wall second) from a scrape's
// `llmtriage_sim_time_scale` gauge (sim serve exports it when the scale is not 1); unset otherwise.
std::optional<double> sim_time_scale(const ScrapeRecord& scrape);

// The snapshot on the simulated engine's clock when its last good scrape says it runs at a time
// scale: each scrape's, /slots sample's and GPU sample's time stretched by the scale from the
// first scrape, so rates computed from it (the layer judgement's) are per virtual second like the
// counters. Unchanged for a real engine.
Snapshot on_virtual_clock(Snapshot snapshot);

// The frame for the window as it stands; now_unix_s dates staleness.
Frame compute_frame(const LiveWindow& window, double now_unix_s, const FrameOptions& options = {});

nlohmann::json to_json(const Frame& frame);

}  // namespace llmtriage::collect
