// llama.cpp / Ollama launch lines (llamacpp_args.h). Names: common/arg.cpp add_opt(common_arg(...))
// rows and their set_env() variables; Ollama envconfig/config.go.
#include "ledger/llamacpp_args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace llmtriage::ledger {
namespace {

enum class LlamaKey { model, ctx, parallel, kv_unified, no_kv_unified, cache_k, cache_v, cache_both, ngl, fa, ubatch, threads };

struct LlamaFlagRow {
  const char* name;  // as typed, without the value
  LlamaKey key;
};
// common/arg.cpp: {"-m", "--model"}, {"-c", "--ctx-size"}, {"-np", "--parallel"},
// {"-kvu", "--kv-unified"} / {"-no-kvu", "--no-kv-unified"}, {"-ctk", "--cache-type-k"},
// {"-ctv", "--cache-type-v"}, {"-ngl", "--gpu-layers", "--n-gpu-layers"}, {"-fa", "--flash-attn"},
// {"-ub", "--ubatch-size"}, {"-t", "--threads"}.
constexpr LlamaFlagRow kLlamaFlags[] = {
    {"-m", LlamaKey::model},           {"--model", LlamaKey::model},          {"-c", LlamaKey::ctx},
    {"--ctx-size", LlamaKey::ctx},     {"-np", LlamaKey::parallel},           {"--parallel", LlamaKey::parallel},
    {"-kvu", LlamaKey::kv_unified},    {"--kv-unified", LlamaKey::kv_unified}, {"-no-kvu", LlamaKey::no_kv_unified},
    {"--no-kv-unified", LlamaKey::no_kv_unified}, {"-ctk", LlamaKey::cache_k}, {"--cache-type-k", LlamaKey::cache_k},
    {"-ctv", LlamaKey::cache_v},       {"--cache-type-v", LlamaKey::cache_v}, {"-ngl", LlamaKey::ngl},
    {"--gpu-layers", LlamaKey::ngl},   {"--n-gpu-layers", LlamaKey::ngl},     {"-fa", LlamaKey::fa},
    {"--flash-attn", LlamaKey::fa},    {"-ub", LlamaKey::ubatch},             {"--ubatch-size", LlamaKey::ubatch},
    {"-t", LlamaKey::threads},         {"--threads", LlamaKey::threads},
};
// The same settings through the environment (set_env) and Ollama's variables.
struct LlamaEnvRow {
  const char* name;
  LlamaKey key;
  bool ollama;
};
constexpr LlamaEnvRow kLlamaEnv[] = {
    {"LLAMA_ARG_MODEL", LlamaKey::model, false},          {"LLAMA_ARG_CTX_SIZE", LlamaKey::ctx, false},
    {"LLAMA_ARG_N_PARALLEL", LlamaKey::parallel, false},  {"LLAMA_ARG_KV_UNIFIED", LlamaKey::kv_unified, false},
    {"LLAMA_ARG_CACHE_TYPE_K", LlamaKey::cache_k, false}, {"LLAMA_ARG_CACHE_TYPE_V", LlamaKey::cache_v, false},
    {"LLAMA_ARG_N_GPU_LAYERS", LlamaKey::ngl, false},     {"LLAMA_ARG_FLASH_ATTN", LlamaKey::fa, false},
    {"LLAMA_ARG_UBATCH", LlamaKey::ubatch, false},        {"LLAMA_ARG_THREADS", LlamaKey::threads, false},
    {"OLLAMA_NUM_PARALLEL", LlamaKey::parallel, true},    {"OLLAMA_CONTEXT_LENGTH", LlamaKey::ctx, true},
    {"OLLAMA_KV_CACHE_TYPE", LlamaKey::cache_both, true}, {"OLLAMA_FLASH_ATTENTION", LlamaKey::fa, true},
};

bool llama_takes_value(LlamaKey k) {
  switch (k) {
    case LlamaKey::kv_unified:
    case LlamaKey::no_kv_unified: return false;
    case LlamaKey::fa: return false;  // optional value (on/off/auto); bare on older builds
    case LlamaKey::model:
    case LlamaKey::ctx:
    case LlamaKey::parallel:
    case LlamaKey::cache_k:
    case LlamaKey::cache_v:
    case LlamaKey::cache_both:
    case LlamaKey::ngl:
    case LlamaKey::ubatch:
    case LlamaKey::threads: return true;
  }
  return true;
}

std::string llama_base(const std::string& w) {
  auto slash = w.rfind('/');
  return slash == std::string::npos ? w : w.substr(slash + 1);
}

bool llama_launcher(const std::string& w) {
  const std::string b = llama_base(w);
  return b == "llama-server" || b == "llama-cli" || b == "server" || b == "llama-server.exe";
}

std::optional<bool> llama_bool(std::string v) {
  for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (v.empty() || v == "1" || v == "on" || v == "true" || v == "yes" || v == "enabled") return true;
  if (v == "0" || v == "off" || v == "false" || v == "no" || v == "disabled") return false;
  if (v == "auto") return std::nullopt;
  return std::nullopt;
}

core::Status llama_apply(LlamaCppArgs& a, LlamaKey k, const std::string& name, const std::string& value,
                         const std::string& where) {
  auto integer = [&](auto& dst, int64_t lo) -> core::Status {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || v < lo)
      return core::make_error(core::ErrorKind::input, where + " " + name, fmt::format("an integer >= {}", lo),
                              "'" + value + "'");
    using T = typename std::remove_reference_t<decltype(dst)>::value_type;
    dst = static_cast<T>(v);
    return core::ok_status();
  };
  switch (k) {
    case LlamaKey::model: a.model = value; return core::ok_status();
    case LlamaKey::ctx: return integer(a.settings.ctx_size, 0);
    case LlamaKey::parallel: return integer(a.settings.parallel, -1);
    case LlamaKey::kv_unified: a.settings.kv_unified = llama_bool(value).value_or(true); return core::ok_status();
    case LlamaKey::no_kv_unified: a.settings.kv_unified = false; return core::ok_status();
    case LlamaKey::cache_k: a.settings.cache_type_k = value; return core::ok_status();
    case LlamaKey::cache_v: a.settings.cache_type_v = value; return core::ok_status();
    case LlamaKey::cache_both: a.settings.cache_type_k = a.settings.cache_type_v = value; return core::ok_status();
    case LlamaKey::ngl:
      if (value == "all" || value == "auto") {
        a.settings.n_gpu_layers = -1;
        return core::ok_status();
      }
      return integer(a.settings.n_gpu_layers, -1);
    case LlamaKey::fa: a.settings.flash_attn = llama_bool(value); return core::ok_status();
    case LlamaKey::ubatch: return integer(a.settings.ubatch_size, 1);
    case LlamaKey::threads: return integer(a.threads, 1);
  }
  return core::ok_status();
}

}  // namespace

