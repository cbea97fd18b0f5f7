#pragma once
// From the command's flags to a run: the request set, the schedule, the runner's options and the
// metadata stored with the results (plan_run); then run + summarize (execute). Shared by
// `llmtriage bench` and `llmtriage capacity` (which re-plans the load per trial).
#include <cstdint>
#include <optional>
#include <string>

#include "bench/export.h"
#include "bench/request_set.h"
#include "bench/runner.h"
#include "bench/summary.h"
#include "core/result.h"

namespace llmtriage::bench {

struct BenchFlags {
  std::string endpoint, model;
  std::string api = "completions";
  std::string dataset = "random";
  std::string dataset_path, replay, requests_file, save_requests, out, slo, api_key_file, metrics_url, config;
  double replay_speed = 1;
  int64_t input_len = 128, output_len = 128;
  double range_ratio = 0;
  int64_t prefix_groups = 0, prefix_len = 0, vocab_size = 32000;
  bool text_prompts = false;
  int64_t num_requests = 100, warmup = 0;
  std::optional<double> rate;
  double burstiness = 1;
  std::optional<double> ramp_to;
  std::optional<int64_t> concurrency, max_concurrency;
  int64_t seed = 0;
  double deadline_s = 3600;
  double request_timeout_s = 60;
  double scrape_interval_s = 5;
  int client_threads = 1;
  bool no_continuous_usage = false;
  bool fail_on_slo = false;  // exit 1 when the run misses --slo (see slo_missed)
};

struct RunPlan {
  RequestSet set;
  RunnerOptions runner;
  SummaryOptions summary;
  RunMeta meta;
};

// Validates the flags (errors name the flag), builds the set and the schedule, reads the API key
// (file or $OPENAI_API_KEY). No network.
core::Result<RunPlan> plan_run(const BenchFlags& f);

// Re-targets a plan at another load (capacity): a new schedule at `rate` (same seed) or a closed
// loop at `concurrency`. `trial` varies the schedule's seed (trial 0 = the plan's own).
core::Status set_load(RunPlan& plan, std::optional<double> rate, std::optional<int64_t> concurrency, double burstiness,
                      int trial = 0);

struct RunOutput {
  RunResult run;
  RunSummary summary;
  RunMeta meta;
};
RunOutput execute(const RunPlan& plan);

// --fail-on-slo: why the run misses its SLO ("attainment 93.0% < 99%", "error rate 0.05 > 0.01"),
// or "" when it meets it. A latency objective is met when >= 99% of measured requests meet it
// (the p99 reading of ttft=... / ttft_p99_s=..., core/slo.h).
std::string slo_missed(const RunSummary& s);

// "k=v,k=v" -> map; error names --config.
core::Result<std::map<std::string, std::string>> parse_config(const std::string& text);

}  // namespace llmtriage::bench
