#include "catalog/weights.h"

#include <algorithm>
#include <cmath>

namespace llmtriage::catalog {
namespace {

// Bytes per parameter of a quantized matrix: packed weights plus per-group scales (fp16 2 B;
// mxfp4 1 B e8m0 per 32; fp8 block scales fp32 4 B) and 4-bit zero points for gptq/awq.
double quantized_bytes_per_param(const QuantConfig& q) {
  double b = q.weight_bits / 8.0;
  if (q.group_size > 0) {
    double scale = 2.0;
    if (q.method == "mxfp4") scale = 1.0;
    if (q.method == "fp8") scale = 4.0;
    double zero = (q.method.rfind("gptq", 0) == 0 || q.method.rfind("awq", 0) == 0) ? 0.5 : 0.0;
    b += (scale + zero) / q.group_size;
  }
  return b;
}

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

}  // namespace

WeightBytes weight_bytes(const ModelArch& m, const WeightSharding& s) {
  const int tp = std::max(1, s.tp);
  const int pp = std::max(1, s.pp);
  const double dt = dtype_bytes(s.dtype.empty() ? m.torch_dtype : s.dtype) > 0
                        ? dtype_bytes(s.dtype.empty() ? m.torch_dtype : s.dtype)
                        : 2.0;
  const QuantConfig& q = s.quant;
  const double qb = q.quantized() ? quantized_bytes_per_param(q) : dt;
  const double dense_b = (q.quantized() && !q.experts_only) ? qb : dt;  // attention + dense MLP
  const double expert_b = q.quantized() ? qb : dt;

  WeightBytes w;
  // Per layer, whole model (all TP ranks), and the part one TP rank holds.
  std::vector<double> layer_total(m.num_layers), layer_rank(m.num_layers);
  for (int64_t l = 0; l < m.num_layers; ++l) {
    double attn = static_cast<double>(m.attention_params_per_layer()) * dense_b;
    double attn_rank = attn / tp;
    if (!m.is_mla() && tp > m.num_kv_heads) {
      // KV heads replicated: each rank holds one KV head's k and v projections.
      double kv_rank = 2.0 * m.hidden_size * m.head_dim * dense_b;
      double q_o_rank = 2.0 * m.hidden_size * m.q_size() * dense_b / tp;
      attn_rank = kv_rank + q_o_rank;
    }
    double mlp = 0;
    if (m.layer_is_moe(l)) {
      int64_t width = m.moe_intermediate_size;
      if (s.pad_mxfp4_experts && q.method == "mxfp4") width = round_up(width, 256);
      const int64_t mats = m.gated_mlp ? 3 : 2;
      double routed = static_cast<double>(m.num_experts) * mats * m.hidden_size * width * expert_b;
      double shared = static_cast<double>(mats) * m.hidden_size * m.shared_expert_intermediate_size * dense_b;
      double router = static_cast<double>(m.hidden_size) * m.num_experts * dt;  // routers stay unquantized
      mlp = routed + shared + router;
      if (q.quantized()) w.quantized_bytes += routed + (q.experts_only ? 0 : shared);
    } else {
      mlp = static_cast<double>(m.mlp_params(l)) * dense_b;
      if (q.quantized() && !q.experts_only) w.quantized_bytes += mlp;
    }
    if (q.quantized() && !q.experts_only) w.quantized_bytes += attn;
    layer_total[l] = attn + mlp;
    layer_rank[l] = attn_rank + mlp / tp;
  }
  // vLLM pads the vocabulary to a multiple of 64 before sharding (VocabParallelEmbedding).
  const double vocab = static_cast<double>(round_up(m.vocab_size, 64));
  const double embed = vocab * m.hidden_size * dt;
  const double lm_head = m.tie_word_embeddings ? 0.0 : embed;
  const double extra = static_cast<double>(m.extra_params) * dt;
  w.embedding_bytes = embed + lm_head;

  double total = embed + lm_head + extra;
  for (double x : layer_total) total += x;
  w.total_bytes = total;

  // Pipeline stages: ceil(L/pp) layers on the largest stage; embedding (and the vision tower)
  // on the first, lm_head on the last; with pp == 1 both on the one stage.
  const int64_t per_stage = (m.num_layers + pp - 1) / pp;
  w.layers_per_stage = per_stage;
  double worst = 0;
  for (int st = 0; st < pp; ++st) {
    int64_t begin = st * per_stage, end = std::min<int64_t>(m.num_layers, begin + per_stage);
    double b = 0;
    for (int64_t l = begin; l < end; ++l) b += layer_rank[l];
    if (st == 0) b += (embed + extra) / tp;  // vision towers are TP-sharded like the decoder
    if (st == pp - 1) b += (m.tie_word_embeddings && pp > 1 ? embed : lm_head) / tp;
    worst = std::max(worst, b);
  }
  w.per_gpu_bytes = worst;
  return w;
}

}  // namespace llmtriage::catalog
