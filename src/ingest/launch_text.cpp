#include "ingest/launch_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

#include "ingest/engine_args.h"

namespace llmtriage::ingest {
namespace {

std::string ascii_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}


// Short flags of llama.cpp (common/arg.cpp) and vLLM/SGLang/LMDeploy launchers.
const std::map<std::string, std::string>& short_flags() {
  static const std::map<std::string, std::string> m = {
      {"c", "ctx-size"}, {"np", "parallel"}, {"ngl", "n-gpu-layers"}, {"t", "threads"}, {"m", "model"},
      {"b", "batch-size"}, {"ub", "ubatch-size"}, {"fa", "flash-attn"}, {"tp", "tensor-parallel-size"},
      {"pp", "pipeline-parallel-size"}, {"dp", "data-parallel-size"}, {"q", "quantization"}, {"o", "compilation-config"},
      {"n", "n-predict"}, {"ts", "tensor-split"}, {"sm", "split-mode"}, {"cb", "cont-batching"}, {"ctk", "cache-type-k"},
      {"ctv", "cache-type-v"}, {"ot", "override-tensor"}, {"hf", "hf-repo"}};
  return m;
}

// Words that name a launcher; what follows is its arguments.
std::string launcher(const std::string& w) {
  std::string l = ascii_lower(w);
  auto slash = l.rfind('/');
  std::string base = slash == std::string::npos ? l : l.substr(slash + 1);
  for (const char* p : {"vllm", "llama-server", "llama-cli", "server", "main", "ollama", "lmdeploy", "trtllm-build",
                        "trtllm-serve", "trtllm-bench", "text-generation-launcher", "tritonserver", "koboldcpp", "local-ai",
                        "python", "python3", "docker", "build.py", "llama.cpp"})
    if (base == p || (std::string(p).size() > 5 && base.rfind(p, 0) == 0)) return base;
  for (const char* m : {"vllm.entrypoints", "sglang.launch_server", "lmdeploy.serve", "tensorrt_llm", "text_generation_server"})
    if (l.find(m) != std::string::npos) return m;
  return "";
}

bool looks_flag(const std::string& w) {
  if (w.size() < 2 || w[0] != '-') return false;
  // A negative number is a value, not a flag.
  return !(std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.');
}

// Shell-like split: quotes group, backslashes escape; never fails (an open quote runs to the end).
// In a YAML/JSON list (`list`: "args: [...]", "- --flag") commas and brackets separate items too;
// elsewhere they stay in the word ("--tensor-split 3,1").
std::vector<std::string> words_of(const std::string& line, bool list) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  bool any = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      any = true;
      continue;
    }
    if (c == '\\' && i + 1 < line.size()) {
      cur += line[++i];
      any = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || (list && (c == ',' || c == '[' || c == ']'))) {
      if (any || !cur.empty()) out.push_back(cur);
      cur.clear();
      any = false;
      continue;
    }
    cur += c;
    any = true;
  }
  if (any || !cur.empty()) out.push_back(cur);
  return out;
}

// A Python keyword argument's name: snake case, maybe after the call's opening "LLM(" or "(".
std::optional<std::string> python_kwarg(const std::string& k) {
  const size_t open = k.rfind('(');
  std::string name = open == std::string::npos ? k : k.substr(open + 1);
  if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) return std::nullopt;
  if (!std::all_of(name.begin(), name.end(), [](char c) {
        return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
      }))
    return std::nullopt;
  return name;
}

std::string trim_call_punctuation(std::string v) {
  while (!v.empty() && (v.back() == ',' || v.back() == ')')) v.pop_back();
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return v;
}

bool env_name(const std::string& k) {
  if (k.empty() || !(std::isupper(static_cast<unsigned char>(k[0])) || k[0] == '_')) return false;
  return std::all_of(k.begin(), k.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; });
}

// Ollama's numeric model options (docs/modelfile.md "Valid Parameters and Values", api.md options).
bool is_ollama_option(const std::string& k) {
  static const char* const names[] = {"num_gpu", "num_ctx", "num_thread", "num_batch", "num_predict", "num_keep",
                                      "repeat_last_n", "num_gpu_layers"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return k == n; });
}

