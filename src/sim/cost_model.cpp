#include "sim/cost_model.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace llmtriage::sim {

double ModelShape::attn_params_per_layer() const {
  const double q = static_cast<double>(n_heads) * head_dim;
  if (kv_lora_rank > 0) {
    // MLA: hidden -> latent (+ rope key), latent -> per-head K and V, plus Q and O projections.
    const double lat = static_cast<double>(kv_lora_rank) + qk_rope_head_dim;
    return hidden * q + hidden * lat + kv_lora_rank * 2.0 * q + q * hidden;
  }
  const double kv = static_cast<double>(n_kv_heads) * head_dim;
  return hidden * q + 2.0 * hidden * kv + q * hidden;
}

double ModelShape::dense_mlp_params_per_layer() const { return 3.0 * hidden * intermediate; }  // gate, up, down

double ModelShape::expert_params() const { return 3.0 * hidden * moe_intermediate; }

double ModelShape::active_linear_params(double) const {
  const double attn = attn_params_per_layer() * n_layers;
  if (num_experts <= 0) return attn + dense_mlp_params_per_layer() * n_layers;
  const int moe_layers = n_layers - first_k_dense;
  const double per_moe = (experts_per_tok + n_shared_experts) * expert_params() + hidden * num_experts;
  return attn + dense_mlp_params_per_layer() * first_k_dense + per_moe * moe_layers;
}

double ModelShape::weight_bytes_touched(double tokens) const {
  double params = attn_params_per_layer() * n_layers + static_cast<double>(vocab) * hidden;  // + lm_head
  if (num_experts <= 0) {
    params += dense_mlp_params_per_layer() * n_layers;
  } else {
    const int moe_layers = n_layers - first_k_dense;
    const double k = experts_per_tok, e = num_experts;
    const double touched = e * (1.0 - std::pow(1.0 - k / e, std::max(tokens, 1.0)));
    params += dense_mlp_params_per_layer() * first_k_dense +
              (touched + n_shared_experts) * expert_params() * moe_layers;
  }
  return params * weight_bytes_per_param;
}

double ModelShape::kv_bytes_per_token() const {
  if (kv_lora_rank > 0) return (static_cast<double>(kv_lora_rank) + qk_rope_head_dim) * n_layers * kv_bytes_per_elem;
  return 2.0 * n_layers * n_kv_heads * head_dim * kv_bytes_per_elem;
}

double ModelShape::total_params() const {
  double p = attn_params_per_layer() * n_layers + static_cast<double>(vocab) * hidden * (tied_embeddings ? 1 : 2);
  if (num_experts <= 0) return p + dense_mlp_params_per_layer() * n_layers;
  const int moe_layers = n_layers - first_k_dense;
  return p + dense_mlp_params_per_layer() * first_k_dense +
         (num_experts + n_shared_experts) * expert_params() * moe_layers;
}

double ModelShape::gemm_k_time_factor(int tp, double k0) const {
  if (k0 <= 0) return 1.0;
  const double t = std::max(1, tp);
  double flops = 0, time = 0;
  // params: this GEMM's weights on one GPU; k: its reduction dimension there. Column-parallel
  // layers (QKV, gate/up, MLA's up-projections) keep K whole; row-parallel ones (O, down) split K.
  auto add = [&](double params, double k, double count) {
    if (params <= 0 || count <= 0) return;
    const double kk = std::max(k, 1.0);
    flops += params * count;
    time += params * count * (kk + k0) / kk;
  };
  const double q = static_cast<double>(n_heads) * head_dim;
  const double h = static_cast<double>(hidden);
  if (kv_lora_rank > 0) {
    const double lat = static_cast<double>(kv_lora_rank) + qk_rope_head_dim;
    add(h * q / t + h * lat, h, n_layers);             // Q and the latent (+ rope key): K = hidden
    add(kv_lora_rank * 2.0 * q / t, kv_lora_rank, n_layers);  // latent -> per-head K and V
  } else {
    add(h * (q + 2.0 * n_kv_heads * head_dim) / t, h, n_layers);  // fused QKV
  }
  add(q * h / t, q / t, n_layers);  // O projection
  const double dense_layers = num_experts > 0 ? first_k_dense : n_layers;
  add(2.0 * h * intermediate / t, h, dense_layers);              // gate + up
  add(h * intermediate / t, intermediate / t, dense_layers);     // down
  if (num_experts > 0) {
    const double moe_layers = n_layers - first_k_dense;
    const double active = experts_per_tok + n_shared_experts;
    add(active * 2.0 * h * moe_intermediate / t, h, moe_layers);
    add(active * h * moe_intermediate / t, moe_intermediate / t, moe_layers);
    add(h * num_experts, h, moe_layers);  // router
  }
  return flops > 0 ? time / flops : 1.0;
}

