#pragma once
// The deployment and engine flags `sim run` and `sim serve` share: each one given overrides the
// scenario's field (a scenario file first, then flags).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "sim/scenario.h"

namespace llmtriage::cli {

struct SimEngineFlags {
  std::optional<std::string> model, gpu, engine, dtype, quantization, kv_cache_dtype;
  std::optional<int> tp, replicas;
  std::optional<int64_t> max_num_seqs, max_num_batched_tokens, max_model_len, kv_cache_tokens;
  std::optional<double> gpu_memory_utilization;
  std::optional<bool> chunked, no_chunked, prefix, no_prefix;
};

// --model through --no-enable-prefix-caching, in --help order (--replicas is left to each command:
// its meaning differs). max_model_len_help: what happens to a longer request differs too.
std::vector<Option> sim_engine_options(SimEngineFlags& f, const std::string& max_model_len_help);

// Every flag given, replicas included, onto the scenario.
void apply_sim_engine_flags(const SimEngineFlags& f, sim::Scenario& s);

}  // namespace llmtriage::cli
