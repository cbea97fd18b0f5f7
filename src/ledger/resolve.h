#pragma once
// Settings as the engine will actually run them: defaults per engine and version filled in,
// impossible values rejected with the flag named.
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "ledger/ledger.h"
#include "ledger/version.h"

namespace llmtriage::ledger {

enum class Accounting { vllm_v1, vllm_v0, sglang, tgi };

struct Resolved {
  Accounting acct = Accounting::vllm_v1;
  EngineVersion version;
  int tp = 1, pp = 1, dp = 1, num_gpus = 1;
  double utilization = 0.9;
  int64_t max_model_len = 0;
  int64_t max_num_seqs = 0;
  int64_t max_num_batched_tokens = 0;
  int block_size = 16;
  std::string dtype;           // compute dtype actually used
  std::string kv_cache_dtype;  // resolved name
  double kv_elem_bytes = 2;
  catalog::QuantConfig quant;
  bool enforce_eager = false;
  double total_gib = 0;
  std::vector<std::string> notes;
  std::vector<std::string> warnings;
};

core::Result<Resolved> resolve_settings(const LedgerInput& in);

// The flag names of this engine ("--gpu-memory-utilization" vs "--mem-fraction-static").
struct FlagNames {
  const char* utilization;
  const char* max_model_len;
  const char* max_num_seqs;
  const char* max_num_batched_tokens;
};
FlagNames flag_names(Accounting a);

}  // namespace llmtriage::ledger
