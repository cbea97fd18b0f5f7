// One replica slower than its peers: behind one router, every replica of a deployment runs the
// same model and settings on the same kind of GPU and gets the same mix of requests, so its
// time per token at the same batch should match theirs. One that takes much longer per token is
// a slower device (clocks throttled, another process on its GPU, a degraded card or link), and
// the requests routed to it form the latency tail. The peers are the control, as the baseline is
// for step_slower_than_baseline. docs/rules.md, "Layer: operator_hardware".
#include <fmt/format.h>

#include <algorithm>

#include "diagnose/capacity_kit.h"
#include "diagnose/hardware_rules.h"

namespace llmtriage::diagnose {

void replica_slower_than_peers(const Context& c, std::vector<Finding>& out) {
  const auto slow = c.ind.get("replica_tpot_p50_slowest"), others = c.ind.get("replica_tpot_p50_others");
  if (!slow || !others || *others <= 0) return;
  const double ratio = *slow / *others;
  // Its batch: a replica that holds more sequences takes longer per step, at most in proportion
  // (the same reasoning as against a baseline: hardware_rules.h, StepSlowdown).
  const auto run_slow = c.ind.get("replica_running_slowest"), run_others = c.ind.get("replica_running_others");
  double batch_ratio = 1;
  if (run_slow && run_others && *run_others > 0 && *run_slow > *run_others) batch_ratio = *run_slow / *run_others;
  const double per_seq = ratio / batch_ratio;
  const double th = c.th.get("hw.step_slowdown_ratio"), same = c.th.get("load.length_stable_ratio");
  // Given the same work: as many requests (the router split them evenly) of the same length. Then
  // its larger batch is the slowness' consequence (Little's law: in flight = arrival rate x time
  // in the system), not a cause, and its TPOT is compared as it is.
  auto within = [&](const char* a, const char* b) {
    const auto x = c.ind.get(a), y = c.ind.get(b);
    return x && y && *y > 0 && *x / *y <= same && *y / *x <= same;
  };
  const bool same_work = within("replica_requests_slowest", "replica_requests_others") &&
                         within("replica_input_len_slowest", "replica_input_len_others");
  if (c.ind.get("replica_input_len_slowest") && !within("replica_input_len_slowest", "replica_input_len_others"))
    return;  // other prompts on that replica: other work, not a slower device
  if (!(same_work ? ratio >= th : per_seq >= th)) return;
  const Indicator* who = c.ind.find("replica_tpot_p50_slowest");
  const std::string id = who && who->source.rfind("engine ") != std::string::npos ? who->source.substr(who->source.rfind("engine ")) : "one replica";
  Finding f = kit::finding("replica_slower_than_peers", Layer::operator_hardware, Symptom::tpot_high, Severity::warning,
                           fmt::format("{} takes {:.1f}x its peers' time per token {}: that replica's device is slower", id, ratio,
                                       same_work ? std::string("for the same requests")
                                       : batch_ratio > 1 ? fmt::format("at a {:.1f}x larger batch", batch_ratio)
                                                         : std::string("at the same batch")));
  f.evidence.push_back(c.ind.item("replica_tpot_p50_slowest", *others * th * (same_work ? 1.0 : batch_ratio), ">="));
  f.evidence.push_back(c.ind.item("replica_tpot_p50_others"));
  if (run_slow) f.evidence.push_back(c.ind.item("replica_running_slowest"));
  if (run_others) f.evidence.push_back(c.ind.item("replica_running_others"));
  if (same_work) {
    f.evidence.push_back(c.ind.item("replica_requests_slowest"));
    f.evidence.push_back(c.ind.item("replica_requests_others"));
  }
  f.confidence = kit::confidence(0.65, f.evidence);
  // The share of the service's requests it serves, roughly 1/replicas, carry its slowdown.
  const double n = c.ind.get("replicas").value_or(2);
  const double slower = same_work ? ratio : per_seq;
  f.explains = std::clamp((1 - 1 / slower) / std::max(1.0, n) * 2, 0.0, 1.0);
  f.explanation = fmt::format(
      "Per-replica TPOT p50 is {:.2f} ms on {} against a median of {:.2f} ms on the other replicas, with {} running there "
      "against {}.{} The replicas run the same model and settings behind one router, so the same work per step should take "
      "the same time; the requests routed to this one make the latency tail. Its device is slower: clocks or power capped, "
      "another process on its GPU, a degraded card or link.",
      *slow * 1e3, id, *others * 1e3, run_slow ? kit::num(*run_slow) : std::string("?"),
      run_others ? kit::num(*run_others) : std::string("?"),
      same_work ? " It was given as many requests of the same length as the others: its larger batch is what slower "
                  "service does to the same arrivals (in flight = arrival rate x time in the system), not a cause."
                : "");
  f.remedies.push_back(kit::qualitative("traffic to " + id, "an equal share", "drained (removed from the router) until it is fixed",
                                        "the tail from that replica's requests goes; the others take its share"));
  f.remedies.push_back(kit::qualitative("that replica's GPU", "as is", "clocks, power cap, other processes and ECC/XID errors checked (nvidia-smi -q)",
                                        "the cause on the device named"));
  f.next_measurement = "GPU telemetry of that replica against a peer's over the same window (SM clock vs max, power vs limit, other processes)";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose
