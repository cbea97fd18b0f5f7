// Gateway / client layer (docs/rules.md, "Layer: gateway_client"): the budget and retry policy
// wrapped around the engine. Judged from request records (error categories, ids, durations) and
// the readings gateway_timeout_s, client_retry_rate, error_rate.
#include <cmath>

#include "diagnose/analyzers.h"
#include "diagnose/rule_util.h"

namespace llmtriage::diagnose {

namespace {

Finding gateway_finding(const char* id, Symptom s, const Context& c) {
  Finding f;
  f.id = id;
  f.layer = Layer::gateway_client;
  f.symptom = s;
  f.severity = severity_for(c, s);
  return f;
}

void timeout_rule(const Context& c, LayerResult& r) {
  auto ttft99 = c.ind.get("ttft_p99_s");
  auto gw = c.ind.get("gateway_timeout_s");
  auto share = c.ind.get("timeout_error_share");
  auto cluster = c.ind.get("timeout_cluster_s");
  auto cluster_share = c.ind.get("timeout_cluster_share");
  const bool observed_below = gw && ttft99 && *gw < *ttft99;
  bool clustered = share && *share >= c.th.get("gateway.timeout_error_share") && cluster && cluster_share &&
                   *cluster_share >= c.th.get("gateway.timeout_cluster_share");
  // Streams cut at one duration are a deadline too: a proxy read timeout that fires after the
  // headers were sent shows as truncated bodies, not as timeouts.
  auto breaks = c.ind.get("stream_break_share");
  auto break_at = c.ind.get("stream_break_cluster_s");
  auto break_cluster = c.ind.get("stream_break_cluster_share");
  const bool breaks_clustered = breaks && *breaks >= c.th.get("gateway.stream_break_share") && break_at && break_cluster &&
                                *break_cluster >= c.th.get("gateway.timeout_cluster_share");
  const bool breaks_at_deadline = breaks_clustered && (!gw || std::fabs(*break_at - *gw) <= 0.1 * *gw);
  if (!clustered && breaks_at_deadline && !cluster) {
    cluster = break_at;
    cluster_share = break_cluster;
    clustered = true;
  }
  if (!observed_below && !clustered) return;
  Finding f = gateway_finding("gateway_timeout_below_ttft_p99", Symptom::timeout_or_stream_break, c);
  f.severity = Severity::warning;  // requests are being failed
  const double deadline = gw ? *gw : *cluster;
  f.confidence = observed_below && clustered ? 0.9 : clustered ? 0.75 : source_confidence(c.ind, {"gateway_timeout_s", "ttft_p99_s"}, 0.7);
  f.title = fmt::format("Gateway gives up at {} s, before the slowest first tokens{}", num(deadline),
                        ttft99 ? fmt::format(" (P99 TTFT {} s)", num(*ttft99)) : std::string());
  f.explanation = "The timeout between the client and the engine is shorter than the time the slowest requests need for "
                  "their first token, so they fail although the engine would have answered. The engine keeps working on "
                  "some of them (wasted capacity) and retries put them back in the queue. The P99 TTFT of successful "
                  "requests is censored at the deadline: the true tail is longer.";
  if (gw) f.evidence.push_back(c.ind.item("gateway_timeout_s", ttft99 ? std::optional<double>(*ttft99) : std::nullopt, "<"));
  if (ttft99) f.evidence.push_back(c.ind.item("ttft_p99_s"));
  if (share) f.evidence.push_back(c.ind.item("timeout_error_share", c.th.get("gateway.timeout_error_share"), ">="));
  if (c.ind.get("timeout_cluster_s")) {
    f.evidence.push_back(c.ind.item("timeout_cluster_s"));
    f.evidence.push_back(c.ind.item("timeout_cluster_share", c.th.get("gateway.timeout_cluster_share"), ">="));
  }
  if (breaks_at_deadline) {
    f.evidence.push_back(c.ind.item("stream_break_share", c.th.get("gateway.stream_break_share"), ">="));
    f.evidence.push_back(c.ind.item("stream_break_cluster_s"));
    f.evidence.push_back(c.ind.item("stream_break_cluster_share", c.th.get("gateway.timeout_cluster_share"), ">="));
    f.explanation += fmt::format(" The broken streams end at {} s, the deadline: they are this timeout, cut after the "
                                 "response headers were sent.", num(*break_at));
  }
  if (auto er = c.ind.get("error_rate"); er && share && *er > 0) f.explains = std::clamp(*share / *er, 0.0, 1.0);
  const double to = std::ceil(std::max(deadline * 2, ttft99.value_or(deadline) * 1.5));
  f.remedies.push_back({"gateway timeout", num(deadline) + " s", num(to) + " s",
                        "timeouts of requests the engine would have served disappear; the queue is not refilled by their retries",
                        "qualitative"});
  f.remedies.push_back({"client retry policy", "immediate retry", "exponential backoff with jitter and a retry budget",
                        "retries no longer amplify the queue that caused the timeouts", "qualitative"});
  f.next_measurement = "TTFT distribution without the deadline (engine-side histogram vllm:time_to_first_token_seconds)";
  r.findings.push_back(std::move(f));
}

void retry_rule(const Context& c, LayerResult& r) {
  const double th = c.th.get("gateway.retry_rate");
  auto obs = c.ind.get("client_retry_rate");
  auto dup = c.ind.get("retry_duplicate_share");
  const char* name = obs ? "client_retry_rate" : "retry_duplicate_share";
  auto rate = obs ? obs : dup;
  if (!rate || *rate < th) return;
  Finding f = gateway_finding("client_retry_storm", pick_symptom(c, {Symptom::timeout_or_stream_break, Symptom::ttft_spike}), c);
  f.confidence = source_confidence(c.ind, {name}, 0.75);
  f.title = fmt::format("{:.0f}% of requests are client retries", *rate * 100);
  f.explanation = "Clients resend requests that failed or timed out, and each retry joins the same queue that made the "
                  "first attempt fail: the load the engine sees grows exactly when it is overloaded.";
  f.evidence.push_back(c.ind.item(name, th, ">="));
  if (c.ind.get("waiting_max")) f.evidence.push_back(c.ind.item("waiting_max"));
  // Both indicators are already the share of all requests that are retries (0-1), not retries per
  // original request: that share is the part of the offered load the retries make up.
  f.explains = std::clamp(*rate, 0.0, 1.0);
  f.remedies.push_back({"client retry policy", "immediate retry", "exponential backoff with jitter, retry budget 10%",
                        fmt::format("offered load down by up to {:.0f}%", *f.explains * 100), "qualitative"});
  f.next_measurement = "retries per original request over time: do they rise with the queue";
  r.findings.push_back(std::move(f));
}

void stream_rule(const Context& c, LayerResult& r) {
  auto s = c.ind.get("stream_break_share");
  if (!s || *s < c.th.get("gateway.stream_break_share")) return;
  for (const auto& f : r.findings)  // streams cut at the deadline are the timeout finding's evidence
    for (const auto& e : f.evidence)
      if (f.id == "gateway_timeout_below_ttft_p99" && e.indicator == "stream_break_cluster_s") return;
  Finding f = gateway_finding("stream_breaks", Symptom::timeout_or_stream_break, c);
  f.severity = Severity::warning;
  f.confidence = 0.7;
  f.title = fmt::format("{:.1f}% of streams broke mid-body", *s * 100);
  f.explanation = "Streams were cut after they started (connection reset, incomplete SSE): a proxy or load balancer idle or "
                  "read timeout, a buffer limit, or a pod restart between tokens. Long generations are hit first.";
  f.evidence.push_back(c.ind.item("stream_break_share", c.th.get("gateway.stream_break_share"), ">="));
  if (c.ind.get("engine_dead_events").value_or(0) > 0) {
    f.evidence.push_back(c.ind.item("engine_dead_events"));
    f.explanation += " The engine also died or restarted in the window, which breaks every open stream.";
  }
  auto e2e = c.ind.get("e2e_p99_s");
  f.remedies.push_back({"proxy idle/read timeout", "current", e2e ? num(std::ceil(*e2e * 1.5)) + " s" : "above the longest E2E",
                        "streams of long answers finish", "qualitative"});
  f.next_measurement = "at which byte/time streams break, and the proxy's timeout settings";
  r.findings.push_back(std::move(f));
}

}  // namespace

LayerResult analyze_gateway(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::gateway_client;
  timeout_rule(c, r);
  retry_rule(c, r);
  stream_rule(c, r);
  const bool records = c.ind.get("records_count").value_or(0) > 0;
  const bool readings = c.ind.get("gateway_timeout_s") || c.ind.get("client_retry_rate");
  if (!r.findings.empty()) {
    r.verdict.state = LayerVerdict::State::at_fault;
  } else if (auto er = c.ind.get("error_rate"); er && *er > std::max(c.in.slo.error_rate, 0.0) && (records || readings)) {
    // Failing requests are not health: the layer stays open until a rule names their cause.
    r.verdict.why = fmt::format("error rate {:.0f}% is above the SLO's {:.1f}% and no gateway rule explains it: not cleared",
                                100 * *er, 100 * c.in.slo.error_rate);
  } else if (records || readings) {
    r.verdict.state = LayerVerdict::State::cleared;
    for (const char* n : {"timeout_error_share", "stream_break_share", "retry_duplicate_share", "gateway_timeout_s",
                          "client_retry_rate", "error_rate"})
      if (c.ind.get(n)) r.verdict.evidence.push_back(c.ind.item(n));
    if (!records) r.verdict.why = "judged from readings only: no request records to count timeouts and broken streams";
  } else {
    r.verdict.why = "no client-side evidence: request records (--records, --bench) or --observe gateway_timeout_s=, client_retry_rate=";
  }
  return r;
}

}  // namespace llmtriage::diagnose
