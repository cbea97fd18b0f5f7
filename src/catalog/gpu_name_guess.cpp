// GPU names as people type them (name_guess.h): vendor, card, memory, compute capability, counts;
// the card table data/gpus/gpu_names.tsv.
#include "catalog/name_guess.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "catalog/name_text.h"
#include "catalog/names.h"
#include "core/files.h"

namespace llmtriage::catalog {
namespace name_guess_detail {
namespace {

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
