#pragma once
// Engine settings with the engines' own names (vLLM flags; SGLang's where they differ).
// Unset optionals mean "the engine's default", which depends on engine and version.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llmtriage::core {

enum class EngineKind { unknown, vllm, vllm_v0, sglang, tgi, llamacpp, trtllm, ollama };
const char* to_string(EngineKind kind);
// Accepts "vllm", "vllm-v0", "vllm_v0", "sglang", "tgi", "llamacpp", "llama.cpp", "trtllm",
// "tensorrt-llm", "ollama"; returns unknown otherwise.
EngineKind engine_kind_from_string(const std::string& name);

struct EngineSettings {
  std::optional<int> tensor_parallel_size;
  std::optional<int> pipeline_parallel_size;
  std::optional<int> data_parallel_size;
  std::optional<double> gpu_memory_utilization;  // vLLM, fraction of total in (0, 1]
  std::optional<double> mem_fraction_static;     // SGLang, fraction of total in (0, 1]
  std::optional<int64_t> max_model_len;          // tokens (SGLang: --context-length)
  std::optional<int64_t> max_num_seqs;           // SGLang: --max-running-requests
  std::optional<int64_t> max_num_batched_tokens; // SGLang: --chunked-prefill-size
  std::optional<int> block_size;                 // tokens per KV block (SGLang: page size)
  std::optional<std::string> kv_cache_dtype;     // "auto", "fp8", "fp8_e4m3", "fp8_e5m2"
  std::optional<std::string> dtype;              // "auto", "bfloat16", "float16", "float32"
  std::optional<std::string> quantization;       // "fp8", "awq", "gptq", "compressed-tensors", ...
  std::optional<bool> enforce_eager;             // no CUDA graphs
  std::optional<bool> enable_chunked_prefill;
  std::optional<bool> enable_prefix_caching;
  std::optional<std::string> model;              // the served model (id or path)
  std::optional<std::string> served_model_name;
  // Flags seen on an engine command line that llmtriage does not model, kept verbatim so a
  // report can show them ("--foo=bar").
  std::vector<std::string> unmodelled;
};

// Layering settings from several inputs (a config file, a startup log, --engine-args, explicit
// flags): each field the later input sets replaces the earlier value.
enum class UnmodelledMerge {
  append,         // every one, repeats included (ledger: each input's notes as it stated them)
  append_unique,  // only those not listed yet (diagnose: the same flag from log and snapshot once)
};
void overlay_settings(EngineSettings& into, const EngineSettings& later, UnmodelledMerge how);

}  // namespace llmtriage::core
