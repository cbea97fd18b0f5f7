// Scheduling / capacity layer (docs/rules.md, "Layer: scheduling_capacity"): queueing or
// saturated? Memory at startup (the ledger), KV pool vs demand, preemption, prefill blocking,
// prefix-cache routing, batch size, and runtime OOM outside the KV pool.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diagnose/capacity_kit.h"
#include "diagnose/scheduling_rules.h"

namespace llmtriage::diagnose {

using kit::first;

namespace {

bool judged(const Context& c, kit::Models& m) {
  for (const char* n : {"running", "waiting", "kv_usage", "waiting_p50", "kv_usage_max", "preemptions_per_s",
                        "preemption_events", "oom_events", "max_len_exceeds_kv_events", "prefix_cache_hit_rate",
                        "requests_over_context_share"})
    if (c.ind.get(n)) return true;
  return m.ledger() != nullptr;
}

}  // namespace

LayerResult analyze_scheduling(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::scheduling_capacity;
  kit::Models models(c);

  sched::startup_memory(c, models, r.findings);
  sched::request_exceeds_kv_pool(c, models, r.findings);
  sched::request_exceeds_context(c, models, r.findings);
  sched::runtime_oom_unprofiled(c, models, r.findings);
  sched::preemption_storm(c, models, r.findings);
  sched::kv_pool_saturated(c, models, r.findings);  // after: a storm already names the saturated pool
  sched::long_prefill_blocking(c, models, r.findings);
  sched::prefix_caching_off(c, models, r.findings);  // the setting, before the routing explanation
  sched::prefix_cache_miss_routing(c, models, r.findings);
  sched::batch_too_large(c, models, r.findings);
  sched::queue_from_records(c, models, r.findings);  // last: only when no rule named the limit

  if (!r.findings.empty()) {
    r.verdict.state = LayerVerdict::State::at_fault;
    return r;
  }
  if (!judged(c, models)) {
    r.verdict.state = LayerVerdict::State::not_judged;
    r.verdict.why =
        "no queue or KV-pool readings (engine /metrics, log stats lines, or --observe running=, waiting=, kv_usage=) "
        "and no ledger (--model and --gpu)" +
        (models.ledger_error().empty() ? std::string() : ": " + models.ledger_error());
    return r;
  }
  // Cleared: the readings that cleared it, each with the threshold it stayed under.
  r.verdict.state = LayerVerdict::State::cleared;
  auto add = [&](const char* name, std::optional<double> th, const char* op) {
    if (c.ind.get(name)) r.verdict.evidence.push_back(c.ind.item(name, th, op));
  };
  if (const auto qd = sched::deep_queue(c); qd.waiting) r.verdict.evidence.push_back(sched::waiting_item(c, qd, "<"));
  add(kit::first_name(c, {"kv_usage", "kv_usage_max"}), c.th.get("sched.kv_near_full"), "<");
  add("preemptions_per_s", c.th.get("sched.preemption_rate_per_s"), "<");
  add("outputs_cut_at_context", 1, "<");
  add("running", {}, "");
  add("prefix_cache_hit_rate", {}, "");
  if (const LedgerContext* lc = models.ledger())
    r.verdict.evidence.push_back(kit::text_item("ledger_kv_tokens", static_cast<double>(lc->report.kv_cache_tokens),
                                                "tokens", "ledger",
                                                fmt::format("startup verdict {}", ledger::to_string(lc->report.verdict))));
  return r;
}

}  // namespace llmtriage::diagnose
