#pragma once
// Scheduling and overhead presets per engine (`--engine`). Each names the engine behaviour it
// imitates; numbers are defaults a calibration file may override.
#include <cstdint>
#include <string>

#include "core/engine_settings.h"
#include "core/result.h"

namespace llmtriage::sim {

// Capacity policy: what the capacity stage admits.
//  max_utilization: admit while the blocks for the next step fit; preempt (recompute) the most
//    recently admitted request when a running one cannot grow (vLLM, SGLang retraction).
//  guaranteed_no_evict: admit only when the blocks for prompt + all max_tokens fit next to what
//    every running request may still need; never preempts (TensorRT-LLM's default
//    GUARANTEED_NO_EVICT, cpp/tensorrt_llm/batch_manager/capacityScheduler.h).
enum class CapacityPolicy { max_utilization, guaranteed_no_evict };
const char* to_string(CapacityPolicy p);

struct EnginePreset {
  core::EngineKind kind = core::EngineKind::vllm;
  std::string name = "vllm";
  CapacityPolicy capacity = CapacityPolicy::max_utilization;
  // Defaults of the engine's own flags.
  int64_t max_num_seqs = 256;
  int64_t max_num_batched_tokens = 8192;
  bool chunked_prefill = true;
  // Prefill batches run alone (decodes wait) whenever a waiting request can start: vLLM V0, and
  // SGLang (prefill and decode are not mixed unless --enable-mixed-chunk). Else decode-first mixed.
  bool prefill_first = false;
  bool prefix_caching = true;
  int block_size = 16;
  // Per-step CPU work (scheduling, input preparation, output processing):
  // t_cpu = cpu_step_ms + cpu_per_seq_us * running / 1000.
  // cpu_overlapped: step = max(t_gpu, t_cpu) (async scheduling / overlap scheduler), else sum.
  double cpu_step_ms = 1.0;
  double cpu_per_seq_us = 10.0;
  bool cpu_overlapped = false;
  // Per-layer launch cost added to steps that compute prompt tokens, in engines that capture CUDA
  // graphs for decode-only batches and run prefill batches eagerly (docs/sim.md, "Cost model").
  double prefill_layer_us = 0.0;
};

// "vllm" (V1), "vllm-v0", "sglang", "trtllm". Error names the accepted values.
core::Result<EnginePreset> engine_preset(const std::string& name);

}  // namespace llmtriage::sim
