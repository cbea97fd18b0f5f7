#pragma once
// Evidence: the one normalized model every analyzer reads (docs/ARCHITECTURE.md, "Evidence").
// Nothing downstream of ingest knows which engine or file format a number came from.
// Units are in the field names; times are seconds. Optional fields are absent when the source
// cannot provide them — never invented.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/engine_settings.h"

namespace llmtriage::core {

// A cumulative histogram as Prometheus exposes it: counts of observations <= upper bound.
// upper_bounds is ascending and ends with +inf when complete. Empty = not exposed.
struct Histogram {
  std::vector<double> upper_bounds;
  std::vector<double> cumulative_counts;  // same length as upper_bounds
  double sum = 0;
  double count = 0;
  bool empty() const { return upper_bounds.empty(); }
};

// One reading of one engine (one model_name, one data-parallel engine index) at one time.
// Gauges are instantaneous; *_total are monotone counters since engine start (resets happen
// on restart and must be handled by whoever takes rates).
struct EngineSample {
  double t_s = 0;                   // unix time, seconds (or seconds since the log's start)
  EngineKind engine = EngineKind::unknown;
  std::string model_name;           // label value; "" when the source has none
  std::string engine_index;         // data-parallel `engine` label; "" when none
  std::optional<double> running;    // sequences scheduled in the running batch
  std::optional<double> waiting;    // requests queued, not yet scheduled
  std::optional<double> swapped;    // V0 only
  std::optional<double> kv_usage;   // fraction of the KV pool in use, 0..1
  std::optional<double> preemptions_total;
  std::optional<double> prompt_tokens_total;
  std::optional<double> generation_tokens_total;
  std::optional<double> requests_finished_total;
  std::optional<double> prefix_cache_queries_total;  // tokens queried (vLLM V1 counters)
  std::optional<double> prefix_cache_hits_total;     // tokens hit
  std::optional<double> prefix_cache_hit_rate;       // 0..1 when the source gives a rate (logs, SGLang)
  std::optional<double> prompt_throughput_tok_s;     // when the source gives a rate (logs)
  std::optional<double> generation_throughput_tok_s;
  std::optional<double> kv_cache_capacity_tokens;    // when exposed (SGLang max_total_num_tokens, cache_config_info)
  std::optional<double> longest_sequence_tokens;     // high-water mark since start (llama.cpp n_tokens_max): never a rate
  Histogram ttft_s;          // time to first token
  Histogram itl_s;           // token-level inter-token latency (vLLM: inter_token_latency / time_per_output_token)
  Histogram tpot_s;          // per-request mean time per output token (vLLM request_time_per_output_token)
  Histogram e2e_s;           // end-to-end request latency
  Histogram queue_s;         // time in the waiting queue
  Histogram prefill_s;
  Histogram decode_s;
  Histogram prompt_tokens;   // per-request prompt length
  Histogram output_tokens;   // per-request generation length
};

// One reading of one GPU.
struct GpuSample {
  double t_s = 0;
  int index = 0;
  std::string name;                           // "NVIDIA H100 80GB HBM3"
  std::string uuid;
  std::optional<double> power_w;
  std::optional<double> power_limit_w;
  std::optional<double> sm_clock_mhz;
  std::optional<double> max_sm_clock_mhz;
  std::optional<double> mem_clock_mhz;
  std::optional<double> temp_c;
  std::optional<uint64_t> throttle_reasons;   // NVML clocks_event_reasons bit mask
  std::vector<std::string> throttle_names;    // decoded: "sw_power_cap", "hw_slowdown", ...
  std::optional<double> mem_used_gib;
  std::optional<double> mem_total_gib;
  std::optional<double> util;                 // 0..1, "GPU utilization" (kernel active time)
  std::optional<double> dram_active;          // 0..1, DCGM_FI_PROF_DRAM_ACTIVE
};

enum class RequestStatus { ok, error };

// One request as a client, a gateway or the simulator saw it. Times in seconds; arrival_s is
// relative to the start of the run (or unix time for logs; see the source's notes).
struct RequestRecord {
  std::string id;
  double arrival_s = 0;                         // when it was scheduled / arrived
  std::optional<double> send_s;                 // when the client actually sent it (dispatch lag = send - arrival)
  std::optional<int64_t> input_tokens;
  std::optional<int64_t> output_tokens;
  std::optional<double> ttft_s;                 // send (or arrival at server) -> first token
  std::optional<double> e2e_s;                  // send -> last byte
  std::vector<double> chunk_times_s;            // arrival time of each streamed chunk, relative to send
  std::vector<int32_t> chunk_tokens;            // tokens in each chunk (same length, when known)
  std::vector<double> itl_s;                    // token-level gaps when the source gives them directly
  RequestStatus status = RequestStatus::ok;
  std::string error_category;                   // "timeout_ttfb", "http_503", ... ("" when ok)
  std::string model;
  std::optional<int64_t> max_tokens;
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int> n;
  std::optional<bool> ignore_eos;
  std::optional<double> queue_s;                // time queued in the client (bench) or server
  // A failed request: send -> the failure, where the source measured it (a bench's records). Kept
  // apart from e2e_s (an answer's latency) so failures never enter latency percentiles; a deadline
  // shows as these durations clustering at one value.
  std::optional<double> failed_after_s;
};

enum class EventKind {
  startup_memory,        // startup ledger lines: weights, KV memory, KV tokens/blocks, CUDA graphs
  engine_args,           // the engine's arguments line
  preemption,            // a preemption / retraction warning
  oom,                   // CUDA out of memory (startup or runtime)
  max_len_exceeds_kv,    // "max seq len ... larger than the maximum number of tokens that can be stored in KV cache"
  engine_dead,           // engine core died / restarted
  request_aborted,
  context_truncated,     // prompt silently truncated to the context size
  kv_cache_full,
  error,                 // other error lines
  warning,               // other warnings worth showing
};
const char* to_string(EventKind kind);

// A discrete fact from a log. `fields` carries the numbers the event states, with unit
// suffixes in the keys ("weights_gib", "kv_tokens", "tried_to_allocate_gib").
struct Event {
  std::optional<double> t_s;
  EventKind kind = EventKind::warning;
  std::string source;                     // "vllm.log:1234"
  std::string text;                       // the line (first line of a traceback), secrets removed
  std::map<std::string, double> fields;
  std::map<std::string, std::string> labels;  // string facts ("engine": "vllm", "phase": "startup")
};

// What the deployment is: model, hardware, engine and settings.
struct Deployment {
  std::string model;                 // HF id or path
  std::string gpu;                   // catalog name
  int num_gpus = 0;
  EngineKind engine = EngineKind::unknown;
  std::string engine_version;
  EngineSettings settings;
};

// What was read and what was missing, for a report's `inputs` section.
struct InputNote {
  std::string source;                // file path or URL
  std::string kind;                  // "metrics", "log", "records", "gpu", "snapshot"
  bool ok = true;
  std::string note;                  // counts, malformed lines, or the error
};

struct Evidence {
  Deployment deployment;
  std::vector<EngineSample> engine_samples;  // time-ordered
  std::vector<GpuSample> gpu_samples;        // time-ordered
  std::vector<RequestRecord> requests;
  std::vector<Event> events;
  std::vector<std::string> outputs;          // sampled response texts
  std::vector<InputNote> inputs;
};

}  // namespace llmtriage::core
