#pragma once
// The ledger as JSON (stable keys, numbers in GiB / tokens / bytes) and as a terminal table.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ledger/ledger.h"

namespace llmtriage::ledger {

// Keys: total_gib, usable_gib, weights_gib, activation_gib, non_torch_gib, cuda_graph_gib,
// kv_cache_gib, kv_bytes_per_token, kv_bytes_per_token_by_layer_type, kv_cache_tokens,
// num_blocks, max_concurrency, max_concurrency_typical, verdict, verdict_detail, engine_starts,
// remedies, lines, settings, warnings, notes, ...
nlohmann::json to_json(const LedgerReport& r);

// Every line with its value, formula and the engine source it mirrors; verdict; remedies.
std::string render_text(const LedgerReport& r);

// The startup-log fields (ingest merged_startup_fields keys) this report can be checked against,
// with the ledger's value in the log's unit: vLLM/SGLang's pool and blocks, or llama.cpp's
// buffers per device ("kv_cache_cpu_gib", "weights_cpu_gib", "compute_buffer_gib", ...).
struct LogPair {
  std::string log_key;
  std::string label;
  double ledger_value = 0;
};
std::vector<LogPair> log_pairs(const LedgerReport& r);

}  // namespace llmtriage::ledger
