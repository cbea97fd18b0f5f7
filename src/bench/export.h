#pragma once
// The third stage: a run's summary and what produced it -> JSON, the text report, and the result
// folder (--out DIR), written atomically file by file so an interrupted run leaves whole files.
//   DIR/summary.json    the JSON summary (json_summary) with the run's metadata
//   DIR/records.jsonl   raw records, schema llmtriage.request.v1 (`llmtriage records summary` reads it)
//   DIR/metrics.jsonl   the /metrics scrapes: {"phase","t_s","unix_s","text"|"error"} per line
//   DIR/report.txt      the text report
//   DIR/requests.jsonl  the request set (with --save-requests into the folder)
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/runner.h"
#include "bench/summary.h"
#include "core/result.h"

namespace llmtriage::bench {

struct RunMeta {
  std::string endpoint;  // redacted (no user info)
  std::string model;
  std::string api;
  std::string dataset;   // the request set's source
  std::string request_set_hash;
  std::string schedule_hash;  // open loop only
  uint64_t seed = 0;
  std::string mode;      // "rate", "concurrency", "rate+cap", "replay", "burst"
  double burstiness = 1;
  std::optional<double> ramp_to;
  int64_t concurrency = 0;
  std::optional<int64_t> max_concurrency;
  int64_t num_requests = 0;
  int64_t warmup = 0;
  double start_unix_s = 0;
  std::string run_tag;   // X-Request-Id prefix: record ids are "<run_tag>-<index>"
  double wall_s = 0;
  core::Summary loop_lag_s;
  uint64_t connections_opened = 0;
  std::map<std::string, std::string> config;  // engine settings (--config and /metrics info)
  // What the engine computed from its settings and the GPU at startup (the KV pool's block
  // counts from vllm:cache_config_info): stored and shown, never a setting (`ab` does not count it).
  std::map<std::string, std::string> consequences;
  bool interrupted = false;
};

nlohmann::json json_summary(const RunSummary& s, const RunMeta& m);
// The text report; its first line says CLIENT-BOUND when the self-check failed.
std::string text_report(const RunSummary& s, const RunMeta& m);

// Engine configuration visible in a vLLM exposition: the labels of vllm:cache_config_info
// (block_size, gpu_memory_utilization, num_gpu_blocks, ...), keys prefixed "cache.".
std::map<std::string, std::string> config_from_metrics(const std::string& exposition);

// True for a key whose value the engine derives at startup rather than takes as a setting:
// num_gpu_blocks / num_cpu_blocks (vLLM sizes the KV pool by profiling; a different max-num-seqs
// or GPU gives a different count), with or without the "cache." prefix. `num_gpu_blocks_override`
// is a setting.
bool is_engine_consequence(std::string_view key);

// Adds what a vLLM exposition says of the engine (config_from_metrics) to a run's metadata:
// settings into config (a --config value given at bench time wins), consequences into consequences.
void record_engine_info(RunMeta& m, const std::string& exposition);

// Moves the consequences out of `config` into `consequences` (existing entries there are kept).
void split_consequences(std::map<std::string, std::string>& config, std::map<std::string, std::string>& consequences);

core::Status write_results(const std::string& dir, const RunSummary& s, const RunMeta& m,
                           const std::vector<BenchRecord>& records, const std::vector<Scrape>& scrapes);

// Reads DIR/summary.json (or a summary.json path) back.
core::Result<nlohmann::json> read_summary(const std::string& dir_or_file);

}  // namespace llmtriage::bench
