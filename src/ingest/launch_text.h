#pragma once
// Launch settings as operators paste them, read tolerantly: whole command lines of any engine,
// bare flags, `KEY=VALUE` environment lines, Modelfile `FROM` / `PARAMETER name value` lines,
// YAML `key: value` lines and a Kubernetes `args: [...]` list, llama.cpp and vLLM short flags
// (-c, -np, -ngl, -tp, -O ...). Nothing here is an error: what is not understood is kept in
// `unparsed` for the report's Inputs section. The strict, typed reading of the flags that the
// ledger models stays in ingest/engine_args.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llmtriage::ingest {

struct LaunchSettings {
  // Normalised key -> value ("" for a bare flag). Flags: lower case, no leading dashes, '_' as
  // '-' ("n-gpu-layers"); short flags expanded ("-ngl" -> "n-gpu-layers"); environment
  // variables kept as written ("OLLAMA_NUM_PARALLEL"); Modelfile PARAMETER names like flags
  // ("num-ctx"); "modelfile-from" for a FROM line; "program" for the launcher word(s).
  std::map<std::string, std::string> values;
  std::vector<std::string> programs;   // "vllm", "llama-server", "ollama", "lmdeploy", "trtllm-build", ...
  std::vector<std::string> unparsed;   // words that are neither a flag, a value nor a known launcher

  bool has(const std::string& key) const { return get(key) != nullptr; }  // get: a flag also finds its ENV_NAME twin
  const std::string* get(const std::string& key) const;
  // The first of `keys` that is present, as a number (nullopt when absent or not numeric;
  // "32k" reads 32000, "32K" 32768).
  std::optional<double> number(std::initializer_list<const char*> keys) const;
  // The first of `keys` that is present.
  std::optional<std::string> text(std::initializer_list<const char*> keys) const;
};

LaunchSettings read_launch_text(const std::string& text);

}  // namespace llmtriage::ingest
