// Engine-independent error texts: PyTorch's CUDA OOM (c10/cuda/CUDACachingAllocator.cpp, both the
// >= 2.1 wording and the older one), vLLM's KV-cache refusals (vllm/v1/core/kv_cache_utils.py,
// vllm/worker/worker.py), vLLM/SGLang/TGI/llama.cpp out-of-memory texts, engine death.
#include "ingest/log_sink.h"
#include "ingest/log_text.h"

namespace llmtriage::ingest::detail {

using core::EngineKind;
using core::EventKind;
using logtext::contains;
using logtext::number_after;
using logtext::size_gib_after;

namespace {
}  // namespace

bool parse_torch_oom(std::string_view m, core::Event& e) {
  size_t at = m.find("CUDA out of memory.");
  if (at == std::string_view::npos) return false;
  std::string_view s = m.substr(at);
  e.labels["cause"] = "cuda_oom";
  put(e, "tried_to_allocate_gib", size_gib_after(s, "Tried to allocate "));
  if (auto g = number_after(s, "GPU ")) e.fields["gpu_index"] = *g;
  if (contains(s, "has a total capacity of ")) {
    // >= 2.1: "GPU 0 has a total capacity of 79.15 GiB of which 13.50 MiB is free. ... Of the
    // allocated memory 77.92 GiB is allocated by PyTorch, and 571.36 MiB is reserved by PyTorch
    // but unallocated."
    put(e, "total_capacity_gib", size_gib_after(s, "has a total capacity of "));
    put(e, "free_gib", size_gib_after(s, " of which "));
    auto alloc = size_gib_after(s, "Of the allocated memory ");
    size_t of = s.find("Of the allocated memory ");
    std::optional<double> unalloc;
    if (of != std::string_view::npos) {
      // "..., and 331.08 MiB is reserved by PyTorch but unallocated" (2.4+ may insert "with X
      // allocated in private pools (e.g., CUDA Graphs), " before it)
      size_t r = s.find("is reserved by PyTorch but unallocated", of);
      size_t a = s.rfind("and ", r);
      if (r != std::string_view::npos && a != std::string_view::npos && a > of) {
        size_t pos = a + 4;
        unalloc = logtext::size_gib_at(s, pos);
      }
    }
    put(e, "allocated_gib", alloc);
    if (unalloc && contains(s, "reserved by PyTorch but unallocated")) {
      e.fields["reserved_unallocated_gib"] = *unalloc;
      if (alloc) e.fields["reserved_gib"] = *alloc + *unalloc;
    }
    if (auto p = size_gib_after(s, "this process has ")) e.fields["process_in_use_gib"] = *p;
  } else {
    // older: "(GPU 0; 23.69 GiB total capacity; 20.47 GiB already allocated; 1.68 GiB free;
    // 20.98 GiB reserved in total by PyTorch)"
    size_t semi = s.find("; ");
    if (semi != std::string_view::npos) {
      std::string_view rest = s.substr(semi + 2);
      size_t pos = 0;
      while (pos < rest.size()) {
        size_t p = pos;
        auto v = logtext::size_gib_at(rest, p);
        size_t end = rest.find(';', pos);
        std::string_view part = rest.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        if (v) {
          if (contains(part, "total capacity")) e.fields["total_capacity_gib"] = *v;
          else if (contains(part, "already allocated")) e.fields["allocated_gib"] = *v;
          else if (contains(part, "reserved in total")) e.fields["reserved_gib"] = *v;
          else if (contains(part, "free")) e.fields["free_gib"] = *v;
        }
        if (end == std::string_view::npos) break;
        pos = end + 1;
        while (pos < rest.size() && rest[pos] == ' ') ++pos;
      }
    }
  }
  return true;
}

Match match_errors(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  EngineKind engine = ctx.prefix ? ctx.prefix->hint : EngineKind::unknown;
  if (contains(m, "out of memory") || contains(m, "Not enough memory") ||
      contains(m, "OutOfMemoryError")) {
    core::Event& e = sink.event(EventKind::oom, ctx, engine);
    if (parse_torch_oom(m, e)) return Match::parsed;
    if (contains(m, "cudaMalloc failed")) {
      // llama.cpp: "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024.00 MiB on
      // device 0: cudaMalloc failed: out of memory"
      e.labels["cause"] = "cuda_malloc";
      put(e, "tried_to_allocate_gib", size_gib_after(m, "allocating "));
      put(e, "gpu_index", number_after(m, "on device "));
    } else if (contains(m, "Not enough memory to handle ")) {
      // TGI: "Not enough memory to handle 4096 prefill tokens. You need to decrease
      // `--max-batch-prefill-tokens`"
      e.labels["cause"] = "prefill_oom";
      put(e, "prefill_tokens", number_after(m, "Not enough memory to handle "));
    } else if (contains(m, "mem-fraction-static") || contains(m, "mem_fraction_static")) {
      // SGLang: "Not enough memory. Please try to increase --mem-fraction-static."
      e.labels["cause"] = "no_kv_memory";
      put(e, "mem_fraction_static", number_after(m, "mem_fraction_static="));
    } else {
      e.labels["cause"] = "cuda_oom";
    }
    return Match::parsed;
  }
  if (contains(m, "No available memory for the cache blocks")) {
    sink.event(EventKind::oom, ctx, engine).labels["cause"] = "no_kv_memory";
    return Match::parsed;
  }
  if (contains(m, "Free memory on device")) {
    // "Free memory on device cuda:1 (60.33/79.19 GiB) on startup is less than desired GPU memory
    // utilization (0.95, 75.23 GiB)."
    core::Event& e = sink.event(EventKind::oom, ctx, EngineKind::vllm);
    e.labels["cause"] = "free_memory_below_requested";
    size_t p = m.find(" (", m.find("Free memory on device"));
    if (p != std::string_view::npos) {
      size_t pos = p + 2;
      if (auto f = logtext::number_at(m, pos)) {
        e.fields["free_gib"] = *f;
        if (pos < m.size() && m[pos] == '/') {
          ++pos;
          if (auto t = logtext::size_gib_at(m, pos)) e.fields["total_capacity_gib"] = *t;
        }
      }
    }
    size_t u = m.find("utilization (");
    if (u != std::string_view::npos) {
      size_t pos = u + 13;
      if (auto f = logtext::number_at(m, pos)) {
        e.fields["gpu_memory_utilization"] = *f;
        if (pos < m.size() && m[pos] == ',') {
          ++pos;
          if (auto r = logtext::size_gib_at(m, pos)) e.fields["requested_gib"] = *r;
        }
      }
    }
    return Match::parsed;
  }
  if (contains(m, "max seq len (")) {
    if (contains(m, "larger than the maximum number of tokens that can be stored in KV cache")) {
      core::Event& e = sink.event(EventKind::max_len_exceeds_kv, ctx, EngineKind::vllm);
      put(e, "max_model_len_tokens", number_after(m, "max seq len ("));
      put(e, "kv_tokens", number_after(m, "stored in KV cache ("));
      return Match::parsed;
    }
    if (contains(m, "KV cache is needed")) {
      core::Event& e = sink.event(EventKind::max_len_exceeds_kv, ctx, EngineKind::vllm);
      put(e, "max_model_len_tokens", number_after(m, "max seq len ("));
      size_t from = m.find("max seq len (");
      // "(24.0 GiB KV cache is needed, which is larger than the available KV cache memory
      // (3.18 GiB). Based on the available memory, the estimated maximum model length is 34736."
      size_t need = m.rfind('(', m.find("KV cache is needed"));
      if (need != std::string_view::npos && need > from) {
        size_t pos = need + 1;
        if (auto v = logtext::size_gib_at(m, pos)) e.fields["kv_needed_gib"] = *v;
      }
      put(e, "kv_cache_gib", size_gib_after(m, "available KV cache memory ("));
      put(e, "estimated_max_model_len_tokens", number_after(m, "maximum model length is "));
      return Match::parsed;
    }
  }
  if (contains(m, "EngineCore encountered a fatal error") ||
      contains(m, "Engine core initialization failed") || contains(m, "EngineDeadError") ||
      contains(m, "is already dead") || contains(m, "Engine loop has died") ||
      contains(m, "died unexpectedly") || contains(m, "Engine process failed to start") ||
      contains(m, "Background loop has errored")) {
    core::Event& e = sink.event(EventKind::engine_dead, ctx, engine);
    e.labels["phase"] = contains(m, "initialization failed") || contains(m, "failed to start")
                            ? "startup" : "runtime";
    return Match::parsed;
  }
  return Match::none;
}

}  // namespace llmtriage::ingest::detail
