#pragma once
// The GPU catalog: specifications of the accelerators llmtriage knows, read from
// data/gpus/gpus.jsonl (sources cited per GPU there). Units are in the field names.
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::catalog {

struct GpuSpec {
  std::string name;                      // catalog name: "H100-SXM"
  std::vector<std::string> aliases;      // "H100", "NVIDIA H100 80GB HBM3", ...
  std::string vendor;                    // "NVIDIA", "AMD"
  std::string arch;                      // "Hopper (GH100)"
  std::string form_factor;               // "SXM5", "PCIe dual-slot": a spelling naming another one never matches
  // Capacity as torch and the engines see it (torch.cuda.mem_get_info total), GiB. This is
  // what vLLM multiplies by gpu_memory_utilization. When no log states it, it is estimated as
  // 0.985 x marketing GB read as GiB (the ratio on H100/A100/RTX 4090) and memory_measured=false.
  double memory_gib = 0;
  bool memory_measured = false;
  std::string memory_note;               // where memory_gib comes from
  // Set by find_gpu when the name given states neither memory size nor form factor and the
  // catalog holds sibling boards of the family ("A100": the 80GB SXM is assumed, a 40GB or a PCIe
  // board is not): the sentence that says so, for the commands to show. Empty otherwise.
  std::string assumed;
  double memory_gb_marketing = 0;        // datasheet GB
  std::string memory_type;               // "HBM3"
  double hbm_bandwidth_gbps = 0;         // GB/s (GDDR parts too)
  // Dense (no sparsity) tensor peaks; absent when the part lacks the format or no source gives it.
  std::optional<double> bf16_tflops;
  std::optional<double> fp16_tflops;
  std::optional<double> fp8_tflops;
  std::optional<double> int8_tops;
  std::optional<double> fp4_tflops;
  std::optional<double> tdp_w;
  std::optional<double> max_sm_clock_mhz;
  std::optional<int> sm_count;           // SMs (NVIDIA) or CUs (AMD)
  std::string interconnect;              // "NVLink 4 (NVSwitch in HGX)", "none (PCIe only)"
  std::optional<double> interconnect_gbps;  // per GPU, GB/s; absent when PCIe only
  std::optional<int> pcie_gen;
  std::optional<double> pcie_gbps_bidir;
  std::vector<std::string> sources;      // URLs
  std::string confidence;                // "high", "medium", ...

  // Dense peak for a compute dtype ("bfloat16"/"bf16", "float16"/"fp16", "fp8", "int8", "fp4");
  // falls back bf16<->fp16 when only one is published. Absent when unknown.
  std::optional<double> dense_tflops(const std::string& dtype) const;
};

// The whole catalog (loaded once from <data_dir>/gpus/gpus.jsonl; thread-safe).
core::Result<std::vector<GpuSpec>> gpu_catalog();

// Reads a catalog file (one JSON object per line). Errors name the file and line.
core::Result<std::vector<GpuSpec>> load_gpu_catalog(const std::string& path);

// Finds a GPU by catalog name or alias, tolerant of case, spaces, dashes, a "NVIDIA"/"AMD"/
// "GeForce"/"Tesla"/"Instinct" prefix and word order: "h100", "NVIDIA H100 80GB HBM3", "H100_SXM"
// all find H100-SXM; nvidia-smi's own names ("NVIDIA A100-PCIE-40GB", "Tesla V100-SXM2-32GB")
// are aliases. Strict: a spelling that states a memory size ("40GB", "(94 GB)") or a form factor
// (PCIe, SXM, NVL) finds only a card with that size and form factor -- never a silent swap to a
// sibling with other memory or another board. The longest spelling whose words all occur in the
// name wins; two different cards tied is ambiguous (an error naming both). Unknown → not_found
// error listing the closest catalog names and the --gpu-mem-gib escape hatch.
core::Result<GpuSpec> find_gpu(const std::string& name);
core::Result<GpuSpec> find_gpu(const std::string& name, const std::vector<GpuSpec>& catalog);

// A GPU known only by its capacity (the --gpu-mem-gib escape hatch): no FLOPs, no bandwidth.
GpuSpec custom_gpu(double memory_gib, const std::string& name = "custom");

}  // namespace llmtriage::catalog
