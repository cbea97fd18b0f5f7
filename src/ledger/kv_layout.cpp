#include "ledger/kv_layout.h"

#include <algorithm>
#include <map>

namespace llmtriage::ledger {
namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Tokens a layer of this kind keeps for a request of `len` tokens, as vLLM's KV-cache specs
// bound it (vllm/v1/kv_cache_interface.py: SlidingWindowSpec keeps window - 1 + one batch of
// new tokens; ChunkedLocalAttentionSpec one chunk + one batch).
int64_t blocks_for(catalog::LayerAttention kind, int64_t window, int64_t len, int64_t mbt, int bs) {
  switch (kind) {
    case catalog::LayerAttention::full: return cdiv(len, bs);
    case catalog::LayerAttention::sliding: return cdiv(std::min(window - 1 + mbt, len), bs) + 1;
    case catalog::LayerAttention::chunked: return cdiv(std::min(window + mbt, len), bs);
  }
  return cdiv(len, bs);
}

}  // namespace

int64_t KvLayout::num_blocks(double kv_bytes) const {
  if (kv_bytes <= 0 || page_bytes() <= 0 || group_size <= 0) return 0;
  return static_cast<int64_t>(kv_bytes / page_bytes() / static_cast<double>(group_size));
}

int64_t KvLayout::reported_tokens(int64_t blocks) const {
  const int64_t groups = std::max<int64_t>(1, static_cast<int64_t>(group_kinds.size()));
  return blocks / groups * block_size;
}

int64_t KvLayout::blocks_per_request(int64_t len) const {
  int64_t b = 0;
  for (size_t g = 0; g < group_kinds.size(); ++g)
    b += blocks_for(group_kinds[g], group_windows[g], len, max_num_batched_tokens, block_size);
  return b;
}

double KvLayout::bytes_needed(int64_t len) const {
  double b = 0;
  for (const auto& t : types) {
    auto kind = t.attention == "sliding" ? catalog::LayerAttention::sliding
                : t.attention == "chunked" ? catalog::LayerAttention::chunked
                                           : catalog::LayerAttention::full;
    b += static_cast<double>(t.layers) * blocks_for(kind, t.window, len, max_num_batched_tokens, block_size) *
         page_bytes();
  }
  return b;
}

KvLayout make_kv_layout(const catalog::ModelArch& m, const KvLayoutOptions& o) {
  KvLayout k;
  k.block_size = o.block_size;
  k.max_num_batched_tokens = o.max_num_batched_tokens;
  const int pp = std::max(1, o.pp);
  k.layers = (m.num_layers + pp - 1) / pp;
  if (m.is_mla()) {
    // The compressed latent (kv_lora_rank) plus the shared RoPE key, replicated on every TP rank.
    k.bytes_per_token_per_layer = static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim) * o.elem_bytes;
  } else {
    // K and V for this rank's KV heads; a rank holds at least one (replicated when tp > heads).
    const int64_t heads = std::max<int64_t>(1, m.num_kv_heads / std::max(1, o.tp));
    k.bytes_per_token_per_layer = 2.0 * heads * m.head_dim * o.elem_bytes;
  }
  // Layer kinds on the largest (first) stage.
  std::map<catalog::LayerAttention, int64_t> count;
  for (int64_t l = 0; l < k.layers && l < static_cast<int64_t>(m.layer_attention.size()); ++l) {
    auto kind = m.layer_attention[l];
    if (!o.hybrid_groups) kind = catalog::LayerAttention::full;
    ++count[kind];
  }
  if (count.empty()) count[catalog::LayerAttention::full] = k.layers;
  auto window_of = [&](catalog::LayerAttention a) -> int64_t {
    if (a == catalog::LayerAttention::sliding) return m.sliding_window;
    if (a == catalog::LayerAttention::chunked) return m.attention_chunk_size;
    return 0;
  };
  for (const auto& [kind, n] : count) {
    KvLayerType t;
    t.attention = m.is_mla() ? "mla" : catalog::to_string(kind);
    t.layers = n;
    t.bytes_per_token_per_layer = k.bytes_per_token_per_layer;
    t.window = window_of(kind);
    k.types.push_back(t);
  }
  // vLLM V1 grouping (vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size):
  // group size = the smallest layer count of any kind, or the largest when that is < 1.25x the
  // smallest; each kind is cut into ceil(n / group_size) groups, padding the last.
  int64_t min_n = k.layers, max_n = 0;
  for (const auto& [kind, n] : count) {
    min_n = std::min(min_n, n);
    max_n = std::max(max_n, n);
  }
  k.group_size = count.size() == 1 ? max_n : (max_n < min_n * 1.25 ? max_n : min_n);
  for (const auto& [kind, n] : count) {
    const int64_t groups = cdiv(n, k.group_size);
    if (n % k.group_size != 0) k.padding_layers += k.group_size - n % k.group_size;
    for (int64_t g = 0; g < groups; ++g) {
      k.group_kinds.push_back(kind);
      k.group_windows.push_back(window_of(kind));
    }
  }
  return k;
}

}  // namespace llmtriage::ledger
