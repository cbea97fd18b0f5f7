#include "catalog/model.h"

#include <algorithm>
#include <cctype>

namespace llmtriage::catalog {

const char* to_string(LayerAttention a) {
  switch (a) {
    case LayerAttention::full: return "full";
    case LayerAttention::sliding: return "sliding";
    case LayerAttention::chunked: return "chunked";
  }
  return "full";
}

double dtype_bytes(const std::string& dtype) {
  std::string d;
  for (char c : dtype) d += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (d == "bfloat16" || d == "bf16" || d == "float16" || d == "fp16" || d == "half" ||
      d == "torch.bfloat16" || d == "torch.float16")
    return 2;
  if (d == "float32" || d == "fp32" || d == "float" || d == "torch.float32") return 4;
  if (d.rfind("fp8", 0) == 0 || d == "float8" || d == "int8" || d == "uint8") return 1;
  return 0;
}

bool ModelArch::layer_is_moe(int64_t layer) const {
  if (num_experts <= 0 || layer < first_k_dense_layers) return false;
  int64_t step = std::max<int64_t>(1, moe_layer_step);
  return (layer - first_k_dense_layers) % step == 0;
}

int64_t ModelArch::attention_params_per_layer() const {
  if (is_mla()) {
    const int64_t qk_head = qk_nope_head_dim + qk_rope_head_dim;
    const int64_t v_dim = v_head_dim > 0 ? v_head_dim : qk_nope_head_dim;
    int64_t q = q_lora_rank > 0 ? hidden_size * q_lora_rank + q_lora_rank * num_attention_heads * qk_head
                                : hidden_size * num_attention_heads * qk_head;
    int64_t kv_a = hidden_size * (kv_lora_rank + qk_rope_head_dim);
    int64_t kv_b = kv_lora_rank * num_attention_heads * (qk_nope_head_dim + v_dim);
    int64_t o = num_attention_heads * v_dim * hidden_size;
    return q + kv_a + kv_b + o;
  }
  // q, k, v, o projections.
  return hidden_size * q_size() + 2 * hidden_size * kv_size() + q_size() * hidden_size;
}

int64_t ModelArch::routed_expert_params(int64_t layer) const {
  if (!layer_is_moe(layer)) return 0;
  const int64_t mats = gated_mlp ? 3 : 2;
  return num_experts * mats * hidden_size * moe_intermediate_size;
}

int64_t ModelArch::mlp_params(int64_t layer) const {
  const int64_t mats = gated_mlp ? 3 : 2;
  if (!layer_is_moe(layer)) return mats * hidden_size * intermediate_size;
  int64_t shared = mats * hidden_size * shared_expert_intermediate_size;
  int64_t router = hidden_size * num_experts;
  return routed_expert_params(layer) + shared + router;
}

int64_t ModelArch::total_params() const {
  int64_t p = embedding_params() + lm_head_params() + extra_params;
  for (int64_t l = 0; l < num_layers; ++l) p += attention_params_per_layer() + mlp_params(l);
  return p;
}

int64_t ModelArch::active_params() const {
  int64_t p = total_params();
  for (int64_t l = 0; l < num_layers; ++l) {
    if (!layer_is_moe(l) || num_experts <= 0) continue;
    // Only top-k of the routed experts run per token.
    p -= routed_expert_params(l) / num_experts * (num_experts - num_experts_per_tok);
  }
  return p;
}

int64_t ModelArch::count_layers(LayerAttention a) const {
  return std::count(layer_attention.begin(), layer_attention.end(), a);
}

double ModelArch::flops_per_token(int64_t context) const {
  // Matmul FLOPs: 2 per active parameter, minus the embedding lookup (a gather, no FLOPs);
  // the lm_head matmul is counted (tied or not).
  double matmul = 2.0 * static_cast<double>(active_params() - embedding_params() - extra_params);
  if (tie_word_embeddings) matmul += 2.0 * static_cast<double>(vocab_size * hidden_size);
  // Attention: QK^T and PV, 2 FLOPs each per attended token per q dimension.
  double attn = 0;
  const double qdim = is_mla() ? static_cast<double>(num_attention_heads * (kv_lora_rank + qk_rope_head_dim))
                               : static_cast<double>(q_size());
  for (int64_t l = 0; l < num_layers; ++l) {
    int64_t attended = context;
    auto kind = l < static_cast<int64_t>(layer_attention.size()) ? layer_attention[l] : LayerAttention::full;
    if (kind == LayerAttention::sliding && sliding_window > 0) attended = std::min(context, sliding_window);
    if (kind == LayerAttention::chunked && attention_chunk_size > 0)
      attended = std::min(context, attention_chunk_size);
    attn += 4.0 * qdim * static_cast<double>(attended);
  }
  return matmul + attn;
}

QuantConfig quant_from_name(const std::string& name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::replace(n.begin(), n.end(), '_', '-');
  QuantConfig q;
  q.method = n;
  if (n.empty() || n == "none" || n == "auto") return QuantConfig{};
  if (n == "fp8" || n == "fbgemm-fp8" || n == "ptpc-fp8" || n == "int8" || n == "w8a8" ||
      n == "experts-int8" || n == "fp8-dynamic") {
    q.weight_bits = 8;
  } else if (n == "awq" || n == "awq-marlin" || n == "gptq" || n == "gptq-marlin" || n == "int4" ||
             n == "w4a16" || n == "marlin") {
    q.weight_bits = 4;
    q.group_size = 128;
    q.assumed = true;
  } else if (n == "compressed-tensors") {
    q.weight_bits = 8;  // the common w8a8 / fp8-dynamic checkpoints
    q.assumed = true;
  } else if (n == "mxfp4") {
    q.weight_bits = 4;
    q.group_size = 32;
    q.experts_only = true;
  } else if (n == "bitsandbytes" || n == "bnb") {
    q.weight_bits = 4;
    q.group_size = 64;
    q.assumed = true;
  } else if (n == "nvfp4" || n == "modelopt-fp4") {
    q.weight_bits = 4;
    q.group_size = 16;
  } else if (n == "modelopt") {
    q.weight_bits = 8;
    q.assumed = true;
  } else {
    q.weight_bits = 0;  // unknown: caller notes that weights are sized at the compute dtype
  }
  return q;
}

}  // namespace llmtriage::catalog
