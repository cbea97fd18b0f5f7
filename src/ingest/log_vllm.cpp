// vLLM log lines. Formats from vllm/engine/metrics.py (V0 stats), vllm/v1/metrics/loggers.py (V1
// stats), vllm/worker/worker.py and vllm/v1/worker/gpu_worker.py (memory profile), vllm/v1/core/
// kv_cache_utils.py (KV size, max concurrency), vllm/core/scheduler.py (preemption); real lines
// in tests/data/logs/README.md.
#include <algorithm>
#include <string>

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


core::Event& vllm_startup(const LogLineCtx& ctx, LogSink& sink, const char* step) {
  core::Event& e = sink.event(EventKind::startup_memory, ctx, EngineKind::vllm);
  e.labels["step"] = step;
  return e;
}

// "Avg prompt throughput: ..., Running: 1 reqs, ..." (V0 and V1); `body` starts at "Avg".
Match stats_line(const LogLineCtx& ctx, LogSink& sink, std::string_view body,
                 std::string_view engine_index) {
  auto prompt = number_after(body, "Avg prompt throughput: ");
  auto gen = number_after(body, "Avg generation throughput: ");
  auto running = number_after(body, "Running: ");
  if (!prompt || !gen || !running) return Match::malformed;
  bool v0 = contains(body, "Swapped: ");
  EngineKind kind = v0 ? EngineKind::vllm_v0 : EngineKind::vllm;
  core::EngineSample& s = sink.sample(ctx, kind);
  s.engine_index = std::string(engine_index);
  s.prompt_throughput_tok_s = prompt;
  s.generation_throughput_tok_s = gen;
  s.running = running;
  if (v0) {
    s.swapped = number_after(body, "Swapped: ");
    s.waiting = number_after(body, "Pending: ");
  } else {
    s.waiting = number_after(body, "Waiting: ");
    if (!s.waiting) s.waiting = number_after(body, "Pending: ");
  }
  if (auto kv = number_after(body, "GPU KV cache usage: ")) s.kv_usage = *kv / 100.0;
  if (auto hit = number_after(body, "Prefix cache hit rate: ")) s.prefix_cache_hit_rate = *hit / 100.0;
  // V1 >= 0.11 prints "Preemptions: N" only when N > 0 in the interval; the running sum is a
  // counter from the first such line on (earlier intervals had none, so the sum is exact).
  if (auto pre = number_after(body, "Preemptions: ")) {
    sink.preemptions_total = sink.preemptions_total.value_or(0) + *pre;
    core::Event& e = sink.event(EventKind::preemption, ctx, kind);
    e.fields["preemptions"] = *pre;
    e.labels["mode"] = "interval_count";
  }
  if (!v0 && sink.preemptions_total) s.preemptions_total = sink.preemptions_total;
  sink.note_engine(kind);
  return Match::parsed;
}

Match memory_profile_line(const LogLineCtx& ctx, LogSink& sink, std::string_view m) {
  core::Event& e = vllm_startup(ctx, sink, "memory_profile");
  put(e, "profile_time_s", number_after(m, "Memory profiling takes "));
  // V1: "Total non KV cache memory: 21.14GiB; torch peak memory increase: 1.97GiB;
  //      non-torch forward increase memory: 2.21GiB; weights memory: 16.96GiB."
  put(e, "total_non_kv_gib", size_gib_after(m, "Total non KV cache memory: "));
  put(e, "peak_activation_gib", size_gib_after(m, "torch peak memory increase: "));
  put(e, "non_torch_gib", size_gib_after(m, "non-torch forward increase memory: "));
  put(e, "weights_gib", size_gib_after(m, "weights memory: "));
  // V0 ~0.6.4: "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=...
  //   peak_torch_memory=17.06GiB ... non_torch_memory=0.35GiB kv_cache_size=3.81GiB
  //   gpu_memory_utilization=0.90"
  put(e, "total_gpu_memory_gib", size_gib_after(m, "total_gpu_memory="));
  put(e, "initial_memory_usage_gib", size_gib_after(m, "initial_memory_usage="));
  put(e, "peak_torch_memory_gib", size_gib_after(m, "peak_torch_memory="));
  put(e, "non_torch_gib", size_gib_after(m, "non_torch_memory="));
  put(e, "kv_cache_gib", size_gib_after(m, "kv_cache_size="));
  put(e, "gpu_memory_utilization", number_after(m, "gpu_memory_utilization="));
  if (auto d = number_after(m, "duration=")) e.fields["profile_time_s"] = *d;
  return Match::parsed;
}

