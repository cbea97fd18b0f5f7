#include "ingest/engine_args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

namespace llmtriage::ingest {
namespace {

using core::EngineKind;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}


core::Error bad_value(const std::string& where, const std::string& flag, const std::string& expected,
                      const std::string& found) {
  return core::make_error(core::ErrorKind::input, where + " --" + flag, expected, "'" + found + "'");
}

// Token counts as vLLM accepts them: 32768, 32k (x1000), 32K (x1024), 1m / 1M, 25.6k.
std::optional<int64_t> parse_count(const std::string& s, std::vector<std::string>* notes, const std::string& flag) {
  if (s.empty()) return std::nullopt;
  double mult = 1;
  std::string num = s;
  char last = s.back();
  switch (last) {
    case 'k': mult = 1e3; break;
    case 'm': mult = 1e6; break;
    case 'g': mult = 1e9; break;
    case 'K': mult = 1024; break;
    case 'M': mult = 1024.0 * 1024; break;
    case 'G': mult = 1024.0 * 1024 * 1024; break;
    default: break;
  }
  if (mult != 1) num.pop_back();
  double v = 0;
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (ec != std::errc() || p != num.data() + num.size() || num.empty()) return std::nullopt;
  if (mult == 1 && v != std::floor(v)) return std::nullopt;
  if (!(std::fabs(v * mult) < 9.0e15)) return std::nullopt;
  int64_t out = static_cast<int64_t>(std::llround(v * mult));
  if (mult != 1 && notes) notes->push_back("--" + flag + " " + s + " read as " + std::to_string(out));
  return out;
}

std::optional<double> parse_real(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || std::isnan(v)) return std::nullopt;
  return v;
}

std::optional<bool> parse_bool(const std::string& s) {
  std::string l = lower(s);
  if (l.empty() || l == "true" || l == "1" || l == "yes" || l == "on") return true;
  if (l == "false" || l == "0" || l == "no" || l == "off") return false;
  return std::nullopt;
}

enum class Kind { tp, pp, dp, util, mem_fraction, max_len, max_seqs, max_batched, block, kv_dtype, dtype, quant,
                  eager, no_cuda_graph, chunked, no_chunked, prefix, no_prefix, no_radix, model, served_name };

const std::map<std::string, Kind>& table() {
  static const std::map<std::string, Kind> t = {
      {"tensor-parallel-size", Kind::tp}, {"tp", Kind::tp}, {"tp-size", Kind::tp}, {"num-shard", Kind::tp},
      {"pipeline-parallel-size", Kind::pp}, {"pp", Kind::pp}, {"pp-size", Kind::pp},
      {"data-parallel-size", Kind::dp}, {"dp", Kind::dp}, {"dp-size", Kind::dp},
      {"gpu-memory-utilization", Kind::util}, {"cuda-memory-fraction", Kind::util},
      {"mem-fraction-static", Kind::mem_fraction},
      {"max-model-len", Kind::max_len}, {"max-seq-len", Kind::max_len}, {"context-length", Kind::max_len}, {"max-total-tokens", Kind::max_len},
      {"max-num-seqs", Kind::max_seqs}, {"max-running-requests", Kind::max_seqs},
      {"max-concurrent-requests", Kind::max_seqs},
      {"max-num-batched-tokens", Kind::max_batched}, {"chunked-prefill-size", Kind::max_batched},
      {"max-batch-prefill-tokens", Kind::max_batched},
      {"block-size", Kind::block}, {"page-size", Kind::block},
      {"kv-cache-dtype", Kind::kv_dtype}, {"dtype", Kind::dtype},
      {"quantization", Kind::quant}, {"q", Kind::quant}, {"quantize", Kind::quant},
      {"enforce-eager", Kind::eager}, {"disable-cuda-graph", Kind::no_cuda_graph},
      {"enable-chunked-prefill", Kind::chunked}, {"no-enable-chunked-prefill", Kind::no_chunked},
      {"enable-prefix-caching", Kind::prefix}, {"no-enable-prefix-caching", Kind::no_prefix},
      {"disable-radix-cache", Kind::no_radix},
      {"model", Kind::model}, {"model-path", Kind::model}, {"model-id", Kind::model}, {"model-tag", Kind::model},
      {"served-model-name", Kind::served_name},
  };
  return t;
}

bool is_bool_kind(Kind k) {
  return k == Kind::eager || k == Kind::no_cuda_graph || k == Kind::chunked || k == Kind::no_chunked ||
         k == Kind::prefix || k == Kind::no_prefix || k == Kind::no_radix;
}

bool looks_secret(const std::string& key) {
  for (const char* s : {"key", "token", "secret", "password", "auth"})
    if (key.find(s) != std::string::npos && key.find("tokens") == std::string::npos) return true;
  return false;
}

std::string unmodelled_text(const std::string& key, const std::string& value, bool has_value) {
  if (!has_value) return "--" + key;
  return "--" + key + "=" + (looks_secret(key) ? std::string("<redacted>") : value);
}

