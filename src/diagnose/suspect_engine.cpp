// The engine behind the thin evidence, and what its nature says about the causes (suspect_engine.h).
#include "diagnose/suspect_engine.h"

#include <cctype>
#include <map>

namespace llmtriage::diagnose::clue {

// The engine family: the log's detection, the launcher words, the signatures' printers, the model name.
std::string engine_of(const DiagnoseInput& in, const ingest::LaunchSettings& ls, const catalog::ModelNameGuess& mg) {
  switch (in.now.deployment.engine) {
    case core::EngineKind::vllm:
    case core::EngineKind::vllm_v0: return "vllm";
    case core::EngineKind::sglang: return "sglang";
    case core::EngineKind::tgi: return "tgi";
    case core::EngineKind::llamacpp: return "llamacpp";
    case core::EngineKind::ollama: return "ollama";
    case core::EngineKind::trtllm: return "trtllm";
    default: break;
  }
  for (const auto& p : ls.programs) {
    if (p.find("vllm") != std::string::npos) return "vllm";
    if (p.find("sglang") != std::string::npos) return "sglang";
    if (p.find("ollama") != std::string::npos) return "ollama";
    if (p.find("lmdeploy") != std::string::npos) return "lmdeploy";
    if (p.find("trtllm") != std::string::npos || p.find("tensorrt") != std::string::npos || p == "build.py" ||
        p == "tritonserver")
      return "trtllm";
    if (p.find("text-generation") != std::string::npos || p.find("text_generation") != std::string::npos) return "tgi";
    if (p.find("llama") != std::string::npos || p == "main" || p == "server" || p == "koboldcpp") return "llamacpp";
    if (p == "local-ai") return "llamacpp";
  }
  // Apple's MLX (mlx_lm.generate / mlx_lm.server, mlx-community checkpoints): Metal, unified memory.
  for (const auto& w : ls.programs)
    if (w.rfind("mlx", 0) == 0) return "mlx";
  for (const auto& w : ls.unparsed)
    if (w.rfind("mlx_lm", 0) == 0 || w.rfind("mlx-lm", 0) == 0) return "mlx";
  if (lower(mg.org) == "mlx-community" || lower(mg.as_given).find("mlx") != std::string::npos) return "mlx";
  // A request URL in the pasted text names the server's API: Triton's generate endpoints
  // (/v2/models/<model>/generate[_stream], the TensorRT-LLM backend's), Ollama's /api/generate|chat.
  for (const auto& w : ls.unparsed) {
    if (w.find("/v2/models/") != std::string::npos && w.find("/generate") != std::string::npos) return "trtllm";
    if (w.find("/api/generate") != std::string::npos || w.find("/api/chat") != std::string::npos) return "ollama";
  }
  for (const auto& [k, v] : ls.values) {
    if (k.rfind("OLLAMA_", 0) == 0 || k == "num-ctx" || k == "num-gpu" || k == "modelfile-from") return "ollama";
    if (k.rfind("VLLM_", 0) == 0 || k == "gpu-memory-utilization" || k == "enforce-eager" || k == "max-num-seqs") return "vllm";
    if (k == "mem-fraction-static" || k == "max-running-requests" || k == "model-path") return "sglang";
    if (k == "num-shard" || k == "model-id" || k == "max-batch-prefill-tokens") return "tgi";
    if (k == "n-gpu-layers" || k == "gpu-layers" || k == "ctx-size" || k == "parallel") return "llamacpp";
    if (k == "cache-max-entry-count") return "lmdeploy";
  }
  std::map<std::string, int> printed;
  for (const auto& e : in.now.events)
    if (auto it = e.labels.find("printed_by"); it != e.labels.end()) ++printed[it->second];
  for (const char* eng : {"ollama", "llamacpp", "vllm", "sglang", "tgi", "trtllm", "lmdeploy"})
    if (printed.count(eng)) return eng;
  if (mg.ollama_tag) return "ollama";
  if (mg.gguf) return "llamacpp";
  return "";
}


// The engine's nature moves whole families of causes: llama.cpp-family servers offload layers and
// share slots; vLLM-family servers do neither but capture CUDA graphs and pick quantized kernels.
void engine_clues(const std::string& engine, const std::vector<Symptom>& sym, Clues& c) {
  if (engine.empty()) return;
  auto item = quote("engine", engine, "log / launch settings / model name");
  const bool slow = has_sym(sym, Symptom::tpot_high) || has_sym(sym, Symptom::throughput_low);
  if (llamacpp_family(engine)) {
    if (slow) c.add("partial_offload", 0.8, item);
    c.add("cuda_graphs_off", -1.0, item);
    c.add("slow_kernel_path", -1.0, item);
    if (has_sym(sym, Symptom::output_quality)) c.add("context_truncation", 0.5, item);
    if (has_sym(sym, Symptom::startup_oom) || has_sym(sym, Symptom::runtime_oom_or_preemption)) c.add("parallel_slots_multiply_context", 0.7, item);
  } else {
    c.add("partial_offload", -1.5, item);
    c.add("parallel_slots_multiply_context", -1.5, item);
  }
  // MLX runs on Metal in one unified memory: no CUDA graphs, no shards on an interconnect.
  if (engine == "mlx") {
    c.add("cuda_graphs_off", -1.5, item);
    c.add("interconnect_bound", -1.0, item);
  }
}

}  // namespace llmtriage::diagnose::clue
