#include "core/engine_settings.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace llmtriage::core {

const char* to_string(EngineKind kind) {
  switch (kind) {
    case EngineKind::unknown: return "unknown";
    case EngineKind::vllm: return "vllm";
    case EngineKind::vllm_v0: return "vllm-v0";
    case EngineKind::sglang: return "sglang";
    case EngineKind::tgi: return "tgi";
    case EngineKind::llamacpp: return "llamacpp";
    case EngineKind::trtllm: return "trtllm";
    case EngineKind::ollama: return "ollama";
  }
  return "unknown";
}

EngineKind engine_kind_from_string(const std::string& name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::replace(n.begin(), n.end(), '_', '-');
  if (n == "vllm" || n == "vllm-v1") return EngineKind::vllm;
  if (n == "vllm-v0") return EngineKind::vllm_v0;
  if (n == "sglang") return EngineKind::sglang;
  if (n == "tgi" || n == "text-generation-inference") return EngineKind::tgi;
  if (n == "llamacpp" || n == "llama.cpp" || n == "llama-cpp") return EngineKind::llamacpp;
  if (n == "trtllm" || n == "tensorrt-llm" || n == "trt-llm" || n == "triton") return EngineKind::trtllm;
  if (n == "ollama") return EngineKind::ollama;
  return EngineKind::unknown;
}

namespace {

template <typename T>
void set_if(std::optional<T>& dst, const std::optional<T>& src) {
  if (src) dst = src;
}

}  // namespace

void overlay_settings(EngineSettings& b, const EngineSettings& o, UnmodelledMerge how) {
  set_if(b.tensor_parallel_size, o.tensor_parallel_size);
  set_if(b.pipeline_parallel_size, o.pipeline_parallel_size);
  set_if(b.data_parallel_size, o.data_parallel_size);
  set_if(b.gpu_memory_utilization, o.gpu_memory_utilization);
  set_if(b.mem_fraction_static, o.mem_fraction_static);
  set_if(b.max_model_len, o.max_model_len);
  set_if(b.max_num_seqs, o.max_num_seqs);
  set_if(b.max_num_batched_tokens, o.max_num_batched_tokens);
  set_if(b.block_size, o.block_size);
  set_if(b.kv_cache_dtype, o.kv_cache_dtype);
  set_if(b.dtype, o.dtype);
  set_if(b.quantization, o.quantization);
  set_if(b.enforce_eager, o.enforce_eager);
  set_if(b.enable_chunked_prefill, o.enable_chunked_prefill);
  set_if(b.enable_prefix_caching, o.enable_prefix_caching);
  set_if(b.model, o.model);
  set_if(b.served_model_name, o.served_model_name);
  switch (how) {
    case UnmodelledMerge::append:
      b.unmodelled.insert(b.unmodelled.end(), o.unmodelled.begin(), o.unmodelled.end());
      break;
    case UnmodelledMerge::append_unique:
      for (const auto& u : o.unmodelled)
        if (std::find(b.unmodelled.begin(), b.unmodelled.end(), u) == b.unmodelled.end()) b.unmodelled.push_back(u);
      break;
  }
}

}  // namespace llmtriage::core
