// Model names as people type them (name_guess.h): family, size, quantization, GGUF/Ollama form.
#include "catalog/name_guess.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "catalog/name_text.h"
#include "catalog/quant_names.h"

namespace llmtriage::catalog {
// The catalog module is built in unity batches: file-local names live in this namespace only.
namespace name_guess_detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Model names

struct FamilyWord {
  const char* word;
  const char* family;
  bool whole;     // the next character may not be a letter ("phi" but not "philosophy")
  bool fallback;  // a fine-tune name: used only when no base family is named
};

constexpr FamilyWord kFamilies[] = {
    {"gpt-oss", "gpt-oss", false, false}, {"gpt_oss", "gpt-oss", false, false},
    {"gptoss", "gpt-oss", false, false},  {"gpt oss", "gpt-oss", false, false},
    {"mixtral", "mixtral", false, false},
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
    // host:port or host:port/path ("my_ip:8000/v2/models/ensemble"): a tag has no slash after the
    // colon and is never only digits.
    const std::string tag = s.substr(colon + 1);
    bool host_port = tag.find('/') != std::string::npos ||
                     std::all_of(tag.begin(), tag.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
    if (!slash_before && !url && !drive && !host_port) {
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


}  // namespace
}  // namespace name_guess_detail

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

}  // namespace llmtriage::catalog
