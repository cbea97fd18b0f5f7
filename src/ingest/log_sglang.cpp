// SGLang log lines (python/sglang/srt/managers/scheduler_metrics_mixin.py, older scheduler.py /
// tp_worker.py; model_runner.py for the startup memory lines). Prefix "[2025-01-01 10:00:00 TP0] ".
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

// DP rank from the prefix tag "DP1 TP0" -> "1"; "" when none.
std::string dp_rank(const LogLineCtx& ctx) {
  if (ctx.prefix == nullptr) return {};
  std::string_view p = ctx.prefix->process;
  size_t at = p.find("DP");
  if (at == std::string_view::npos) return {};
  size_t e = at + 2;
  while (e < p.size() && logtext::is_digit(p[e])) ++e;
  return std::string(p.substr(at + 2, e - at - 2));
}

core::Event& sglang_startup(const LogLineCtx& ctx, LogSink& sink, const char* step) {
  core::Event& e = sink.event(EventKind::startup_memory, ctx, EngineKind::sglang);
  e.labels["step"] = step;
  return e;
}
}  // namespace

Match match_sglang(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  if (m.empty()) return Match::none;
  switch (m[0]) {
    case 'P':
      // "Prefill batch. #new-seq: 1, #new-token: 2192, #cached-token: 35, token usage: 0.00,
      //  #running-req: 0, #queue-req: 0" (also "Prefill batch, ..." and "Prefill batch [12], ...")
      if (starts_with(m, "Prefill batch")) {
        auto running = number_after(m, "#running-req: ");
        auto queue = number_after(m, "#queue-req: ");
        if (!running || !queue) return Match::malformed;
        core::EngineSample& s = sink.sample(ctx, EngineKind::sglang);
        s.engine_index = dp_rank(ctx);
        s.running = running;
        s.waiting = queue;
        s.kv_usage = number_after(m, "token usage: ");
        if (!s.kv_usage) s.kv_usage = number_after(m, "full token usage: ");
        auto fresh = number_after(m, "#new-token: ");
        auto cached = number_after(m, "#cached-token: ");
        // Hit rate of this prefill batch = cached / (new + cached), as SGLang's cache_hit_rate
        // gauge; older builds print "cache hit rate: 12.34%" themselves.
        if (auto hr = number_after(m, "cache hit rate: ")) s.prefix_cache_hit_rate = *hr / 100.0;
        else if (fresh && cached && *fresh + *cached > 0) s.prefix_cache_hit_rate = *cached / (*fresh + *cached);
        s.prompt_throughput_tok_s = number_after(m, "input throughput (token/s): ");
        sink.note_engine(EngineKind::sglang);
        return Match::parsed;
      }
      return Match::none;
    case 'D':
      // "Decode batch. #running-req: 233, #token: 370959, token usage: 0.82, cuda graph: True,
      //  gen throughput (token/s): 4594.01, #queue-req: 317"
      if (starts_with(m, "Decode batch")) {
        auto running = number_after(m, "#running-req: ");
        auto gen = number_after(m, "gen throughput (token/s): ");
        if (!running || !gen) return Match::malformed;
        core::EngineSample& s = sink.sample(ctx, EngineKind::sglang);
        s.engine_index = dp_rank(ctx);
        s.running = running;
        s.waiting = number_after(m, "#queue-req: ");
        s.kv_usage = number_after(m, "token usage: ");
        if (!s.kv_usage) s.kv_usage = number_after(m, "full token usage: ");
        s.generation_throughput_tok_s = gen;
        sink.note_engine(EngineKind::sglang);
        return Match::parsed;
      }
      return Match::none;
    case 'K':
      // "KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.4 -> 0.6"
      if (starts_with(m, "KV cache pool is full")) {
        core::Event& e = sink.event(EventKind::preemption, ctx, EngineKind::sglang);
        e.labels["mode"] = "retract";
        put(e, "retracted_reqs", number_after(m, "#retracted_reqs: "));
        size_t from = 0;
        if (number_after(m, "#new_token_ratio: ", from)) put(e, "new_token_ratio", number_after(m, "-> "));
        sink.note_engine(EngineKind::sglang);
        return Match::parsed;
      }
      // "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB"
      if (starts_with(m, "KV Cache is allocated.")) {
        core::Event& e = sglang_startup(ctx, sink, "kv_cache_allocated");
        put(e, "kv_tokens", number_after(m, "#tokens: "));
        auto k = size_gib_after(m, "K size: ");
        auto v = size_gib_after(m, "V size: ");
        put(e, "k_size_gib", k);
        put(e, "v_size_gib", v);
        if (k && v) e.fields["kv_cache_gib"] = *k + *v;
        sink.note_engine(EngineKind::sglang);
        return e.fields.empty() ? Match::malformed : Match::parsed;
      }
      return Match::none;
    case 'L':
      // "Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.53 GB,
      //  mem usage=14.99 GB."
      if (starts_with(m, "Load weight end.")) {
        core::Event& e = sglang_startup(ctx, sink, "model_loading");
        put(e, "weights_gib", size_gib_after(m, "mem usage="));
        put(e, "avail_mem_gib", size_gib_after(m, "avail mem="));
        sink.note_engine(EngineKind::sglang);
        return e.fields.empty() ? Match::malformed : Match::parsed;
      }
      return Match::none;
    case 'M':
      if (starts_with(m, "Memory pool end.")) {
        core::Event& e = sglang_startup(ctx, sink, "memory_pool");
        put(e, "avail_mem_gib", size_gib_after(m, "avail mem="));
        return e.fields.empty() ? Match::malformed : Match::parsed;
      }
      return Match::none;
    case 'C':
      // "Capture cuda graph end. Time elapsed: 5.12 s. mem usage=0.56 GB. avail mem=5.01 GB."
      if (starts_with(m, "Capture cuda graph end.")) {
        core::Event& e = sglang_startup(ctx, sink, "cuda_graph");
        put(e, "cuda_graph_gib", size_gib_after(m, "mem usage="));
        put(e, "avail_mem_gib", size_gib_after(m, "avail mem="));
        return Match::parsed;
      }
      return Match::none;
    case 'm':
      // "max_total_num_tokens=367404, chunked_prefill_size=8192, max_prefill_tokens=16384,
      //  max_running_requests=4096, context_len=131072, available_gpu_mem=5.37 GB"
      if (starts_with(m, "max_total_num_tokens=")) {
        core::Event& e = sglang_startup(ctx, sink, "scheduler_limits");
        put(e, "kv_tokens", number_after(m, "max_total_num_tokens="));
        put(e, "chunked_prefill_size_tokens", number_after(m, "chunked_prefill_size="));
        put(e, "max_prefill_tokens", number_after(m, "max_prefill_tokens="));
        put(e, "max_running_requests", number_after(m, "max_running_requests="));
        put(e, "context_len_tokens", number_after(m, "context_len="));
        put(e, "avail_mem_gib", size_gib_after(m, "available_gpu_mem="));
        sink.note_engine(EngineKind::sglang);
        return Match::parsed;
      }
      return Match::none;
    case 's':
      if (starts_with(m, "server_args=ServerArgs(")) {
        core::Event& e = sink.event(EventKind::engine_args, ctx, EngineKind::sglang);
        e.labels["args"] = logtext::redact_secrets(logtext::sanitize(m.substr(12), 1 << 20));
        e.labels["form"] = "server_args";
        sink.note_engine(EngineKind::sglang);
        return Match::parsed;
      }
      return Match::none;
    case 'A':
      if (starts_with(m, "Abort") && contains(m, "request")) {
        sink.event(EventKind::request_aborted, ctx, EngineKind::sglang);
        return Match::parsed;
      }
      return Match::none;
    default:
      return Match::none;
  }
}

}  // namespace llmtriage::ingest::detail
