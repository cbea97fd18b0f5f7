// Traffic the records do not hold: the server finished more requests than the client sent, and
// their prompts differ from the client's. Another caller on the same deployment (a batch job, a
// second team, a burst from one tenant) shares the batch and the KV pool, so the client's requests
// slow down with nothing in its own traffic changed. The server's prompt-length histogram counts
// every request it finished; the records count the client's own. docs/rules.md, "Layer: load".
#include <fmt/format.h>

#include <algorithm>

#include "diagnose/load_rules.h"
#include "diagnose/rule_util.h"

namespace llmtriage::diagnose {

namespace {

struct Excess {
  double server = 0, records = 0, extra = 0, share = 0;
};

std::optional<Excess> excess(std::optional<double> server, std::optional<double> records) {
  if (!server || !records || *records <= 0 || *server <= 0) return std::nullopt;
  Excess e{*server, *records, *server - *records, 0};
  e.share = e.extra / e.server;
  return e;
}

}  // namespace

void unrecorded_traffic(const Context& c, std::vector<Finding>& out) {
  const auto now = excess(c.ind.get("server_requests"), c.ind.get("records_count"));
  if (!now) return;
  // Requests the client gave up on (timeouts, cut streams) that the server still finished, and
  // their retries, are the client's own: the gateway layer judges them.
  if (c.ind.get("timeout_error_share").value_or(0) + c.ind.get("stream_break_share").value_or(0) > c.th.get("load.unrecorded_share"))
    return;
  // Enough to matter: 5 requests and 15% of what the server finished (a scrape window a second
  // wider than the run catches a few of another client's).
  const double min_share = c.th.get("load.unrecorded_share");
  if (now->extra < 5 || now->share < min_share) return;
  // Against a baseline: only when the excess grew (a steady other caller is the deployment's
  // normal load, not the change).
  const auto base = excess(c.ind.base("server_requests"), c.ind.base("records_count"));
  if (base && now->share < base->share + min_share) return;
  const auto srv_len = c.ind.get("server_input_len_mean"), rec_len = c.ind.get("input_len_mean");
  std::optional<double> their_len;
  if (srv_len && rec_len) their_len = std::max(0.0, (*srv_len * now->server - *rec_len * now->records) / now->extra);
  Finding f;
  f.id = "unrecorded_traffic";
  f.layer = Layer::load;
  f.symptom = pick_symptom(c, {Symptom::ttft_spike, Symptom::tpot_high, Symptom::throughput_low});
  f.severity = base ? severity_for(c, f.symptom) : Severity::info;
  f.title = fmt::format("Traffic the records do not hold: the server finished {} requests, the client sent {}{}", num(now->server),
                        num(now->records),
                        their_len ? fmt::format(" (the other {} with prompts of {} tokens on average)", num(now->extra), num(*their_len))
                                  : std::string());
  f.evidence.push_back(c.ind.item("server_requests", now->records * (1 + min_share), ">="));
  f.evidence.push_back(c.ind.item("records_count"));
  if (srv_len) f.evidence.push_back(c.ind.item("server_input_len_mean"));
  if (rec_len) f.evidence.push_back(c.ind.item("input_len_mean"));
  f.confidence = base ? 0.75 : 0.55;
  // Its share of the prefill work: the other requests' prompt tokens over all the server saw.
  if (their_len && *srv_len > 0) f.explains = std::clamp(*their_len * now->extra / (*srv_len * now->server), 0.0, 1.0);
  f.explanation = fmt::format(
      "{:.0f}% of the requests the server finished in the window were not this client's{}. They share the running batch, "
      "the per-step token budget and the KV pool with the client's requests, so those queue and decode more slowly while "
      "their own lengths and rate are unchanged. The load changed first; the queue and the batch follow.{}",
      now->share * 100,
      their_len && rec_len ? fmt::format(", and their prompts average {} tokens against the client's {}", num(*their_len), num(*rec_len))
                           : std::string(),
      base ? fmt::format(" In the baseline {:.0f}% were.", std::max(0.0, base->share) * 100) : " (No baseline: whether this is new is not known.)");
  f.remedies.push_back({"other callers on this deployment", fmt::format("{} requests in the window", num(now->extra)),
                        "routed to their own replicas, or rate-limited at the gateway",
                        "the client's requests get the batch and the KV pool back", "qualitative"});
  f.remedies.push_back({"capacity benchmark", "this client's traffic", "every caller's traffic together",
                        "sized for the load the deployment really serves (llmtriage capacity)", "qualitative"});
  f.next_measurement = "requests per caller (API key, route or client IP) at the gateway over the same window";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose
