#include "collect/snapshot_render.h"

#include <fmt/format.h>

#include <algorithm>

#include <cmath>

#include "core/text_escape.h"
#include "core/units.h"

namespace llmtriage::collect {
namespace {

std::string opt(const std::optional<double>& v, const char* spec = "{:.1f}", double scale = 1) {
  if (!v || !std::isfinite(*v)) return "n/a";
  return fmt::format(fmt::runtime(spec), *v * scale);
}

// A latency in a readable unit: "0.9 ms", "688 ms", "16.9 s" (core::format_duration_s).
std::string ms(const std::optional<double>& s) {
  if (!s || !std::isfinite(*s)) return "n/a";
  return core::format_duration_s(*s);
}

// Text the server or a file gave (model ids, versions, errors): escaped when printed.
std::string esc(const std::string& s) { return core::printable(s); }

std::string hist_line(const char* name, const HistogramStats& h) {
  if (h.count <= 0 && !h.p50) return "";
  return fmt::format("    {:<6} p50 {:>9}  p90 {:>9}  p99 {:>9}  mean {:>9}  ({:.0f} obs{})\n", name,
                     ms(h.p50), ms(h.p90), ms(h.p99), ms(h.mean), h.count,
                     h.since_start ? ", since engine start" : " in window");
}

std::string tokens_line(const char* name, const HistogramStats& h) {
  if (h.count <= 0) return "";
  return fmt::format("    {:<14} p50 {:>7}  p90 {:>7}  p99 {:>7}  mean {:>7} tokens{}\n", name,
                     opt(h.p50, "{:.0f}"), opt(h.p90, "{:.0f}"), opt(h.p99, "{:.0f}"),
                     opt(h.mean, "{:.0f}"), h.since_start ? " (since engine start)" : "");
}

std::string who(const WindowStats& w) {
  std::string s = w.model_name.empty() ? std::string("(no model label)") : esc(w.model_name);
  if (!w.engine_index.empty()) s += " [engine " + esc(w.engine_index) + "]";
  return s;
}

}  // namespace

std::string render_snapshot_text(const Snapshot& s) {
  std::string o;
  size_t ok = 0;
  for (const auto& sc : s.scrapes) ok += sc.ok;
  o += fmt::format("llmtriage snapshot (format v{}) taken {} by llmtriage {}\n", s.version,
                   s.created_utc.empty() ? std::string("?") : s.created_utc, s.llmtriage_version);
  if (s.mode == "live")
    o += fmt::format("  source: {} live, window {} every {}: {} of {} scrapes ok{}\n", esc(s.endpoint),
                     core::format_duration_s(s.window_s), core::format_duration_s(s.interval_s), ok, s.scrapes.size(),
                     s.complete ? "" : " (INCOMPLETE)");
  else
    o += fmt::format("  source: {} saved exposition file(s), {} ok\n", s.files.size(), ok);
  o += fmt::format("  engine: {}{}{}\n", core::to_string(s.engine),
                   s.engine_version.empty() ? "" : " " + esc(s.engine_version),
                   s.engine_detected_by.empty() ? "" : " (detected: " + s.engine_detected_by + ")");
  for (const auto& m : s.models)
    o += fmt::format("  model: {}{}{}\n", esc(m.id), m.root.empty() || m.root == m.id ? "" : " (" + esc(m.root) + ")",
                     m.max_model_len ? fmt::format(", max_model_len {}", *m.max_model_len) : "");
  if (s.server) {
    const auto& p = *s.server;
    o += fmt::format("  server: {} slots{}{}{}\n", p.total_slots ? std::to_string(*p.total_slots) : std::string("?"),
                     p.ctx_per_slot ? fmt::format(" of {} tokens each", *p.ctx_per_slot) : "",
                     p.ctx_train ? fmt::format(" (model trained for {})", *p.ctx_train) : "",
                     p.build.empty() ? "" : ", build " + esc(p.build));
  }
  if (!s.slots.empty()) {
    int busy_max = 0;
    double busy_sum = 0;
    for (const auto& x : s.slots) {
      busy_max = std::max(busy_max, x.busy());
      busy_sum += x.busy();
    }
    const auto& last = s.slots.back();
    o += fmt::format("  slots: {} /slots samples, busy mean {:.1f}, max {} of {}\n", s.slots.size(),
                     busy_sum / static_cast<double>(s.slots.size()), busy_max, last.slots.size());
    for (const auto& x : last.slots)
      if (x.processing)
        o += fmt::format("    slot {}: prompt {} tokens ({} evaluated, {} cached), {} decoded, {} to go (last sample)\n", x.id,
                         x.n_prompt_tokens.value_or(0), x.n_prompt_tokens_processed.value_or(0),
                         x.n_prompt_tokens_cache.value_or(0), x.n_decoded.value_or(0), x.n_remain.value_or(0));
  }

  o += "\nLayer 1 - load\n";
  if (s.window.empty()) o += "  no engine metrics captured\n";
  for (const auto& w : s.window) {
    o += fmt::format("  {}: prompt {} tok/s, generation {} tok/s, finished {} req/s{}\n", who(w),
                     opt(w.prompt_tok_s), opt(w.generation_tok_s), opt(w.finished_req_s, "{:.2f}"),
                     w.scrapes < 2 ? " (one scrape: rates need two)" : " over " + core::format_duration_s(w.window_s));
    o += tokens_line("prompt length", w.prompt_tokens);
    o += tokens_line("output length", w.output_tokens);
  }

  o += "\nLayer 2 - scheduling / capacity\n";
  for (const auto& w : s.window) {
    o += fmt::format("  {}: running {} (max {}), waiting {} (max {}), KV usage {} (max {}){}\n", who(w),
                     opt(w.running, "{:.0f}"), opt(w.running_max, "{:.0f}"), opt(w.waiting, "{:.0f}"),
                     opt(w.waiting_max, "{:.0f}"), opt(w.kv_usage, "{:.1f}%", 100),
                     opt(w.kv_usage_max, "{:.1f}%", 100),
                     w.kv_cache_capacity_tokens ? fmt::format(" of {:.0f} tokens", *w.kv_cache_capacity_tokens) : "");
    o += fmt::format("    preemptions {} total, {} /s; prefix-cache hit rate {}{}\n",
                     opt(w.preemptions_total, "{:.0f}"), opt(w.preemptions_per_s, "{:.2f}"),
                     opt(w.prefix_cache_hit_rate, "{:.1f}%", 100),
                     w.counter_resets ? fmt::format("; {} counter reset(s): engine restarted in the window", w.counter_resets) : "");
    o += hist_line("TTFT", w.ttft_s);
    o += hist_line("ITL", w.itl_s);
    o += hist_line("TPOT", w.tpot_s);
    o += hist_line("E2E", w.e2e_s);
    o += hist_line("queue", w.queue_s);
  }
  o += "    (percentiles are PromQL histogram_quantile bucket estimates)\n";

  o += "\nLayer 3 - hardware\n";
  if (s.gpus.empty()) o += "  no GPU readings" + (s.gpu_note.empty() ? std::string() : ": " + esc(s.gpu_note)) + "\n";
  for (const auto& g : s.gpus) {
    const auto& l = g.last;
    o += fmt::format("  GPU {} {}: power {} / {} W (max {}), SM clock {} / {} MHz (min {}), {} C (max {})\n",
                     g.index, esc(g.name), opt(l.power_w, "{:.0f}"), opt(l.power_limit_w, "{:.0f}"),
                     opt(g.power_w_max, "{:.0f}"), opt(l.sm_clock_mhz, "{:.0f}"),
                     opt(l.max_sm_clock_mhz, "{:.0f}"), opt(g.sm_clock_mhz_min, "{:.0f}"),
                     opt(l.temp_c, "{:.0f}"), opt(g.temp_c_max, "{:.0f}"));
    std::string thr;
    for (const auto& n : g.throttle_names_seen) thr += (thr.empty() ? "" : ", ") + n;
    o += fmt::format("    memory {} / {} GiB, utilization {}{}; clock event reasons seen: {}\n",
                     opt(l.mem_used_gib), opt(l.mem_total_gib), opt(l.util, "{:.0f}%", 100),
                     l.dram_active ? ", DRAM active " + opt(l.dram_active, "{:.0f}%", 100) : "",
                     thr.empty() ? "none" : thr);
  }
  if (!s.gpu_source.empty() && !s.gpus.empty()) o += "    (source: " + s.gpu_source + ")\n";

  o += "\nLayer 4 - parameters\n";
  o += s.engine_args.empty() ? "  engine arguments: not given (--engine-args)\n"
                             : "  engine arguments: " + esc(s.engine_args) + "\n    (" + esc(s.engine_args_note) + ")\n";
  if (s.engine_settings) {
    const auto& st = *s.engine_settings;
    auto i = [](const auto& v) { return v ? fmt::format("{}", *v) : std::string("default"); };
    auto b = [](const std::optional<bool>& v) { return v ? (*v ? std::string("on") : std::string("off")) : std::string("default"); };
    o += fmt::format("  TP {}, PP {}, DP {}; max-model-len {}, max-num-seqs {}, max-num-batched-tokens {}\n",
                     i(st.tensor_parallel_size), i(st.pipeline_parallel_size), i(st.data_parallel_size),
                     i(st.max_model_len), i(st.max_num_seqs), i(st.max_num_batched_tokens));
    o += fmt::format("  gpu-memory-utilization {}, kv-cache-dtype {}, quantization {}, chunked prefill {}, prefix caching {}, enforce-eager {}\n",
                     i(st.gpu_memory_utilization ? st.gpu_memory_utilization : st.mem_fraction_static),
                     st.kv_cache_dtype.value_or("default"), st.quantization.value_or("default"),
                     b(st.enable_chunked_prefill), b(st.enable_prefix_caching), b(st.enforce_eager));
  }

  size_t malformed = 0;
  for (const auto& sc : s.scrapes) malformed += sc.malformed;
  if (!s.failures.empty() || malformed) {
    o += "\nMissing or partial\n";
    if (malformed) o += fmt::format("  {} malformed exposition line(s) skipped\n", malformed);
    for (const auto& f : s.failures) o += "  " + f.what + ": " + esc(f.error) + "\n";
  }
  return o;
}

}  // namespace llmtriage::collect
