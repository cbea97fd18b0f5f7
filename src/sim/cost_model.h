#pragma once
// Step time of one engine iteration from first principles (a roofline per kernel family) plus the
// fixed costs that dominate small batches. All inputs are physical; the few efficiency factors
// are the only fitted constants (Calibration, overridable with --calibration FILE).
//
//   t_gemm = max(gemm_flops * kshape / (peak_flops * mfu), weight_bytes / (hbm_bw * mbu))
//            kshape (1 unless gemm_k0 > 0) = kappa(the reference layer) / kappa(the model's GEMMs),
//            kappa(K) = K / (K + K0):
//            a GEMM's efficiency grows with its reduction depth K (each output tile pays a fixed
//            prologue/epilogue, amortised over K); K0 = gemm_k0 x (GEMM peak / bf16 peak). kappa of a
//            model is the FLOP-weighted harmonic mean over its per-GPU GEMMs (QKV, O, gate/up, down,
//            experts; lm_head apart); the reference is a Llama-3-8B layer at TP 1, the shape most of
//            the rows that fitted mfu and mfu_fp8 ran, so kshape = 1 there (docs/sim.md, "Cost model")
//   t_attn = max(attn_flops / (peak_attn_flops * attn_eff), kv_bytes / (hbm_bw * mbu))
//   t_fixed = n_layers * layer_fixed_us            (launches, norms, rotary, sync gaps)
//           + n_layers * prefill_layer_us          (only steps with prompt tokens, in engines
//                                                   whose prefill runs without CUDA graphs)
//   t_ar   = 2 * n_layers * t_one,  when TP > 1, one all-reduce of msg_bytes taking
//            NVLink: min(ar_latency_us + msg / ar_bw,              (custom all-reduce, small msgs)
//                        ar_large_latency_us + msg / ar_large_bw)  (NCCL ring, large msgs)
//            PCIe:   ar_latency_pcie_us + msg / ar_bw_pcie
//   t_gpu  = (t_gemm + t_attn + t_fixed) / clock_factor + t_ar
//   t_cpu  = cpu_step_ms + cpu_per_seq_us * seqs
//   step   = max(t_gpu, t_cpu) if the engine overlaps CPU work, else t_gpu + t_cpu
// with, per step (all per GPU, i.e. divided by TP):
//   gemm_flops   = 2 * active_linear_params * tokens + 2 * hidden * vocab * sampled_seqs
//   weight_bytes = bytes of the dense weights + of the MoE experts the step touches
//                  (expected distinct experts for T tokens, k of E each: E * (1 - (1 - k/E)^T))
//   attn_flops   = 4 * layers * q_heads * head_dim * sum over seqs of (n * c + n (n + 1) / 2)
//                  (QK^T and PV, causal: new token j sees c + j keys)
//   kv_bytes     = kv_bytes_per_token * sum over seqs of (c + n)   (K and V read once per step)
// Sources: overheads.md in the project's reference set, sections 1, 4, 5, 6 (cited in
// docs/sim.md); they are the defaults below.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "sim/scheduler.h"

namespace llmtriage::sim {

// What the cost model needs of a model (built from catalog::ModelArch).
struct ModelShape {
  std::string name;
  int n_layers = 32;
  int64_t hidden = 4096;
  int n_heads = 32;
  int n_kv_heads = 8;
  int head_dim = 128;
  int64_t intermediate = 14336;     // dense MLP width (dense layers)
  int64_t vocab = 128256;
  // MoE (num_experts == 0 for dense models).
  int num_experts = 0;
  int experts_per_tok = 0;
  int64_t moe_intermediate = 0;
  int n_shared_experts = 0;
  int first_k_dense = 0;            // leading dense layers in a MoE model
  // MLA (DeepSeek): kv_lora_rank > 0 replaces per-head K/V with a latent of rank + rope dim.
  int kv_lora_rank = 0;
  int qk_rope_head_dim = 0;
  double weight_bytes_per_param = 2.0;  // bf16 2, fp8 1, fp4 ~0.5
  double kv_bytes_per_elem = 2.0;       // KV cache dtype
  bool tied_embeddings = false;

