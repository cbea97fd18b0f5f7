// TGI, llama.cpp server and Ollama log lines. Shapes verified on real logs quoted in public
// issues (tests/data/logs/README.md lists them): TGI router/launcher tracing lines
// (huggingface/text-generation-inference#832, #1831), llama-server slot lines (ggml-org/llama.cpp
// #10547, #4185; gpustack/gpustack#1442), Ollama slog lines (ollama/ollama#8447, #10368, #10127).
#include <cctype>

#include "ingest/log_sink.h"
#include "ingest/log_text.h"

namespace llmtriage::ingest::detail {

using core::EngineKind;
using core::EventKind;
using logtext::contains;
using logtext::number_after;
using logtext::size_gib_after;
using logtext::starts_with;

namespace {

// Either spelling of llama.cpp's "key = value" / old "key=value" fields.
std::optional<double> kv_num(std::string_view m, std::string_view key) {
  size_t p = 0;
  while ((p = m.find(key, p)) != std::string_view::npos) {
    // whole-word match: the key must not be the tail of a longer name
    if (p > 0 && (std::isalnum(static_cast<unsigned char>(m[p - 1])) || m[p - 1] == '_')) {
      p += key.size();
      continue;
    }
    size_t q = p + key.size();
    while (q < m.size() && m[q] == ' ') ++q;
    if (q < m.size() && m[q] == '=') {
      ++q;
      return logtext::number_at(m, q);
    }
    p = q;
  }
  return std::nullopt;
}

// Ollama slog value: key="12.5 GiB" / key="[23.3 GiB]" / key=123
std::optional<double> slog_size(std::string_view m, std::string_view key) {
  size_t p = m.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  size_t q = p + key.size();
  while (q < m.size() && (m[q] == '"' || m[q] == '[')) ++q;
  return logtext::size_gib_at(m, q);
}

// "CUDA0" from "llm_load_tensors:        CUDA0 buffer size =  4403.49 MiB"
std::string device_before(std::string_view m, std::string_view what) {
  size_t p = m.find(what);
  if (p == std::string_view::npos) return {};
  size_t e = p;
  while (e > 0 && m[e - 1] == ' ') --e;
  size_t b = e;
  while (b > 0 && m[b - 1] != ' ' && m[b - 1] != ':') --b;
  return std::string(m.substr(b, e - b));
}

bool is_cpu(std::string_view dev) { return dev.rfind("CPU", 0) == 0 || dev.empty(); }

core::Event& other_startup(const LogLineCtx& ctx, LogSink& sink, EngineKind k, const char* step) {
  core::Event& e = sink.event(EventKind::startup_memory, ctx, k);
  e.labels["step"] = step;
  sink.note_engine(k);
  return e;
}
}  // namespace

Match match_tgi(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  if (m.empty()) return Match::none;
  if (starts_with(m, "Args {")) {
    core::Event& e = sink.event(EventKind::engine_args, ctx, EngineKind::tgi);
    e.labels["args"] = logtext::redact_secrets(logtext::sanitize(m.substr(5), 1 << 20));
    e.labels["form"] = "tgi_args";
    sink.note_engine(EngineKind::tgi);
    return Match::parsed;
  }
  if (starts_with(m, "Setting max batch total tokens to ")) {
    // The launcher's inferred KV token budget (flash-attention models, warmup result).
    auto n = number_after(m, "Setting max batch total tokens to ");
    if (!n) return Match::malformed;
    core::Event& e = other_startup(ctx, sink, EngineKind::tgi, "max_batch_total_tokens");
    e.fields["max_batch_total_tokens"] = *n;
    e.fields["kv_tokens"] = *n;
    return Match::parsed;
  }
  if (ctx.prefix && ctx.prefix->hint == EngineKind::tgi) {
    if (contains(m, "Shard ") && (contains(m, "failed") || contains(m, "terminated"))) {
      sink.event(EventKind::engine_dead, ctx, EngineKind::tgi).labels["phase"] =
          contains(m, "failed to start") ? "startup" : "runtime";
      return Match::parsed;
    }
    if (contains(m, "Webserver Crashed") || contains(m, "Shutting down shards")) {
      sink.event(EventKind::engine_dead, ctx, EngineKind::tgi).labels["phase"] = "runtime";
      return Match::parsed;
    }
    sink.note_engine(EngineKind::tgi);
  }
  return Match::none;
}

Match match_llamacpp(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  // Old server: "[update_slots] input truncated | n_ctx=2048 ..." (function in brackets)
  if (!m.empty() && m[0] == '[') {
    size_t close = m.find("] ");
    if (close != std::string_view::npos && close < 40) m = logtext::trim(m.substr(close + 2));
  }
  if (m.size() < 6) return Match::none;
  switch (m[0]) {
    case 's':
    case 'u':
    case 'i':
    case 'd':
    case 'p':
    case 'f':
      if (contains(m, "input truncated")) {
        core::Event& e = sink.event(EventKind::context_truncated, ctx, EngineKind::llamacpp);
        put(e, "n_ctx_tokens", kv_num(m, "n_ctx"));
        put(e, "n_keep_tokens", kv_num(m, "n_keep"));
        put(e, "n_prompt_tokens", kv_num(m, "n_prompt_tokens"));
        put(e, "n_erase_tokens", kv_num(m, "n_erase"));
        e.labels["mode"] = "input_truncated";
        sink.note_engine(EngineKind::llamacpp);
        return Match::parsed;
      }
      // "context shift is disabled" / "... or enable context shift" are refusals (the request or
      // its output does not fit the slot's context), not a shift: the signatures read those.
      if (contains(m, "context shift") && !contains(m, "context shift is disabled") && !contains(m, "enable context shift")) {
        core::Event& e = sink.event(EventKind::context_truncated, ctx, EngineKind::llamacpp);
        put(e, "n_keep_tokens", kv_num(m, "n_keep"));
        put(e, "n_discard_tokens", kv_num(m, "n_discard"));
        e.labels["mode"] = "context_shift";
        sink.note_engine(EngineKind::llamacpp);
        return Match::parsed;
      }
      if (contains(m, "failed to find free space in the KV cache") ||
          contains(m, "could not find a kv cache slot") ||
          contains(m, "failed to find KV cache slot") || contains(m, "failed to find a memory slot")) {
        core::Event& e = sink.event(EventKind::kv_cache_full, ctx, EngineKind::llamacpp);
        put(e, "n_batch", kv_num(m, "n_batch"));
        put(e, "length_tokens", number_after(m, "(length: "));
        sink.note_engine(EngineKind::llamacpp);
        return Match::parsed;
      }
      // Builds since late 2025 log the compute buffers from the scheduler's reserve:
      // "sched_reserve:        CPU compute buffer size =     6.51 MiB".
      if (starts_with(m, "sched_reserve:") && contains(m, "compute buffer size =")) {
        auto v = size_gib_after(m, "compute buffer size =");
        if (!v) return Match::malformed;
        std::string dev = device_before(m, "compute buffer");
        core::Event& e = other_startup(ctx, sink, EngineKind::llamacpp, "compute_buffer");
        e.fields[is_cpu(dev) ? "compute_buffer_cpu_gib" : "compute_buffer_gib"] = *v;
        e.labels["device"] = dev;
        return Match::parsed;
      }
      if (starts_with(m, "slot ") || starts_with(m, "srv ") || starts_with(m, "update_slots")) {
        sink.note_engine(EngineKind::llamacpp);
        return Match::other;
      }
      return Match::none;
    case 'l':
      if (starts_with(m, "llama_") || starts_with(m, "llm_load_") || starts_with(m, "load_tensors")) {
        // "llama_kv_cache_init:      CUDA0 KV buffer size =  1024.00 MiB" (and _unified, plain)
        if (contains(m, "KV buffer size")) {
          auto v = size_gib_after(m, "KV buffer size =");
          if (!v) return Match::malformed;
          std::string dev = device_before(m, "KV buffer size");
          core::Event& e = other_startup(ctx, sink, EngineKind::llamacpp, "kv_buffer");
          e.fields[is_cpu(dev) ? "kv_cache_cpu_gib" : "kv_cache_gib"] = *v;
          e.labels["device"] = dev;
          return Match::parsed;
        }
        // "llama_new_context_with_model: KV self size  = 1024.00 MiB, K (f16): ..., V (f16): ..."
        if (contains(m, "KV self size")) {
          auto v = size_gib_after(m, "KV self size  =");
          if (!v) v = size_gib_after(m, "KV self size =");
          if (!v) return Match::malformed;
          other_startup(ctx, sink, EngineKind::llamacpp, "kv_buffer").fields["kv_cache_gib"] = *v;
          return Match::parsed;
        }
        // "llm_load_tensors:        CUDA0 buffer size =  4403.49 MiB" / "load_tensors: CUDA0 model
        //  buffer size = ..."
        if (contains(m, "buffer size =") && !contains(m, "compute buffer") &&
            (starts_with(m, "llm_load_tensors") || starts_with(m, "load_tensors"))) {
          auto v = size_gib_after(m, "buffer size =");
          if (!v) return Match::malformed;
          std::string dev = device_before(m, contains(m, "model buffer") ? "model buffer" : "buffer size");
          core::Event& e = other_startup(ctx, sink, EngineKind::llamacpp, "weights_buffer");
          e.fields[is_cpu(dev) ? "weights_cpu_gib" : "weights_gib"] = *v;
          e.labels["device"] = dev;
          return Match::parsed;
        }
        if (contains(m, "compute buffer size =")) {
          auto v = size_gib_after(m, "compute buffer size =");
          if (!v) return Match::malformed;
          std::string dev = device_before(m, "compute buffer");
          core::Event& e = other_startup(ctx, sink, EngineKind::llamacpp, "compute_buffer");
          e.fields[is_cpu(dev) ? "compute_buffer_cpu_gib" : "compute_buffer_gib"] = *v;
          e.labels["device"] = dev;
          return Match::parsed;
        }
        if ((starts_with(m, "llama_new_context_with_model:") || starts_with(m, "llama_context:") ||
             starts_with(m, "llama_init_from_model:")) && contains(m, " n_ctx ")) {
          if (auto n = kv_num(m, "n_ctx")) {
            other_startup(ctx, sink, EngineKind::llamacpp, "context").fields["n_ctx_tokens"] = *n;
            return Match::parsed;
          }
        }
        sink.note_engine(EngineKind::llamacpp);
        return Match::other;
      }
      return Match::none;
    default:
      return Match::none;
  }
}

Match match_ollama(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  if (m.empty()) return Match::none;
  if (starts_with(m, "[GIN] ")) {
    sink.note_engine(EngineKind::ollama);
    return Match::other;
  }
  // msg="offload to cuda" ... / msg=offload library=cuda ...
  if (starts_with(m, "\"offload to ") || starts_with(m, "offload ")) {
    core::Event& e = other_startup(ctx, sink, EngineKind::ollama, "offload_plan");
    put(e, "available_gib", slog_size(m, "memory.available="));
    put(e, "required_full_gib", slog_size(m, "memory.required.full="));
    put(e, "required_partial_gib", slog_size(m, "memory.required.partial="));
    put(e, "kv_cache_gib", slog_size(m, "memory.required.kv="));
    put(e, "weights_gib", slog_size(m, "memory.weights.total="));
    put(e, "graph_full_gib", slog_size(m, "memory.graph.full="));
    put(e, "graph_partial_gib", slog_size(m, "memory.graph.partial="));
    put(e, "layers_model", number_after(m, "layers.model="));
    put(e, "layers_offload", number_after(m, "layers.offload="));
    return e.fields.empty() ? Match::malformed : Match::parsed;
  }
  if (starts_with(m, "\"model weights\"") || starts_with(m, "\"compute graph\"")) {
    auto v = slog_size(m, "size=");
    if (!v) return Match::malformed;
    bool weights = m[1] == 'm';
    size_t b = m.find(weights ? "buffer=" : "backend=");
    std::string dev;
    if (b != std::string_view::npos) {
      size_t q = m.find('=', b) + 1, e = m.find(' ', q);
      dev = std::string(m.substr(q, e == std::string_view::npos ? std::string_view::npos : e - q));
    }
    core::Event& e = other_startup(ctx, sink, EngineKind::ollama, weights ? "weights_buffer" : "compute_buffer");
    std::string key = weights ? "weights" : "compute_buffer";
    e.fields[key + (is_cpu(dev) ? "_cpu_gib" : "_gib")] = *v;
    e.labels["device"] = dev;
    return Match::parsed;
  }
  if (starts_with(m, "\"truncating input prompt\"")) {
    core::Event& e = sink.event(EventKind::context_truncated, ctx, EngineKind::ollama);
    put(e, "n_ctx_tokens", number_after(m, "limit="));
    put(e, "n_prompt_tokens", number_after(m, "prompt="));
    put(e, "n_keep_tokens", number_after(m, "keep="));
    e.labels["mode"] = "input_truncated";
    sink.note_engine(EngineKind::ollama);
    return Match::parsed;
  }
  if (contains(m, "llama runner process has terminated") || contains(m, "llama runner process no longer running")) {
    if (contains(m, "out of memory")) {
      core::Event& o = sink.event(EventKind::oom, ctx, EngineKind::ollama);
      o.labels["cause"] = contains(m, "cudaMalloc") ? "cuda_malloc" : "cuda_oom";
    }
    sink.event(EventKind::engine_dead, ctx, EngineKind::ollama).labels["phase"] = "runtime";
    return Match::parsed;
  }
  if (ctx.prefix && ctx.prefix->hint == EngineKind::ollama) sink.note_engine(EngineKind::ollama);
  return Match::none;
}

}  // namespace llmtriage::ingest::detail
