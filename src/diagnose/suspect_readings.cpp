// Clues from dashboard readings (--observe, metrics, records) for the suspected-causes reasoning
// (suspects.h; weights and rationale in docs/rules.md, "Suspected causes", *Readings*).
#include <fmt/format.h>

#include <cmath>

#include "diagnose/rule_util.h"
#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"

namespace llmtriage::diagnose {

using clue::Clues;
using clue::has_sym;
using clue::llamacpp_family;
using clue::reading;

namespace {
constexpr double kClockFloorMhz = 1000;  // under the lowest boost clock of current GPUs (data/gpus)
}  // namespace

std::vector<Clue> reading_clues(const Indicators& ind, const std::vector<Symptom>& sym, const std::string& engine) {
  Clues c;
  auto v = [&](const char* n) { return ind.get(n); };
  auto src = [&](const char* n) {
    const Indicator* i = ind.find(n);
    return i ? i->source : std::string("observe");
  };
  const bool slow = has_sym(sym, Symptom::tpot_high) || has_sym(sym, Symptom::throughput_low);
  if (auto o = v("output_len_mean"); o && *o <= 2)
    c.add("short_outputs", 3.0, reading("output_len_mean", *o, "tokens", src("output_len_mean"), "", 2, "<="), true);
  if (auto u = v("gpu_util")) {
    auto item = reading("gpu_util", *u, "fraction", src("gpu_util"));
    if (*u <= 0.1 && slow) {
      c.add("partial_offload", 1.2, item);
      c.add("gpu_not_used", 1.2, item);
    } else if (*u <= 0.75 && slow) {
      c.add("host_cpu_bound", 1.2, item);
      c.add("interconnect_bound", 0.7, item);
      if (llamacpp_family(engine)) c.add("partial_offload", 0.7, item);
    } else if (*u >= 0.9 && slow) {
      c.add("gpu_not_used", -2.0, item);
      c.add("host_cpu_bound", -1.0, item);
    }
  }
  if (auto m = v("gpu_mem_used_gib"); m && *m < 0.5 && slow) {
    auto item = reading("gpu_mem_used_gib", *m, "GiB", src("gpu_mem_used_gib"), "the GPU holds no model", 0.5, "<");
    c.add("gpu_not_used", 2.5, item);
    c.add("partial_offload", -1.0, item);
  }
  if (auto clk = v("sm_clock_mhz"), mx = v("max_sm_clock_mhz"); clk && mx && *mx > 0) {
    const double r = *clk / *mx;
    auto item = reading("sm_clock/max_sm_clock", r, "fraction", src("sm_clock_mhz"), fmt::format("{} of {} MHz", num(*clk), num(*mx)), 0.85, "<");
    if (r < 0.85) c.add("gpu_throttled", 3.0, item, true);
    else if (r > 0.95) c.add("gpu_throttled", -2.5, item);
  } else if (clk && *clk > 0 && *clk < kClockFloorMhz && slow) {
    // No maximum to compare with: every GPU of the last decade boosts to 1.4-2.6 GHz under load
    // (A100 1410, V100 1530, T4 1590, L4 2040, H100 1980, MI300X 2100 MHz; data/gpus), so an SM
    // clock under 1 GHz while the service is slow is held down (power cap, heat, a P-state).
    c.add("gpu_throttled", 2.0, reading("sm_clock_mhz", *clk, "MHz", src("sm_clock_mhz"),
                                        "below every current GPU's boost clock under load", kClockFloorMhz, "<"));
  }
  // Timeouts against latencies.
  auto gw = v("gateway_timeout_s");
  std::optional<double> lat;
  const char* lat_name = nullptr;
  for (const char* n : {"e2e_p99_s", "ttft_p99_s", "e2e_p50_s", "ttft_p50_s"})
    if (auto x = v(n)) {
      lat = x;
      lat_name = n;
      break;
    }
  if (gw && lat) {
    auto item = reading("gateway_timeout_s", *gw, "s", src("gateway_timeout_s"), fmt::format("against {} = {} s", lat_name, num(*lat)));
    if (*gw <= *lat * 1.02) c.add("gateway_timeout", 3.0, item, true);
    else if (*gw >= 10 * *lat) {
      c.add("gateway_timeout", -1.5, item);
      c.add("proxy_streaming_config", 1.5, item);
    }
  }
  // A latency that sits on a round timeout value is a cut, not a measurement.
  if (has_sym(sym, Symptom::timeout_or_stream_break) && !gw)
    for (const char* n : {"e2e_p99_s", "e2e_p50_s", "ttft_p99_s"})
      if (auto x = v(n)) {
        for (double t : {10.0, 15.0, 20.0, 30.0, 60.0, 90.0, 100.0, 120.0, 180.0, 300.0, 600.0})
          if (std::fabs(*x - t) <= 0.02 * t) {
            c.add("gateway_timeout", 2.0, reading(n, *x, "s", src(n), fmt::format("at a round timeout value ({} s): a cut, not a latency", num(t))));
            break;
          }
        break;
      }
  // Exactly 100 running with a throughput or first-token complaint: the default connection
  // pool of the two common Python HTTP clients (httpx Limits max_connections=100, aiohttp
  // TCPConnector limit=100) in the load generator or a proxy, not a server default (vLLM 256 /
  // 1024, SGLang sized by memory, TGI 128).
  if (auto r = v("running"); r && *r == 100 && !v("waiting") &&
                             (has_sym(sym, Symptom::throughput_low) || has_sym(sym, Symptom::ttft_spike)))
    c.add("client_concurrency_limit", 1.5, reading("running", *r, "requests", src("running"),
                                                   "exactly the default connection pool of httpx and aiohttp (100)"));
  // One request running while the service is slow to answer many: served one after another
  // (a cap of one, a server that does not batch), whatever else waits.
  if (auto r = v("running"); r && *r == 1 && (has_sym(sym, Symptom::throughput_low) || has_sym(sym, Symptom::ttft_spike)))
    c.add("running_cap_queueing", 1.5, reading("running", *r, "requests", src("running"), "one request running: the others wait their turn"));
  if (auto w = v("waiting"), r = v("running"); w && r && *r == 0 && *w >= 1)
    c.add("kv_pool_below_one_request", 2.5, reading("running", *r, "requests", src("running"), fmt::format("{} waiting and none running: no request can be admitted", num(*w))));
  if (auto r = v("running"), w = v("waiting"), rate = v("request_rate"); r && w && rate && *r == 0 && *w == 0 && *rate > 0 &&
                                                                          has_sym(sym, Symptom::timeout_or_stream_break))
    c.add("running_cap_queueing", 1.5, reading("request_rate", *rate, "req/s", src("request_rate"), "requests arrive yet none runs or waits: they are refused or lost at admission"));
  if (auto r = v("running"), o = v("output_tokens_per_s"); r && o && *r >= 1 && *o == 0)
    c.add("kernel_hang_or_fault", 2.5, reading("output_tokens_per_s", *o, "tok/s", src("output_tokens_per_s"), fmt::format("{} running, no tokens", num(*r))));
  // Requests decoding at once, by Little's law: output tokens/s x seconds per output token. A
  // throughput complaint where that is a handful (not one stream, not a full batch) is a server
  // or client that runs only a few requests at a time: a cap, not a slow GPU (the step of a
  // GPU engine costs about the same for 4 sequences as for 32).
  if (auto o = v("output_tokens_per_s"), t = v("tpot_p50_s"); o && t && *o > 0 && *t > 0 && has_sym(sym, Symptom::throughput_low)) {
    const double conc = *o * *t;
    if (conc >= 1.5 && conc <= 8)
      c.add("running_cap_queueing", 1.5, reading("decoding_concurrency", conc, "requests", src("output_tokens_per_s"),
                                                 fmt::format("{} tok/s x {} s per token: about {:.0f} requests decode at once",
                                                             num(*o), num(*t), conc), 8, "<="));
  }
  // A prefix-cache hit rate on long prompts (multi-turn, agents): a stable conversation re-sends
  // its history and hits most of it. Part of it hit is a prefix that changes partway (a
  // timestamp or a reordered tool list: the content, the load's); none at all on prompts that
  // long is the cache never seeing the conversation before (turns routed to a cold replica) as
  // often as a cache that is off.
  if (auto h = v("prefix_cache_hit_rate"); h && (sym.empty() || has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low))) {
    auto in = v("input_len_mean");
    if (!in) in = v("input_len_p99");
    // With no prompt length to judge by, only a hit rate of (about) zero speaks: nothing matched.
    if ((in && *in >= 4000 && *h < 0.6) || (!in && *h < 0.05)) {
      auto item = reading("prefix_cache_hit_rate", *h, "fraction", src("prefix_cache_hit_rate"),
                          in ? fmt::format("on {}-token prompts", num(*in)) : std::string("nothing matched the cache"),
                          in ? 0.6 : 0.05, "<");
      if (*h < 0.05) {
        c.add("routing_affinity_lost", 1.5, item);
        c.add("prompt_cache_unused", 1.0, item);
      } else {
        c.add("prompt_cache_unused", 1.5, item);
      }
    }
  }
  if (auto in = v("input_len_mean")) {
    auto item = reading("input_len_mean", *in, "tokens", src("input_len_mean"));
    if (has_sym(sym, Symptom::ttft_spike) && *in >= 800) c.add("long_prompts", *in >= 8000 ? 1.5 : 1.0, item);
    if (slow && *in >= 4000) c.add("long_prompts", 0.5, item);
  }
  if (auto p99 = v("ttft_p99_s"), p50 = v("ttft_p50_s"); p99 && p50 && *p50 > 0 && *p99 / *p50 >= 10 && !v("waiting"))
    c.add("jit_compile_first_request", 1.5, reading("ttft_p99/p50", *p99 / *p50, "x", "observe",
                                                     "one slow first request among fast ones, with no queue reading"));
  if (auto t = v("tpot_p50_s"); t && *t >= 0.15 && llamacpp_family(engine) && slow)
    c.add("partial_offload", 1.0, reading("tpot_p50_s", *t, "s", src("tpot_p50_s"), "a few tokens per second: CPU speed"));
  if (auto o = v("output_tokens_per_s"), e = v("expected_output_tokens_per_s"); o && e && *e > 0 && *o < 0.2 * *e) {
    auto item = reading("output_tokens_per_s", *o, "tok/s", src("output_tokens_per_s"), fmt::format("against the expected {} tok/s", num(*e)));
    if (auto r = v("running"); r && *r >= 32) c.add("expensive_request_features", 1.0, item);
    if (!v("gpu_util")) c.add("gpu_not_used", 0.5, item);
  }
  // Prefill dominating the steps: the engine's own stats say it processed prompt tokens many
  // times faster than it generated (vLLM's "Avg prompt throughput" against "Avg generation
  // throughput"). Long prompts -- other clients' as well as this one's -- share every step with
  // the decoding requests, which then get a token per long step. The GPU is clearly in use.
  if (auto pt = v("prompt_tokens_per_s"), o = v("output_tokens_per_s"); pt && o && *pt >= 1000 && *pt >= 20 * std::max(*o, 0.1)) {
    auto item = reading("prompt_tokens_per_s", *pt, "tok/s", src("prompt_tokens_per_s"),
                        fmt::format("prompt tokens processed against {} tok/s generated", num(*o)));
    if (slow) c.add("long_prompts", 2.0, item);
    c.add("gpu_not_used", -2.0, item);
  }
  if (auto o = v("output_tokens_per_s"); o && *o > 0 && *o < 2 && slow) {
    auto item = reading("output_tokens_per_s", *o, "tok/s", src("output_tokens_per_s"), "under 2 tokens/s");
    c.add(llamacpp_family(engine) ? "partial_offload" : "gpu_not_used", 0.7, item);
  }
  return std::move(c.out);
}

}  // namespace llmtriage::diagnose
