// Scheduling / capacity layer (docs/rules.md, "scheduling_capacity").
#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

LayerResult analyze_scheduling(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::scheduling_capacity;
  const auto waiting = c.ind.get("waiting");
  const auto kv = c.ind.get("kv_usage");
  if (!waiting || !kv) {
    r.verdict.why = "no queue depth or KV usage (metrics, log stats lines or --observe waiting=, kv_usage=)";
    return r;
  }
  if (*waiting >= c.th.get("sched.waiting_deep") && *kv >= c.th.get("sched.kv_near_full")) {
    Finding f;
    f.id = "kv_pool_saturated";
    f.layer = Layer::scheduling_capacity;
    f.symptom = Symptom::ttft_spike;
    f.title = "KV cache pool saturated: requests queue for KV blocks";
    f.evidence.push_back(c.ind.item("waiting", c.th.get("sched.waiting_deep"), ">="));
    f.evidence.push_back(c.ind.item("kv_usage", c.th.get("sched.kv_near_full"), ">="));
    r.findings.push_back(std::move(f));
    r.verdict.state = LayerVerdict::State::at_fault;
  } else {
    r.verdict.state = LayerVerdict::State::cleared;
    r.verdict.evidence.push_back(c.ind.item("waiting"));
    r.verdict.evidence.push_back(c.ind.item("kv_usage"));
  }
  return r;
}

}  // namespace llmtriage::diagnose