// A setting's value as a number: "32k" reads 32000, "32K" 32768; anything else not wholly a
// finite number is nullopt.
std::optional<double> value_number(std::string s) {
  double mult = 1;
  if (!s.empty() && (s.back() == 'k' || s.back() == 'K')) {
    mult = s.back() == 'k' ? 1000 : 1024;
    s.pop_back();
  }
  double x = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec == std::errc() && p == s.data() + s.size() && std::isfinite(x)) return x * mult;
  return std::nullopt;
}

}  // namespace

const std::string* LaunchSettings::get(const std::string& key) const {
  auto it = values.find(key);
  if (it != values.end()) return &it->second;
  // Recipes and container kits pass an engine's flags as environment variables of the same
  // name (MAX_MODEL_LEN=..., MAX_NUM_SEQS=...): a flag name also finds its upper-case twin, and
  // NVIDIA NIM's prefixed one (NIM_MAX_NUM_SEQS, NIM_MAX_MODEL_LEN: NIM for LLMs' configuration
  // variables, passed to the vLLM or TensorRT-LLM engine inside).
  if (key.empty() || env_name(key) || key.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string::npos) return nullptr;
  std::string env = key;
  for (auto& c : env) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  it = values.find(env);
  if (it == values.end()) it = values.find("NIM_" + env);
  return it == values.end() ? nullptr : &it->second;
}

std::optional<double> LaunchSettings::number(std::initializer_list<const char*> keys) const {
  for (const char* k : keys)
    if (const std::string* v = get(k)) return value_number(*v);
  return std::nullopt;
}

std::optional<std::string> LaunchSettings::text(std::initializer_list<const char*> keys) const {
  for (const char* k : keys)
    if (const std::string* v = get(k)) return *v;
  return std::nullopt;
}

namespace {
// The settings read from a variable's value join the line's (later ones win, as in the shell).
void merge_flags(LaunchSettings& into, const LaunchSettings& from) {
  for (const auto& [k, v] : from.values) into.values[k] = v;
  into.programs.insert(into.programs.end(), from.programs.begin(), from.programs.end());
  into.unparsed.insert(into.unparsed.end(), from.unparsed.begin(), from.unparsed.end());
}
}  // namespace