namespace {

// The shape kshape is relative to: a Llama-3-8B layer (hidden 4096, 32 heads of 128, 8 KV heads,
// MLP 14336) at TP 1 -- most of the fit rows that set mfu (4 of 7 bf16) and mfu_fp8 (3 of 5 FP8).
double reference_k_time_factor(double k0) {
  ModelShape ref;  // the defaults are that layer
  ref.hidden = 4096;
  ref.n_heads = 32;
  ref.n_kv_heads = 8;
  ref.head_dim = 128;
  ref.intermediate = 14336;
  ref.num_experts = 0;
  ref.kv_lora_rank = 0;
  return ref.gemm_k_time_factor(1, k0);
}

// Every calibration key, once: the reader, the writer and the error message use this table.
struct Field {
  const char* key;
  double Calibration::*d;
  int Calibration::*i;
};
constexpr Field kFields[] = {
    {"mfu", &Calibration::mfu, nullptr},
    {"mfu_fp8", &Calibration::mfu_fp8, nullptr},
    {"mfu_fp4", &Calibration::mfu_fp4, nullptr},
    {"gemm_k0", &Calibration::gemm_k0, nullptr},
    {"mbu", &Calibration::mbu, nullptr},
    {"attn_eff", &Calibration::attn_eff, nullptr},
    {"layer_fixed_us", &Calibration::layer_fixed_us, nullptr},
    {"ar_latency_us", &Calibration::ar_latency_us, nullptr},
    {"ar_latency_pcie_us", &Calibration::ar_latency_pcie_us, nullptr},
    {"ar_bw", &Calibration::ar_bw, nullptr},
    {"ar_large_latency_us", &Calibration::ar_large_latency_us, nullptr},
    {"ar_large_bw", &Calibration::ar_large_bw, nullptr},
    {"ar_bw_pcie", &Calibration::ar_bw_pcie, nullptr},
    {"cpu_step_ms", &Calibration::cpu_step_ms, nullptr},
    {"cpu_per_seq_us", &Calibration::cpu_per_seq_us, nullptr},
    {"cpu_overlapped", nullptr, &Calibration::cpu_overlapped},
    {"prefill_layer_us", &Calibration::prefill_layer_us, nullptr},
};

}  // namespace

nlohmann::json Calibration::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& f : kFields) {
    if (f.i) {
      if (this->*f.i >= 0) j[f.key] = this->*f.i == 1;  // -1: the engine preset decides
    } else if (this->*f.d >= 0) {
      j[f.key] = this->*f.d;  // negative: the engine preset's value
    }
  }
  return j;
}

core::Result<Calibration> Calibration::from_json_text(const std::string& text, const std::string& where) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return core::make_error(core::ErrorKind::input, where, "a JSON object of calibration constants",
                            "text that is not a JSON object");
  Calibration c;
  std::string keys;
  for (const auto& f : kFields) keys += std::string(keys.empty() ? "" : ", ") + f.key;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key().rfind("_", 0) == 0 || it.key() == "source" || it.key() == "notes") continue;  // comments
    const Field* f = nullptr;
    for (const auto& x : kFields) if (it.key() == x.key) f = &x;
    if (!f)
      return core::make_error(core::ErrorKind::input, where + ": key '" + it.key() + "'", "one of " + keys,
                              "'" + it.key() + "'");
    if (f->i) {
      if (it->is_boolean()) c.*f->i = it->get<bool>() ? 1 : 0;
      else if (it->is_number()) c.*f->i = it->get<int>();
      else return core::make_error(core::ErrorKind::input, where + ": " + it.key(), "true/false", it->dump());
    } else {
      if (!it->is_number() || it->get<double>() < 0)
        return core::make_error(core::ErrorKind::input, where + ": " + it.key(), "a number >= 0", it->dump());
      c.*f->d = it->get<double>();
    }
  }
  for (double v : {c.mfu, c.mfu_fp8, c.mfu_fp4, c.mbu, c.attn_eff})
    if (v <= 0 || v > 1)
      return core::make_error(core::ErrorKind::input, where, "efficiency factors in (0, 1]", std::to_string(v));
  return c;
}

