// Clues for "the GPU's memory is full because the engine reserved it" (cause
// kv_pool_preallocated, docs/rules.md "Suspected causes"). Every serving engine takes its KV pool
// at startup from a share of the GPU's memory, not from the batch and lengths it will serve:
// vLLM gpu-memory-utilization of the total (default 0.9), SGLang mem-fraction-static, TensorRT-LLM
// free_gpu_memory_fraction of the memory free after the weights (default 0.9), TGI
// cuda-memory-fraction; llama.cpp allocates n_ctx cells for every slot. A dashboard that shows the
// GPU 90% full with nothing failing is that pool, by design. Said only when no symptom (an OOM, a
// slowdown) is reported: with one, the pool's size is judged by the other causes.
#include <fmt/format.h>

#include <algorithm>

#include "catalog/gpu.h"
#include "catalog/name_guess.h"
#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"

namespace llmtriage::diagnose {
namespace {

constexpr const char* kCause = "kv_pool_preallocated";
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The GPU's memory per card: the catalog's figure, else what the name says.
std::optional<double> gpu_memory_gib(const DiagnoseInput& in) {
  if (!in.now.deployment.gpu.empty())
    if (auto g = catalog::find_gpu(in.now.deployment.gpu)) return g->memory_gib;
  if (!in.gpu_as_given.empty()) return catalog::guess_gpu_from_name(in.gpu_as_given).memory_gib;
  return std::nullopt;
}

}  // namespace

std::vector<Clue> reservation_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms) {
  std::vector<Clue> out;
  if (!symptoms.empty()) return out;
  auto add = [&](double w, EvidenceItem e) { out.push_back({kCause, w, std::move(e), false}); };
  const std::optional<double> total = gpu_memory_gib(in);
  // The log's own statement of the pool it reserved.
  bool pool_line = false;
  for (const auto& e : in.now.events) {
    auto sig = e.labels.find("signature");
    const bool startup = e.kind == core::EventKind::startup_memory;
    if (!startup && (sig == e.labels.end() || (sig->second != "trtllm_kv_alloc" && sig->second != "trtllm_kv_tokens" &&
                                               sig->second != "vllm_gpu_blocks_line")))
      continue;
    if (pool_line) continue;
    pool_line = true;
    auto bytes = e.fields.find("kv_bytes");
    if (bytes != e.fields.end() && total && *total > 0) {
      const double share = bytes->second / kGiB / *total;
      add(share >= 0.5 ? 2.0 : 0.5,
          clue::reading("kv_pool_share_of_gpu", share, "fraction", e.source,
               fmt::format("the KV pool reserved at startup is {:.1f} GiB of the GPU's {:.1f} GiB", bytes->second / kGiB, *total), 0.5, ">="));
    } else {
      EvidenceItem line;
      line.indicator = "kv_pool_line";
      line.source = e.source;
      line.text = "the log states the KV pool reserved at startup: \"" + e.text.substr(0, 160) + "\"";
      add(1.0, std::move(line));
    }
  }
  if (const Indicator* used = ind.find("gpu_mem_used_gib"); used && total && *total > 0) {
    const double share = used->value / *total;
    if (share >= 0.8)
      add(1.5, clue::reading("gpu_mem_used_share", share, "fraction", used->source,
                    fmt::format("{:.0f} GiB of {:.0f} GiB in use", used->value, *total), 0.8, ">="));
    else if (share < 0.5)
      add(-1.5, clue::reading("gpu_mem_used_share", share, "fraction", used->source,
                     fmt::format("{:.0f} GiB of {:.0f} GiB in use: not a full GPU", used->value, *total), 0.5, "<"));
  }
  // A failure is not a reservation by design.
  for (const char* n : {"oom_events", "preemption_events", "kv_cache_full_events", "engine_dead_events"})
    if (auto v = ind.get(n); v && *v > 0) add(-3.0, clue::reading(n, *v, "events", ind.find(n)->source, "the engine failed, not only reserved"));
  // A full GPU must be shown, by the pool's own size or by a memory reading: a startup line that
  // states a pool, alone, is every healthy start.
  const bool shown_full = std::any_of(out.begin(), out.end(), [](const Clue& c) {
    return (c.item.indicator == "kv_pool_share_of_gpu" || c.item.indicator == "gpu_mem_used_share") && c.weight > 1.0;
  });
  if (!shown_full) out.clear();
  return out;
}

}  // namespace llmtriage::diagnose
