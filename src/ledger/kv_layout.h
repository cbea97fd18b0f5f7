#pragma once
// How an engine lays out the KV cache: bytes per token per layer, vLLM V1's hybrid KV-cache
// groups, blocks per request, and the memory one sequence of a given length needs.
#include <cstdint>
#include <vector>

#include "catalog/model.h"
#include "ledger/ledger.h"

namespace llmtriage::ledger {

struct KvLayoutOptions {
  int tp = 1;
  int pp = 1;
  double elem_bytes = 2;        // KV element size (2 bf16/fp16, 1 fp8, 4 fp32)
  int block_size = 16;
  bool hybrid_groups = false;   // vLLM V1 >= 0.10: sliding/chunked layers grouped apart from full ones
  int64_t max_num_batched_tokens = 8192;  // vLLM's sliding-window spec keeps window-1+this tokens
};

struct KvLayout {
  std::vector<KvLayerType> types;
  int64_t layers = 0;                 // on the largest pipeline stage
  double bytes_per_token_per_layer = 0;
  int block_size = 16;
  int64_t max_num_batched_tokens = 8192;
  // vLLM V1 grouping: each group has group_size layers (padding included); every group draws
  // from the same block pool, a block holding one page for each of group_size layers.
  int64_t group_size = 0;
  std::vector<catalog::LayerAttention> group_kinds;  // one entry per group
  std::vector<int64_t> group_windows;                // window per group (0 = full)
  int64_t padding_layers = 0;

  double page_bytes() const { return block_size * bytes_per_token_per_layer; }
  // Bytes one token of a full-attention sequence costs across all layers of the stage.
  double bytes_per_token() const { return bytes_per_token_per_layer * static_cast<double>(layers); }
  // Blocks that fit in `kv_bytes` (vLLM: available // page_size // group_size).
  int64_t num_blocks(double kv_bytes) const;
  // Tokens as the engine prints "GPU KV cache size": num_blocks // num_groups * block_size.
  int64_t reported_tokens(int64_t blocks) const;
  // Blocks one request of `len` tokens holds at most (sum over groups).
  int64_t blocks_per_request(int64_t len) const;
  // Bytes one request of `len` tokens needs (vLLM's check: sum over layers of each spec's max usage).
  double bytes_needed(int64_t len) const;
};

KvLayout make_kv_layout(const catalog::ModelArch& m, const KvLayoutOptions& o);

}  // namespace llmtriage::ledger
