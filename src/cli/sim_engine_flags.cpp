#include "cli/sim_engine_flags.h"

namespace llmtriage::cli {

std::vector<Option> sim_engine_options(SimEngineFlags& f, const std::string& max_model_len_help) {
  return {
      {"--model NAME", "LLMTRIAGE_MODEL", "model: HF id of a bundled config, a config.json, or a folder holding one", &f.model, "meta-llama/Llama-3.1-8B-Instruct"},
      {"--gpu NAME", "LLMTRIAGE_GPU", "GPU catalog name or alias (H100, A100-80GB, L40S, ...)", &f.gpu, "H100-SXM"},
      {"--tensor-parallel-size,--tp", "", "tensor-parallel size per replica", &f.tp, "1", false, at_least(1)},
      {"--dtype NAME", "", "compute dtype of unquantized weights (auto, bfloat16, float16)", &f.dtype, "auto"},
      {"--quantization NAME", "", "weight quantization (fp8, awq, gptq, ...); default: the checkpoint's", &f.quantization},
      {"--kv-cache-dtype NAME", "", "KV cache dtype (auto, fp8)", &f.kv_cache_dtype, "auto"},
      {"--gpu-memory-utilization", "", "fraction of GPU memory the engine may use (0, 1]", &f.gpu_memory_utilization, "0.9", false, Bounds{0, true, 1}},
      {"--max-model-len", "", max_model_len_help, &f.max_model_len, "", false, at_least(1)},
      {"--kv-cache-tokens", "", "KV pool per replica in tokens (overrides the memory ledger)", &f.kv_cache_tokens, "", false, at_least(1)},
      {"--engine NAME", "", "scheduling and overhead preset: vllm, vllm-v0, sglang, trtllm", &f.engine, "vllm"},
      {"--max-num-seqs", "", "max sequences in a step (default: the engine's)", &f.max_num_seqs, "", false, at_least(1)},
      {"--max-num-batched-tokens", "", "token budget per step (default: the engine's)", &f.max_num_batched_tokens, "", false, at_least(1)},
      {"--enable-chunked-prefill", "", "split long prompts over steps", &f.chunked},
      {"--no-enable-chunked-prefill", "", "run each prompt whole in one step", &f.no_chunked},
      {"--enable-prefix-caching", "", "reuse cached KV blocks of identical prefixes", &f.prefix},
      {"--no-enable-prefix-caching", "", "disable prefix caching", &f.no_prefix},
  };
}

void apply_sim_engine_flags(const SimEngineFlags& o, sim::Scenario& s) {
  auto& d = s.deployment;
  if (o.model) d.model = *o.model;
  if (o.gpu) d.gpu = *o.gpu;
  if (o.tp) d.tp = *o.tp;
  if (o.dtype) d.dtype = *o.dtype;
  if (o.quantization) d.quantization = *o.quantization;
  if (o.kv_cache_dtype) d.kv_cache_dtype = *o.kv_cache_dtype;
  if (o.gpu_memory_utilization) d.gpu_memory_utilization = *o.gpu_memory_utilization;
  if (o.max_model_len) d.max_model_len = *o.max_model_len;
  if (o.kv_cache_tokens) d.kv_cache_tokens = *o.kv_cache_tokens;
  if (o.engine) s.engine = *o.engine;
  if (o.max_num_seqs) s.max_num_seqs = *o.max_num_seqs;
  if (o.max_num_batched_tokens) s.max_num_batched_tokens = *o.max_num_batched_tokens;
  if (o.chunked) s.chunked_prefill = true;
  if (o.no_chunked) s.chunked_prefill = false;
  if (o.prefix) s.prefix_caching = true;
  if (o.no_prefix) s.prefix_caching = false;
  if (o.replicas) s.config.replicas = *o.replicas;
}

}  // namespace llmtriage::cli
