#pragma once
// Tolerant guesses from the names people type for models and GPUs that are not in the catalog:
// "llama3:70b-instruct-q2_K", "dolphin-2.2-mistral-7b.Q8_0.gguf", "Tesla V100-SXM2-32GB",
// "GTX 1080 8GB + Tesla P100 16GB". Only what the name states (and, for GPUs, the card table
// data/gpus/gpu_names.tsv) is used; every guess says in `matched` where each value came from.
// Neither guesser throws, whatever the input.
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "core/result.h"

namespace llmtriage::catalog {

struct ModelNameGuess {
  std::string as_given;
  std::string family;                    // "llama", "qwen", "mistral", "mixtral", "gemma", "deepseek", "phi", "gpt-oss", ... ("" unknown)
  std::string family_version;            // "3.2" from "llama3.2", "1.5" from "qwen1_5", "R1" from "DeepSeek-R1" ("" none)
  std::string org;                       // "Qwen" from "Qwen/Qwen3-4B-GGUF"; the parent folder of a path ("" none)
  std::optional<double> params_b;        // total parameters, billions ("70b" -> 70; "8x7b" -> 46.7 total; A3B MoE: total from the name)
  std::optional<double> active_params_b; // MoE active params when the name says ("A3B" -> 3)
  std::string quant;                     // as written in the name: "Q4_K_M", "Q8_0", "q2_K", "AWQ-INT4", "GPTQ-Int4", "FP8", "fp16"; "" when none stated
  std::string quant_canonical;           // the same, normalized: "Q4_K_M", "Q2_K", "AWQ-INT4", "GPTQ", "FP8", "F16"; or the assumed default ("MXFP4", "FP8")
  std::optional<double> bits_per_weight; // effective bits incl. scales (table and sources in name_guess.cpp)
  bool gguf = false;                     // a GGUF/GGML file or repo (".gguf", "-GGUF", "ggml", a llama.cpp quant name, an Ollama tag)
  bool ollama_tag = false;               // "name:tag" form without a slash before the colon
  // The name states no quant and a default was assumed: an Ollama library tag (4-bit, ~4.5 bits),
  // gpt-oss (published in MXFP4), DeepSeek-V3/R1 (published in FP8).
  bool default_quant_assumed = false;
  std::optional<double> weights_gib;     // params_b * bits / 8 when both known (GiB = 2^30 bytes)
  std::vector<std::string> matched;      // human-readable notes: "size 70B from '70b'", "quant Q4_K_M from the name", ...
};
ModelNameGuess guess_model_from_name(const std::string& name);

struct GpuNameGuess {
  std::string as_given;
  std::string vendor;                    // "NVIDIA", "AMD", "Apple", "Intel", "" unknown
  std::string model;                     // normalized model, e.g. "RTX 3090", "V100", "A6000"; "GTX 1080 + P100" when mixed
  std::string arch;                      // AMD LLVM target ("gfx942") when known
  std::optional<double> memory_gib;      // per GPU as torch would report (the smallest card when mixed)
  std::optional<double> memory_gb_marketing;  // the GB figure it was derived from (name or table)
  std::optional<double> compute_capability;   // NVIDIA CUDA compute capability (the lowest card when mixed)
  bool bf16_supported = false;           // CC >= 8.0, or AMD CDNA/RDNA3+ (every card when mixed)
  bool unified_memory = false;           // Apple silicon, DGX Spark GB10
  int count = 1;                         // "2x A100", "GTX 1080 8GB + Tesla P100 16GB" -> 2
  bool mixed = false;                    // different cards in one box
  std::vector<GpuNameGuess> parts;       // one guess per card kind when the name lists several ("+", ",", "&", " and ")
  std::vector<std::string> matched;      // notes of what was read from the name
  bool recognized() const;               // vendor or model or memory found
};
GpuNameGuess guess_gpu_from_name(const std::string& name);

// One row of data/gpus/gpu_names.tsv.
struct GpuNameRow {
  std::string pattern;                   // words as typed ("rtx 3090", "v100", "rtx pro 6000 blackwell")
  std::string vendor;
  std::string model;
  std::optional<double> memory_gb_marketing;  // absent when the card ships in several sizes (A100, V100)
  std::optional<double> compute_capability;   // NVIDIA rows
  std::string arch;                      // AMD rows: the LLVM gfx target, from the compute_capability column
  std::string source;
};

// Reads a card table (tab-separated: pattern, vendor, model, memory_gb_marketing,
// compute_capability, source URL; '#' lines are comments). Errors name the file and line.
core::Result<std::vector<GpuNameRow>> load_gpu_name_table(const std::string& path);

// <data_dir>/gpus/gpu_names.tsv, loaded once (thread-safe); empty when missing or unreadable.
const std::vector<GpuNameRow>& gpu_name_table();

// The guesser with an explicit card table and GPU catalog (the catalog refines torch-visible
// memory where data/gpus/gpus.jsonl has it); either may be empty.
GpuNameGuess guess_gpu_from_name(const std::string& name, const std::vector<GpuNameRow>& table,
                                 const std::vector<GpuSpec>& catalog);

}  // namespace llmtriage::catalog