LaunchSettings read_launch_text(const std::string& text) {
  LaunchSettings s;
  std::istringstream in(text);
  std::string raw, line;
  // Join backslash-newline continuations first.
  std::vector<std::string> lines;
  while (std::getline(in, raw)) {
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (!raw.empty() && raw.back() == '\\') {
      raw.pop_back();
      line += raw + " ";
      continue;
    }
    line += raw;
    lines.push_back(line);
    line.clear();
  }
  if (!line.empty()) lines.push_back(line);

  for (const std::string& l : lines) {
    const size_t first = l.find_first_not_of(" \t");
    const std::string lead = first == std::string::npos ? "" : ascii_lower(l.substr(first, 8));
    const bool list = lead.rfind("args:", 0) == 0 || lead.rfind("command:", 0) == 0 || lead.rfind("[", 0) == 0 ||
                      lead.rfind("- ", 0) == 0;
    std::vector<std::string> w = words_of(l, list);
    if (w.empty()) continue;
    // Pasted through a word processor, "--flag" arrives as an em or en dash ("—max-num-batched-tokens").
    for (auto& word : w)
      for (const char* dash : {"\xE2\x80\x94", "\xE2\x80\x93"})
        if (word.rfind(dash, 0) == 0) word = "--" + word.substr(3);
    // A systemd unit's Environment="OLLAMA_HOST=0.0.0.0" "OLLAMA_NUM_PARALLEL=4" (how Ollama's
    // service is configured): the variables it sets.
    if (w[0].rfind("Environment=", 0) == 0) {
      w[0] = w[0].substr(12);
      if (w[0].empty()) w.erase(w.begin());
      if (w.empty()) continue;
    }
    // "OLLAMA_NUM_PARALLEL = 4" as typed in a thread: the variable's value, spaces and all.
    if (w.size() == 3 && w[1] == "=" && env_name(w[0])) w = {w[0] + "=" + w[2]};
    // Modelfile lines.
    if (w[0] == "FROM" && w.size() >= 2) {
      s.values["modelfile-from"] = w[1];
      s.programs.push_back("ollama-modelfile");
      continue;
    }
    if (w[0] == "PARAMETER" && w.size() >= 3) {
      s.values[ingest::normalize_flag_name(w[1])] = w[2];
      s.programs.push_back("ollama-modelfile");
      continue;
    }
    // An Ollama option on a line of its own, as Open WebUI's advanced parameters and threads
    // quote it ("num_gpu 2", "num_ctx 8192"): the Modelfile PARAMETER without its keyword.
    if (w.size() == 2 && is_ollama_option(w[0]) && value_number(w[1])) {
      s.values[ingest::normalize_flag_name(w[0])] = w[1];
      continue;
    }
    if (w[0] == "TEMPLATE" || w[0] == "SYSTEM" || w[0] == "ADAPTER" || w[0] == "LICENSE") {
      s.values["modelfile-" + ascii_lower(w[0])] = w.size() >= 2 ? w[1] : "";
      continue;
    }
    // YAML "key: value" (a LocalAI model file, a Kubernetes env entry); "args:" introduces a list.
    if (w[0].size() > 1 && w[0].back() == ':' && !looks_flag(w[0])) {
      std::string key = w[0].substr(0, w[0].size() - 1);
      if (ascii_lower(key) == "args" || ascii_lower(key) == "command" || key == "-") {
        w.erase(w.begin());
      } else if (w.size() >= 2 && !looks_flag(w[1])) {
        s.values[env_name(key) ? key : ingest::normalize_flag_name(key)] = w[1];
        continue;
      } else if (w.size() == 1) {
        continue;
      }
    }
    for (size_t i = 0; i < w.size(); ++i) {
      std::string word = w[i];
      if (word == "-" || word.empty()) continue;
      if (looks_flag(word)) {
        std::string key, value;
        bool has_value = false;
        if (auto eq = word.find('='); eq != std::string::npos) {
          key = word.substr(0, eq);
          value = word.substr(eq + 1);
          has_value = true;
        } else {
          key = word;
        }
        const bool single_dash = key.size() >= 2 && key[0] == '-' && key[1] != '-';
        key = ingest::normalize_flag_name(key);
        if (single_dash) {
          auto it = short_flags().find(key);
          if (it != short_flags().end()) key = it->second;
        }
        if (!has_value && i + 1 < w.size() && !looks_flag(w[i + 1])) {
          // A bare boolean flag followed by a model path would swallow it; vLLM's booleans are
          // known by their names.
          static const char* bools[] = {"enforce-eager", "trust-remote-code", "enable-prefix-caching", "disable-log-requests",
                                        "disable-log-stats", "enable-expert-parallel", "no-enable-prefix-caching",
                                        "disable-cuda-graph", "enable-chunked-prefill", "enable-reasoning", "remove-input-padding",
                                        "use-inflight-batching", "paged-kv-cache", "kv-unified", "cont-batching", "i",
                                        "interactive", "language-model-only", "no-mmap", "mlock", "verbose"};
          bool is_bool = std::find_if(std::begin(bools), std::end(bools), [&](const char* b) { return key == b; }) != std::end(bools);
          if (!is_bool) {
            value = w[++i];
            // Several values ("--cuda-graph-sizes 16 32 48"): keep the first, skip the numbers after it.
            while (i + 1 < w.size() && !looks_flag(w[i + 1]) && !w[i + 1].empty() &&
                   std::all_of(w[i + 1].begin(), w[i + 1].end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
                   std::all_of(value.begin(), value.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
              ++i;
          }
        }
        // docker run -e KEY=VALUE / --env KEY=VALUE: the container's environment, read as the
        // KEY=VALUE word it passes (NIM_*, VLLM_*, OLLAMA_*, an engine flag's upper-case twin).
        if ((key == "env" || (single_dash && key == "e")) && !has_value) {
          if (auto eq = value.find('='); eq != std::string::npos && eq > 0 && env_name(value.substr(0, eq))) {
            w[i] = value;
            --i;
            continue;
          }
        }
        if (key == "model" && single_dash && !launcher(value).empty()) {  // python -m vllm.entrypoints...
          s.programs.push_back(launcher(value));
          continue;
        }
        s.values[key] = value;
        continue;
      }
      if (auto eq = word.find('='); eq != std::string::npos && eq > 0) {
        const std::string k = word.substr(0, eq);
        if (env_name(k)) {
          std::string v = word.substr(eq + 1);
          // "OLLAMA_NUM_PARALLEL=1, set OLLAMA_MAX_QUEUE=1": prose punctuation is not the value's.
          while (!v.empty() && (v.back() == ',' || v.back() == ';' || v.back() == '.')) v.pop_back();
          s.values[k] = v;
          // llama-server's environment twins of its flags (common/arg.cpp set_env: LLAMA_ARG_THREADS,
          // LLAMA_ARG_N_GPU_LAYERS, LLAMA_ARG_CTX_SIZE, LLAMA_ARG_N_PARALLEL, LLAMA_ARG_BATCH ...):
          // the flag they set, unless the command line also gives it (the flag wins there too).
          if (k.rfind("LLAMA_ARG_", 0) == 0 && k.size() > 10) {
            std::string flag = ingest::normalize_flag_name(ascii_lower(k.substr(10)));
            if (flag == "n-parallel") flag = "parallel";
            else if (flag == "batch") flag = "batch-size";
            else if (flag == "ubatch") flag = "ubatch-size";
            if (!s.values.count(flag)) s.values[flag] = v;
          }
          // A shell variable holding the flags (PARAMS="-ngl 99 -c 4096", then $BIN $PARAMS):
          // its flags are the server's.
          if (looks_flag(v)) merge_flags(s, read_launch_text(v));
          continue;
        }
        // Python keyword arguments (vLLM's LLM(model=..., tensor_parallel_size=4, enforce_eager=True),
        // SGLang's Engine(...)): the engine's own flag in snake case, the value without the call's
        // punctuation. True is a bare switch; False and None are left out (the default).
        if (auto kw = python_kwarg(k)) {
          std::string v = trim_call_punctuation(word.substr(eq + 1));
          if (v == "False" || v == "None") continue;
          s.values[ingest::normalize_flag_name(*kw)] = v == "True" ? "" : v;
          continue;
        }
      }
      if (std::string p = launcher(word); !p.empty()) {
        s.programs.push_back(p);
        continue;
      }
      // Positional words: the engine's subcommand, a model path or a template name ("deploy vicuna").
      const std::string lw = ascii_lower(word);
      if (lw == "serve" || lw == "-m" || lw == "run" || lw == "api_server" || lw == "deploy" || lw == "exec" || lw == "-c") {
        s.programs.push_back(lw);
        continue;
      }
      // A URL ("http://host:8000/v1/completions", "my_ip:8000/v2/models/x/generate" in a pasted
      // curl line) is where requests go, not a model path.
      const size_t colon = word.find(':');
      const bool url = word.find("://") != std::string::npos ||
                       (colon != std::string::npos && colon + 1 < word.size() &&
                        std::isdigit(static_cast<unsigned char>(word[colon + 1])) &&
                        word.find_first_not_of("0123456789", colon + 1) == word.find('/', colon));
      if (url) {
        s.unparsed.push_back(word);
        continue;
      }
      if (!s.has("model") && (word.find('/') != std::string::npos || lw.find(".gguf") != std::string::npos)) {
        s.values["model"] = word;
        continue;
      }
      s.unparsed.push_back(word);
    }
  }
  return s;
}

}  // namespace llmtriage::ingest
