// Queueing rules of the scheduling_capacity layer: KV pool saturated under a deep queue,
// preemption storms, long prefills blocking an idle queue, prefix-cache misses from routing, and
// a running batch too large for the TPOT objective. Remedies are single-variable changes with a
// simulator what-if on the observed workload (and the ledger's pool for memory variables).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "diagnose/scheduling_rules.h"
#include "diagnose/hardware_rules.h"

namespace llmtriage::diagnose::sched {

using kit::first;
using kit::predicted;

namespace {

int replicas(const Context& c) { return std::max(1, static_cast<int>(c.ind.get("replicas").value_or(1))); }

std::string kv_dtype(const Context& c) { return c.in.now.deployment.settings.kv_cache_dtype.value_or("auto"); }

void add_capacity_remedies(const Context& c, kit::Models& m, kit::Scored& out, Metric focus) {
  auto add = [&](const std::string& change, const std::string& from, const std::string& to,
                 const std::function<void(sim::Scenario&)>& sim_change,
                 const std::function<void(ledger::LedgerInput&)>& pool_change, const std::string& effect) {
    std::optional<double> v;
    Remedy r = predicted(c, m, change, from, to, sim_change, pool_change, focus, effect, &v);
    out.emplace_back(std::move(r), v);
  };
  const int n = replicas(c);
  add("replicas", std::to_string(n), std::to_string(2 * n), [n](sim::Scenario& s) { s.config.replicas = 2 * n; },
      nullptr, "half the load per replica: the queue drains if the arrival rate is below twice the current capacity");
  if (kv_dtype(c).rfind("fp8", 0) != 0)
    add("kv-cache-dtype", kv_dtype(c), "fp8", [](sim::Scenario& s) { s.deployment.kv_cache_dtype = "fp8"; },
        [](ledger::LedgerInput& x) { x.settings.kv_cache_dtype = "fp8"; },
        "about twice the KV tokens per GiB (check output quality on the same prompts)");
  const auto& st = c.in.now.deployment.settings;
  const double util = st.gpu_memory_utilization.value_or(st.mem_fraction_static.value_or(0.9));
  if (util < 0.9) {
    const double to = std::min(0.95, util + 0.05);
    const bool sg = c.in.now.deployment.engine == core::EngineKind::sglang;
    add(sg ? "mem-fraction-static" : "gpu-memory-utilization", fmt::format("{:.2f}", util), fmt::format("{:.2f}", to),
        [to](sim::Scenario& s) { s.deployment.gpu_memory_utilization = to; },
        [to, sg](ledger::LedgerInput& x) {
          if (sg) x.settings.mem_fraction_static = to;
          else x.settings.gpu_memory_utilization = to;
        },
        "more of the GPU for the KV pool (when nothing else shares the GPU)");
  }
}

// A deep queue with KV to spare and no known batch cap reached: the replicas' step throughput is
// below the arrival rate at this batch size (compute-bound), or a per-step token budget limits
// admission. Weaker than a named limit (confidence 0.45), but the layer is not healthy.
void queue_backlog(const Context& c, kit::Models& m, const QueueDepth& qd, double waiting, std::optional<double> kv, std::optional<double> running,
                   std::optional<double> seqs, std::vector<Finding>& out) {
  Finding f = kit::finding("queue_backlog", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning,
                           "Requests queue with KV to spare: the replicas serve fewer requests per second than arrive");
  f.evidence.push_back(waiting_item(c, qd, ">="));
  if (kv) f.evidence.push_back(c.ind.item(kit::first_name(c, {"kv_usage", "kv_usage_mean", "kv_usage_max"}), c.th.get("sched.kv_near_full"), "<"));
  if (running) f.evidence.push_back(c.ind.item(kit::first_name(c, {"running_max", "running"})));
  if (c.ind.get("request_rate")) f.evidence.push_back(c.ind.item("request_rate"));
  f.confidence = kit::confidence(0.45, f.evidence);
  f.explanation = fmt::format(
      "{:.0f} requests wait{} and the running batch ({}) is not at a known cap: each step is as large as the scheduler "
      "makes it and still the queue grows, so the deployment's throughput at this batch size is below the arrival "
      "rate, or a per-step token budget (max-num-batched-tokens) admits too little per step.",
      waiting, kv ? fmt::format(" while the KV pool is only {:.0f}% used", *kv * 100) : "",
      running ? fmt::format("{:.0f} sequences{}", *running, seqs ? fmt::format(" of max-num-seqs {:.0f}", *seqs) : "") : "unknown");
  if (auto ttft = c.ind.get("ttft_p99_s"), p50 = c.ind.get("ttft_p50_s"); ttft && p50 && *ttft > 0)
    f.explains = std::clamp(1 - *p50 / *ttft, 0.0, 1.0);
  kit::Scored scored;
  add_capacity_remedies(c, m, scored, Metric::ttft_p99);
  f.remedies = kit::ordered(std::move(scored), Metric::ttft_p99);
  f.next_measurement = "Compare the request rate with the replicas' finished-request rate at full load (llmtriage capacity); "
                       "check max-num-batched-tokens against the prompt lengths.";
  out.push_back(std::move(f));
}

}  // namespace

QueueDepth deep_queue(const Context& c) {
  QueueDepth q;
  q.reading = kit::first_name(c, {"waiting_p50", "waiting"});
  q.waiting = c.ind.get(q.reading);
  if (auto client = c.ind.get("waiting_client"); client && (!q.waiting || *client > *q.waiting)) {
    q.waiting = client;
    q.reading = "waiting_client";
  }
  const double fixed = c.th.get("sched.waiting_deep");
  q.threshold = fixed;
  const auto seqs = c.ind.get("max_num_seqs");
  const auto running = first(c, {"running_max", "running"});
  std::optional<double> cap;
  if (seqs && *seqs > 0) cap = *seqs;
  if (running && *running > 0) cap = cap ? std::min(*cap, *running) : *running;
  if (!cap) return q;
  const double share = c.th.get("sched.waiting_deep_share");
  q.threshold = std::clamp(share * *cap, c.th.get("sched.waiting_deep_min"), fixed);
  std::string of = running && *running > 0 ? fmt::format("{} running", kit::num(*running)) : std::string();
  if (seqs && *seqs > 0) of += fmt::format("{}max-num-seqs/slots {}", of.empty() ? "" : ", ", kit::num(*seqs));
  q.basis = fmt::format("deep at {} x the concurrency the engine runs ({}), within [{}, {}]", kit::num(share), of,
                        kit::num(c.th.get("sched.waiting_deep_min")), kit::num(fixed));
  return q;
}

EvidenceItem waiting_item(const Context& c, const QueueDepth& q, const char* op) {
  EvidenceItem e = c.ind.item(q.reading.empty() ? kit::first_name(c, {"waiting_p50", "waiting"}) : q.reading, q.threshold, op);
  if (!q.basis.empty()) e.text = e.text.empty() ? q.basis : q.basis + "; " + e.text;
  return e;
}

void kv_pool_saturated(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  // One cause, one finding: a preemption storm is the pool saturating while serving.
  for (const auto& f : out)
    if (f.id == "preemption_storm") return;
  const QueueDepth qd = deep_queue(c);
  const auto waiting = qd.waiting;
  const double deep = qd.threshold, full = c.th.get("sched.kv_near_full");
  if (!waiting || *waiting < deep) return;
  // Which capacity limit binds: the KV pool, or the running-batch cap (max-num-seqs) with KV to spare.
  const auto kv = first(c, {"kv_usage", "kv_usage_mean", "kv_usage_max"});
  const auto running = first(c, {"running_max", "running"});
  const auto seqs = c.ind.get("max_num_seqs");
  const bool kv_full = kv && *kv >= full;
  const bool seq_cap = running && seqs && *running >= c.th.get("sched.batch_running_share") * *seqs;
  if (!kv_full && !seq_cap) {
    queue_backlog(c, m, qd, *waiting, kv, running, seqs, out);
    return;
  }
  Finding f = kit::finding("kv_pool_saturated", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning,
                           kv_full ? "KV pool saturated: requests queue for KV blocks"
                                   : "Running batch at its cap (max-num-seqs): requests queue for a slot");
  f.evidence.push_back(waiting_item(c, qd, ">="));
  if (kv) f.evidence.push_back(c.ind.item(kit::first_name(c, {"kv_usage", "kv_usage_mean", "kv_usage_max"}), full,
                                          kv_full ? ">=" : "<"));
  if (seq_cap) {
    f.evidence.push_back(c.ind.item(kit::first_name(c, {"running_max", "running"}),
                                    c.th.get("sched.batch_running_share") * *seqs, ">="));
    f.evidence.push_back(c.ind.item("max_num_seqs"));
  }
  double base = kv_full ? 0.6 : 0.55;
  // Preemptions corroborate KV pressure (a second, independent signal of the same cause).
  if (c.ind.get("preemptions_per_s").value_or(0) > 0 || c.ind.get("preemption_events").value_or(0) > 0) {
    f.evidence.push_back(c.ind.item(kit::first_name(c, {"preemptions_per_s", "preemption_events"})));
    base += 0.1;
  }
  const auto pool = kv_pool(c, m);
  if (pool) f.evidence.push_back(pool->item);
  f.confidence = kit::confidence(base, f.evidence);
  if (kv_full)
    f.explanation = fmt::format(
        "{:.0f} requests wait while the KV pool is {:.0f}% used{}: the scheduler admits a request only when its blocks "
        "fit, so arrivals queue and TTFT grows with the queue. The deployment holds fewer concurrent tokens than the "
        "load needs.",
        *waiting, *kv * 100, pool ? fmt::format(" ({} tokens)", kit::num(pool->tokens)) : "");
  else
    f.explanation = fmt::format(
        "{:.0f} requests wait while the running batch sits at its cap of {:.0f} sequences{}: arrivals exceed what the "
        "deployment serves at this batch size, so the queue and TTFT grow.",
        *waiting, *seqs, kv ? fmt::format(" and the KV pool is only {:.0f}% used", *kv * 100) : "");
  if (auto ttft = c.ind.get("ttft_p99_s"), p50 = c.ind.get("ttft_p50_s"); ttft && p50 && *ttft > 0)
    f.explains = std::clamp(1 - *p50 / *ttft, 0.0, 1.0);  // NOTE: rough: the tail above the median is queueing
  kit::Scored scored;
  if (seq_cap && !kv_full) {
    // KV to spare: a larger batch cap admits more, up to what the pool holds at the observed lengths.
    const auto in_len = c.ind.get("input_len_mean"), out_len = c.ind.get("output_len_mean");
    int64_t to = static_cast<int64_t>(*seqs) * 2;
    if (pool && in_len && out_len && *in_len + *out_len > 0)
      to = std::min<int64_t>(to, std::max<int64_t>(static_cast<int64_t>(*seqs) + 1,
                                                   static_cast<int64_t>(pool->tokens * full / (*in_len + *out_len))));
    std::optional<double> v;
    Remedy r = kit::predicted(c, m, "max-num-seqs", kit::num(*seqs), std::to_string(to),
                              [to](sim::Scenario& s) { s.max_num_seqs = to; }, nullptr, Metric::ttft_p99,
                              "more sequences per step while the KV pool has room (TPOT rises with the batch)", &v);
    scored.emplace_back(std::move(r), v);
  }
  add_capacity_remedies(c, m, scored, Metric::ttft_p99);
  f.remedies = kit::ordered(std::move(scored), Metric::ttft_p99);
  f.next_measurement = "Watch num_requests_waiting, num_requests_running and kv_cache_usage together over 10 minutes; a what-if with `llmtriage sim run` on the records confirms the replica count.";
  out.push_back(std::move(f));
}

void preemption_storm(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  const double th = c.th.get("sched.preemption_rate_per_s");
  std::optional<double> rate = c.ind.get("preemptions_per_s");
  EvidenceItem rate_item = c.ind.item("preemptions_per_s", th, ">=");
  bool rate_known = rate.has_value();
  if (!rate) {
    // From the log: V0 logs every 50th preemption with the cumulative count, V1 per-interval counts.
    double cumulative = 0, summed = 0, n = 0, t0 = 1e300, t1 = -1e300;
    std::string src;
    for (const auto& e : c.in.now.events) {
      if (e.kind != core::EventKind::preemption) continue;
      if (src.empty()) src = e.source;
      ++n;
      if (auto f = e.fields.find("cumulative_preemptions"); f != e.fields.end()) cumulative = std::max(cumulative, f->second);
      if (auto f = e.fields.find("preemptions"); f != e.fields.end()) summed += f->second;
      if (e.t_s) {
        t0 = std::min(t0, *e.t_s);
        t1 = std::max(t1, *e.t_s);
      }
    }
    const double total = std::max({cumulative, summed, n, c.ind.get("preemptions_total").value_or(0),
                                 c.ind.get("preemption_events").value_or(0)});
    if (total <= 0) return;
    const auto win = c.ind.get("window_s");
    // A cumulative reading counts since the engine started: two or more became a rate in the
    // indicators (a difference over the time between lines); one alone is judged as a count.
    const double span = cumulative > 0 ? 0 : win && *win > 0 ? *win : (t1 > t0 ? t1 - t0 : 0);
    if (span > 0) {
      rate = total / span;
      rate_known = true;
      rate_item = kit::text_item("preemptions_per_s", *rate, "1/s", src.empty() ? "metrics counter" : src,
                                 fmt::format("{:.0f} preemptions over {:.0f} s", total, span));
      rate_item.threshold = th;
      rate_item.op = ">=";
    } else {
      // One line, no time base: judge the count (V0 logs every 50th: a cumulative count of 101 is a storm).
      const double count_th = c.th.get("sched.preemptions_count_high");
      if (total < count_th && !(kit::has_symptom(c, Symptom::runtime_oom_or_preemption) && total >= 1)) return;
      rate = total;
      rate_item = kit::text_item("preemptions_total", total, "count", src, "no time base: the count, not a rate");
      rate_item.threshold = count_th;
      rate_item.op = ">=";
    }
  }
  // Per finished request: a slow engine preempting a third of its requests is a storm at any rate.
  std::optional<double> per_request;
  if (const auto rr = c.ind.get("request_rate"); rate_known && rr && *rr > 0) per_request = *rate / *rr;
  const double per_req_th = c.th.get("sched.preemptions_per_request");
  if (rate_known && *rate < th && !(per_request && *per_request >= per_req_th)) return;
  const auto kv = first(c, {"kv_usage_max", "kv_usage"});
  const double full = c.th.get("sched.kv_near_full");
  if (kv && *kv < full) return;  // preemptions without a full pool are not KV pressure
  Finding f = kit::finding("preemption_storm", Layer::scheduling_capacity, Symptom::runtime_oom_or_preemption,
                           Severity::warning, "Preemption storm: running requests are evicted and recomputed");
  if (rate_known && *rate < th) {
    rate_item.threshold.reset();
    rate_item.op.clear();
  }
  f.evidence.push_back(rate_item);
  if (per_request)
    f.evidence.push_back(kit::text_item("preemptions_per_request", *per_request, "per request",
                                        "preemptions_per_s / request_rate",
                                        fmt::format("threshold {} (each preemption recomputes the sequence)", per_req_th)));
  if (kv) f.evidence.push_back(c.ind.item(kit::first_name(c, {"kv_usage_max", "kv_usage"}), full, ">="));
  const auto pool = kv_pool(c, m);
  const auto running = first(c, {"running_max", "running"});
  const auto in_len = c.ind.get("input_len_mean"), out_len = c.ind.get("output_len_mean");
  std::optional<double> demand, typical;
  if (in_len && out_len) typical = *in_len + *out_len;
  if (pool) f.evidence.push_back(pool->item);
  if (running && typical) {
    demand = *running * *typical;
    f.evidence.push_back(kit::text_item("concurrency_x_context", *demand, "tokens", "running x (input + output mean)",
                                        fmt::format("{} sequences x {:.0f} tokens", kit::num(*running), *typical)));
  }
  f.confidence = kit::confidence(kv ? 0.65 : (rate_known ? 0.5 : 0.4), f.evidence);
  f.explanation = fmt::format(
      "{}{}: the batch grows until a running request cannot get its next block, the most "
      "recent one is evicted and later recomputed from scratch -- work done twice, TTFT and TPOT up.{}",
      rate_known ? fmt::format("{:.2f} preemptions per second", *rate) : fmt::format("{:.0f} preemptions", *rate),
      kv ? fmt::format(" with the KV pool at {:.0f}%", *kv * 100) : "",
      demand && pool ? fmt::format(" Concurrency x context needs about {} tokens against a pool of {}.",
                                   kit::num(*demand), kit::num(pool->tokens))
                     : "");
  // Fewer sequences at once so the batch fits: max-num-seqs <= pool / typical length.
  kit::Scored scored;
  if (pool && typical && *typical > 0) {
    const auto cur = c.ind.get("max_num_seqs");
    const int64_t to = std::max<int64_t>(1, static_cast<int64_t>(pool->tokens / *typical));
    if (!cur || static_cast<double>(to) < *cur) {
      std::optional<double> v;
      Remedy r = predicted(
          c, m, "max-num-seqs", cur ? kit::num(*cur) : "default", std::to_string(to),
          [to](sim::Scenario& s) { s.max_num_seqs = to; }, nullptr, Metric::ttft_p99,
          fmt::format("at most {} sequences of the typical {:.0f} tokens: they fit in the pool, no preemption", to, *typical),
          &v);
      scored.emplace_back(std::move(r), v);
    }
  }
  add_capacity_remedies(c, m, scored, Metric::ttft_p99);
  f.remedies = kit::ordered(std::move(scored), Metric::ttft_p99);
  f.next_measurement = "Compare vllm:num_preemptions_total's rate with kv_cache_usage; the log's 'preempted ... not enough KV cache space' lines name the mode.";
  out.push_back(std::move(f));
}

void long_prefill_blocking(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  // The queue is shallow: not capacity-bound (a deep queue is queue_saturated's). It need not be
  // empty: arrivals during a long whole-prompt step wait for the next one, so a scrape often sees a
  // few waiting (2-3 on a loaded host in the drill); an empty queue makes the case stronger.
  const auto ttft = c.ind.get("ttft_p99_s");
  const QueueDepth qd = deep_queue(c);
  const auto waiting = qd.waiting;
  if (!waiting || *waiting >= qd.threshold || !ttft || *ttft <= c.in.slo.ttft_p99_s) return;
  if (auto kv = c.ind.get("kv_usage"); kv && *kv >= c.th.get("sched.kv_near_full")) return;
  const bool idle = *waiting <= c.th.get("sched.waiting_idle");
  // Chunked prefill off: said so, or the engine's default (vLLM V0 without the flag).
  const auto chunked = c.ind.get("chunked_prefill");
  const bool off = chunked ? *chunked == 0
                           : c.in.now.deployment.engine == core::EngineKind::vllm_v0;
  if (!off) return;
  // The longest prompt seen, else the p99: one long prompt is enough to block a step.
  const auto longp = first(c, {"longest_input_tokens", "input_len_p99"});
  const double long_th = c.th.get("sched.long_prompt_tokens");
  if (!longp || *longp < long_th) return;
  Finding f = kit::finding("long_prefill_blocking", Layer::scheduling_capacity, Symptom::ttft_spike, Severity::warning,
                           "Long prefills run whole and block everyone's steps (chunked prefill off)");
  f.evidence.push_back(idle ? c.ind.item(kit::first_name(c, {"waiting_p50", "waiting"}), c.th.get("sched.waiting_idle"), "<=")
                            : waiting_item(c, qd, "<"));
  f.evidence.push_back(c.ind.item("ttft_p99_s", c.in.slo.ttft_p99_s, ">"));
  f.evidence.push_back(chunked ? c.ind.item("chunked_prefill", 0, "==")
                               : kit::text_item("chunked_prefill", 0, "0/1", "engine default", "vLLM V0 default: off"));
  f.evidence.push_back(c.ind.item(kit::first_name(c, {"longest_input_tokens", "input_len_p99"}), long_th, ">="));
  f.confidence = kit::confidence((chunked ? 0.65 : 0.5) - (idle ? 0 : 0.1), f.evidence);
  f.explanation = fmt::format(
      "The queue is shallow yet P99 TTFT is {:.2f} s: with chunked prefill off a {:.0f}-token prompt is "
      "prefilled in one step, during which no other request gets a token and new arrivals wait behind it.",
      *ttft, *longp);
  const auto mnbt = c.ind.get("max_num_batched_tokens");
  f.remedies.push_back(predicted(
      c, m, "enable-chunked-prefill", "false", "true",
      [](sim::Scenario& s) {
        s.chunked_prefill = true;
        // vLLM V0 with chunking on and no explicit budget: 2048 tokens per step (EngineArgs'
        // chunked-prefill default for the OpenAI server); V1/SGLang presets carry their own.
        if (!s.max_num_batched_tokens && s.engine == "vllm-v0") s.max_num_batched_tokens = 2048;
      },
      nullptr, Metric::ttft_p99,
      "long prompts are split into budget-sized chunks interleaved with decode steps"));
  if (mnbt && *mnbt > 4096)
    f.remedies.push_back(kit::qualitative("max-num-batched-tokens", kit::num(*mnbt), "2048",
                                          "with chunked prefill on: shorter steps, lower ITL tail"));
  f.next_measurement = "Plot TTFT against the prompt length of the request just ahead (records): spikes follow long prompts.";
  out.push_back(std::move(f));
}

void prefix_cache_miss_routing(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  (void)m;
  const int n = replicas(c);
  const auto hit = c.ind.get("prefix_cache_hit_rate");
  const auto base = c.ind.base("prefix_cache_hit_rate");
  if (n < 2 || !hit || !base || *base < c.th.get("sched.prefix_min_baseline_hit")) return;
  const double ratio = c.th.get("sched.prefix_hit_drop_ratio");
  if (*hit >= ratio * *base) return;
  Finding f = kit::finding("prefix_cache_miss_routing", Layer::scheduling_capacity, Symptom::ttft_spike,
                           Severity::warning, "Prefix-cache hit rate collapsed across replicas: routing lost its affinity");
  f.evidence.push_back(c.ind.item("prefix_cache_hit_rate", ratio * *base, "<"));
  f.evidence.push_back(c.ind.item("replicas", 2, ">="));
  // A varying prefix defeats every replica (hit ~ 0, the load layer's prefix_defeated_by_varying_prefix);
  // lost affinity leaves each replica some hits (a prompt sometimes lands where it was cached).
  const double floor = c.th.get("sched.prefix_hit_floor");
  f.confidence = kit::confidence(*hit >= floor ? 0.6 : 0.35, f.evidence);
  f.explanation = fmt::format(
      "The prefix-cache hit rate fell from {:.0f}% to {:.0f}% with {} replicas: when requests sharing a prefix land on "
      "different replicas, each must hold every prefix and evicts them, so prompts are prefilled again.{}",
      *base * 100, *hit * 100, n,
      *hit < floor ? " A hit rate this close to zero also fits a per-request varying prefix (load layer)." : "");
  if (auto ttft = c.ind.get("ttft_p50_s"), bt = c.ind.base("ttft_p50_s"); ttft && bt && *ttft > *bt)
    f.explains = std::clamp((*base - *hit) / *base, 0.0, 1.0);
  f.remedies.push_back(kit::qualitative("router", "round-robin / least-load", "prefix-affinity (consistent hash on the shared prefix)",
                                        fmt::format("hit rate back toward the baseline {:.0f}%", *base * 100)));
  f.next_measurement = "Compare the per-replica prefix-cache hit rates and the router's policy/config change log.";
  out.push_back(std::move(f));
}

void batch_too_large(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  const auto tpot = c.ind.get("tpot_p99_s");
  // The operator's report counts: an SLO tighter than the default is theirs to know.
  const bool high = (tpot && *tpot > c.in.slo.tpot_p99_s) || kit::has_symptom(c, Symptom::tpot_high);
  if (!high) return;
  const auto running = first(c, {"running", "running_max"});
  if (!running) return;
  const auto seqs = c.ind.get("max_num_seqs");
  // Large: many sequences in absolute terms, or the engine's cap nearly reached.
  const bool large = *running >= c.th.get("sched.batch_running_min") ||
                     (seqs && *running >= c.th.get("sched.batch_running_share") * *seqs);
  if (!large) return;
  // Throttled clocks explain a high TPOT on their own: that is the hardware layer's finding.
  const bool throttled = c.ind.get("throttle_power").value_or(0) > 0 || c.ind.get("throttle_thermal").value_or(0) > 0 ||
                         c.ind.get("clock_ratio").value_or(1) < c.th.get("hw.clock_ratio_low");
  if (throttled) return;
  // Against a baseline at the same lengths, a step slower than the batch's growth can make it is
  // a slower processor (hardware_rules.h); the batch grew because requests stay longer.
  if (step_slower_than_batch_explains(c)) return;
  // A larger batch trades each sequence's speed for more tokens per second in all: throughput
  // under a quarter of what the deployment is expected to give, with the batch running, is not
  // that trade but a per-token cost (a grammar, logprobs, a slow kernel: the suspects weigh it).
  if (const auto tps = c.ind.get("output_tokens_per_s"), want = c.ind.get("expected_output_tokens_per_s");
      tps && want && *want > 0 && *tps < 0.25 * *want)
    return;
  const bool telemetry = c.ind.get("clock_ratio") || c.ind.get("throttle_power");
  Finding f = kit::finding("batch_too_large", Layer::scheduling_capacity, Symptom::tpot_high, Severity::warning,
                           "Running batch too large for the TPOT objective");
  // Above the SLO it is the trigger; below it (the operator reported tpot_high against a tighter
  // objective of their own) it is shown without a comparison that would read false.
  if (tpot) f.evidence.push_back(*tpot > c.in.slo.tpot_p99_s ? c.ind.item("tpot_p99_s", c.in.slo.tpot_p99_s, ">") : c.ind.item("tpot_p99_s"));
  f.evidence.push_back(*running >= c.th.get("sched.batch_running_min")
                          ? c.ind.item(kit::first_name(c, {"running", "running_max"}), c.th.get("sched.batch_running_min"), ">=")
                          : c.ind.item(kit::first_name(c, {"running", "running_max"}),
                                       c.th.get("sched.batch_running_share") * *seqs, ">="));
  if (seqs) f.evidence.push_back(c.ind.item("max_num_seqs"));
  if (telemetry) f.evidence.push_back(c.ind.item("clock_ratio", c.th.get("hw.clock_ratio_low"), ">="));
  f.confidence = kit::confidence(telemetry ? 0.6 : 0.45, f.evidence);
  f.explanation = fmt::format(
      "About {:.0f} sequences decode together{}: every step reads the KV of all of them, so each token takes longer "
      "for everyone. Clocks are {}.",
      *running, seqs ? fmt::format(" (max-num-seqs {:.0f})", *seqs) : "",
      telemetry ? "not throttled" : "unknown (no GPU telemetry): throttling is not ruled out");
  const int64_t to = std::max<int64_t>(8, static_cast<int64_t>(*running / 2));
  f.remedies.push_back(predicted(
      c, m, "max-num-seqs", seqs ? kit::num(*seqs) : "default", std::to_string(to),
      [to](sim::Scenario& s) { s.max_num_seqs = to; }, nullptr, Metric::tpot_p99,
      "smaller decode batches: lower TPOT, lower throughput per replica, more queueing"));
  const int n = replicas(c);
  f.remedies.push_back(predicted(
      c, m, "replicas", std::to_string(n), std::to_string(2 * n), [n](sim::Scenario& s) { s.config.replicas = 2 * n; },
      nullptr, Metric::tpot_p99, "half the concurrency per replica"));
  f.next_measurement = "Plot TPOT against num_requests_running: a straight rise with batch size confirms it.";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose::sched
