#pragma once
// llama.cpp and Ollama launch lines -> LlamaCppSettings, for the ledger: what an operator pastes
//   llama-server -m model.gguf -c 8192 -np 4 -ctk q8_0 -ctv q8_0 -fa on -ngl 99
//   LLAMA_ARG_CTX_SIZE=8192 ./build/bin/llama-server --model m.gguf --parallel=4 --kv-unified
//   OLLAMA_NUM_PARALLEL=4 OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_FLASH_ATTENTION=1 ollama serve
// Flag names and environment variables from common/arg.cpp (llama.cpp) and envconfig/config.go
// (Ollama). The words come split (ingest::split_command_line); flags not modelled are kept.
#include <optional>
#include <string>
#include <vector>

#include "core/engine_settings.h"
#include "core/result.h"
#include "ledger/ledger.h"

namespace llmtriage::ledger {

struct LlamaCppArgs {
  core::EngineKind engine = core::EngineKind::llamacpp;  // ollama for "ollama serve" / OLLAMA_* lines
  LlamaCppSettings settings;
  std::optional<std::string> model;  // -m / --model
  std::optional<int> threads;        // -t / --threads
  std::vector<std::string> unmodelled;
};

// True when the words hold a llama.cpp server launcher (llama-server, llama-cli, a path ending in
// one) or "ollama serve", or only LLAMA_ARG_* / OLLAMA_* assignments.
bool is_llamacpp_command(const std::vector<std::string>& words);

// Reads the words. Errors name `where`, the flag, what was expected and what was found.
core::Result<LlamaCppArgs> parse_llamacpp_args(const std::vector<std::string>& words, const std::string& where);

}  // namespace llmtriage::ledger
