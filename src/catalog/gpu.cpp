#include "catalog/gpu.h"

#include <fmt/format.h>

#include <algorithm>
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
  g.memory_gb_marketing = opt_num(j, "memory_gb_marketing").value_or(0);
  g.memory_type = opt_str(j, "memory_type");
  g.memory_note = opt_str(j, "memory_gib_note");
  if (auto m = opt_num(j, "memory_gib")) {
    g.memory_gib = *m;
    g.memory_measured = opt_str(j, "memory_gib_source") == "measured";
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
  std::map<std::string, const GpuSpec*> by_norm;
  for (const auto& g : catalog) {
    by_norm.emplace(normalize_gpu_name(g.name), &g);
    for (const auto& a : g.aliases) by_norm.emplace(normalize_gpu_name(a), &g);
  }
  if (auto it = by_norm.find(q); it != by_norm.end() && !q.empty()) return *it->second;
  // "h100-80gb-hbm3-sxm5" style spellings: the longest alias that is a whole-word prefix.
  const GpuSpec* best = nullptr;
  size_t best_len = 0;
  for (const auto& [norm, g] : by_norm) {
    if (norm.size() > best_len && q.size() > norm.size() && q.compare(0, norm.size(), norm) == 0 &&
        q[norm.size()] == '-') {
      best = g;
      best_len = norm.size();
    }
  }
  if (best && best_len >= 3) return *best;

  // Rank every spelling (names and aliases), then report catalog names once each.
  std::vector<std::string> names;
  std::map<std::string, std::string> display;
  for (const auto& [norm, g] : by_norm) {
    names.push_back(norm);
    display[norm] = g->name;
  }
  std::vector<std::string> shown;
  for (const auto& c : closest(q, names, names.size())) {
    if (std::find(shown.begin(), shown.end(), display[c]) == shown.end()) shown.push_back(display[c]);
    if (shown.size() == 3) break;
  }
  std::string hint;
  for (const auto& s : shown) hint += (hint.empty() ? "" : ", ") + s;
  return core::make_error(
      core::ErrorKind::not_found, "--gpu", "a GPU from the catalog (data/gpus/gpus.jsonl)", name,
      "Closest catalog names: " + hint +
          ". For a GPU not in the catalog, pass its capacity with --gpu-mem-gib GIB (as torch "
          "reports it, e.g. 79.19 for an H100 80GB).");
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
