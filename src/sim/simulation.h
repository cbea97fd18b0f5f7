#pragma once
// The discrete-event simulation: N replicas (each a scheduler + paged KV cache + cost model)
// behind a router, fed by a workload, on a virtual clock. Events: arrivals, step completions,
// client timeouts and retries, periodic samples/log lines. Deterministic: same config and seed ->
// the same run, bit for bit (ties in the event queue break by insertion order).
//
// Outputs have the shapes of real evidence (core::RequestRecord, core::EngineSample, vLLM log
// lines, core::Event) so downstream analysis cannot tell them from a real run by their shape.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"
#include "sim/cost_model.h"
#include "sim/engine_preset.h"
#include "sim/faults.h"
#include "sim/router.h"
#include "sim/scheduler.h"
#include "sim/stats.h"
#include "sim/workload.h"

namespace llmtriage::sim {

struct SimConfig {
  std::string model_name = "meta-llama/Llama-3.1-8B-Instruct";
  ModelShape model;
  HardwareShape hardware;
  Calibration calibration;
  EnginePreset preset;
  SchedulerConfig scheduler;     // filled from the preset + flags (see resolve_scheduler)
  int64_t num_blocks = 0;        // KV pool per replica, blocks (from the ledger)
  int block_size = 16;
  bool prefix_caching = true;
  int64_t max_model_len = 8192;
  int replicas = 1;
  RouterKind router = RouterKind::round_robin;
  WorkloadSpec workload;
  std::vector<Fault> faults;
  double sample_interval_s = 1.0;  // engine-sample period (Prometheus scrape-like)
  double log_interval_s = 10.0;    // vLLM logs stats every 10 s (VLLM_LOG_STATS_INTERVAL)
  int keep_token_times = -1;       // -1: when num_requests <= 20000; 0 no; 1 yes
  bool keep_samples = true;
  bool keep_log = true;
  uint32_t livelock_preemptions = 1000;  // one request preempted this often = livelock
  double max_sim_s = 7 * 24 * 3600.0;    // safety stop
};

struct SimResult {
  Summary summary;
  std::vector<core::RequestRecord> records;     // one per attempt, in arrival order
  std::vector<core::EngineSample> samples;      // per replica (engine_index "0", "1", ...)
  std::vector<std::string> log_lines;           // engine log, vLLM formats
  std::vector<core::Event> events;              // preemptions, rejections, livelock
  bool livelock = false;
  std::string livelock_detail;
};

// Runs the whole simulation. Errors: invalid config (names the field), empty KV pool.
core::Result<SimResult> run_simulation(const SimConfig& cfg);

// Fills cfg.scheduler from the preset and the engine flags already set in cfg (V0's token budget
// rule without chunking: max(max_model_len, 2048)).
void resolve_scheduler(SimConfig& cfg, std::optional<int64_t> max_num_seqs,
                       std::optional<int64_t> max_num_batched_tokens, std::optional<bool> chunked_prefill,
                       std::optional<bool> prefix_caching);

// Step-level access for tests (iteration tables) and the HTTP server: one replica, driven by hand.
class Engine {
 public:
  Engine(const SimConfig& cfg, int replica_index = 0);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Adds a request (arrival at now). Returns its index, or -1 when rejected for max_model_len.
  int32_t add(int32_t prompt_len, int32_t output_len, uint64_t content_key = 0, uint64_t group_key = 0,
              int32_t shared_prefix_len = 0);
  // Runs one iteration: schedule, advance the clock by the step time, apply results.
  // Returns the plan that ran (empty when there was nothing to do).
  const StepPlan& step();
  void abort(int32_t req);
  double now_s() const;
  const SimRequest& request(int32_t i) const;
  const std::vector<int32_t>& running() const;
  size_t num_waiting() const;
  const KvCache& kv() const;
  uint64_t preemptions_total() const;
  // "" when every invariant holds (blocks and tokens conserved, each request in one place).
  std::string check_invariants() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmtriage::sim
