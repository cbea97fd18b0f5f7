// Clues from the numbers and text the log signatures captured (suspects.h; rationale in
// docs/rules.md, "Suspected causes"): offload placement and the compute graph against the GPU,
// free memory after the weights, prompt timing, vLLM's max concurrency, Ollama's loaded backends,
// a refused prompt against the configured context, a slow tokenizer, truncation that fits.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include "catalog/name_guess.h"
#include "diagnose/rule_util.h"
#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"
#include "ingest/launch_text.h"

namespace llmtriage::diagnose {

// Numbers the signatures captured (offload placement, slot contexts, prompt timing, free memory).
std::vector<Clue> signature_field_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& sym,
                                       const ingest::LaunchSettings& ls) {
  using clue::has_sym;
  using clue::quote;
  using clue::reading;
  clue::Clues c;
  // Ollama's offload line states the memory it could use and the compute graph its context needs
  // (a wrapped line may put them on lines of their own): a graph as large as the memory leaves no
  // room for any layer, so "0 layers offloaded" is then a fit failure, not a missing GPU.
  std::optional<double> avail_gib, graph_gib;
  for (const auto& e : in.now.events) {
    auto it = e.labels.find("signature");
    if (it == e.labels.end()) continue;
    if (auto j = e.fields.find("avail_gib"); it->second == "ollama_memory_available" && j != e.fields.end()) avail_gib = j->second;
    if (auto j = e.fields.find("graph_gib"); it->second == "ollama_memory_graph_full" && j != e.fields.end()) graph_gib = j->second;
  }
  const bool graph_fills = avail_gib && graph_gib && *avail_gib > 0 && *graph_gib >= 0.9 * *avail_gib;
  for (const auto& e : in.now.events) {
    auto it = e.labels.find("signature");
    if (it == e.labels.end()) continue;
    const std::string& id = it->second;
    auto f = [&](const char* k) -> std::optional<double> {
      auto j = e.fields.find(k);
      return j == e.fields.end() ? std::nullopt : std::optional<double>(j->second);
    };
    if ((id == "llamacpp_offloaded_layers" || id == "ollama_offload_plan") && f("on_gpu") && f("layers") && *f("layers") > 0) {
      const double on = *f("on_gpu"), all = *f("layers");
      auto item = reading("layers_on_gpu", on, "layers", e.source, fmt::format("{} of {} layers on the GPU", num(on), num(all)), all, "<");
      // None of the layers on the GPU is not a split but a GPU left unused (a CUDA backend that
      // did not start, a CPU-only build, or -ngl 0): the offload plan of a server that has no
      // GPU to offload to. A split (some on the GPU) is placement: the scheduling layer's.
      if (on == 0 && graph_fills) {
        auto fit = reading("graph_gib/available_gib", *graph_gib / *avail_gib, "fraction", e.source,
                           fmt::format("0 of {} layers placed: the compute graph for this context ({:.1f} GiB) fills the "
                                       "{:.1f} GiB the GPU offers", num(all), *graph_gib, *avail_gib), 0.9, ">=");
        c.add("partial_offload", 2.5, fit);
        c.add("gpu_not_used", -2.0, fit);
      } else if (on == 0) {
        c.add("gpu_not_used", 2.5, item);
        c.add("partial_offload", 1.0, item);
      } else if (on < all) {
        c.add("partial_offload", 3.0, item, true);
      } else {
        c.add("partial_offload", -2.0, item);
      }
    }
    if (id == "sglang_load_weight_end" && f("avail_mem_gb") && f("mem_usage_gb") && *f("mem_usage_gb") > 0 &&
        *f("avail_mem_gb") < 0.12 * (*f("avail_mem_gb") + *f("mem_usage_gb")))
      c.add("memory_budget_too_small", 1.5,
            reading("avail_mem_after_weights_gib", *f("avail_mem_gb"), "GiB", e.source, "free memory after the weights"));
    if (id == "llamacpp_prompt_eval" && f("prompt_ms") && f("prompt_tokens") && *f("prompt_ms") > 0) {
      const double tps = *f("prompt_tokens") / (*f("prompt_ms") / 1000);
      if (tps < 100 && has_sym(sym, Symptom::ttft_spike))
        c.add("prompt_cache_unused", 0.5, reading("prompt_eval_tok_per_s", tps, "tok/s", e.source, "prompt processing speed"));
    }
    const bool max_conc_line = id == "vllm_max_concurrency" || id == "vllm_cache_config_max_concurrency";
    if (max_conc_line && f("concurrency") && *f("concurrency") < 1)
      c.add("kv_pool_below_one_request", 3.0, reading("max_concurrency", *f("concurrency"), "x", e.source,
                                                       "the KV pool holds less than one request of max-model-len", 1, "<"), true);
    // A pool of one to two max-length requests: a long context (1M tokens) bought with
    // concurrency. Long-context clients then wait for KV while one or two run, whatever the
    // running cap says; a first-token, throughput or timeout complaint (or none) is that wait.
    if (max_conc_line && f("concurrency") && *f("concurrency") >= 1 && *f("concurrency") < 2 &&
        (sym.empty() || has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low) ||
         has_sym(sym, Symptom::timeout_or_stream_break)))
      c.add("kv_pool_exhausted", 2.0, reading("max_concurrency", *f("concurrency"), "x", e.source,
                                              "the KV pool holds fewer than two requests of max-model-len", 2, "<"));
    if (id == "vllm_zero_throughput_running" && f("running") && *f("running") > 0)
      c.add("kernel_hang_or_fault", 2.5, reading("running_without_tokens", *f("running"), "requests", e.source,
                                                  "requests running while generation throughput is 0 tokens/s"));
    // A prompt refused as longer than the engine admits. Where the limit is far below the
    // context the launch configured, the engine lowered it to its KV pool: the pool holds less
    // than one request of the configured context (a memory fraction, or memory still held when
    // the pool was sized). Where it is the configured context, the prompt is simply too long.
    if (id == "sglang_input_exceeds_allowed" && f("allowed_tokens") && f("input_tokens")) {
      const auto ctx = ls.number({"context-length", "max-model-len", "max-total-tokens"});
      auto item = reading("max_allowed_tokens", *f("allowed_tokens"), "tokens", e.source,
                          ctx ? fmt::format("the longest prompt the engine admits, against the configured context of {}", num(*ctx))
                              : std::string("the longest prompt the engine admits"),
                          ctx ? std::optional<double>(0.5 * *ctx) : std::nullopt, ctx ? "<" : "");
      if (ctx && *f("allowed_tokens") < 0.5 * *ctx) {
        c.add("kv_pool_below_one_request", 2.5, item);
        c.add("long_prompts", -1.0, item);
      } else {
        c.add("max_tokens_exceeds_context", 1.5, item);
      }
    }
    // A kernel's bounds assert whose bound the configured context exceeds: the bound is the
    // model's position table (its max_position_embeddings), and a request past it indexed
    // outside -- the setting, not the kernel. A context within the bound leaves the fault as read.
    if (id == "device_index_out_of_bounds" && f("index_bound") && *f("index_bound") >= 512) {
      const auto ctx = ls.number({"max-model-len", "context-length", "max-seq-len", "ctx-size", "num-ctx", "max-total-tokens"});
      if (ctx && *ctx > *f("index_bound")) {
        auto item = reading("context_tokens", *ctx, "tokens", e.source,
                            fmt::format("the configured context against the {} entries the kernel indexed (the model's "
                                        "position table)", num(*f("index_bound"))),
                            *f("index_bound"), ">");
        c.add("context_beyond_model", 3.5, item, true);
        c.add("kernel_hang_or_fault", -2.0, item);
      }
    }
    // An answer stopped at the length limit, where the inputs also set one: the configured budget
    // is what it reached (a reasoning model spends it thinking and returns an empty answer).
    if (id == "finish_reason_length") {
      for (const auto& [k, v] : ls.values) {
        auto mt = clue::max_tokens_key(clue::lower(k)) ? ls.number({k.c_str()}) : std::nullopt;
        if (!mt || *mt <= 0) continue;
        c.add("output_cut_by_max_tokens", 1.0,
              reading("max_tokens_setting", *mt, "tokens", "--engine-args",
                      fmt::format("{} = {}: the limit the answer stopped at (finish_reason length)", k, num(*mt))));
        break;
      }
    }
    // A slow (Python) tokenizer with a latency complaint: tokenising prompts and detokenising
    // every output token on the host CPU, per request, which at a large batch paces the steps.
    if (id == "slow_tokenizer" && (has_sym(sym, Symptom::tpot_high) || has_sym(sym, Symptom::throughput_low) ||
                                   has_sym(sym, Symptom::ttft_spike))) {
      c.add("host_cpu_bound", 1.5, quote("slow_tokenizer", e.text.substr(0, 240) + " (tokenising and detokenising in Python on the host)", e.source));
      // Detokenising is per sequence per step: at hundreds running, a Python tokenizer's tens of
      // microseconds a call add up to a step's worth of host time (256 x 50 us = 13 ms).
      if (auto r = ind.get("running"); r && *r >= 256)
        c.add("host_cpu_bound", 1.0, reading("running", *r, "requests", ind.find("running")->source,
                                             "sequences detokenised every step by the slow tokenizer", 256, ">="));
    }
    // Ollama's runner listing only CPU backends: no CUDA/ROCm/Vulkan/Metal library was loaded,
    // whatever its offload plan said (a manual install missing the GPU libraries).
    if (id == "ollama_system_backends") {
      const std::string t = clue::lower(e.text);
      if (t.find("cuda.") == std::string::npos && t.find("rocm.") == std::string::npos && t.find("vulkan.") == std::string::npos &&
          t.find("metal.") == std::string::npos && t.find("hip.") == std::string::npos)
        c.add("gpu_not_used", 2.0, quote("ollama_system_backends", e.text.substr(0, 240) + " (only CPU backends loaded)", e.source));
    }
    // A compute graph as large as the GPU (the context's activations): no room for the layers,
    // which then run on the CPU. The GPU's memory from its name.
    if (id == "ollama_compute_graph_size" && f("graph_gib")) {
      const auto gpu = catalog::guess_gpu_from_name(in.gpu_as_given);
      if (gpu.memory_gib && *f("graph_gib") >= 0.9 * *gpu.memory_gib) {
        auto item = reading("compute_graph_gib", *f("graph_gib"), "GiB", e.source,
                            fmt::format("the context's compute graph against the {:.0f} GiB of one GPU ({})", *gpu.memory_gib,
                                        in.gpu_as_given), 0.9 * *gpu.memory_gib, ">=");
        c.add("partial_offload", 2.5, item);
        c.add("gpu_not_used", -1.0, item);
      }
    }
    if (id == "ollama_truncating_prompt" && f("limit") && f("prompt") && *f("prompt") <= *f("limit"))
      c.add("context_truncation", -2.0, reading("prompt_tokens", *f("prompt"), "tokens", e.source), false);
  }
  return std::move(c.out);
}

}  // namespace llmtriage::diagnose
