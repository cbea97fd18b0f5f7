#include "sim/deployment.h"

#include <algorithm>
#include <cmath>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "ledger/ledger.h"

namespace llmtriage::sim {

core::Result<Deployed> deploy(const DeploymentSpec& spec) {
  auto arch = catalog::load_model(spec.model);
  if (!arch.ok()) return std::move(arch).error();
  auto gpu = catalog::find_gpu(spec.gpu);
  if (!gpu.ok()) return std::move(gpu).error();
  const catalog::ModelArch& a = *arch;
  const catalog::GpuSpec& g = *gpu;
  if (g.hbm_bandwidth_gbps <= 0 || !g.dense_tflops("bf16"))
    return core::make_error(core::ErrorKind::input, "--gpu", "a GPU with bandwidth and bf16 FLOPs in the catalog",
                            "'" + g.name + "' without them");
  const int tp = std::max(1, spec.tp);
  catalog::WeightSharding ws;
  ws.tp = tp;
  ws.dtype = spec.dtype == "auto" ? "" : spec.dtype;
  ws.quant = spec.quantization.empty() ? a.quant : catalog::quant_from_name(spec.quantization);
  const catalog::WeightBytes wb = catalog::weight_bytes(a, ws);

  Deployed d;
  ModelShape& m = d.model;
  m.name = a.id;
  m.n_layers = static_cast<int>(a.num_layers);
  m.hidden = a.hidden_size;
  m.n_heads = static_cast<int>(a.num_attention_heads);
  m.n_kv_heads = static_cast<int>(std::max<int64_t>(1, a.num_kv_heads));
  m.head_dim = static_cast<int>(a.head_dim);
  m.intermediate = a.intermediate_size;
  m.vocab = a.vocab_size;
  m.tied_embeddings = a.tie_word_embeddings;
  if (a.is_moe()) {
    m.num_experts = static_cast<int>(a.num_experts);
    m.experts_per_tok = static_cast<int>(a.num_experts_per_tok);
    m.moe_intermediate = a.moe_intermediate_size;
    m.n_shared_experts = a.moe_intermediate_size > 0
                             ? static_cast<int>(std::lround(static_cast<double>(a.shared_expert_intermediate_size) /
                                                            static_cast<double>(a.moe_intermediate_size)))
                             : 0;
    m.first_k_dense = static_cast<int>(a.first_k_dense_layers);
  }
  if (a.is_mla()) {
    m.kv_lora_rank = static_cast<int>(a.kv_lora_rank);
    m.qk_rope_head_dim = static_cast<int>(a.qk_rope_head_dim);
  }
  // Bytes per parameter as the catalog sizes this checkpoint (quantization, scales, embeddings).
  m.weight_bytes_per_param = wb.total_bytes / std::max(1.0, static_cast<double>(a.total_params()));
  const double dt = catalog::dtype_bytes(spec.dtype == "auto" ? a.torch_dtype : spec.dtype);
  const auto& q = ws.quant;
  const bool fp8_weights = (q.method.find("fp8") != std::string::npos || q.method == "w8a8" ||
                            q.method == "compressed-tensors" || q.method == "modelopt") && q.weight_bits == 8;
  const bool fp4_weights = q.method == "nvfp4" || q.method == "fp4" || q.method == "modelopt-fp4";
  m.kv_bytes_per_elem = spec.kv_cache_dtype.rfind("fp8", 0) == 0 ? 1.0 : (dt > 0 ? dt : 2.0);
  // TensorRT-LLM takes the KV dtype from the checkpoint (kv_cache_quant_algo in
  // hf_quant_config.json; trtllm-bench's tensorrt_llm/bench/build/tuning.py sizes the pool with
  // it), and the engine's FP8/NVFP4 recipe writes FP8 KV (examples/quantization/README.md:
  // `quantize.py --qformat fp8 --kv_cache_dtype fp8`). So "auto" on an FP8/FP4 checkpoint is FP8
  // KV for trtllm; a checkpoint quantized without it (kv_cache_quant_algo null) needs
  // kv_cache_dtype "bfloat16". vLLM and SGLang keep "auto" = the model dtype.
  if (spec.engine == core::EngineKind::trtllm && spec.kv_cache_dtype == "auto" && (fp8_weights || fp4_weights))
    m.kv_bytes_per_elem = 1.0;

  HardwareShape& h = d.hardware;
  h.name = g.name;
  h.tp = tp;
  h.hbm_bw = g.hbm_bandwidth_gbps * 1e9;
  h.peak_attn_flops = *g.dense_tflops("bf16") * 1e12;
  h.peak_flops = h.peak_attn_flops;
  // W8A8 fp8 runs GEMMs on fp8 tensor cores; 4-bit float formats on Blackwell fp4 cores; weight-only
  // int4 (gptq/awq) dequantizes to bf16.
  if (fp8_weights && g.fp8_tflops) h.peak_flops = *g.fp8_tflops * 1e12;
  if (fp4_weights && g.fp4_tflops) h.peak_flops = *g.fp4_tflops * 1e12;
  h.nvlink = g.interconnect_gbps.has_value();
  if (g.interconnect_gbps && *g.interconnect_gbps > 0) h.link_ratio = *g.interconnect_gbps / 900.0;

  d.max_model_len = spec.max_model_len.value_or(a.max_position_embeddings > 0 ? a.max_position_embeddings : 8192);
  d.weights_gib_per_gpu = wb.per_gpu_bytes / 1073741824.0;
  d.gpu_memory_gib = g.memory_gib;
  d.param_count = static_cast<double>(a.total_params());
  d.quant_bytes_per_param = fp4_weights ? 0.5 : fp8_weights ? 1.0 : 2.0;
  d.usable_gib = spec.gpu_memory_utilization * g.memory_gib;
  const double kv_per_token_gpu = m.kv_lora_rank > 0 ? m.kv_bytes_per_token()
                                                     : m.kv_bytes_per_token() * std::max(1.0, static_cast<double>(m.n_kv_heads) / tp) / m.n_kv_heads;
  const bool ledger_models = spec.engine == core::EngineKind::vllm || spec.engine == core::EngineKind::vllm_v0 ||
                             spec.engine == core::EngineKind::sglang;
  if (spec.kv_cache_tokens) {
    d.kv_cache_tokens = *spec.kv_cache_tokens;
    d.kv_pool_source = "--kv-cache-tokens";
  } else if (ledger_models) {
    ledger::LedgerInput in;
    in.model = a;
    in.gpu = g;
    in.engine = spec.engine;
    in.settings.tensor_parallel_size = tp;
    if (spec.engine == core::EngineKind::sglang) in.settings.mem_fraction_static = spec.gpu_memory_utilization;
    else in.settings.gpu_memory_utilization = spec.gpu_memory_utilization;
    in.settings.max_model_len = d.max_model_len;
    if (spec.dtype != "auto") in.settings.dtype = spec.dtype;
    in.settings.kv_cache_dtype = spec.kv_cache_dtype;
    if (!spec.quantization.empty()) in.settings.quantization = spec.quantization;
    if (spec.max_num_seqs) in.settings.max_num_seqs = *spec.max_num_seqs;
    if (spec.max_num_batched_tokens) in.settings.max_num_batched_tokens = *spec.max_num_batched_tokens;
    in.with_remedies = false;
    auto rep = ledger::compute_ledger(in);
    if (!rep.ok()) return std::move(rep).error();
    d.kv_cache_tokens = rep->kv_cache_tokens;
    d.weights_gib_per_gpu = rep->weights_gib;
    d.usable_gib = rep->usable_gib;
    d.kv_pool_source = "ledger (" + rep->accounting + ")";
    if (!rep->engine_starts) d.startup_error = std::string(ledger::to_string(rep->verdict)) + ": " + rep->verdict_detail;
  } else {
    const double big = a.total_params() > 30e9 ? 1.0 : 0.0;
    const double overhead_gib = 0.5 + (tp > 1 ? 1.75 : 0.0) + (big ? 3.0 : 1.3) + (tp > 1 ? 1.5 : 0.5);
    // TensorRT-LLM sizes its pool as KvCacheConfig.free_gpu_memory_fraction (default 0.9; docs
    // "How To Change KV Cache Behavior", docs/source/1.0/examples/kvcacheconfig.md: "allocate 90%
    // of free GPU memory for KV cache") x the memory still free once weights, activations and
    // the runtime are in place -- a fraction of what is left, not of the whole GPU as vLLM's
    // gpu_memory_utilization. For trtllm, gpu_memory_utilization is that fraction.
    const double kv_gib = spec.engine == core::EngineKind::trtllm
                              ? spec.gpu_memory_utilization * (g.memory_gib - d.weights_gib_per_gpu - overhead_gib)
                              : spec.gpu_memory_utilization * g.memory_gib - d.weights_gib_per_gpu - overhead_gib;
    d.kv_cache_tokens = kv_gib > 0 ? static_cast<int64_t>(kv_gib * 1073741824.0 / kv_per_token_gpu) : 0;
    d.kv_pool_source = "estimate (the ledger has no " + std::string(core::to_string(spec.engine)) + " model)";
  }
  return d;
}

}  // namespace llmtriage::sim