  // Derived (whole model, not per GPU).
  double attn_params_per_layer() const;
  double dense_mlp_params_per_layer() const;
  double expert_params() const;             // one routed expert
  double active_linear_params(double tokens) const;  // excl. lm_head, for FLOPs
  double weight_bytes_touched(double tokens) const;  // incl. lm_head
  double kv_bytes_per_token() const;        // all layers
  double total_params() const;
  // 1 / FLOP-weighted harmonic mean of kappa(K) = K / (K + k0) over one token's per-GPU linear
  // layers at tensor parallelism tp (lm_head excluded): the time factor of the layers' GEMMs.
  double gemm_k_time_factor(int tp, double k0) const;
};

struct HardwareShape {
  std::string name;
  double peak_flops = 989e12;       // dense, in the GEMM dtype (bf16 or fp8), per GPU
  double peak_attn_flops = 989e12;  // bf16 dense (attention runs in bf16)
  double hbm_bw = 3.35e12;          // bytes/s per GPU
  int tp = 1;
  bool nvlink = true;
  // The GPU's NVLink bandwidth against the H100 SXM's 900 GB/s, where the all-reduce constants
  // were measured (overheads.md s.6): the bandwidth terms scale with it (A100 and H100 NVL
  // bridges 600 -> 0.67, RTX 3090's bridge 112.5 -> 0.125, B200 1800 -> 2).
  double link_ratio = 1.0;
};

// The fitted / physical constants. Defaults: docs/sim.md ("Cost model") with their sources.
struct Calibration {
  // Defaults: fitted on tests/data/sim/published_cases.jsonl (docs/accuracy.md, "Simulator") within
  // the ranges overheads.md gives: MAMF 0.80 bf16 / 0.71 fp8 is the GEMM ceiling, whole-prefill MFU
  // lower (s.5); whole-step bandwidth below the 0.90 microbenchmark ceiling (s.4); per-layer fixed
  // cost "start at 10-20 us" then fit (s.4) -- the fit lands at 50 us because it also absorbs the
  // CPU gaps between kernels that the per-step CPU term does not.
  double mfu = 0.45;             // achievable fraction of peak bf16/fp16 GEMM FLOPs (whole prefill)
  double mfu_fp8 = 0.50;         // same, relative to the FP8 peak (fitted on TRT-LLM FP8 rows)
  // Same, relative to the FP4 peak (Blackwell NVFP4 GEMMs: per-16-element block scales, and the
  // activations quantized to FP4 before each GEMM). Fitted on MLPerf v5.1's NVFP4 Offline rows
  // (median signed error 0; docs/accuracy.md, issue 18 "Fourth step"), never on the vendor tables.
  double mfu_fp4 = 0.40;
  // The K at which a bf16 GEMM loses half its efficiency to per-tile fixed costs (kappa(K) =
  // K / (K + K0)), scaled by the dtype's peak ratio. 0 (the default) = off: every GEMM at mfu.
  // 290 is what XLA's measured H100 matmul table gives (docs/sim.md); it is opt-in because on
  // the published rows it moves the vLLM and SGLang 70B rows slightly the wrong way
  // (docs/accuracy.md, issue 18 "Third step").
  double gemm_k0 = 0.0;
  double mbu = 0.75;             // achievable fraction of HBM bandwidth for weight/KV streaming
  double attn_eff = 0.70;        // achievable fraction of bf16 peak in attention kernels
  double layer_fixed_us = 50.0;  // per-layer fixed cost per step
  double ar_latency_us = 10.0;   // per all-reduce, NVLink custom all-reduce
  double ar_latency_pcie_us = 40.0;
  double ar_bw = 100e9;          // bytes/s, custom all-reduce (small messages, NVLink)
  // NCCL ring all-reduce, which engines switch to for large messages (prefill chunks): fitted
  // to overheads.md s.6's NVLink pynccl row (4 MiB 50 us ... 128 MiB 561 us -> 30 us + 250 GB/s).
  double ar_large_latency_us = 30.0;
  double ar_large_bw = 250e9;
  // PCIe 4.0 x16 moves 32 GB/s per direction; a ring over 4 GPUs sends 1.5x the message per link
  // at ~80% link efficiency -> ~20 GB/s of message per second (no custom all-reduce without P2P).
  double ar_bw_pcie = 20e9;
  // Per-engine CPU overhead; negative = use the engine preset's value.
  double cpu_step_ms = -1;
  double cpu_per_seq_us = -1;
  int cpu_overlapped = -1;       // -1 preset, 0 serial, 1 overlapped
  // Per-layer eager-launch cost of steps with prompt tokens; negative = the engine preset's value
  // (vLLM V0 and SGLang 200 us: decode-only CUDA graphs; vLLM V1 and TensorRT-LLM 0).
  double prefill_layer_us = -1;

  // Reads a JSON object whose keys are the field names above; unknown keys are an error (a typo
  // must not silently fall back to a default).
  static core::Result<Calibration> from_json_text(const std::string& text, const std::string& where);
  // Every key from_json_text reads (those left to the engine preset only when set): reading the
  // result back gives the same constants.
  nlohmann::json to_json() const;
};

struct StepCost {
  double gemm_s = 0, attn_s = 0, fixed_s = 0, allreduce_s = 0, gpu_s = 0, cpu_s = 0, step_s = 0;
};

class CostModel {
 public:
  CostModel(ModelShape m, HardwareShape h, Calibration c, const EnginePreset& preset);
  // clock_factor in (0, 1]: GPU clock throttling (1 = nominal). slow_factor >= 1 multiplies the
  // whole step (a degraded replica).
  StepCost step(const StepPlan& plan, const std::vector<SimRequest>& reqs, double clock_factor = 1.0,
                double slow_factor = 1.0) const;
  const ModelShape& model() const { return m_; }
  const HardwareShape& hardware() const { return h_; }
  const Calibration& calibration() const { return c_; }

 private:
  ModelShape m_;
  HardwareShape h_;
  Calibration c_;
  double cpu_step_s_, cpu_per_seq_s_, prefill_layer_s_;
  bool overlapped_;
  double mfu_eff_;
  double pcie_ring_ = 1.0;  // bytes per link of a ring over tp GPUs against a ring over 4
  double kshape_lin_ = 1.0, kshape_head_ = 1.0;  // GEMM time / the reference layer's (layers, lm_head)
};

}  // namespace llmtriage::sim
