#pragma once
// What `trtllm-bench throughput` runs TensorRT-LLM with when it is not told max_batch_size and
// max_num_tokens: a heuristic from the dataset's lengths and the memory the weights leave
// (tensorrt_llm/bench/build/tuning.py, calc_engine_setting + finetune_setting), then the
// runtime settings of tensorrt_llm/bench/benchmark/utils/general.py get_settings: chunked
// context off by default (`--enable_chunked_context` is opt-in), so max_num_tokens is raised to
// hold the longest prompt next to a full batch of decodes (max_isl + max_batch_size).
//
// The simulator applies it to offline (all requests at t = 0) runs of the `trtllm` preset, the
// regime trtllm-bench measures; online runs keep the LLM API's defaults (engine_preset.cpp).
#include <cstdint>

#include "core/result.h"
#include "sim/deployment.h"
#include "sim/workload.h"

namespace llmtriage::sim {

struct TrtllmBenchInput {
  double gpu_memory_gib = 0;      // per GPU, as NVML reports it (tuning.py get_device_memory)
  int tp = 1;
  double param_count = 0;         // the checkpoint's parameters
  double bytes_per_param = 2;     // tuning.py BYTES_PER_ELEM: FP8 1, NVFP4 0.5, otherwise 2
  double kv_bytes_per_elem = 2;   // FP8 KV 1, otherwise 2
  int n_layers = 0, n_kv_heads = 0, head_dim = 0;
  double free_fraction = 0.9;     // --kv_cache_free_gpu_mem_fraction (default 0.90)
  double mean_isl = 0, mean_osl = 0;  // dataset averages (the heuristic's target lengths)
  int64_t max_isl = 0;                // the dataset's longest prompt
  bool chunked_context = false;
};

struct TrtllmBenchSettings {
  double kv_max_requests = 0;  // requests of mean_isl + mean_osl the estimated KV memory holds
  int64_t max_batch_size = 0;
  int64_t max_num_tokens = 0;
};

// Pure: the settings trtllm-bench derives. Pipeline parallelism 1.
TrtllmBenchSettings trtllm_bench_settings(const TrtllmBenchInput& in);

// The input for a deployment and its workload: lengths are the generated requests' own (the
// dataset trtllm-bench reads), `free_fraction` the deployment's gpu_memory_utilization (for
// trtllm, KvCacheConfig.free_gpu_memory_fraction). Errors: those of generate().
core::Result<TrtllmBenchInput> trtllm_bench_input(const Deployed& d, const WorkloadSpec& w, double free_fraction,
                                                  bool chunked_context);

}  // namespace llmtriage::sim