std::string strip_quotes(std::string v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.erase(v.begin());
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

std::string normalize_flag_name(std::string name) {
  while (!name.empty() && name.front() == '-') name.erase(name.begin());
  name = lower(name);
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

core::Result<bool> apply_engine_flag(core::EngineSettings& s, const std::string& name, const std::string& value,
                                     const std::string& where, std::vector<std::string>* notes) {
  const std::string key = normalize_flag_name(name);
  auto it = table().find(key);
  if (it == table().end()) return false;
  const Kind k = it->second;
  auto need_int = [&](std::optional<int>& dst) -> core::Result<bool> {
    auto v = parse_count(value, nullptr, key);
    if (!v || *v > 1 << 20 || *v < -1) return bad_value(where, key, "an integer", value);
    dst = static_cast<int>(*v);
    return true;
  };
  auto need_count = [&](std::optional<int64_t>& dst) -> core::Result<bool> {
    auto v = parse_count(value, notes, key);
    if (!v) return bad_value(where, key, "a number of tokens (e.g. 32768 or 32k)", value);
    dst = *v;
    return true;
  };
  auto need_real = [&](std::optional<double>& dst) -> core::Result<bool> {
    auto v = parse_real(value);
    if (!v) return bad_value(where, key, "a number", value);
    dst = *v;
    return true;
  };
  if (is_bool_kind(k)) {
    auto b = parse_bool(value);
    if (!b) return bad_value(where, key, "true or false (or no value)", value);
    switch (k) {
      case Kind::eager: case Kind::no_cuda_graph: s.enforce_eager = *b; break;
      case Kind::chunked: s.enable_chunked_prefill = *b; break;
      case Kind::no_chunked: s.enable_chunked_prefill = !*b; break;
      case Kind::prefix: s.enable_prefix_caching = *b; break;
      case Kind::no_prefix: case Kind::no_radix: s.enable_prefix_caching = !*b; break;
      default: break;
    }
    return true;
  }
  switch (k) {
    case Kind::tp: return need_int(s.tensor_parallel_size);
    case Kind::pp: return need_int(s.pipeline_parallel_size);
    case Kind::dp: return need_int(s.data_parallel_size);
    case Kind::util: return need_real(s.gpu_memory_utilization);
    case Kind::mem_fraction: return need_real(s.mem_fraction_static);
    case Kind::max_len: return need_count(s.max_model_len);
    case Kind::max_seqs: return need_count(s.max_num_seqs);
    case Kind::max_batched: {
      auto r = need_count(s.max_num_batched_tokens);
      if (r.ok() && s.max_num_batched_tokens && *s.max_num_batched_tokens < 0) {
        // SGLang --chunked-prefill-size -1 disables chunking.
        s.max_num_batched_tokens.reset();
        s.enable_chunked_prefill = false;
      }
      return r;
    }
    case Kind::block: return need_int(s.block_size);
    case Kind::kv_dtype: s.kv_cache_dtype = value; return true;
    case Kind::dtype:
      // Logged configs print torch dtypes ("torch.bfloat16").
      s.dtype = value.rfind("torch.", 0) == 0 ? value.substr(6) : value;
      return true;
    case Kind::quant: s.quantization = value; return true;
    case Kind::model: s.model = value; return true;
    case Kind::served_name: s.served_model_name = value; return true;
    default: return false;
  }
}

core::Result<std::vector<std::string>> split_command_line(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size()) cur += text[++i];
      else cur += c;
      continue;
    }
    if (c == '\\' && i + 1 < text.size()) {
      char n = text[++i];
      if (n == '\n' || n == '\r') continue;  // line continuation
      cur += n;
      in_word = true;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (quote)
    return core::make_error(core::ErrorKind::input, "--engine-args", "balanced quotes",
                            std::string("an unterminated ") + quote + " quote");
  if (in_word) out.push_back(cur);
  return out;
}

core::Result<ParsedEngineArgs> parse_engine_argv(const std::vector<std::string>& argv, const std::string& where) {
  ParsedEngineArgs out;
  size_t i = 0;
  bool positional_model = false;
  // Find the launcher; flags follow it.
  for (size_t j = 0; j < argv.size(); ++j) {
    const std::string w = lower(argv[j]);
    if ((w == "vllm" || (w.size() > 5 && w.compare(w.size() - 5, 5, "/vllm") == 0)) && j + 1 < argv.size() &&
        argv[j + 1] == "serve") {
      out.engine = EngineKind::vllm;
      i = j + 2;
      positional_model = true;
    } else if (w.find("vllm.entrypoints") != std::string::npos || w.find("vllm/vllm-openai") != std::string::npos) {
      out.engine = EngineKind::vllm;
      i = j + 1;
    } else if (w.find("sglang.launch_server") != std::string::npos || (w == "sglang" && j + 1 < argv.size() && argv[j + 1] == "serve")) {
      out.engine = EngineKind::sglang;
      i = j + (w == "sglang" ? 2 : 1);
    } else if (w.find("text-generation-launcher") != std::string::npos ||
               w.find("text-generation-inference") != std::string::npos) {
      out.engine = EngineKind::tgi;
      i = j + 1;
    } else {
      continue;
    }
    break;
  }
  if (out.engine == EngineKind::unknown) {
    if (!argv.empty() && argv[0].rfind("-", 0) != 0)
      return core::make_error(core::ErrorKind::input, where,
                              "an engine command line ('vllm serve MODEL ...', 'python -m sglang.launch_server ...', "
                              "'text-generation-launcher ...') or bare flags",
                              "'" + argv[0] + "'", "The launcher word was not found.");
    i = 0;
  }
  for (; i < argv.size(); ++i) {
    const std::string& w = argv[i];
    if (w.size() < 2 || w[0] != '-' || parse_real(w)) {
      if (positional_model && !out.settings.model) out.settings.model = w;
      else out.settings.unmodelled.push_back(w);
      positional_model = false;
      continue;
    }
    positional_model = false;
    std::string name = w, value;
    bool has_value = false;
    if (auto eq = w.find('='); eq != std::string::npos) {
      name = w.substr(0, eq);
      value = w.substr(eq + 1);
      has_value = true;
    }
    const std::string key = normalize_flag_name(name);
    auto it = table().find(key);
    bool bool_flag = it != table().end() && is_bool_kind(it->second);
    if (!has_value && i + 1 < argv.size() && !bool_flag) {
      const std::string& next = argv[i + 1];
      if (next.empty() || next[0] != '-' || parse_real(next)) {
        value = next;
        has_value = true;
        ++i;
      }
    }
    if (it != table().end() && !bool_flag && !has_value)
      return core::make_error(core::ErrorKind::input, where + " " + name, "a value after the flag", "none");
    auto applied = apply_engine_flag(out.settings, key, value, where, &out.notes);
    if (!applied.ok()) return applied.error();
    if (!*applied) out.settings.unmodelled.push_back(unmodelled_text(key, value, has_value));
  }
  return out;
}

core::Result<ParsedEngineArgs> parse_engine_args(const std::string& command_line, const std::string& where) {
  auto words = split_command_line(command_line);
  if (!words.ok()) return words.error();
  if (words->empty())
    return core::make_error(core::ErrorKind::input, where, "an engine command line", "an empty string");
  return parse_engine_argv(*words, where);
}

core::Result<ParsedEngineArgs> parse_logged_args(const std::string& text, core::EngineKind engine,
                                                 const std::string& where) {
  ParsedEngineArgs out;
  out.engine = engine;
  // Three shapes: {'key': value} (vLLM non-default args, TGI Args { key: value }),
  // Name(key=value, ...) (Namespace, ServerArgs), or a bare key=value list (vLLM's
  // "Initializing an LLM engine (v0.6.4) with config: model='x', ...").
  std::string body = strip_quotes(text);
  bool dict = false;
  size_t name_end = 0;
  while (name_end < body.size() && (std::isalnum(static_cast<unsigned char>(body[name_end])) || body[name_end] == '_'))
    ++name_end;
  if (!body.empty() && body.front() == '{' && body.back() == '}') {
    dict = true;
    body = body.substr(1, body.size() - 2);
  } else if (name_end > 0 && name_end < body.size() && body[name_end] == '(' && body.back() == ')') {
    body = body.substr(name_end + 1, body.size() - name_end - 2);
  } else if (body.find('=') == std::string::npos) {
    return core::make_error(core::ErrorKind::input, where, "a {'key': value} dict, Name(key=value) repr or key=value list",
                            body.substr(0, 60));
  }
  // Split at top-level commas.
  std::vector<std::string> items;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : body) {
    if (quote) {
      if (c == quote) quote = 0;
      cur += c;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      items.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) items.push_back(cur);
  for (const auto& item : items) {
    auto sep = item.find(dict ? ':' : '=');
    if (sep == std::string::npos) continue;
    std::string key = strip_quotes(item.substr(0, sep));
    std::string value = strip_quotes(item.substr(sep + 1));
    if (value.rfind("Some(", 0) == 0 && value.back() == ')') value = strip_quotes(value.substr(5, value.size() - 6));
    if (value == "None" || key.empty()) continue;
    if (value == "True") value = "true";
    if (value == "False") value = "false";
    auto applied = apply_engine_flag(out.settings, key, value, where, &out.notes);
    if (!applied.ok()) continue;  // a logged default we cannot read is not the user's error
    // Namespace/ServerArgs reprs list every default: only a dict holds the non-defaults.
    if (!*applied && dict) out.settings.unmodelled.push_back(unmodelled_text(normalize_flag_name(key), value, true));
  }
  return out;
}

}  // namespace llmtriage::ingest
