#pragma once
// Scenario files (data/scenarios/*.json): a deployment, an engine and its settings, replicas and
// router, a workload, faults, and the symptom the scenario must produce as checks on the
// summary ("expect"). Format: docs/sim.md ("Scenario files").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "sim/deployment.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

// One check of the summary: `metric` is a dotted path into the summary JSON ("ttft_ms.p99").
struct Expectation {
  std::string metric;
  std::string op;     // ">", ">=", "<", "<=", "=="
  double value = 0;
  bool holds(double actual) const;
};

struct Scenario {
  std::string name;
  std::string symptom;           // the symptom-table row it reproduces, in words
  std::string description;
  DeploymentSpec deployment;
  std::string engine = "vllm";
  std::optional<int64_t> max_num_seqs, max_num_batched_tokens;
  std::optional<bool> chunked_prefill, prefix_caching;
  std::optional<int> num_scheduler_steps;  // vLLM V0 multi-step
  // TensorRT-LLM's CapacitySchedulerPolicy (settings.capacity_scheduler_policy: "guaranteed_no_evict",
  // the default, or "max_utilization", which pauses the latest requests when blocks run out);
  // other engines have one policy and refuse the key.
  std::optional<CapacityPolicy> capacity;
  SimConfig config;              // everything resolved (pool, scheduler, workload, faults)
  std::string startup_error;     // when the deployment cannot start (startup OOM): the engine's error
  std::string expect_startup_error;  // scenario expects the startup to fail with this substring
  std::vector<Expectation> expect;
  std::string kv_pool_source;
};

// Parses scenario JSON; `where` names the file in errors. The deployment is resolved against the
// catalog; a deployment that cannot start yields a Scenario with startup_error set (not an error).
core::Result<Scenario> parse_scenario(const std::string& text, const std::string& where);
// Reads a file path, or a bundled scenario name ("preemption-storm" -> data/scenarios/preemption-storm.json).
core::Result<Scenario> load_scenario(const std::string& name_or_path);
std::vector<std::string> bundled_scenarios();

// Resolves deployment + engine flags into cfg (pool size, scheduler, presets). Returns the
// startup error text (vLLM's wording) in `startup_error` when the engine could not start.
core::Status resolve(Scenario& s);

// Evaluates expectations against a summary JSON; returns the failed ones as readable lines.
std::vector<std::string> check_expectations(const std::vector<Expectation>& ex, const nlohmann::json& summary);

// Parses a length distribution: a number (fixed), or {"dist": "fixed|uniform|lognormal", ...}.
core::Result<LengthDist> parse_length(const nlohmann::json& j, const std::string& where);

}  // namespace llmtriage::sim
