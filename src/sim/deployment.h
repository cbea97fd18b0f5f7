#pragma once
// From a deployment description (model id, GPU name, TP, dtype, quantization, engine settings) to
// the simulator's inputs: ModelShape and HardwareShape from the catalog, the KV pool size.
//
// KV pool: from the memory ledger (ledger::compute_ledger) for the same model, GPU and settings --
// one source of truth -- including its startup verdict (the engine does not start: OOM while
// loading, no KV memory, max-model-len larger than the pool). Overrides: kv_cache_tokens.
// TensorRT-LLM has no ledger model; for it the pool is estimated here as
//   kv_bytes = free_gpu_memory_fraction * (memory_gib - weights_per_gpu - non_torch - activation - cuda_graphs)
// (KvCacheConfig: a fraction of the memory still free, default 0.9; gpu_memory_utilization carries
// it for trtllm) with the overheads.md section 2/3 defaults (non_torch 0.5 GiB + 1.75 GiB when
// TP > 1, activation peak 1.3 GiB at 8B scale / 3 GiB at 70B, CUDA graphs 0.5 GiB TP1 / 1.5 GiB
// TP>1), and FP8 KV for an FP8/FP4 checkpoint under kv_cache_dtype "auto" (deployment.cpp).
#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "sim/cost_model.h"

namespace llmtriage::sim {

struct DeploymentSpec {
  std::string model = "meta-llama/Llama-3.1-8B-Instruct";
  std::string gpu = "H100-SXM";
  int tp = 1;
  std::string dtype = "auto";               // compute dtype of unquantized weights
  std::string quantization;                 // "" = the checkpoint's; "fp8", "awq", ...
  std::string kv_cache_dtype = "auto";      // "auto" = dtype (trtllm: fp8 for FP8/FP4 checkpoints); "fp8*" = 1 byte
                                            // any other name (bfloat16, float16) = the model dtype
  double gpu_memory_utilization = 0.9;      // trtllm: free_gpu_memory_fraction (of what the weights leave)
  std::optional<int64_t> max_model_len;     // default: the model's max_position_embeddings
  std::optional<int64_t> kv_cache_tokens;   // explicit KV pool per replica, tokens
  core::EngineKind engine = core::EngineKind::vllm;  // whose memory accounting applies
  std::optional<int64_t> max_num_seqs, max_num_batched_tokens;  // they size the activation peak
};

struct Deployed {
  ModelShape model;
  HardwareShape hardware;
  int64_t max_model_len = 0;
  int64_t kv_cache_tokens = 0;   // per replica
  double weights_gib_per_gpu = 0;
  double usable_gib = 0;         // gpu_memory_utilization x capacity
  std::string kv_pool_source;    // "ledger (...)", "--kv-cache-tokens", "estimate (...)"
  std::string startup_error;     // the ledger's verdict when the engine does not start
  // For trtllm-bench's settings heuristic (trtllm_bench.h): the GPU's memory, the checkpoint's
  // parameter count and tuning.py's bytes per parameter of its quantization (FP8 1, NVFP4 0.5, else 2).
  double gpu_memory_gib = 0;
  double param_count = 0;
  double quant_bytes_per_param = 2;
};

// Errors: unknown model or GPU (the catalog's messages), a GPU without bandwidth/FLOPs figures.
core::Result<Deployed> deploy(const DeploymentSpec& spec);

}  // namespace llmtriage::sim
