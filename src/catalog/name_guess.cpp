#include "catalog/name_guess.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "catalog/names.h"
#include "core/files.h"

namespace llmtriage::catalog {
// The catalog module is built in unity batches: file-local names live in this namespace only.
namespace name_guess_detail {
namespace {

constexpr size_t kMaxName = 512;       // longer input is cut (and noted)
constexpr double kMinParamsB = 0.01;   // sizes outside this range are not sizes
constexpr double kMaxParamsB = 5000;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Torch-visible / marketing ratio used when a card's capacity is not measured (src/catalog/gpu.h).
constexpr double kTorchVisibleRatio = 0.985;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

std::string to_lower(std::string s) {
  for (auto& c : s) c = lower(c);
  return s;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A short decimal ("70", "2.7", "79.19"); absent for anything else or absurdly long digit runs.
std::optional<double> parse_number(const std::string& t) {
  if (t.empty() || t.size() > 12 || !is_digit(t[0])) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// "70", "46.7", "0.985" — numbers as the notes print them.
std::string num(double v) {
  std::string s = fmt::format("{:.3f}", v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// ---------------------------------------------------------------------------------------------
// Model names

// Quantization names and their effective bits per weight (scales included).
//  llama.cpp types: tools/quantize/README.md of ggml-org/llama.cpp. The k-quant mixes (Q2_K ...
//   Q6_K) use its "Llama 2 7B" bits-per-weight table (Q2_K 3.35, Q3_K_S 3.50, Q3_K_M 3.91,
//   Q3_K_L 4.27, Q4_K_S 4.58, Q4_K_M 4.84, Q5_K_S 5.52, Q5_K_M 5.68, Q6_K 6.56); Q2_K_S and the
//   i-quants its "meta-llama/Llama-3.1-8B" table (which runs higher: that model's embeddings are
//   a larger share). Q2_K is a 2.5625-bit block type, but the Q2_K mix keeps some tensors at 3-4
//   bits, so a Q2_K file averages ~3.3 bits. Legacy blocks of 32 weights with an fp16 scale:
//   Q4_0 18 B -> 4.5, Q4_1 20 B -> 5.0, Q5_0 22 B -> 5.5, Q5_1 24 B -> 6.0, Q8_0 34 B -> 8.5.
//   "Q4_K" / "Q3_K" / "Q5_K" are llama-quantize's aliases of the _M mixes.
//  GPTQ / AWQ: 4-bit weights, one fp16 scale and one 4-bit zero point per group of 128:
//   4 + (16 + 4) / 128 = 4.156 (the convention of src/catalog/weights.cpp). Symmetric int4
//   (w4a16, no zero point): 4.125. bitsandbytes 4-bit: one 2-byte scale per 64 -> 4.25.
//  MXFP4: e8m0 scale per 32 -> 4.25; NVFP4: fp8 scale per 16 -> 4.5. FP8 / int8: 8 (per-tensor
//   or per-channel scales are negligible). fp16 / bf16: 16.
struct QuantSpec {
  const char* key;        // lowercase, '_' for any separator
  const char* canonical;
  double bits;
  int rank;               // 2 method or llama.cpp type, 1 bare bit width, 0 dtype: the highest wins
  bool gguf_type;         // a llama.cpp type name: the file is GGUF/GGML
  const char* note;       // "" or an assumption to report
};

constexpr QuantSpec kQuants[] = {
    {"q2_k", "Q2_K", 3.35, 2, true, ""},
    {"q2_k_s", "Q2_K_S", 2.97, 2, true, ""},
    {"q3_k_s", "Q3_K_S", 3.50, 2, true, ""},
    {"q3_k_m", "Q3_K_M", 3.91, 2, true, ""},
    {"q3_k", "Q3_K_M", 3.91, 2, true, "Q3_K is llama-quantize's alias of Q3_K_M"},
    {"q3_k_l", "Q3_K_L", 4.27, 2, true, ""},
    {"q4_0", "Q4_0", 4.5, 2, true, ""},
    {"q4_1", "Q4_1", 5.0, 2, true, ""},
    {"q4_k_s", "Q4_K_S", 4.58, 2, true, ""},
    {"q4_k_m", "Q4_K_M", 4.84, 2, true, ""},
    {"q4_k", "Q4_K_M", 4.84, 2, true, "Q4_K is llama-quantize's alias of Q4_K_M"},
    {"q5_0", "Q5_0", 5.5, 2, true, ""},
    {"q5_1", "Q5_1", 6.0, 2, true, ""},
    {"q5_k_s", "Q5_K_S", 5.52, 2, true, ""},
    {"q5_k_m", "Q5_K_M", 5.68, 2, true, ""},
    {"q5_k", "Q5_K_M", 5.68, 2, true, "Q5_K is llama-quantize's alias of Q5_K_M"},
    {"q6_k", "Q6_K", 6.56, 2, true, ""},
    {"q8_0", "Q8_0", 8.5, 2, true, ""},
    {"iq1_s", "IQ1_S", 2.00, 2, true, ""},
    {"iq1_m", "IQ1_M", 2.15, 2, true, ""},
    {"iq2_xxs", "IQ2_XXS", 2.38, 2, true, ""},
    {"iq2_xs", "IQ2_XS", 2.59, 2, true, ""},
    {"iq2_s", "IQ2_S", 2.74, 2, true, ""},
    {"iq2_m", "IQ2_M", 2.93, 2, true, ""},
    {"iq3_xxs", "IQ3_XXS", 3.25, 2, true, ""},
    {"iq3_xs", "IQ3_XS", 3.50, 2, true, ""},
    {"iq3_s", "IQ3_S", 3.66, 2, true, ""},
    {"iq3_m", "IQ3_M", 3.76, 2, true, ""},
    {"iq4_xs", "IQ4_XS", 4.46, 2, true, ""},
    {"iq4_nl", "IQ4_NL", 4.68, 2, true, ""},
    {"awq", "AWQ", 4.15625, 2, false, "AWQ without a bit width: 4-bit, group 128 assumed"},
    {"awq_int4", "AWQ-INT4", 4.15625, 2, false, ""},
    {"awq_4bit", "AWQ-INT4", 4.15625, 2, false, ""},
    {"gptq", "GPTQ", 4.15625, 2, false, "GPTQ without a bit width: 4-bit, group 128 assumed"},
    {"gptq_int4", "GPTQ-INT4", 4.15625, 2, false, ""},
    {"gptq_4bit", "GPTQ-INT4", 4.15625, 2, false, ""},
    {"gptq_int8", "GPTQ-INT8", 8.15625, 2, false, ""},
    {"gptq_8bit", "GPTQ-INT8", 8.15625, 2, false, ""},
    {"fp8", "FP8", 8, 2, false, ""},
    {"fp8_dynamic", "FP8", 8, 2, false, ""},
    {"fp8_static", "FP8", 8, 2, false, ""},
    {"f8", "FP8", 8, 2, false, ""},
    {"nvfp4", "NVFP4", 4.5, 2, false, ""},
    {"mxfp4", "MXFP4", 4.25, 2, false, ""},
    {"bnb_4bit", "BNB-4BIT", 4.25, 2, false, ""},
    {"bnb_nf4", "BNB-4BIT", 4.25, 2, false, ""},
    {"nf4", "BNB-4BIT", 4.25, 2, false, ""},
    {"bnb_8bit", "BNB-8BIT", 8, 2, false, ""},
    {"int8", "INT8", 8, 1, false, ""},
    {"w8a8", "W8A8", 8, 1, false, ""},
    {"w8a16", "W8A16", 8, 1, false, ""},
    {"8bit", "INT8", 8, 1, false, ""},
    {"int4", "INT4", 4.125, 1, false, "int4 without a method: symmetric, group 128 assumed"},
    {"w4a16", "W4A16", 4.125, 1, false, "w4a16: symmetric int4, group 128 assumed"},
    {"4bit", "INT4", 4.25, 1, false, "a bare '4bit': one 2-byte scale per 64 weights assumed"},
    {"f16", "F16", 16, 0, false, ""},
    {"fp16", "F16", 16, 0, false, ""},
    {"float16", "F16", 16, 0, false, ""},
    {"half", "F16", 16, 0, false, ""},
    {"bf16", "BF16", 16, 0, false, ""},
    {"bfloat16", "BF16", 16, 0, false, ""},
    {"f32", "F32", 32, 0, false, ""},
    {"fp32", "F32", 32, 0, false, ""},
    {"float32", "F32", 32, 0, false, ""},
};

struct QuantHit {
  const QuantSpec* spec = nullptr;
  size_t pos = 0, len = 0;
  std::optional<double> bpw;  // "4.65bpw" (exllamav2 naming)
};

// The quant a name states: every spelling above at word boundaries, longest first, left to
// right without overlaps; the highest rank wins, the rightmost among equals.
std::optional<QuantHit> find_quant(const std::string& low) {
  std::string q = low;
  for (auto& c : q)
    if (!is_alnum(c)) c = '_';
  auto boundary_after = [&](size_t p) { return p >= q.size() || !is_alnum(q[p]); };
  std::optional<QuantHit> best;
  for (size_t i = 0; i < q.size();) {
    if (i > 0 && is_alnum(q[i - 1])) { ++i; continue; }
    QuantHit hit;
    for (const auto& s : kQuants) {
      size_t n = std::char_traits<char>::length(s.key);
      if (n > hit.len && q.compare(i, n, s.key) == 0 && boundary_after(i + n)) {
        hit.spec = &s;
        hit.pos = i;
        hit.len = n;
      }
    }
    // "4.65bpw", "8.0bpw" (exllamav2): bits stated outright.
    if (!hit.spec && is_digit(low[i])) {
      size_t j = i;
      while (j < low.size() && (is_digit(low[j]) || low[j] == '.')) ++j;
      if (low.compare(j, 3, "bpw") == 0 && boundary_after(j + 3)) {
        auto v = parse_number(low.substr(i, j - i));
        if (v && *v >= 1 && *v <= 32) {
          static constexpr QuantSpec kBpw{"bpw", "EXL2", 0, 2, false, ""};
          hit.spec = &kBpw;
          hit.pos = i;
          hit.len = j + 3 - i;
          hit.bpw = *v;
        }
      }
    }
    if (hit.spec) {
      if (!best || hit.spec->rank >= best->spec->rank) best = hit;
      i += hit.len;
    } else {
      ++i;
    }
  }
  return best;
}

struct FamilyWord {
  const char* word;
  const char* family;
  bool whole;     // the next character may not be a letter ("phi" but not "philosophy")
  bool fallback;  // a fine-tune name: used only when no base family is named
};

constexpr FamilyWord kFamilies[] = {
    {"gpt-oss", "gpt-oss", false, false}, {"gpt_oss", "gpt-oss", false, false},
    {"gptoss", "gpt-oss", false, false},  {"mixtral", "mixtral", false, false},
    {"codestral", "mistral", false, false}, {"ministral", "mistral", false, false},
    {"devstral", "mistral", false, false},  {"magistral", "mistral", false, false},
    {"pixtral", "mistral", false, false},   {"mistral", "mistral", false, false},
    {"codellama", "llama", false, false},   {"tinyllama", "llama", false, false},
    {"llama", "llama", false, false},       {"qwq", "qwen", false, false},
    {"qwen", "qwen", false, false},         {"deepseek", "deepseek", false, false},
    {"codegemma", "gemma", false, false},   {"gemma", "gemma", false, false},
    {"phi", "phi", true, false},            {"granite", "granite", false, false},
    {"falcon", "falcon", false, false},     {"yi", "yi", true, false},
    {"command-r", "command-r", false, false}, {"command_r", "command-r", false, false},
    {"starcoder", "starcoder", false, false}, {"internlm", "internlm", false, false},
    {"chatglm", "glm", false, false},       {"glm", "glm", true, false},
    {"olmo", "olmo", true, false},          {"smollm", "smollm", false, false},
    {"nemotron", "nemotron", false, false}, {"kimi", "kimi", false, false},
    {"minimax", "minimax", false, false},   {"exaone", "exaone", false, false},
    {"baichuan", "baichuan", false, false}, {"minicpm", "minicpm", false, false},
    {"bloom", "bloom", false, false},       {"mpt", "mpt", true, false},
    {"airoboros", "llama", false, true},    {"vicuna", "llama", false, true},
    {"guanaco", "llama", false, true},      {"alpaca", "llama", false, true},
};

struct FamilyHit {
  const FamilyWord* word = nullptr;
  size_t pos = 0, end = 0;  // end: after the version, when one follows
  std::string version;
};

// Reads a version right after a family word: "3.2" (llama3.2), "1.5" (qwen1_5), "2" (Llama-2),
// "R1" (DeepSeek-R1). A number followed by a size suffix ("-70b", "8x7b") is a size, not a version.
void read_version(const std::string& w, FamilyHit& h) {
  size_t j = h.end;
  if (j < w.size() && (w[j] == '-' || w[j] == '_' || w[j] == ' ')) ++j;
  std::string prefix;
  if (j + 1 < w.size() && (w[j] == 'v' || w[j] == 'r') && is_digit(w[j + 1])) {
    prefix = std::string(1, upper(w[j]));
    ++j;
  }
  size_t d = j;
  while (j < w.size() && is_digit(w[j]) && j - d < 3) ++j;
  if (j == d || (j < w.size() && is_digit(w[j]))) return;
  std::string v = w.substr(d, j - d);
  if (j + 1 < w.size() && (w[j] == '.' || w[j] == '_') && is_digit(w[j + 1])) {
    size_t f = j + 1, k = f;
    while (k < w.size() && is_digit(w[k]) && k - f < 2) ++k;
    // "qwen1_5" is 1.5, but "qwen2_72b" is version 2 then a size.
    if (k == w.size() || !is_alnum(w[k])) {
      v += "." + w.substr(f, k - f);
      j = k;
    }
  }
  // A size, not a version: "llama-13b", "mixtral-8x7b", "smollm-135m".
  if (prefix.empty() && j < w.size() && (w[j] == 'b' || w[j] == 'm' || w[j] == 'x' || w[j] == 'e'))
    return;
  h.version = prefix + v;
  h.end = j;
}

std::vector<FamilyHit> find_families(const std::string& w) {
  std::vector<FamilyHit> hits;
  for (size_t i = 0; i < w.size(); ++i) {
    if (i > 0 && is_alpha(w[i - 1])) continue;
    const FamilyWord* best = nullptr;
    size_t best_len = 0;
    for (const auto& f : kFamilies) {
      size_t n = std::char_traits<char>::length(f.word);
      if (n <= best_len || w.compare(i, n, f.word) != 0) continue;
      if (f.whole && i + n < w.size() && is_alpha(w[i + n])) continue;
      best = &f;
      best_len = n;
    }
    if (!best) continue;
    FamilyHit h;
    h.word = best;
    h.pos = i;
    h.end = i + best_len;
    read_version(w, h);
    hits.push_back(h);
    i = h.end > i ? h.end - 1 : i;
  }
  return hits;
}

struct SizeHit {
  enum Kind { total, active, million, moe, experts } kind = total;
  double value = 0;      // billions (experts: a count)
  double moe_n = 0;      // "8x7b": 8 experts of 7B
  std::string text;      // as written
  size_t pos = 0;
};

// Sizes a name states: "70b", "0.5b", "7b1" (BLOOM: 7.1B), "a3b" (MoE active), "8x7b",
// "135m", "16e" (experts). Digits glued to letters ("llama3", "gpt4", "sxm2") are not sizes.
std::vector<SizeHit> find_sizes(const std::string& w) {
  std::vector<SizeHit> out;
  auto boundary = [&](size_t p) { return p >= w.size() || !is_alnum(w[p]); };
  auto read_num = [&](size_t i, size_t& j) {
    j = i;
    while (j < w.size() && is_digit(w[j])) ++j;
    if (j + 1 < w.size() && w[j] == '.' && is_digit(w[j + 1])) {
      ++j;
      while (j < w.size() && is_digit(w[j])) ++j;
    }
    return w.substr(i, j - i);
  };
  for (size_t i = 0; i < w.size(); ++i) {
    if (!is_digit(w[i]) || (i > 0 && (is_digit(w[i - 1]) || w[i - 1] == '.'))) continue;
    bool active = false;
    if (i > 0 && is_alpha(w[i - 1])) {
      if (w[i - 1] == 'a' && (i < 2 || !is_alnum(w[i - 2]))) active = true;
      else continue;
    }
    size_t j = 0;
    std::string t = read_num(i, j);
    double v = parse_number(t).value_or(INFINITY);
    size_t start = active ? i - 1 : i;
    if (!active && j + 1 < w.size() && w[j] == 'x' && is_digit(w[j + 1])) {
      size_t k = 0;
      std::string t2 = read_num(j + 1, k);
      if (k < w.size() && w[k] == 'b' && boundary(k + 1)) {
        SizeHit h;
        h.kind = SizeHit::moe;
        h.moe_n = v;
        h.value = parse_number(t2).value_or(INFINITY);
        h.text = w.substr(i, k + 1 - i);
        h.pos = i;
        out.push_back(h);
        i = k;
      }
      continue;
    }
    if (j < w.size() && w[j] == 'b') {
      if (boundary(j + 1)) {
        SizeHit h;
        h.kind = active ? SizeHit::active : SizeHit::total;
        h.value = v;
        h.text = w.substr(start, j + 1 - start);
        h.pos = start;
        out.push_back(h);
      } else if (!active && t.find('.') == std::string::npos && j + 1 < w.size() && is_digit(w[j + 1])) {
        size_t k = j + 1;
        while (k < w.size() && is_digit(w[k]) && k - j <= 2) ++k;
        if (boundary(k)) {  // "7b1" -> 7.1 (BLOOM naming)
          SizeHit h;
          h.value = parse_number(t + "." + w.substr(j + 1, k - j - 1)).value_or(INFINITY);
          h.text = w.substr(i, k - i);
          h.pos = i;
          out.push_back(h);
          j = k;
        }
      }
    } else if (!active && j < w.size() && w[j] == 'm' && boundary(j + 1)) {
      SizeHit h;
      h.kind = SizeHit::million;
      h.value = v / 1000.0;
      h.text = w.substr(i, j + 1 - i);
      h.pos = i;
      out.push_back(h);
    } else if (!active && j < w.size() && w[j] == 'e' && boundary(j + 1)) {
      SizeHit h;
      h.kind = SizeHit::experts;
      h.value = v;
      h.text = w.substr(i, j + 1 - i);
      h.pos = i;
      out.push_back(h);
    }
    i = j > i ? j - 1 : i;
  }
  return out;
}

bool in_range(double b) { return std::isfinite(b) && b >= kMinParamsB && b <= kMaxParamsB; }

// One folder/file component split off the rest: the name proper and the folders or org above it.
struct NameParts {
  std::string main;                   // original spelling, extension removed
  std::vector<std::string> parents;   // nearest first
  std::string ext;                    // ".gguf", ".bin", ... (lowercase) or ""
};

NameParts split_name(const std::string& s) {
  NameParts p;
  std::string t = s;
  std::replace(t.begin(), t.end(), '\\', '/');
  std::vector<std::string> comps;
  std::string cur;
  for (char c : t) {
    if (c == '/') {
      if (!cur.empty()) comps.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) comps.push_back(cur);
  if (comps.empty()) return p;
  p.main = comps.back();
  for (size_t i = comps.size() - 1; i-- > 0;) p.parents.push_back(comps[i]);
  std::string low = to_lower(p.main);
  for (const char* e : {".gguf", ".ggml", ".bin", ".safetensors", ".pt", ".pth", ".onnx"}) {
    if (ends_with(low, e) && low.size() > std::char_traits<char>::length(e)) {
      p.ext = e;
      p.main = p.main.substr(0, p.main.size() - p.ext.size());
      break;
    }
  }
  return p;
}

bool has_word(const std::string& low, const std::string& word) {
  for (size_t p = low.find(word); p != std::string::npos; p = low.find(word, p + 1)) {
    bool before = p == 0 || !is_alpha(low[p - 1]);
    bool after = p + word.size() >= low.size() || !is_alpha(low[p + word.size()]);
    if (before && after) return true;
  }
  return false;
}

void guess_model(const std::string& name, ModelNameGuess& g) {
  std::string s = trim(name);
  if (s.empty()) {
    g.matched.push_back("empty name: nothing to read");
    return;
  }
  if (s.size() > kMaxName) {
    s = s.substr(0, kMaxName);
    g.matched.push_back(fmt::format("name cut to its first {} characters", kMaxName));
  }

  // Ollama "name:tag": a colon with no slash before it (not a URL "://", not a drive "C:").
  size_t colon = s.find(':');
  if (colon != std::string::npos && colon > 0 && colon + 1 < s.size()) {
    bool slash_before = s.find_first_of("/\\") < colon;
    bool url = s.compare(colon, 3, "://") == 0;
    bool drive = colon == 1 && is_alpha(s[0]) && (s[2] == '\\' || s[2] == '/');
    if (!slash_before && !url && !drive) {
      g.ollama_tag = true;
      g.matched.push_back(fmt::format("Ollama tag '{}' on '{}'", s.substr(colon + 1), s.substr(0, colon)));
    }
  }

  NameParts parts = split_name(s);
  if (!parts.parents.empty()) g.org = parts.parents.front();
  std::string low = to_lower(parts.main);

  // GGUF / GGML markers.
  if (parts.ext == ".gguf") {
    g.gguf = true;
    g.matched.push_back("GGUF file (.gguf)");
  } else if (parts.ext == ".ggml" || low.find("ggml") != std::string::npos) {
    g.gguf = true;
    g.matched.push_back(low.find("ggmlv") != std::string::npos
                            ? "GGML file (pre-GGUF format: current llama.cpp no longer loads it; convert to GGUF)"
                            : "GGML file (pre-GGUF format)");
  } else if (has_word(low, "gguf")) {
    g.gguf = true;
    g.matched.push_back("GGUF repository ('GGUF' in the name)");
  }
  for (const auto& parent : parts.parents)
    if (!g.gguf && has_word(to_lower(parent), "gguf")) {
      g.gguf = true;
      g.matched.push_back(fmt::format("GGUF repository ('{}')", parent));
    }

  // Quantization.
  std::string work = low;
  const QuantSpec* qspec = nullptr;
  if (auto q = find_quant(low)) {
    qspec = q->spec;
    g.quant = parts.main.substr(q->pos, q->len);
    g.quant_canonical = qspec->canonical;
    g.bits_per_weight = q->bpw ? *q->bpw : qspec->bits;
    g.matched.push_back(fmt::format("quant {} from the name ('{}', ~{} bits/weight)", g.quant_canonical,
                                    g.quant, num(*g.bits_per_weight)));
    if (*qspec->note) g.matched.push_back(qspec->note);
    for (size_t k = q->pos; k < q->pos + q->len && k < work.size(); ++k) work[k] = ' ';
    if (qspec->gguf_type && !g.gguf) {
      g.gguf = true;
      g.matched.push_back(parts.ext == ".bin" ? "GGML .bin file (llama.cpp quant suffix)"
                                              : "GGUF (a llama.cpp quant type in the name)");
    }
  }
  if (g.ollama_tag && !g.gguf) {
    g.gguf = true;
    g.matched.push_back("GGUF (Ollama stores its models as GGUF)");
  }

  // Family (and its version), from the name, else from the folders/org above it.
  auto pick_family = [&](const std::vector<FamilyHit>& hits) -> const FamilyHit* {
    for (const auto& h : hits)
      if (!h.word->fallback) return &h;
    return hits.empty() ? nullptr : &hits.front();
  };
  auto hits = find_families(work);
  const FamilyHit* fam = pick_family(hits);
  if (fam) {
    g.family = fam->word->family;
    g.family_version = fam->version;
    std::string said = parts.main.substr(fam->pos, fam->end - fam->pos);
    g.matched.push_back(fmt::format("family {} from '{}'{}", g.family, said,
                                    fam->version.empty() ? "" : fmt::format(" (version {}, not a size)", fam->version)));
    if (fam->word->fallback)
      g.matched.push_back(fmt::format("'{}' is a fine-tune: base family {} assumed", fam->word->word, g.family));
    for (const auto& h : hits)
      if (&h != fam && !h.word->fallback && std::string(h.word->family) != g.family) {
        g.matched.push_back(fmt::format("also names {} ('{}'): a fine-tune or distill of it?", h.word->family,
                                        parts.main.substr(h.pos, h.end - h.pos)));
        break;
      }
    for (const auto& h : hits)
      for (size_t k = h.pos; k < h.end && k < work.size(); ++k) work[k] = ' ';
  } else {
    for (const auto& parent : parts.parents) {
      auto ph = find_families(to_lower(parent));
      if (const FamilyHit* f = pick_family(ph)) {
        g.family = f->word->family;
        g.family_version = f->version;
        g.matched.push_back(fmt::format("family {} from the folder/org '{}'", g.family, parent));
        break;
      }
    }
  }

  // Sizes, from the name, else from the folders above it.
  auto sizes = find_sizes(work);
  std::string size_from = "";
  if (sizes.empty())
    for (const auto& parent : parts.parents) {
      std::string pl = to_lower(parent);
      for (const auto& h : find_families(pl))
        for (size_t k = h.pos; k < h.end; ++k) pl[k] = ' ';
      sizes = find_sizes(pl);
      if (!sizes.empty()) {
        size_from = fmt::format(" (folder '{}')", parent);
        break;
      }
    }
  const SizeHit* total = nullptr;
  const SizeHit* million = nullptr;
  for (size_t k = 0; k < sizes.size(); ++k) {
    const SizeHit& h = sizes[k];
    double b = h.kind == SizeHit::moe ? h.moe_n * h.value : h.value;
    if (h.kind != SizeHit::experts && !in_range(b)) {
      if (h.kind == SizeHit::million && h.value < kMinParamsB)
        g.matched.push_back(fmt::format("'{}' read as a context length, not a size", h.text));
      else
        g.matched.push_back(fmt::format("'{}' ignored: outside {}..{}B", h.text, num(kMinParamsB), num(kMaxParamsB)));
      continue;
    }
    switch (h.kind) {
      case SizeHit::active:
        if (!g.active_params_b) {
          g.active_params_b = h.value;
          g.matched.push_back(fmt::format("MoE active {}B from '{}'", num(h.value), h.text));
        }
        break;
      case SizeHit::moe:
        if (!total && !g.params_b) {
          if (h.moe_n == 8 && h.value == 7) {
            // Mistral AI, "Mixtral of experts": 46.7B total, 12.9B used per token.
            // https://mistral.ai/news/mixtral-of-experts/
            g.params_b = 46.7;
            if (!g.active_params_b) g.active_params_b = 12.9;
            g.matched.push_back("size 46.7B total, 12.9B active from '8x7b' (Mixtral 8x7B as published by Mistral AI)");
          } else if (h.moe_n == 8 && h.value == 22) {
            // Mistral AI, "Cheaper, Better, Faster, Stronger" (Mixtral 8x22B): 141B total, 39B active.
            // https://mistral.ai/news/mixtral-8x22b/
            g.params_b = 141;
            if (!g.active_params_b) g.active_params_b = 39;
            g.matched.push_back("size 141B total, 39B active from '8x22b' (Mixtral 8x22B as published by Mistral AI)");
          } else {
            g.params_b = h.moe_n * h.value;
            g.matched.push_back(fmt::format("size at most {}B from '{}' (experts share attention, so the total is lower)",
                                            num(*g.params_b), h.text));
          }
        }
        break;
      case SizeHit::total:
        if (!total && !g.params_b) {
          total = &h;
          // "Llama-4-Scout-17B-16E": the size before an expert count is the active size.
          if (k + 1 < sizes.size() && sizes[k + 1].kind == SizeHit::experts) {
            if (!g.active_params_b) g.active_params_b = h.value;
            g.matched.push_back(fmt::format("'{}' before '{}' is the active size of a MoE; total not in the name",
                                            h.text, sizes[k + 1].text));
          } else {
            g.params_b = h.value;
            g.matched.push_back(fmt::format("size {}B from '{}'{}", num(h.value), h.text, size_from));
          }
        } else if (total && h.value != total->value) {
          g.matched.push_back(fmt::format("second size '{}' ignored (first one wins)", h.text));
        }
        break;
      case SizeHit::million:
        if (!million) million = &h;
        break;
      case SizeHit::experts:
        break;
    }
  }
  if (!g.params_b && !total && million && !g.active_params_b) {
    g.params_b = million->value;
    g.matched.push_back(fmt::format("size {}B from '{}'", num(million->value), million->text));
  }
  if (g.params_b && g.active_params_b && *g.active_params_b > *g.params_b) {
    g.matched.push_back("active size above the total: active size dropped");
    g.active_params_b.reset();
  }

  // What the name leaves out but the family is known to ship as.
  std::string low_all = to_lower(s);
  if (g.family == "deepseek" && !g.params_b && to_lower(g.org) == "deepseek-ai" &&
      (g.family_version.rfind("R1", 0) == 0 || g.family_version.rfind("V3", 0) == 0) &&
      low_all.find("distill") == std::string::npos && low_all.find("lite") == std::string::npos) {
    // DeepSeek-V3 technical report / model card: 671B total, 37B activated per token; the
    // published checkpoints (V3, R1) are FP8. https://huggingface.co/deepseek-ai/DeepSeek-R1
    g.params_b = 671;
    g.active_params_b = 37;
    g.matched.push_back("size 671B total, 37B active: DeepSeek-V3/R1 as published (the name states no size)");
    if (!qspec) {
      g.quant_canonical = "FP8";
      g.bits_per_weight = 8;
      g.default_quant_assumed = true;
      g.matched.push_back("no quant in the name: FP8 assumed (DeepSeek publishes V3/R1 in FP8)");
    }
  }
  if (g.family == "deepseek" && g.ollama_tag && g.family_version == "R1" && g.params_b && *g.params_b < 671)
    g.matched.push_back("Ollama's deepseek-r1 tags below 671b are the R1 distills (Qwen 2.5 or Llama 3 "
                        "architecture), not the DeepSeek-V3 MoE");
  if (!qspec && !g.bits_per_weight) {
    if (g.family == "gpt-oss") {
      // OpenAI's gpt-oss model card: MoE weights in MXFP4, the rest in bf16.
      g.quant_canonical = "MXFP4";
      g.bits_per_weight = 4.25;
      g.default_quant_assumed = true;
      g.matched.push_back("no quant in the name: MXFP4 assumed (gpt-oss ships MXFP4 experts; attention and "
                          "embeddings stay bf16, so the real file is somewhat larger)");
    } else if (g.ollama_tag) {
      // Ollama library tags without a quant resolve to a 4-bit build: Q4_K_M for most current
      // models (4.84 bits), Q4_0 for older ones (4.5 bits); https://ollama.com/library.
      g.bits_per_weight = 4.5;
      g.default_quant_assumed = true;
      g.matched.push_back("no quant in the tag: Ollama's 4-bit default assumed (Q4_0 4.5 bits; Q4_K_M "
                          "builds are 4.84, ~7% larger)");
    } else if (g.gguf) {
      g.matched.push_back("no quant in the name: a GGUF repository holds several quant files");
    } else if (g.params_b) {
      g.matched.push_back("no quant in the name: a Hugging Face checkpoint is usually bf16 (16 bits); not assumed");
    }
  }
  if (g.params_b && g.bits_per_weight) {
    g.weights_gib = *g.params_b * 1e9 * *g.bits_per_weight / 8.0 / kGiB;
    g.matched.push_back(fmt::format("weights ~{:.2f} GiB ({}B x {} bits / 8)", *g.weights_gib, num(*g.params_b),
                                    num(*g.bits_per_weight)));
  }
  if (g.family.empty()) g.matched.push_back("family not recognized");
  if (!g.params_b && !g.active_params_b) g.matched.push_back("no size in the name");
}

// ---------------------------------------------------------------------------------------------
// GPU names

// Lowercase words, letters and digits split apart ("A100-40GB" -> a 100 40 gb; "79.19GiB" ->
// 79.19 gib). Anything not an ASCII letter or digit separates.
// `starts` (optional) tells for each word whether it begins after a separator ("40" in
// "A100-40GB") or is glued to the word before ("10" in "A10G").
std::vector<std::string> gpu_tokens(const std::string& s, std::vector<bool>* starts = nullptr) {
  std::vector<std::string> out;
  std::string cur;
  int cls = 0;  // 1 letters, 2 digits
  bool cur_start = true, after_sep = true;
  auto flush = [&] {
    if (!cur.empty()) {
      out.push_back(cur);
      if (starts) starts->push_back(cur_start);
    }
    cur.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '.' && cls == 2 && i + 1 < s.size() && is_digit(s[i + 1])) {
      cur += c;
      continue;
    }
    int k = is_digit(c) ? 2 : is_alpha(c) ? 1 : 0;
    if (k == 0 || k != cls) {
      flush();
      cur_start = after_sep;
    }
    after_sep = k == 0;
    cls = k;
    if (k) cur += lower(c);
  }
  flush();
  return out;
}

bool all_digits(const std::string& t) { return !t.empty() && is_digit(t[0]); }

bool contains_run(const std::vector<std::string>& toks, const std::vector<std::string>& pat) {
  if (pat.empty() || pat.size() > toks.size()) return false;
  for (size_t i = 0; i + pat.size() <= toks.size(); ++i)
    if (std::equal(pat.begin(), pat.end(), toks.begin() + static_cast<std::ptrdiff_t>(i))) return true;
  return false;
}

std::string bf16_arch_family(const std::string& arch) {
  // bf16 matrix support: CDNA1 (gfx908) and later Instinct, RDNA3 (gfx11xx) and RDNA4 (gfx12xx).
  // ROCm "Data types and precision support"; RDNA2 (gfx103x) and Vega (gfx906) have none.
  if (arch == "gfx908" || arch == "gfx90a" || arch.rfind("gfx94", 0) == 0 || arch.rfind("gfx95", 0) == 0)
    return "CDNA";
  if (arch.size() >= 7 && (arch.rfind("gfx11", 0) == 0 || arch.rfind("gfx12", 0) == 0)) return "RDNA3+";
  return "";
}

struct CardCount {
  int count = 1;
  std::string rest;
  std::string said;
};

// "2x A100", "8 x H100", "4*L4", "A100 x 2", "H100 *8", "dual RTX 3090", "8 GPUs".
CardCount read_count(const std::string& part) {
  CardCount c;
  c.rest = part;
  std::string low = to_lower(part);
  size_t i = 0;
  while (i < low.size() && is_digit(low[i])) ++i;
  if (i > 0 && i <= 3) {
    size_t j = i;
    while (j < low.size() && low[j] == ' ') ++j;
    bool times = j < low.size() && (low[j] == 'x' || low[j] == '*');
    bool times_utf8 = low.compare(j, 2, "\xc3\x97") == 0;  // U+00D7 multiplication sign
    size_t k = j + (times ? 1 : times_utf8 ? 2 : 0);
    while (k < low.size() && low[k] == ' ') ++k;
    int n = std::atoi(low.substr(0, i).c_str());
    bool word_next = k < low.size() && is_alpha(low[k]);
    if ((times || times_utf8) && word_next && n >= 1 && n <= 256) {
      c.count = n;
      c.said = trim(part.substr(0, k));
      c.rest = part.substr(k);
      return c;
    }
    // "8 H100": a small number, a space, then a card name (not "16 GB").
    if (!times && !times_utf8 && j > i && word_next && n >= 1 && n <= 64) {
      auto toks = gpu_tokens(low.substr(k));
      if (!toks.empty() && toks[0] != "gb" && toks[0] != "gib" && toks[0] != "g") {
        c.count = n;
        c.said = trim(part.substr(0, k));
        c.rest = part.substr(k);
        return c;
      }
    }
  }
  // Trailing " x2", " x 8", " *4".
  size_t e = low.size();
  while (e > 0 && low[e - 1] == ' ') --e;
  size_t d = e;
  while (d > 0 && is_digit(low[d - 1])) --d;
  if (d < e && e - d <= 3) {
    size_t x = d;
    while (x > 0 && low[x - 1] == ' ') --x;
    if (x > 0 && (low[x - 1] == 'x' || low[x - 1] == '*') && x >= 2 && low[x - 2] == ' ') {
      int n = std::atoi(low.substr(d, e - d).c_str());
      if (n >= 1 && n <= 256) {
        c.count = n;
        c.said = trim(part.substr(x - 1));
        c.rest = part.substr(0, x - 1);
        return c;
      }
    }
  }
  auto toks = gpu_tokens(low);
  for (size_t t = 0; t < toks.size(); ++t) {
    if ((toks[t] == "dual" || toks[t] == "quad") && t + 1 < toks.size()) {
      c.count = toks[t] == "dual" ? 2 : 4;
      c.said = toks[t];
      return c;
    }
    if (all_digits(toks[t]) && t + 1 < toks.size() &&
        (toks[t + 1] == "gpus" || toks[t + 1] == "gpu" || toks[t + 1] == "cards")) {
      int n = std::atoi(toks[t].c_str());
      if (n >= 1 && n <= 256 && toks[t].find('.') == std::string::npos) {
        c.count = n;
        c.said = toks[t] + " " + toks[t + 1];
        return c;
      }
    }
  }
  return c;
}

const GpuSpec* catalog_card(const std::vector<GpuSpec>& catalog, const std::string& model, double gb) {
  std::vector<std::string> queries = {normalize_gpu_name(fmt::format("{} {}GB", model, num(gb))),
                                      normalize_gpu_name(model)};
  for (const auto& q : queries) {
    if (q.empty()) continue;
    for (const auto& spec : catalog) {
      bool hit = normalize_gpu_name(spec.name) == q;
      for (const auto& a : spec.aliases) hit = hit || normalize_gpu_name(a) == q;
      if (hit && std::fabs(spec.memory_gb_marketing - gb) < 0.01 && spec.memory_gib > 0) return &spec;
    }
  }
  return nullptr;
}

GpuNameGuess guess_one_gpu(const std::string& part, const std::vector<GpuNameRow>& table,
                           const std::vector<GpuSpec>& catalog) {
  GpuNameGuess g;
  g.as_given = trim(part);
  CardCount cc = read_count(g.as_given);
  g.count = cc.count;
  if (!cc.said.empty()) g.matched.push_back(fmt::format("{} cards from '{}'", g.count, cc.said));
  std::vector<bool> word_start;
  auto toks = gpu_tokens(cc.rest, &word_start);

  // Memory the name states: "80GB", "24 GB", "16G", "79.19 GiB"; MIG "3g.40gb" gives 40. The
  // number must begin a word: the "10G" of "A10G" is a model name.
  std::optional<double> stated;
  bool stated_gib = false;
  std::string stated_text;
  for (int pass = 0; pass < 2 && !stated; ++pass) {
    for (size_t i = 0; i + 1 < toks.size(); ++i) {
      const std::string& u = toks[i + 1];
      bool unit = pass == 0 ? (u == "gb" || u == "gib") : (u == "g");
      if (!all_digits(toks[i]) || !unit || !word_start[i]) continue;
      auto v = parse_number(toks[i]);
      if (!v || *v < 1 || *v > 4096) continue;
      stated = *v;
      stated_gib = u == "gib";
      stated_text = toks[i] + (u == "gib" ? " GiB" : u == "g" ? "G" : "GB");
      break;
    }
  }

  // The card table: the row whose pattern covers the most words.
  const GpuNameRow* row = nullptr;
  size_t best_words = 0, best_chars = 0;
  for (const auto& r : table) {
    auto pat = gpu_tokens(r.pattern);
    if (!contains_run(toks, pat)) continue;
    if (pat.size() > best_words || (pat.size() == best_words && r.pattern.size() > best_chars)) {
      row = &r;
      best_words = pat.size();
      best_chars = r.pattern.size();
    }
  }
  if (row) {
    g.vendor = row->vendor;
    g.model = row->model;
    g.arch = row->arch;
    g.compute_capability = row->compute_capability;
    g.matched.push_back(fmt::format("{} {} from the card table (pattern '{}')", g.vendor, g.model, row->pattern));
    if (row->compute_capability)
      g.matched.push_back(fmt::format("compute capability {:.1f} (NVIDIA CUDA GPUs page)", *row->compute_capability));
  } else {
    // Series rules for GeForce cards missing from the table (CUDA GPUs page: GTX 10xx 6.1,
    // GTX 16xx and RTX 20xx 7.5, RTX 30xx 8.6, RTX 40xx 8.9, RTX 50xx 12.0).
    for (size_t i = 0; i + 1 < toks.size() && g.model.empty(); ++i) {
      const std::string& n = toks[i + 1];
      if ((toks[i] != "rtx" && toks[i] != "gtx") || n.size() != 4 || !all_digits(n) ||
          n.find('.') != std::string::npos)
        continue;
      std::string series = n.substr(0, 2);
      std::optional<double> c;
      if (toks[i] == "gtx" && series == "10") c = 6.1;
      if (toks[i] == "gtx" && series == "16") c = 7.5;
      if (toks[i] == "rtx" && series == "20") c = 7.5;
      if (toks[i] == "rtx" && series == "30") c = 8.6;
      if (toks[i] == "rtx" && series == "40") c = 8.9;
      if (toks[i] == "rtx" && series == "50") c = 12.0;
      g.vendor = "NVIDIA";
      g.model = fmt::format("{} {}", toks[i] == "rtx" ? "RTX" : "GTX", n);
      if (c) {
        g.compute_capability = c;
        g.matched.push_back(fmt::format("{} not in the card table: compute capability {:.1f} from its series ({}{}xx)",
                                        g.model, *c, toks[i] == "rtx" ? "RTX " : "GTX ", series));
      } else {
        g.matched.push_back(fmt::format("{} not in the card table", g.model));
      }
    }
    // AMD LLVM targets: "gfx1201".
    for (size_t i = 0; i + 1 < toks.size() && g.model.empty(); ++i) {
      if (toks[i] != "gfx" || !is_digit(toks[i + 1][0])) continue;
      g.vendor = "AMD";
      g.arch = "gfx" + toks[i + 1];
      if (i + 2 < toks.size() && toks[i + 2].size() == 1) g.arch += toks[i + 2];  // gfx90a
      g.model = g.arch;
      g.matched.push_back(fmt::format("AMD target {} from the name (not in the card table)", g.arch));
    }
  }
  if (g.vendor.empty()) {
    static const char* const kNvidia[] = {"nvidia", "geforce", "tesla", "quadro", "rtx", "gtx", "titan", "dgx", "cuda", "jetson"};
    static const char* const kAmd[] = {"amd", "radeon", "instinct", "rocm", "gfx"};
    static const char* const kApple[] = {"apple", "mps", "macbook", "mac"};
    static const char* const kIntel[] = {"intel", "arc", "xpu", "gaudi"};
    auto any = [&](const auto& words) {
      for (const char* w : words)
        if (std::find(toks.begin(), toks.end(), w) != toks.end()) return std::string(w);
      return std::string();
    };
    std::string w;
    if (!(w = any(kNvidia)).empty()) g.vendor = "NVIDIA";
    else if (!(w = any(kAmd)).empty()) g.vendor = "AMD";
    else if (!(w = any(kApple)).empty()) g.vendor = "Apple";
    else if (!(w = any(kIntel)).empty()) g.vendor = "Intel";
    if (!g.vendor.empty()) g.matched.push_back(fmt::format("vendor {} from '{}'", g.vendor, w));
  }

  // Memory: what the name states wins over the table; the GPU catalog refines the GiB figure.
  std::optional<double> gb;
  if (stated && stated_gib) {
    g.memory_gib = *stated;
    g.matched.push_back(fmt::format("memory {} GiB from the name (GiB as stated)", num(*stated)));
  } else if (stated) {
    gb = *stated;
    if (row && row->memory_gb_marketing && std::fabs(*row->memory_gb_marketing - *stated) > 0.01)
      g.matched.push_back(fmt::format("memory {} from the name (the table says {} GB for {}; the name wins)",
                                      stated_text, num(*row->memory_gb_marketing), g.model));
    else
      g.matched.push_back(fmt::format("memory {} from the name", stated_text));
  } else if (row && row->memory_gb_marketing) {
    gb = *row->memory_gb_marketing;
    g.matched.push_back(fmt::format("memory {} GB from the card table", num(*gb)));
  } else if (!g.model.empty() && g.vendor != "Apple") {
    g.matched.push_back(fmt::format("memory unknown: the name states none and the card table has no single size "
                                    "for {}; add it to the name (e.g. '{} 24GB')",
                                    g.model, g.model));
  } else if (g.vendor == "Apple") {
    g.matched.push_back("memory not known: Apple silicon memory is configured per machine; state it (e.g. 'M3 Max 64GB')");
  }
  if (gb) {
    g.memory_gb_marketing = gb;
    const GpuSpec* spec = g.model.empty() ? nullptr : catalog_card(catalog, g.model, *gb);
    if (spec) {
      g.memory_gib = spec->memory_gib;
      g.matched.push_back(fmt::format("torch-visible {} GiB for {} from data/gpus/gpus.jsonl ({})", num(spec->memory_gib),
                                      spec->name, spec->memory_measured ? "measured" : "estimated"));
    } else {
      g.memory_gib = kTorchVisibleRatio * *gb;
      g.matched.push_back(fmt::format("torch-visible ~{} GiB = 0.985 x {} GB read as GiB (estimate, not measured)",
                                      num(*g.memory_gib), num(*gb)));
    }
  }

  // Capabilities.
  if (g.compute_capability && *g.compute_capability >= 8.0) {
    g.bf16_supported = true;
  } else if (g.vendor == "AMD" && !g.arch.empty()) {
    std::string fam = bf16_arch_family(g.arch);
    g.bf16_supported = !fam.empty();
    g.matched.push_back(fam.empty() ? fmt::format("{}: no bf16 matrix support", g.arch)
                                    : fmt::format("{} ({}): bf16 supported", g.arch, fam));
  } else if (g.model == "MIG") {
    g.bf16_supported = true;
    g.matched.push_back("MIG exists only on A100/A30 (CC 8.0) and later (H100, H200, B200): bf16 supported, "
                        "compute capability depends on the parent GPU");
  }
  if (g.compute_capability && *g.compute_capability < 8.0)
    g.matched.push_back(fmt::format("compute capability {:.1f} < 8.0: no bf16 (use fp16)", *g.compute_capability));
  if (g.vendor == "Apple" || g.model == "GB10" || g.model == "MI300A") {
    g.unified_memory = true;
    g.matched.push_back("unified memory shared with the CPU: the OS and other processes take part of it");
  }
  if (g.model == "MI250" || g.model == "MI250X")
    g.matched.push_back("each MI250/MI250X is two GCDs: torch sees two 64 GB devices per card");
  if (!g.recognized()) g.matched.push_back(fmt::format("'{}': no GPU recognized", g.as_given));
  return g;
}

std::vector<std::string> split_cards(const std::string& s) {
  std::vector<std::string> parts;
  std::string cur;
  std::string low = to_lower(s);
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool sep = c == '+' || c == ',' || c == ';' || c == '&' || c == '|';
    size_t skip = 1;
    if (!sep && low.compare(i, 5, " and ") == 0) {
      sep = true;
      skip = 5;
    }
    if (sep) {
      if (!trim(cur).empty()) parts.push_back(trim(cur));
      cur.clear();
      i += skip - 1;
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) parts.push_back(trim(cur));
  return parts;
}

GpuNameGuess guess_gpu(const std::string& name, const std::vector<GpuNameRow>& table,
                       const std::vector<GpuSpec>& catalog) {
  GpuNameGuess g;
  g.as_given = name;
  std::string s = trim(name);
  if (s.empty()) {
    g.matched.push_back("empty name: nothing to read");
    return g;
  }
  if (s.size() > kMaxName) {
    s = s.substr(0, kMaxName);
    g.matched.push_back(fmt::format("name cut to its first {} characters", kMaxName));
  }
  auto pieces = split_cards(s);
  if (pieces.empty()) {
    g.matched.push_back(fmt::format("'{}': no GPU recognized", s));
    return g;
  }
  if (pieces.size() > 16) pieces.resize(16);
  std::vector<GpuNameGuess> parts;
  for (const auto& p : pieces) parts.push_back(guess_one_gpu(p, table, catalog));
  if (parts.size() == 1) {
    GpuNameGuess one = std::move(parts.front());
    one.as_given = name;
    one.matched.insert(one.matched.begin(), g.matched.begin(), g.matched.end());
    return one;
  }

  // Several cards: the same card twice is a count, different cards a mixed box.
  const GpuNameGuess& first = parts.front();
  bool same = std::all_of(parts.begin(), parts.end(), [&](const GpuNameGuess& p) {
    return !p.model.empty() && p.model == first.model && p.memory_gib == first.memory_gib;
  });
  if (same) {
    GpuNameGuess one = first;
    one.as_given = name;
    one.count = 0;
    for (const auto& p : parts) one.count += p.count;
    one.matched.push_back(fmt::format("{} x the same card", one.count));
    return one;
  }
  g.mixed = true;
  g.count = 0;
  g.bf16_supported = true;
  g.unified_memory = true;
  std::string models;
  for (const auto& p : parts) {
    g.count += p.count;
    std::string label = p.model.empty() ? p.as_given : p.model;
    models += (models.empty() ? "" : " + ") + label;
    if (g.vendor.empty()) g.vendor = p.vendor;
    else if (!p.vendor.empty() && p.vendor != g.vendor && g.vendor.find(p.vendor) == std::string::npos)
      g.vendor += " + " + p.vendor;
    if (p.memory_gib && (!g.memory_gib || *p.memory_gib < *g.memory_gib)) {
      g.memory_gib = p.memory_gib;
      g.memory_gb_marketing = p.memory_gb_marketing;
    }
    if (p.compute_capability && (!g.compute_capability || *p.compute_capability < *g.compute_capability))
      g.compute_capability = p.compute_capability;
    g.bf16_supported = g.bf16_supported && p.bf16_supported;
    g.unified_memory = g.unified_memory && p.unified_memory;
    for (const auto& m : p.matched) g.matched.push_back(fmt::format("[{}] {}", label, m));
  }
  g.model = models;
  g.matched.push_back(fmt::format("{} different cards in one box: memory is the smallest card's, compute "
                                  "capability the lowest, bf16 only if every card has it",
                                  parts.size()));
  g.parts = std::move(parts);
  return g;
}

struct TableCache {
  std::vector<GpuNameRow> rows;
  std::string problem;  // why the table is empty
};

const TableCache& table_cache() {
  static std::once_flag once;
  static TableCache cache;
  std::call_once(once, [] {
    try {
      std::string path = core::data_dir() + "/gpus/gpu_names.tsv";
      auto t = load_gpu_name_table(path);
      if (t.ok()) cache.rows = std::move(*t);
      else cache.problem = t.error().message();
    } catch (...) {
      cache.problem = "the card table could not be read";
    }
  });
  return cache;
}

const std::vector<GpuSpec>& cached_catalog() {
  static std::once_flag once;
  static std::vector<GpuSpec> cat;
  std::call_once(once, [] {
    try {
      auto c = gpu_catalog();
      if (c.ok()) cat = *c;
    } catch (...) {
    }
  });
  return cat;
}

}  // namespace
}  // namespace name_guess_detail

bool GpuNameGuess::recognized() const { return !vendor.empty() || !model.empty() || memory_gib.has_value(); }

ModelNameGuess guess_model_from_name(const std::string& name) {
  ModelNameGuess g;
  try {
    g.as_given = name;
    name_guess_detail::guess_model(name, g);
  } catch (...) {
    g.matched.push_back("stopped reading the name after an internal error; the guess is partial");
  }
  return g;
}

core::Result<std::vector<GpuNameRow>> load_gpu_name_table(const std::string& path) {
  using namespace name_guess_detail;
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  std::vector<GpuNameRow> rows;
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::vector<std::string> f;
    std::string cur;
    for (char c : line) {
      if (c == '\t') {
        f.push_back(trim(cur));
        cur.clear();
      } else {
        cur += c;
      }
    }
    f.push_back(trim(cur));
    std::string where = fmt::format("{}:{}", path, n);
    if (f.size() != 6)
      return core::make_error(core::ErrorKind::input, where,
                              "6 tab-separated columns (pattern, vendor, model, memory_gb_marketing, "
                              "compute_capability, source)",
                              fmt::format("{} columns", f.size()));
    GpuNameRow r;
    r.pattern = to_lower(f[0]);
    r.vendor = f[1];
    r.model = f[2];
    r.source = f[5];
    if (r.pattern.empty() || r.model.empty() || r.vendor.empty())
      return core::make_error(core::ErrorKind::input, where, "a pattern, a vendor and a model", line.substr(0, 60));
    if (!f[3].empty() && f[3] != "-") {
      auto v = parse_number(f[3]);
      if (!v || *v <= 0) return core::make_error(core::ErrorKind::input, where, "memory_gb_marketing > 0 or empty", f[3]);
      r.memory_gb_marketing = v;
    }
    if (to_lower(f[4]).rfind("gfx", 0) == 0) {
      r.arch = to_lower(f[4]);
    } else if (!f[4].empty() && f[4] != "-") {
      auto v = parse_number(f[4]);
      if (!v || *v < 1 || *v > 20)
        return core::make_error(core::ErrorKind::input, where, "a compute capability (e.g. 8.6), a gfx target or empty", f[4]);
      r.compute_capability = v;
    }
    if (r.source.rfind("https://", 0) != 0)
      return core::make_error(core::ErrorKind::input, where, "a source URL (https://...)", r.source.substr(0, 60));
    rows.push_back(std::move(r));
  }
  if (rows.empty()) return core::make_error(core::ErrorKind::input, path, "at least one card row", "none");
  return rows;
}

const std::vector<GpuNameRow>& gpu_name_table() { return name_guess_detail::table_cache().rows; }

GpuNameGuess guess_gpu_from_name(const std::string& name, const std::vector<GpuNameRow>& table,
                                 const std::vector<GpuSpec>& catalog) {
  try {
    return name_guess_detail::guess_gpu(name, table, catalog);
  } catch (...) {
    GpuNameGuess g;
    g.as_given = name;
    g.matched.push_back("stopped reading the name after an internal error; nothing guessed");
    return g;
  }
}

GpuNameGuess guess_gpu_from_name(const std::string& name) {
  const auto& cache = name_guess_detail::table_cache();
  GpuNameGuess g = guess_gpu_from_name(name, cache.rows, name_guess_detail::cached_catalog());
  if (cache.rows.empty())
    g.matched.push_back("card table not loaded (" + cache.problem + "): only what the name states was read");
  return g;
}

}  // namespace llmtriage::catalog
