// The queue signature in client records against a healthy baseline (docs/rules.md, "Layer:
// scheduling_capacity"): TTFT grew while TPOT stayed flat. Once a request runs it decodes as fast
// as before, so the extra time is before its first token: it waited to be admitted (KV blocks or
// a batch slot) or its prefill waited behind others'. A bench folder and its baseline carry this
// even when the server's scrapes (before/during/after the run) caught no queue. Also: prefix
// caching switched off, read from the engine's own settings (cache_config_info) against the hits
// a baseline had.
#include <fmt/format.h>

#include <cmath>

#include "diagnose/scheduling_rules.h"

namespace llmtriage::diagnose::sched {

namespace {

std::optional<double> ratio(const Context& c, const char* name) {
  const auto now = c.ind.get(name), base = c.ind.base(name);
  if (!now || !base || *base <= 0) return std::nullopt;
  return *now / *base;
}

}  // namespace

void queue_from_records(const Context& c, kit::Models&, std::vector<Finding>& out) {
  // A rule that named the limit from the server's own readings says more.
  for (const auto& f : out)
    if (f.severity != Severity::info) return;
  const double grew = c.th.get("traverse.baseline_latency_ratio");
  const double flat = c.th.get("sched.queue_tpot_flat_ratio");
  const char* ttft_name = c.ind.get("ttft_p50_s") && c.ind.base("ttft_p50_s") ? "ttft_p50_s" : "ttft_p99_s";
  const auto ttft = ratio(c, ttft_name);
  const auto tpot = ratio(c, "tpot_p50_s");
  if (!ttft || !tpot || *ttft < grew || *tpot > flat) return;
  const double floor = c.th.get("traverse.baseline_ttft_floor_s");
  if (*c.ind.get(ttft_name) - *c.ind.base(ttft_name) < floor) return;
  // Not the load layer's causes: more requests, longer prompts (those rules name them), nor a
  // prefix cache that stopped hitting (the prefill itself grew: prefix_cache_miss_routing).
  const auto rate = ratio(c, "request_rate");
  const auto in_len = ratio(c, "input_len_mean");
  if (rate && *rate >= c.th.get("load.rate_increase_ratio")) return;
  if (in_len && *in_len >= c.th.get("load.length_shift_ratio")) return;
  if (const auto hit = ratio(c, "prefix_cache_hit_rate");
      hit && *hit < c.th.get("sched.prefix_hit_drop_ratio") &&
      c.ind.base("prefix_cache_hit_rate").value_or(0) >= c.th.get("sched.prefix_min_baseline_hit"))
    return;

  Finding f = kit::finding("queue_from_records", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning,
                           "Requests wait before their first token: TTFT grew with TPOT flat (a queue, not slower steps)");
  f.evidence.push_back(c.ind.item(ttft_name));
  f.evidence.back().text = fmt::format("{:.1f}x the baseline (threshold {} x)", *ttft, kit::num(grew));
  f.evidence.push_back(c.ind.item("tpot_p50_s"));
  f.evidence.back().text = fmt::format("{:.2f}x the baseline (flat: at most {} x)", *tpot, kit::num(flat));
  if (rate) {
    f.evidence.push_back(c.ind.item("request_rate"));
    f.evidence.back().text = fmt::format("{:.2f}x the baseline: the same load", *rate);
  }
  if (in_len) {
    f.evidence.push_back(c.ind.item("input_len_mean"));
    f.evidence.back().text = fmt::format("{:.2f}x the baseline: the same prompts", *in_len);
  }
  const auto waiting = kit::first(c, {"waiting_max", "waiting_p50", "waiting"});
  const auto kv = kit::first(c, {"kv_usage_max", "kv_usage"});
  if (waiting) f.evidence.push_back(c.ind.item(kit::first_name(c, {"waiting_max", "waiting_p50", "waiting"})));
  if (kv) f.evidence.push_back(c.ind.item(kit::first_name(c, {"kv_usage_max", "kv_usage"})));
  // How sure: the signature alone says "before the first token"; the server's readings of a
  // queue or a full pool confirm it; without them a slower prefill (a different prompt mix the
  // means hide) is still possible.
  const bool seen_queue = waiting && *waiting >= 1;
  const bool kv_full = kv && *kv >= c.th.get("sched.kv_near_full");
  f.confidence = kit::confidence(seen_queue ? 0.55 : 0.4, f.evidence);
  f.explanation = fmt::format(
      "TTFT is {:.1f}x the baseline's while TPOT is {:.2f}x at the same load: once a request runs it decodes as "
      "fast as before, so the time was spent before its first token -- waiting to be admitted (KV blocks or a batch "
      "slot) or behind other prompts' prefill. That is the scheduling/capacity layer, not the GPU (slower steps would "
      "raise TPOT too){}. {}",
      *ttft, *tpot,
      kv_full ? fmt::format("; the KV pool reached {:.0f}%, so blocks are the likely limit", *kv * 100)
              : (kv ? fmt::format("; the KV pool peaked at {:.0f}%, so more likely a batch-slot or step-budget limit",
                                  *kv * 100)
                    : ""),
      seen_queue ? fmt::format("The server's gauges saw up to {} requests waiting.", kit::num(*waiting))
                 : "The server's own readings (num_requests_waiting, kv_cache_usage) during the run would say which limit "
                   "binds; they were not seen here, so this is the signature alone.");
  f.remedies.push_back(kit::qualitative("replicas", "current", "+1",
                                        "more admission capacity at the same load: the wait before the first token shrinks"));
  if (kv_full)
    f.remedies.push_back(kit::qualitative("kv-cache-dtype", "auto", "fp8", "about twice the KV tokens per GiB: more requests admitted"));
  else
    f.remedies.push_back(kit::qualitative("max-num-seqs", "current", "higher (within the KV pool)",
                                          "more requests run at once when KV is to spare"));
  f.next_measurement =
      "Scrape vllm:num_requests_waiting and kv_cache_usage_perc during the run (`bench --scrape-interval 1s`, or "
      "`diagnose --endpoint` under load): a queue with the pool full is KV, with KV to spare it is the batch cap.";
  out.push_back(std::move(f));
}

void prefix_caching_off(const Context& c, kit::Models&, std::vector<Finding>& out) {
  const auto on = c.ind.get("prefix_caching");
  if (!on || *on != 0) return;
  const auto base_hit = c.ind.base("prefix_cache_hit_rate");
  const auto base_on = c.ind.base("prefix_caching");
  const bool had_hits = base_hit && *base_hit >= c.th.get("sched.prefix_min_baseline_hit");
  if (!had_hits && !(base_on && *base_on == 1)) return;
  Finding f = kit::finding("prefix_caching_off", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning,
                           "Prefix caching is off: prompts that share a prefix are prefilled in full again");
  f.evidence.push_back(c.ind.item("prefix_caching", 1, "=="));
  if (c.ind.get("prefix_cache_hit_rate") || base_hit) f.evidence.push_back(c.ind.item("prefix_cache_hit_rate"));
  if (c.ind.get("ttft_p50_s") && c.ind.base("ttft_p50_s")) f.evidence.push_back(c.ind.item("ttft_p50_s"));
  f.confidence = kit::confidence(had_hits ? 0.7 : 0.55, f.evidence);
  f.explanation = fmt::format(
      "The engine reports prefix caching disabled (vllm:cache_config_info enable_prefix_caching, or the launch "
      "settings){}: every request prefills its whole prompt, so TTFT and the prefill load grow with the shared part "
      "the cache used to serve.",
      had_hits ? fmt::format(" while the healthy period hit {:.0f}% of prompt tokens", *base_hit * 100) : "");
  f.remedies.push_back(kit::qualitative("enable-prefix-caching", "off", "on",
                                        had_hits ? fmt::format("hit rate back toward the baseline {:.0f}%", *base_hit * 100)
                                                 : "shared prefixes served from the cache"));
  f.next_measurement = "Check the launch flags (--no-enable-prefix-caching, --enable-prefix-caching) of the current "
                       "deployment against the healthy one.";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose::sched
