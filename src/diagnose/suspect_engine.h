#pragma once
// Which engine the thin evidence describes (the log's detection, the launcher words, environment
// and flag names, a request URL, the signatures' printers, the model name's form), and the clues
// its nature gives for or against whole families of causes (suspects.h). suspect_engine.cpp.
#include <string>
#include <vector>

#include "catalog/name_guess.h"
#include "diagnose/suspect_items.h"
#include "ingest/launch_text.h"

namespace llmtriage::diagnose::clue {

// "vllm", "sglang", "tgi", "llamacpp", "ollama", "trtllm", "lmdeploy", "mlx", or "" when nothing says.
std::string engine_of(const DiagnoseInput& in, const ingest::LaunchSettings& ls, const catalog::ModelNameGuess& mg);

void engine_clues(const std::string& engine, const std::vector<Symptom>& sym, Clues& c);

}  // namespace llmtriage::diagnose::clue
