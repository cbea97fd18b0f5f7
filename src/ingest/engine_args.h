#pragma once
// Engine command lines -> core::EngineSettings. Reads what an operator pastes:
//   vllm serve MODEL --tensor-parallel-size 2 --max-model-len=32k ...
//   python -m vllm.entrypoints.openai.api_server --model MODEL ...
//   python -m sglang.launch_server --model-path MODEL --tp 4 --mem-fraction-static 0.85 ...
//   text-generation-launcher --model-id MODEL --num-shard 2 ...
// with "docker run ... IMAGE" or "ENV=value" prefixes, shell quoting and line continuations.
// Also the argument dumps engines log at startup: vLLM's non_default_args dict
// ("{'model': 'x', 'max_model_len': 8192}") and Namespace(...) / ServerArgs(...) reprs.
// Flags that matter to memory and scheduling land in EngineSettings (with the engines' own
// names mapped onto vLLM's); every other flag is kept verbatim in `unmodelled`.
#include <string>
#include <vector>

#include "core/engine_settings.h"
#include "core/result.h"

namespace llmtriage::ingest {

struct ParsedEngineArgs {
  core::EngineKind engine = core::EngineKind::unknown;  // detected from the launcher
  core::EngineSettings settings;
  std::vector<std::string> notes;  // e.g. "--max-model-len 32k read as 32000"
};

// Splits a shell command line into words (single/double quotes, backslash escapes,
// backslash-newline continuations). Error on an unterminated quote.
core::Result<std::vector<std::string>> split_command_line(const std::string& text);

// Parses a whole command line. `where` names the source in errors ("--engine-args").
core::Result<ParsedEngineArgs> parse_engine_args(const std::string& command_line,
                                                 const std::string& where = "--engine-args");
core::Result<ParsedEngineArgs> parse_engine_argv(const std::vector<std::string>& argv,
                                                 const std::string& where = "--engine-args");

// Parses a logged argument dump: a Python dict literal or a Namespace(...)/ServerArgs(...) repr.
core::Result<ParsedEngineArgs> parse_logged_args(const std::string& text, core::EngineKind engine,
                                                 const std::string& where);

// A flag's name as the tables key it: no leading dashes, lower case, '_' as '-'
// ("--Max_Model_Len" -> "max-model-len").
std::string normalize_flag_name(std::string name);

// Applies one flag (name without dashes, '_' or '-' accepted; the engine's own spelling) with its
// value ("" for a bare boolean flag). Returns false when the flag is not modelled. Error when a
// modelled flag has a bad value.
core::Result<bool> apply_engine_flag(core::EngineSettings& settings, const std::string& name,
                                     const std::string& value, const std::string& where,
                                     std::vector<std::string>* notes = nullptr);

}  // namespace llmtriage::ingest