// vLLM ~0.6.5 printed its memory table as "key<spaces>value" rows (vllm PR #10511).
Match table_row(const LogLineCtx& ctx, LogSink& sink, std::string_view m, std::string_view key,
                const char* field, bool is_size) {
  size_t pos = key.size();
  if (pos >= m.size() || !logtext::is_space(m[pos])) return Match::none;
  auto v = is_size ? logtext::size_gib_at(m, pos) : logtext::number_at(m, pos);
  if (!v) return Match::malformed;
  core::Event& e = vllm_startup(ctx, sink, "memory_table");
  e.fields[field] = *v;
  return Match::parsed;
}

Match blocks_line(const LogLineCtx& ctx, LogSink& sink, std::string_view m) {
  // "# GPU blocks: 507, # CPU blocks: 1024" / "GPU blocks: 1952, ..." / "# CUDA blocks: 6001, ..."
  auto gpu = number_after(m, "GPU blocks: ");
  if (!gpu) gpu = number_after(m, "CUDA blocks: ");
  if (!gpu) return Match::malformed;
  core::Event& e = vllm_startup(ctx, sink, "blocks");
  e.fields["gpu_blocks"] = *gpu;
  put(e, "cpu_blocks", number_after(m, "CPU blocks: "));
  return Match::parsed;
}

Match engine_args(const LogLineCtx& ctx, LogSink& sink, std::string_view args,
                  const char* form) {
  core::Event& e = sink.event(EventKind::engine_args, ctx, EngineKind::vllm);
  e.labels["args"] = logtext::redact_secrets(logtext::sanitize(args, 1 << 20));
  e.labels["form"] = form;
  return Match::parsed;
}

std::string_view version_token(std::string_view s) {
  size_t e = 0;
  while (e < s.size() && s[e] != ' ' && s[e] != ')' && s[e] != ',') ++e;
  return s.substr(0, e);
}

}  // namespace

