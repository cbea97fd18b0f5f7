#include "catalog/gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog/names.h"
#include "core/files.h"

namespace llmtriage::catalog {
namespace {

using nlohmann::json;

std::optional<double> opt_num(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string opt_str(const json& j, const char* key) {
  auto it = j.find(key);
  return (it != j.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

core::Result<GpuSpec> parse_gpu(const json& j, const std::string& where) {
  GpuSpec g;
  g.name = opt_str(j, "name");
  if (g.name.empty())
    return core::make_error(core::ErrorKind::input, where, "a GPU object with a \"name\"", "none");
  if (auto it = j.find("aliases"); it != j.end() && it->is_array())
    for (const auto& a : *it)
      if (a.is_string()) g.aliases.push_back(a.get<std::string>());
  g.vendor = opt_str(j, "vendor");
  g.arch = opt_str(j, "arch");
  g.form_factor = opt_str(j, "form_factor");
  g.memory_gb_marketing = opt_num(j, "memory_gb_marketing").value_or(0);
  g.memory_type = opt_str(j, "memory_type");
  g.memory_note = opt_str(j, "memory_gib_note");
  if (auto m = opt_num(j, "memory_gib")) {
    g.memory_gib = *m;
    g.memory_measured = opt_str(j, "memory_gib_source") == "measured";
  } else if (j.value("memory_ecc_inline", false)) {
    // NOTE: estimate. Data-center GDDR6 with ECC on by default keeps 1/16 for the check bits:
    // nvidia-smi shows 15/16 of the GB read as GiB (L40S 46068 MiB) and torch about 0.5 GiB less
    // (L4 22.03, A10 21.99, L40 44.40, L40S 44.42 GiB): 0.92 x GB (sources in gpus.jsonl).
    g.memory_gib = 0.92 * g.memory_gb_marketing;
    g.memory_measured = false;
  } else {
    // NOTE: estimate. Torch-visible/marketing ratio is 0.980-0.990 on H100, A100, RTX 4090/5090.
    g.memory_gib = 0.985 * g.memory_gb_marketing;
    g.memory_measured = false;
  }
  if (g.memory_gib <= 0)
    return core::make_error(core::ErrorKind::input, where, "memory_gib or memory_gb_marketing > 0",
                            "neither", "GPU " + g.name);
  g.hbm_bandwidth_gbps = opt_num(j, "hbm_bandwidth_gbps").value_or(0);
  g.bf16_tflops = opt_num(j, "bf16_dense_tflops");
  g.fp16_tflops = opt_num(j, "fp16_dense_tflops");
  g.fp8_tflops = opt_num(j, "fp8_dense_tflops");
  g.int8_tops = opt_num(j, "int8_dense_tops");
  g.fp4_tflops = opt_num(j, "fp4_dense_tflops");
  g.tdp_w = opt_num(j, "tdp_watts");
  g.max_sm_clock_mhz = opt_num(j, "max_sm_clock_mhz");
  if (auto s = opt_num(j, "sm_count")) g.sm_count = static_cast<int>(*s);
  g.interconnect = opt_str(j, "interconnect");
  g.interconnect_gbps = opt_num(j, "interconnect_gbps");
  if (auto p = opt_num(j, "pcie_gen")) g.pcie_gen = static_cast<int>(*p);
  g.pcie_gbps_bidir = opt_num(j, "pcie_bandwidth_gbps_bidir");
  if (auto it = j.find("sources"); it != j.end() && it->is_array())
    for (const auto& s : *it)
      if (s.is_string()) g.sources.push_back(s.get<std::string>());
  g.confidence = opt_str(j, "confidence");
  return g;
}

// The words of a normalized spelling ("a100-pcie-40gb" -> a100, pcie, 40gb).
std::vector<std::string> gpu_words(const std::string& norm) {
  std::vector<std::string> out;
  std::string w;
  for (char c : norm + "-") {
    if (c == '-') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  return out;
}

// What a spelling states about the board beyond the chip: its memory (GB) and form factor.
struct Stated {
  std::optional<double> gb;
  std::string form;  // "pcie", "sxm", "nvl" or ""
};

Stated stated_facts(const std::string& raw) {
  Stated s;
  std::string low;
  for (char c : raw) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    low += std::isalnum(static_cast<unsigned char>(l)) || l == '.' ? l : ' ';
  }
  std::istringstream in(low);
  std::vector<std::string> w;
  for (std::string t; in >> t;) w.push_back(t);
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string& t = w[i];
    size_t d = 0;
    while (d < t.size() && std::isdigit(static_cast<unsigned char>(t[d]))) ++d;
    std::string unit = t.substr(d);
    if (d > 0 && unit.empty() && i + 1 < w.size() && (w[i + 1] == "gb" || w[i + 1] == "g")) unit = w[i + 1];
    // "40gb", "80 GB", "144G"; not the "10g" inside "a10g" (the number must begin the word).
    if (d > 0 && (unit == "gb" || unit == "g") && !s.gb) s.gb = std::stod(t.substr(0, d));
    if (t.rfind("pcie", 0) == 0) s.form = "pcie";
    else if (t.rfind("sxm", 0) == 0) s.form = "sxm";
    else if (t.rfind("nvl", 0) == 0) s.form = "nvl";
  }
  return s;
}

bool has_ci(const std::string& hay, const char* needle) {
  std::string h;
  for (char c : hay) h += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return h.find(needle) != std::string::npos;
}

// Why `g` is not the card the spelling names ("" when it may be): another memory size or board.
std::string disagreement(const Stated& s, const GpuSpec& g) {
  if (s.gb && g.memory_gb_marketing > 0 && std::fabs(*s.gb - g.memory_gb_marketing) > 0.5)
    return fmt::format("{:g} GB, not {:g} GB", g.memory_gb_marketing, *s.gb);
  const std::string board = g.name + " " + g.form_factor;
  if (s.form == "pcie" && !has_ci(board, "pcie")) return g.form_factor.empty() ? "not PCIe" : g.form_factor + ", not PCIe";
  if (s.form == "sxm" && !has_ci(board, "sxm")) return g.form_factor.empty() ? "not SXM" : g.form_factor + ", not SXM";
  if (s.form == "nvl" && !has_ci(board, "nvl")) return g.form_factor.empty() ? "not NVL" : g.form_factor + ", not NVL";
  return "";
}

}  // namespace

std::optional<double> GpuSpec::dense_tflops(const std::string& dtype) const {
  std::string d = dtype;
  for (auto& c : d) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (d == "bfloat16" || d == "bf16") return bf16_tflops ? bf16_tflops : fp16_tflops;
  if (d == "float16" || d == "fp16" || d == "half") return fp16_tflops ? fp16_tflops : bf16_tflops;
  if (d.rfind("fp8", 0) == 0 || d == "float8") return fp8_tflops;
  if (d == "int8") return int8_tops;
  if (d == "fp4" || d == "nvfp4" || d == "mxfp4") return fp4_tflops;
  return std::nullopt;
}

core::Result<std::vector<GpuSpec>> load_gpu_catalog(const std::string& path) {
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  std::vector<GpuSpec> out;
  std::istringstream in(*text);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = fmt::format("{}:{}", path, n);
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return core::make_error(core::ErrorKind::input, where, "one JSON object per line",
                              line.substr(0, 60));
    auto g = parse_gpu(j, where);
    if (!g.ok()) return g.error();
    out.push_back(std::move(*g));
  }
  if (out.empty())
    return core::make_error(core::ErrorKind::input, path, "at least one GPU", "an empty catalog");
  return out;
}

core::Result<std::vector<GpuSpec>> gpu_catalog() {
  static std::once_flag once;
  static std::optional<core::Result<std::vector<GpuSpec>>> cached;
  std::call_once(once, [] { cached.emplace(load_gpu_catalog(core::data_dir() + "/gpus/gpus.jsonl")); });
  return *cached;
}

core::Result<GpuSpec> find_gpu(const std::string& name, const std::vector<GpuSpec>& catalog) {
  const std::string q = normalize_gpu_name(name);
  const std::vector<std::string> qwords = gpu_words(q);
  const Stated said = stated_facts(name);
  // An exact spelling is the catalog's own (nvidia-smi's "NVIDIA GH200 480GB" counts the CPU's
  // memory): only a note the normalization dropped, "(94 GB)", can contradict it.
  const auto paren = name.find('(');
  const Stated note = paren == std::string::npos ? Stated{} : stated_facts(name.substr(paren));
  struct Spelling {
    std::string norm;
    const GpuSpec* g;
  };
  std::vector<Spelling> spellings;
  for (const auto& g : catalog) {
    spellings.push_back({normalize_gpu_name(g.name), &g});
    for (const auto& a : g.aliases) spellings.push_back({normalize_gpu_name(a), &g});
  }
  // Exact spelling first, then the longest spelling whose words all occur in the name; either
  // way only a card that agrees with the memory size and form factor the name states.
  const GpuSpec* best = nullptr;
  size_t best_words = 0;
  std::string tie;
  std::vector<std::string> refused;
  for (const auto& sp : spellings) {
    if (sp.norm.empty() || q.empty()) continue;
    const auto words = gpu_words(sp.norm);
    const bool exact = sp.norm == q;
    bool all = !words.empty();
    for (const auto& w : words) all = all && std::find(qwords.begin(), qwords.end(), w) != qwords.end();
    if (!exact && !all) continue;
    if (const std::string why = disagreement(exact ? note : said, *sp.g); !why.empty()) {
      const std::string r = sp.g->name + " (" + why + ")";
      if (std::find(refused.begin(), refused.end(), r) == refused.end()) refused.push_back(r);
      continue;
    }
    const size_t score = exact ? 1000 : words.size();
    if (score > best_words) {
      best = sp.g;
      best_words = score;
      tie.clear();
    } else if (score == best_words && best && sp.g != best) {
      tie = sp.g->name;
    }
  }
  if (best && tie.empty()) {
    GpuSpec g = *best;
    // A family name alone ("A100", "H100", "NVIDIA H200") resolves to the board the catalog lists
    // first for it, never silently: the sibling boards that the name would also fit are named.
    if (!said.gb && said.form.empty()) {
      const std::string family = normalize_gpu_name(g.name.substr(0, g.name.find('-')));
      std::string siblings;
      for (const auto& other : catalog)
        if (&other != best && normalize_gpu_name(other.name.substr(0, other.name.find('-'))) == family)
          siblings += (siblings.empty() ? "" : ", ") + other.name;
      if (!siblings.empty() && normalize_gpu_name(g.name) != q)
        g.assumed = fmt::format("'{}' names no board: {} ({:.2f} GiB) is assumed; name the board if it is another ({})",
                                name, g.name, g.memory_gib, siblings);
    }
    return g;
  }
  if (best)
    return core::make_error(core::ErrorKind::not_found, "--gpu", "one GPU from the catalog", name,
                            fmt::format("The name fits both {} and {}: add the memory size or form factor (e.g. "
                                        "'{} 80GB PCIe'), or use a catalog name.",
                                        best->name, tie, best->name));

  // Rank every spelling (names and aliases), then report catalog names once each.
  std::vector<std::string> names;
  std::map<std::string, std::string> display;
  for (const auto& sp : spellings) {
    names.push_back(sp.norm);
    display.emplace(sp.norm, sp.g->name);
  }
  std::vector<std::string> shown;
  for (const auto& c : closest(q, names, names.size())) {
    if (std::find(shown.begin(), shown.end(), display[c]) == shown.end()) shown.push_back(display[c]);
    if (shown.size() == 3) break;
  }
  std::string hint;
  for (const auto& s : shown) hint += (hint.empty() ? "" : ", ") + s;
  std::string not_swapped;
  for (const auto& r : refused) not_swapped += (not_swapped.empty() ? "" : ", ") + r;
  return core::make_error(
      core::ErrorKind::not_found, "--gpu", "a GPU from the catalog (data/gpus/gpus.jsonl)", name,
      (not_swapped.empty() ? std::string() : "Not taken, the name says otherwise: " + not_swapped + ". ") +
          "Closest catalog names: " + hint +
          ". For a GPU not in the catalog, `llmtriage ledger` takes its capacity with --gpu-mem-gib GIB (as "
          "torch reports it, e.g. 79.19 for an H100 80GB).");
}

core::Result<GpuSpec> find_gpu(const std::string& name) {
  auto cat = gpu_catalog();
  if (!cat.ok()) return cat.error();
  return find_gpu(name, *cat);
}

GpuSpec custom_gpu(double memory_gib, const std::string& name) {
  GpuSpec g;
  g.name = name;
  g.memory_gib = memory_gib;
  g.memory_measured = true;
  g.memory_note = "given with --gpu-mem-gib";
  g.confidence = "user";
  return g;
}

}  // namespace llmtriage::catalog
