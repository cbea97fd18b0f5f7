#include "ledger/engine_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace llmtriage::ledger {
namespace {

using core::kGiB;

// Activations of the MLP over `tokens` tokens on one TP rank: gate+up output, activation output
// (and for MoE each token's top-k expert copies plus the combined output).
double mlp_act_bytes(const catalog::ModelArch& m, int64_t tokens, int tp, double act) {
  const double t = static_cast<double>(tokens);
  if (m.is_moe()) {
    const double w = static_cast<double>(m.moe_intermediate_size) / tp;
    return t * m.num_experts_per_tok * (3.0 * w + m.hidden_size) * act;
  }
  return t * 3.0 * static_cast<double>(m.intermediate_size) / tp * act;
}

}  // namespace

Estimate vllm_v1_activation(const catalog::ModelArch& m, const ProfileShape& s, const EngineVersion& v) {
  // Fitted on vLLM 0.19 logs (llm-d-planner v0.19.0, 12 models): torch peak increase =
  // 0.07 GiB + hidden states + rows x vocab x 14.36 B; the 0.11-0.16 logs (Llama-3.1-8B 4.76,
  // Qwen3 5.56-5.64 GiB) fit 37.8 B per logit with the same rows.
  const double per_logit = v.at_least(0, 17) ? 14.36 : 37.8;
  const double rows = static_cast<double>(std::min(s.max_num_seqs, s.max_num_batched_tokens));
  const double hidden = static_cast<double>(s.max_num_batched_tokens) * m.hidden_size * s.act_bytes;
  const double sampler = rows * static_cast<double>(m.vocab_size) * per_logit;
  const double c0 = 0.07 * kGiB;
  const double forward = c0 + 3.0 * hidden + mlp_act_bytes(m, s.max_num_batched_tokens, s.tp, s.act_bytes);
  const double sampler_peak = c0 + hidden + sampler;
  Estimate e;
  e.gib = std::max(forward, sampler_peak) / kGiB;
  if (sampler_peak >= forward)
    e.formula = fmt::format("0.07 + {} tokens x {} hidden x {} B + {} rows x {} vocab x {} B/logit = {:.2f} GiB",
                            s.max_num_batched_tokens, m.hidden_size, s.act_bytes, rows, m.vocab_size, per_logit, e.gib);
  else
    e.formula = fmt::format("forward pass over {} tokens (MLP {} activations per TP rank): {:.2f} GiB",
                            s.max_num_batched_tokens, m.is_moe() ? "MoE expert" : "gate/up", e.gib);
  e.basis = "vllm/v1/worker/gpu_model_runner.py profile_run (_dummy_run + _dummy_sampler_run); "
            "llmtriage fit to vLLM 0.11-0.19 startup logs";
  return e;
}

Estimate vllm_v0_activation(const catalog::ModelArch& m, const ProfileShape& s) {
  // Fitted on two V0 logs of Llama-3-8B: 1.26 GiB at 8192 tokens (vLLM PR #10511) and 2.07 GiB
  // at 20000 tokens (issue #10517): 0.3 GiB + sampler (max_num_seqs x vocab fp32, twice) + MLP.
  const double sampler = static_cast<double>(s.max_num_seqs) * m.vocab_size * 4.0 * 2.0;
  const double mlp = mlp_act_bytes(m, s.max_num_batched_tokens, s.tp, s.act_bytes);
  Estimate e;
  e.gib = (0.3 * kGiB + sampler + mlp) / kGiB;
  e.formula = fmt::format("0.3 + {} seqs x {} vocab x 8 B + MLP over {} tokens = {:.2f} GiB", s.max_num_seqs,
                          m.vocab_size, s.max_num_batched_tokens, e.gib);
  e.basis = "vllm/worker/worker.py determine_num_available_blocks (profile_run); llmtriage fit to V0 logs";
  return e;
}

Estimate vllm_non_torch(const ProfileShape& s, bool v1, const EngineVersion& v) {
  const bool distributed = s.tp * s.pp > 1;
  Estimate e;
  if (!v1) {
    // V0 logs: 0.35 GiB (RTX 3090, TP1, #10517), 0.38 GiB (A100, TP4, #16570).
    e.gib = distributed ? 0.6 : 0.35;
    e.basis = "vllm/worker/worker.py (non_torch_allocations); V0 logs #10517, #16570";
  } else if (v.at_least(0, 18)) {
    // 0.19 logs: 0.24-0.26 GiB at TP1, 2.07 GiB TP2, 2.13 GiB TP4 (NCCL + custom all-reduce).
    e.gib = distributed ? 2.1 : 0.25;
    e.basis = "vllm/v1/worker/gpu_worker.py determine_available_memory; vLLM 0.18-0.19 logs (llm-d-planner)";
  } else {
    // 0.11-0.17 logs: 0.13-0.14 GiB at TP1, 0.55 GiB at TP2.
    e.gib = distributed ? 0.55 : 0.13;
    e.basis = "vllm/v1/worker/gpu_worker.py determine_available_memory; vLLM 0.11-0.16 logs (llm-d)";
  }
  e.formula = fmt::format("{:.2f} GiB ({})", e.gib, distributed ? "TP/PP > 1: NCCL and all-reduce buffers" : "one GPU");
  return e;
}

Estimate cuda_graph(const ProfileShape& s) {
  Estimate e;
  if (s.enforce_eager) {
    e.formula = "0 (--enforce-eager: no CUDA graphs)";
    e.basis = "--enforce-eager";
    return e;
  }
  // vLLM 0.19 logs: 0.67-1.66 GiB actual; about 0.5 GiB + 12 MiB per layer fits them within 0.3 GiB.
  e.gib = 0.5 + 0.012 * static_cast<double>(s.layers_per_stage);
  e.formula = fmt::format("0.5 + 0.012 x {} layers = {:.2f} GiB", s.layers_per_stage, e.gib);
  e.basis = "vllm/v1/worker/gpu_model_runner.py capture_model; llmtriage fit to vLLM 0.19 'CUDA graph pool memory' lines";
  return e;
}

Estimate sglang_runtime(const ProfileShape& s) {
  // NOTE: one data point (Qwen3-235B-A22B-FP8, TP4, vllm-project/vllm#21348 SGLang log): the
  // pool implies ~2.1 GiB held besides weights at TP4; at TP1 only the CUDA context.
  Estimate e;
  e.gib = kCudaContextGiB + (s.tp * s.pp > 1 ? 1.6 : 0.05);
  e.formula = fmt::format("CUDA context 0.5{} = {:.2f} GiB", s.tp * s.pp > 1 ? " + NCCL/all-reduce 1.6" : " + 0.05", e.gib);
  e.basis = "sglang/srt/model_executor/model_runner.py profile_max_num_token (free memory after weights)";
  return e;
}

Estimate tgi_activation(const catalog::ModelArch& m, const ProfileShape& s) {
  Estimate e;
  const double hidden = static_cast<double>(s.max_num_batched_tokens) * m.hidden_size * s.act_bytes;
  e.gib = (3.0 * hidden + mlp_act_bytes(m, s.max_num_batched_tokens, s.tp, s.act_bytes)) / kGiB + 0.1;
  e.formula = fmt::format("warmup prefill of {} tokens: {:.2f} GiB", s.max_num_batched_tokens, e.gib);
  e.basis = "server/text_generation_server/models/flash_causal_lm.py warmup; llmtriage estimate (no TGI fixture)";
  return e;
}

}  // namespace llmtriage::ledger