CostModel::CostModel(ModelShape m, HardwareShape h, Calibration c, const EnginePreset& preset)
    : m_(std::move(m)), h_(std::move(h)), c_(c) {
  cpu_step_s_ = (c_.cpu_step_ms >= 0 ? c_.cpu_step_ms : preset.cpu_step_ms) * 1e-3;
  cpu_per_seq_s_ = (c_.cpu_per_seq_us >= 0 ? c_.cpu_per_seq_us : preset.cpu_per_seq_us) * 1e-6;
  prefill_layer_s_ = (c_.prefill_layer_us >= 0 ? c_.prefill_layer_us : preset.prefill_layer_us) * 1e-6;
  overlapped_ = c_.cpu_overlapped >= 0 ? c_.cpu_overlapped == 1 : preset.cpu_overlapped;
  // A ring all-reduce over n GPUs sends 2(n-1)/n of the message over each link; ar_bw_pcie is
  // the message rate of a ring over 4 (1.5x per link), so TP 2 moves 1/1.5 of that and TP 8 1.75/1.5.
  const double n = std::max(2, h_.tp);
  pcie_ring_ = (2.0 * (n - 1) / n) / 1.5;
  // FP8 peaks are twice bf16 but the non-GEMM share does not shrink: a lower factor (overheads.md s.5).
  // The GEMM dtype by its peak's ratio to bf16: 2x FP8 (Hopper, Ada, Blackwell), 4x FP4 (Blackwell).
  const double peak_ratio = h_.peak_flops / std::max(h_.peak_attn_flops, 1.0);
  mfu_eff_ = peak_ratio > 3 ? c_.mfu_fp4 : peak_ratio > 1.5 ? c_.mfu_fp8 : c_.mfu;
  // Per-tile fixed costs take the same time in any dtype while the K loop runs at the dtype's
  // peak, so K0 in elements scales with the peak ratio (x2 for FP8 on Hopper).
  const double k0 = c_.gemm_k0 * std::max(1.0, h_.peak_flops / std::max(h_.peak_attn_flops, 1.0));
  // Time multipliers relative to the reference layer (exactly 1 for it, and for gemm_k0 = 0).
  const double ref = reference_k_time_factor(k0);
  kshape_lin_ = m_.gemm_k_time_factor(h_.tp, k0) / ref;
  const double kh = static_cast<double>(m_.hidden);
  kshape_head_ = k0 > 0 ? ((kh + k0) / kh) / ((4096.0 + k0) / 4096.0) : 1.0;  // vs the reference's K = 4096
}

StepCost CostModel::step(const StepPlan& plan, const std::vector<SimRequest>& reqs, double clock_factor,
                         double slow_factor) const {
  StepCost s;
  if (plan.seqs.empty()) return s;
  const double tp = std::max(1, h_.tp);
  double pairs = 0, kv_tokens = 0, sampled = 0;
  for (const auto& q : plan.seqs) {
    const double n = q.num_new_tokens, c = q.context_before;
    pairs += n * c + n * (n + 1) * 0.5;
    kv_tokens += c + n;
    if (q.context_before + q.num_new_tokens >= reqs[q.req].num_tokens()) sampled += 1;
  }
  const double tokens = static_cast<double>(plan.num_tokens);
  // FLOPs weighted by their shape's time factor (the layers' GEMMs, lm_head): at mfu for the reference.
  const double gemm_flops = (2.0 * m_.active_linear_params(tokens) * tokens * kshape_lin_ +
                             2.0 * m_.hidden * m_.vocab * sampled * kshape_head_) / tp;
  const double wbytes = m_.weight_bytes_touched(tokens) / tp;
  s.gemm_s = std::max(gemm_flops / (h_.peak_flops * mfu_eff_), wbytes / (h_.hbm_bw * c_.mbu));
  const double attn_flops = 4.0 * m_.n_layers * m_.n_heads * m_.head_dim * pairs / tp;
  const double kv_heads_per_rank = std::max(1.0, m_.n_kv_heads / tp);
  const double kv_per_token_rank = m_.kv_lora_rank > 0 ? m_.kv_bytes_per_token()
                                                      : m_.kv_bytes_per_token() * kv_heads_per_rank / m_.n_kv_heads;
  s.attn_s = std::max(attn_flops / (h_.peak_attn_flops * c_.attn_eff), kv_tokens * kv_per_token_rank / (h_.hbm_bw * c_.mbu));
  s.fixed_s = m_.n_layers * c_.layer_fixed_us * 1e-6;
  if (plan.num_prefill > 0) s.fixed_s += m_.n_layers * prefill_layer_s_;
  if (h_.tp > 1) {
    const double msg = tokens * m_.hidden * 2.0;  // bf16 activations
    const double link = h_.link_ratio > 0 ? h_.link_ratio : 1.0;
    const double one = h_.nvlink ? std::min(c_.ar_latency_us * 1e-6 + msg / (c_.ar_bw * link),
                                            c_.ar_large_latency_us * 1e-6 + msg / (c_.ar_large_bw * link))
                                 : c_.ar_latency_pcie_us * 1e-6 + msg * pcie_ring_ / c_.ar_bw_pcie;
    s.allreduce_s = 2.0 * m_.n_layers * one;
  }
  const double cf = std::clamp(clock_factor, 0.05, 1.0);
  s.gpu_s = ((s.gemm_s + s.attn_s + s.fixed_s) / cf + s.allreduce_s);
  s.cpu_s = cpu_step_s_ + cpu_per_seq_s_ * static_cast<double>(plan.seqs.size());
  s.step_s = (overlapped_ ? std::max(s.gpu_s, s.cpu_s) : s.gpu_s + s.cpu_s) * std::max(1.0, slow_factor);
  return s;
}

}  // namespace llmtriage::sim
