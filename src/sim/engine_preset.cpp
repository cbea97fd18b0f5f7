#include "sim/engine_preset.h"

namespace llmtriage::sim {

namespace {
// Extra per-layer cost of a step that runs eagerly (PyTorch launches each layer's ~15-25 kernels
// from Python) instead of replaying a captured CUDA graph. Fitted on the low-load TTFT rows of the
// fit set (SGLang v0.3 and vLLM 0.6 on 8B/A100 and 70B/TP4 H100: the TTFT left unexplained is
// 0.20-0.22 ms per layer in all four); docs/sim.md "Cost model" gives the reasoning and range.
constexpr double kEagerPrefillLayerUs = 200.0;
}  // namespace

const char* to_string(CapacityPolicy p) {
  switch (p) {
    case CapacityPolicy::max_utilization: return "max_utilization";
    case CapacityPolicy::guaranteed_no_evict: return "guaranteed_no_evict";
  }
  return "?";
}

core::Result<EnginePreset> engine_preset(const std::string& name) {
  EnginePreset p;
  if (name == "vllm" || name == "vllm-v1") {
    // vLLM V1: chunked prefill and prefix caching on; defaults for >= 70 GiB GPUs in the OpenAI
    // server (vllm/engine/arg_utils.py: max_num_batched_tokens 8192). Scheduling and input
    // preparation run between GPU steps (about 1 ms; overheads.md section 1: the 1B model's
    // 2.73 ms TPOT bounds it from above), plus output processing about 0.1 ms per 10 requests.
    p.kind = core::EngineKind::vllm;
    p.name = "vllm";
    return p;
  }
  if (name == "vllm-v0" || name == "vllm_v0") {
    // vLLM V0 without multi-step: prefill-first, no chunking by default, serial CPU work of
    // 4-6 ms per step (RFC #6854: "5-13ms of GPU bubble"; overheads.md section 1).
    p.kind = core::EngineKind::vllm_v0;
    p.name = "vllm-v0";
    p.chunked_prefill = false;
    p.prefill_first = true;
    p.prefix_caching = false;
    p.cpu_step_ms = 4.5;
    p.max_num_batched_tokens = 0;  // 0 = max(max_model_len, 2048), V0's rule without chunking
    // CUDA graphs are captured for decode batches only; prefill steps run eagerly.
    p.prefill_layer_us = kEagerPrefillLayerUs;
    return p;
  }
  if (name == "sglang") {
    // SGLang: overlap scheduler (CPU work hidden behind the GPU step), radix cache with page 1,
    // chunked prefill size 8192 on large GPUs; retraction when the pool is full.
    p.kind = core::EngineKind::sglang;
    p.name = "sglang";
    p.block_size = 1;
    p.prefill_first = true;  // get_new_prefill_batch() runs before any decode; no mixing by default
    p.cpu_overlapped = true;
    p.cpu_step_ms = 1.5;
    p.max_num_seqs = 1024;
    // CUDA graphs for decode batches only (cuda_graph_max_bs); extend (prefill) batches run eagerly.
    p.prefill_layer_us = kEagerPrefillLayerUs;
    return p;
  }
  if (name == "trtllm" || name == "tensorrt-llm") {
    // TensorRT-LLM (trtllm-serve / LLM API defaults, in-flight batching): C++ runtime with the
    // next step prepared while the GPU runs, GUARANTEED_NO_EVICT capacity scheduling,
    // tokens_per_block 32, max_num_tokens 8192, max_batch_size 2048, chunked context off
    // (LlmArgs.enable_chunked_prefill defaults to False, tensorrt_llm/llmapi/llm_args.py; a
    // context request runs whole in one step or waits). Offline runs take trtllm-bench's own
    // batch/token heuristic instead (trtllm_bench.h, applied in scenario.cpp resolve()).
    p.kind = core::EngineKind::trtllm;
    p.name = "trtllm";
    p.capacity = CapacityPolicy::guaranteed_no_evict;
    p.block_size = 32;
    p.cpu_overlapped = true;
    p.cpu_step_ms = 0.5;
    p.cpu_per_seq_us = 2.0;
    p.max_num_seqs = 2048;
    p.chunked_prefill = false;
    p.prefix_caching = false;
    return p;
  }
  return core::make_error(core::ErrorKind::usage, "--engine", "one of vllm, vllm-v0, sglang, trtllm",
                          "'" + name + "'");
}

}  // namespace llmtriage::sim
