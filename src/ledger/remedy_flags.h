#pragma once
// Remedies in each engine's own words: the flag (environment variable, Modelfile parameter, LLM
// API option) that carries each remedy variable on vLLM, SGLang, TGI, TensorRT-LLM, llama.cpp
// and Ollama, from data/engines/remedy_flags.jsonl. A report asks this table for the knob of the
// engine it diagnosed, so a llama.cpp operator is never told to set a vLLM flag.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine_settings.h"
#include "core/result.h"

namespace llmtriage::ledger {

// One engine's knob for one variable.
struct EngineKnob {
  std::string flag;    // "--max-num-seqs", "-np", "OLLAMA_NUM_PARALLEL"; "none" = the engine has no such knob
  std::string note;    // what to know (or do instead, for "none")
  std::string unit;    // when the engine counts differently ("cells_total" for llama.cpp -c)
  std::string source;  // the engine file or page that defines it
  std::map<std::string, std::string> values;  // a remedy's value -> the engine's ("fp8" -> "q8_0")
  bool exists() const { return flag != "none"; }
};

struct RemedyFlagRow {
  std::string variable;              // "max_num_seqs"
  std::string meaning;               // "sequences run at once"
  std::vector<std::string> aliases;  // flag names that mean it, normalized ("max-num-seqs", "np")
  std::map<std::string, EngineKnob> engines;  // "vllm", "sglang", "tgi", "trtllm", "llamacpp", "ollama"
};

// The engines every row must name (table keys; vllm-v0 reads as vllm).
const std::vector<std::string>& remedy_flag_engines();

// Parses the JSONL text ('#' comment lines allowed). Errors name `where`:line and the field.
core::Result<std::vector<RemedyFlagRow>> parse_remedy_flags(std::string_view text, const std::string& where);

// data/engines/remedy_flags.jsonl, read once. An unreadable table is an error value (reports
// then say so instead of translating).
const core::Result<std::vector<RemedyFlagRow>>& remedy_flags();

// The row for a variable name or any engine's flag for it ("max_num_seqs", "--max-num-seqs",
// "max-running-requests", "-np"); dashes, case and '_' vs '-' ignored. nullptr when none.
const RemedyFlagRow* find_remedy_flag(std::string_view variable_or_flag);

// A remedy as the engine says it.
struct LocalRemedy {
  bool known = false;      // the table has the variable and the engine
  bool exists = false;     // the engine has a knob for it
  std::string flag;        // the engine's knob ("" when !known)
  std::string to;          // the value in the engine's words and units
  std::string note;        // the knob's note (for "none": what to do instead)
  std::string meaning;     // the variable's meaning
};
// Translates `variable_or_flag` with value `to` for `engine`. `slots` converts a per-request
// context into llama.cpp's -c (cells in total = slots x context) when known (> 0).
LocalRemedy localize_remedy(std::string_view variable_or_flag, core::EngineKind engine, const std::string& to = {},
                            int64_t slots = 0);

// The engine's flag for a variable, for code that builds remedies: "-np" for ("max_num_seqs",
// llamacpp). Falls back to `fallback` when the table lacks the row or the engine.
std::string engine_flag(std::string_view variable, core::EngineKind engine, const std::string& fallback);

}  // namespace llmtriage::ledger