bool is_llamacpp_command(const std::vector<std::string>& words) {
  bool env_only = !words.empty();
  for (size_t i = 0; i < words.size(); ++i) {
    if (llama_launcher(words[i])) return true;
    if (llama_base(words[i]) == "ollama" && i + 1 < words.size() && words[i + 1] == "serve") return true;
    const bool env = words[i].rfind("LLAMA_ARG_", 0) == 0 || words[i].rfind("OLLAMA_", 0) == 0;
    env_only = env_only && env && words[i].find('=') != std::string::npos;
  }
  return env_only;
}

core::Result<LlamaCppArgs> parse_llamacpp_args(const std::vector<std::string>& words, const std::string& where) {
  LlamaCppArgs a;
  size_t i = 0;
  // Leading VAR=value words (and whatever precedes the launcher, e.g. "docker run ... IMAGE").
  size_t start = 0;
  for (size_t k = 0; k < words.size(); ++k)
    if (llama_launcher(words[k]) || (llama_base(words[k]) == "ollama")) {
      start = k + 1;
      if (llama_base(words[k]) == "ollama") {
        a.engine = core::EngineKind::ollama;
        if (start < words.size() && words[start] == "serve") ++start;
      }
      break;
    }
  for (; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto eq = w.find('=');
    if (eq == std::string::npos || w.rfind("-", 0) == 0) continue;
    const std::string name = w.substr(0, eq), value = w.substr(eq + 1);
    for (const auto& row : kLlamaEnv)
      if (name == row.name) {
        if (row.ollama) a.engine = core::EngineKind::ollama;
        auto st = llama_apply(a, row.key, name, value, where);
        if (!st.ok()) return st.error();
      }
  }
  for (i = start; i < words.size(); ++i) {
    std::string w = words[i];
    if (w.empty() || w[0] != '-') continue;
    std::string value;
    bool inline_value = false;
    if (auto eq = w.find('='); eq != std::string::npos) {
      value = w.substr(eq + 1);
      w = w.substr(0, eq);
      inline_value = true;
    }
    const LlamaFlagRow* row = nullptr;
    for (const auto& r : kLlamaFlags)
      if (w == r.name) row = &r;
    if (!row) {
      a.unmodelled.push_back(words[i]);
      if (!inline_value && i + 1 < words.size() && words[i + 1].rfind("-", 0) != 0) a.unmodelled.back() += " " + words[++i];
      continue;
    }
    if (!inline_value && llama_takes_value(row->key)) {
      if (i + 1 >= words.size())
        return core::make_error(core::ErrorKind::input, where + " " + w, "a value after the flag", "the end of the line");
      value = words[++i];
    } else if (!inline_value && row->key == LlamaKey::fa && i + 1 < words.size()) {
      const std::string& n = words[i + 1];
      if (n == "on" || n == "off" || n == "auto") value = words[++i];
    }
    auto st = llama_apply(a, row->key, w, value, where);
    if (!st.ok()) return st.error();
  }
  return a;
}

}  // namespace llmtriage::ledger