Match match_vllm(const LogLineCtx& ctx, LogSink& sink) {
  std::string_view m = ctx.msg;
  if (m.empty()) return Match::none;
  switch (m[0]) {
    case 'A':
      if (starts_with(m, "Avg prompt throughput: ")) return stats_line(ctx, sink, m, "");
      if (starts_with(m, "Available KV cache memory: ")) {
        auto v = size_gib_after(m, "Available KV cache memory: ");
        if (!v) return Match::malformed;
        vllm_startup(ctx, sink, "kv_cache_memory").fields["kv_cache_gib"] = *v;
        return Match::parsed;
      }
      if (starts_with(m, "Aborted request")) {
        core::Event& e = sink.event(EventKind::request_aborted, ctx, EngineKind::vllm);
        // "Aborted request cmpl-1." (V0) / "Aborted request(s) a,b." (V1)
        size_t sp = m.find(' ', 16);
        std::string_view ids = sp == std::string_view::npos ? "" : m.substr(sp + 1);
        if (!ids.empty() && ids.back() == '.') ids.remove_suffix(1);
        e.fields["requests"] = ids.empty() ? 1.0 : 1.0 + static_cast<double>(std::count(ids.begin(), ids.end(), ','));
        return Match::parsed;
      }
      return Match::none;
    case 'E':
      if (starts_with(m, "Engine ") && m.size() > 12 && logtext::is_digit(m[7])) {
        size_t colon = m.find(": ", 7);
        if (colon == std::string_view::npos || colon > 16) return Match::none;
        std::string_view idx = m.substr(7, colon - 7);
        while (idx.size() > 1 && idx[0] == '0') idx.remove_prefix(1);
        std::string_view body = m.substr(colon + 2);
        if (starts_with(body, "Avg prompt throughput: ")) return stats_line(ctx, sink, body, idx);
        if (auto b = number_after(body, "num_gpu_blocks is: ")) {
          vllm_startup(ctx, sink, "num_gpu_blocks").fields["gpu_blocks"] = *b;
          return Match::parsed;
        }
        return Match::other;
      }
      return Match::none;
    case 'P':
      if (starts_with(m, "Prefix cache hit rate: GPU: ")) {
        auto gpu = number_after(m, "GPU: ");
        if (!gpu) return Match::malformed;
        if (core::EngineSample* s = sink.last_sample_at(ctx)) {
          s->prefix_cache_hit_rate = *gpu / 100.0;
        } else {
          sink.sample(ctx, EngineKind::vllm_v0).prefix_cache_hit_rate = *gpu / 100.0;
        }
        return Match::parsed;
      }
      if (starts_with(m, "PyTorch activation peak memory"))
        return table_row(ctx, sink, m, "PyTorch activation peak memory", "peak_activation_gib", true);
      return Match::none;
    case 'M':
      if (starts_with(m, "Model loading took")) {
        size_t pos = 18;
        if (pos < m.size() && m[pos] == ':') ++pos;
        auto v = logtext::size_gib_at(m, pos);
        if (!v) return Match::malformed;
        core::Event& e = vllm_startup(ctx, sink, "model_loading");
        e.fields["weights_gib"] = *v;
        size_t from = pos;
        if (auto secs = number_after(m, " and ", from)) e.fields["load_time_s"] = *secs;
        return Match::parsed;
      }
      if (starts_with(m, "Memory profiling ")) return memory_profile_line(ctx, sink, m);
      if (starts_with(m, "Maximum concurrency for ")) {
        size_t pos = 24;
        auto len = logtext::number_at(m, pos);
        auto x = number_after(m, "per request: ");
        if (!len || !x) return Match::malformed;
        core::Event& e = vllm_startup(ctx, sink, "max_concurrency");
        e.fields["max_concurrency"] = *x;
        e.fields["max_concurrency_len_tokens"] = *len;
        return Match::parsed;
      }
      return Match::none;
    case 'L':
      if (starts_with(m, "Loading model weights took ")) {
        auto v = size_gib_after(m, "Loading model weights took ");
        if (!v) return Match::malformed;
        vllm_startup(ctx, sink, "model_loading").fields["weights_gib"] = *v;
        return Match::parsed;
      }
      return Match::none;
    case 'G':
      if (starts_with(m, "GPU KV cache size: ")) {
        auto tokens = number_after(m, "GPU KV cache size: ");
        if (!tokens) return Match::malformed;
        core::Event& e = vllm_startup(ctx, sink, "kv_cache_size");
        e.fields["kv_tokens"] = *tokens;
        // 0.11 on some platforms: "(1,444 blocks x 128 tokens/block)"
        if (auto b = number_after(m, "(")) {
          e.fields["gpu_blocks"] = *b;
          put(e, "block_size_tokens", number_after(m, " x "));
        }
        return Match::parsed;
      }
      if (starts_with(m, "Graph capturing finished")) {
        // "Graph capturing finished in 5 secs, took 0.31 GiB" (V1); V0 prints no size.
        auto v = size_gib_after(m, "took ");
        if (!v) return Match::other;
        vllm_startup(ctx, sink, "cuda_graph").fields["cuda_graph_gib"] = *v;
        return Match::parsed;
      }
      if (starts_with(m, "GPU blocks: ")) return blocks_line(ctx, sink, m);
      return Match::none;
    case 'C':
      if (starts_with(m, "CUDA graph pool memory: ")) {
        auto actual = size_gib_after(m, "CUDA graph pool memory: ");
        if (!actual) return Match::malformed;
        core::Event& e = vllm_startup(ctx, sink, "cuda_graph");
        e.fields["cuda_graph_gib"] = *actual;
        put(e, "cuda_graph_estimated_gib", size_gib_after(m, "(actual), "));
        return Match::parsed;
      }
      return Match::none;
    case '#':
      if (contains(m, " blocks: ")) return blocks_line(ctx, sink, m);
      return Match::none;
    case 'S':
      if (starts_with(m, "Sequence group ") && contains(m, " is preempted by ")) {
        core::Event& e = sink.event(EventKind::preemption, ctx, EngineKind::vllm_v0);
        if (contains(m, "PreemptionMode.SWAP")) e.labels["mode"] = "swap";
        else if (contains(m, "PreemptionMode.RECOMPUTE")) e.labels["mode"] = "recompute";
        auto n = number_after(m, "total_num_cumulative_preemption=");
        if (!n) n = number_after(m, "total_cumulative_preemption_cnt=");
        put(e, "cumulative_preemptions", n);
        sink.note_engine(EngineKind::vllm_v0);
        return Match::parsed;
      }
      return Match::none;
    case 't':
      if (starts_with(m, "the current vLLM instance can use ")) {
        core::Event& e = vllm_startup(ctx, sink, "memory_budget");
        if (contains(m, "total_gpu_memory (")) {
          put(e, "total_gpu_memory_gib", size_gib_after(m, "total_gpu_memory ("));
          put(e, "gpu_memory_utilization", number_after(m, "gpu_memory_utilization ("));
          put(e, "usable_gpu_memory_gib", size_gib_after(m, ") = "));
        } else {
          put(e, "usable_gpu_memory_gib", size_gib_after(m, "can use "));
        }
        if (e.fields.empty()) return Match::malformed;
        return Match::parsed;
      }
      if (starts_with(m, "total_gpu_memory"))
        return table_row(ctx, sink, m, "total_gpu_memory", "total_gpu_memory_gib", true);
      return Match::none;
    case 'm':
      if (starts_with(m, "model weights take ")) {
        core::Event& e = vllm_startup(ctx, sink, "memory_profile");
        // "model weights take 19.86GiB; non_torch_memory takes 0.16GiB; PyTorch activation peak
        //  memory takes 36.63GiB; the rest of the memory reserved for KV Cache is 14.65GiB."
        put(e, "weights_gib", size_gib_after(m, "model weights take "));
        put(e, "non_torch_gib", size_gib_after(m, "non_torch_memory takes "));
        put(e, "peak_activation_gib", size_gib_after(m, "activation peak memory takes "));
        put(e, "kv_cache_gib", size_gib_after(m, "reserved for KV Cache is "));
        if (e.fields.empty()) return Match::malformed;
        return Match::parsed;
      }
      return Match::none;
    case 'n':
      if (starts_with(m, "num_gpu_blocks is: ")) {
        auto b = number_after(m, "num_gpu_blocks is: ");
        if (!b) return Match::malformed;
        vllm_startup(ctx, sink, "num_gpu_blocks").fields["gpu_blocks"] = *b;
        return Match::parsed;
      }
      if (starts_with(m, "non-default args: ")) return engine_args(ctx, sink, m.substr(18), "non_default_args");
      if (starts_with(m, "non_torch_memory"))
        return table_row(ctx, sink, m, "non_torch_memory", "non_torch_gib", true);
      return Match::none;
    case 'g':
      if (starts_with(m, "gpu_memory_utilization"))
        return table_row(ctx, sink, m, "gpu_memory_utilization", "gpu_memory_utilization", false);
      return Match::none;
    case 'a':
      if (starts_with(m, "args: ")) return engine_args(ctx, sink, m.substr(6), "namespace");
      if (starts_with(m, "available_kv_cache_memory"))
        return table_row(ctx, sink, m, "available_kv_cache_memory", "kv_cache_gib", true);
      return Match::none;
    case 'I':
      // "Initializing a V1 LLM engine (v0.10.0) with config: model=..." / V0 "Initializing an
      // LLM engine (v0.6.6) with config: ..."
      if (starts_with(m, "Initializing a") && contains(m, " engine (v")) {
        size_t v = m.find(" engine (v");
        sink.set_version(version_token(m.substr(v + 10)));
        size_t cfg = m.find("with config: ");
        if (cfg != std::string_view::npos) engine_args(ctx, sink, m.substr(cfg + 13), "engine_config");
        sink.note_engine(contains(m, "V1 LLM") ? EngineKind::vllm : EngineKind::vllm_v0);
        return Match::parsed;
      }
      return Match::none;
    case 'v':
      if (starts_with(m, "vLLM API server version ")) {
        sink.set_version(version_token(m.substr(24)));
        if (++sink.banners > 1) {
          core::Event& e = sink.event(EventKind::engine_dead, ctx, EngineKind::vllm);
          e.labels["phase"] = "restart";
        }
        sink.note_engine(EngineKind::vllm);
        return Match::parsed;
      }
      return Match::none;
    case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
      // Data-parallel stats aggregated by the frontend: "2 Engines Aggregated: Avg prompt ..."
      size_t agg = m.find(" Engines Aggregated: ");
      if (agg != std::string_view::npos && agg < 8) {
        std::string_view body = m.substr(agg + 21);
        if (starts_with(body, "Avg prompt throughput: ")) return stats_line(ctx, sink, body, "");
      }
      return Match::none;
    }
    default:
      return Match::none;
  }
}

}  // namespace llmtriage::ingest::detail
