#include "core/engine_settings.h"

#include <algorithm>
#include <cctype>

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

}  // namespace llmtriage::core
