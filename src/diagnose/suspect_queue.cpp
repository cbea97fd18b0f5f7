// Clues about the running-request cap and the concurrency in front of it, read off the launch
// settings against the running / waiting readings (suspects.h; rationale in docs/rules.md,
// "Suspected causes"): a cap of one or two, a single-digit batch cap with a throughput
// complaint, a cap binding (SGLang's split over data-parallel ranks), fewer running than the
// server's cap or the client's own concurrency (requests held before the server), a tiny queue
// limit, and a serving wrapper that serialises requests.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>

#include "diagnose/rule_util.h"
#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"
#include "ingest/launch_text.h"

namespace llmtriage::diagnose {

std::vector<Clue> queue_clues(const ingest::LaunchSettings& ls, const Indicators& ind, const std::vector<Symptom>& sym) {
  using clue::has_sym;
  using clue::quote;
  using clue::reading;
  clue::Clues c;
  const std::string src = "--engine-args";
  // A running-request cap of one or two (vLLM --max-num-seqs, SGLang --max-running-requests,
  // llama.cpp -np, Ollama's OLLAMA_NUM_PARALLEL): every request beyond it waits its turn, so a
  // first-token, throughput or timeout complaint (or none) is first that queue.
  {
    const bool queue_sym = sym.empty() || has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low) ||
                           has_sym(sym, Symptom::timeout_or_stream_break);
    // (QServe's GLOBAL_BATCH_SIZE and FastChat's --limit-worker-concurrency are the same cap.)
    auto batch_cap = ls.number({"max-num-seqs", "max-running-requests", "max-batch-size", "global-batch-size",
                                "limit-worker-concurrency"});
    auto cap = batch_cap;
    if (!cap) cap = ls.number({"OLLAMA_NUM_PARALLEL", "OLLAMA_PARALLEL", "NUM_PARALLEL", "parallel"});
    if (cap && *cap >= 1 && *cap <= 2 && queue_sym)
      c.add("running_cap_queueing", 2.0, reading("running_cap", *cap, "requests", src,
                                                 "requests the server runs at once: the rest wait in its queue"));
    // A batch cap of three to eight against a throughput complaint: a GPU engine's decode step
    // costs about the same for 4 sequences as for 32 (it streams the weights once either way),
    // so the cap sets the throughput (engine defaults are 256 and up). Parallel slots are left
    // out: -np 4 is llama-server's default.
    else if (batch_cap && *batch_cap >= 3 && *batch_cap <= 8 && has_sym(sym, Symptom::throughput_low))
      c.add("running_cap_queueing", 1.5, reading("running_cap", *batch_cap, "requests", src,
                                                 "sequences the engine batches at once: a decode step streams the weights for only these"));
    // The cap binding: requests running at it (SGLang with DP attention applies
    // --max-running-requests split over the data-parallel ranks: scheduler.py
    // per_dp_max_running_requests) while others wait. The running count is one rank's in
    // SGLang's log lines.
    if (batch_cap && *batch_cap >= 1) {
      double per_rank = *batch_cap;
      const auto dp = ls.number({"data-parallel-size", "dp-size", "dp"});
      if (dp && *dp >= 2 && ls.has("enable-dp-attention")) per_rank = std::floor(*batch_cap / *dp);
      // With no queue reading, a throughput complaint with the batch exactly at the cap says the same.
      // With no running reading either, Little's law gives the requests decoding at once (output
      // tokens/s x seconds per token), taken when it is within 15% of a whole number.
      auto r = ind.get("running");
      bool estimated = false;
      if (!r) {
        auto o = ind.get("output_tokens_per_s"), t = ind.get("tpot_p50_s");
        if (o && t && *o > 0 && *t > 0) {
          const double est = *o * *t, whole = std::round(est);
          if (whole >= 1 && std::fabs(est - whole) <= 0.15 * whole) {
            r = whole;
            estimated = true;
          }
        }
      }
      auto w = ind.get("waiting");
      const bool waiting = w ? *w >= 1 : (r && *r == per_rank && has_sym(sym, Symptom::throughput_low));
      if (r && waiting && per_rank >= 1 && *r >= 0.9 * per_rank && *r <= per_rank && (queue_sym || has_sym(sym, Symptom::tpot_high)))
        c.add("running_cap_queueing", 2.0,
              reading("running", *r, "requests", estimated ? "output_tokens_per_s x tpot_p50_s (Little's law)" : "observe",
                      per_rank < *batch_cap
                          ? fmt::format("at the cap of {} per data-parallel rank ({} over {} ranks) with {} waiting", num(per_rank),
                                        num(*batch_cap), num(dp.value_or(1)), num(w.value_or(0)))
                          : w ? fmt::format("at the running cap of {} with {} waiting", num(per_rank), num(*w))
                              : fmt::format("at the running cap of {}: the batch can grow no further", num(per_rank)),
                      0.9 * per_rank, ">="));
    }
    // Several requests running, fewer than the server's cap, nothing waiting in it, while the
    // user waits for a first token: the queue is before the server (a browser's six
    // connections per host, an HTTP pool, a proxy's connection limit), not its cap.
    if (auto r = ind.get("running"); cap && r && *r >= 2 && *r < *cap && (!ind.get("waiting") || *ind.get("waiting") == 0) &&
                                     (has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low))) {
      auto item = reading("running", *r, "requests", "observe",
                          fmt::format("running against the server's cap of {}: free slots, no queue in the server", num(*cap)), *cap, "<");
      c.add("client_concurrency_limit", 2.0, item);
      c.add("running_cap_queueing", -1.5, item);
      c.add("request_rate_above_capacity", -1.0, item);  // more than it can serve would fill every slot
    }
    // The client's own concurrency setting (a benchmark's --max-concurrency, an app's
    // concurrent_requests or max_concurrent_*_calls) above the requests the server runs, none
    // waiting in it: the difference is held between the two (a connection pool, a proxy).
    std::optional<double> client_conc;
    std::string client_key;
    for (const auto& [k, v] : ls.values) {
      // (TGI's --max-concurrent-requests is the server's admission limit, not a client's.)
      if (k.find("concurren") == std::string::npos || k.rfind("OLLAMA", 0) == 0 || k == "max-concurrent-requests") continue;
      auto x = ls.number({k.c_str()});
      if (x && *x >= 2 && (!client_conc || *x > *client_conc)) {
        client_conc = x;
        client_key = k;
      }
    }
    if (auto r = ind.get("running"); client_conc && r && *r >= 1 && *r < 0.9 * *client_conc &&
                                     (!ind.get("waiting") || *ind.get("waiting") == 0) && (!cap || *r < *cap) &&
                                     (has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low))) {
      auto item = reading("running", *r, "requests", "observe",
                          fmt::format("running while the client is set to {} at once ({}): the rest are held before the server",
                                      num(*client_conc), client_key), *client_conc, "<");
      c.add("client_concurrency_limit", 2.0, item);
      c.add("running_cap_queueing", -1.0, item);
    }
    // A load generator's own gate (vllm bench serve / genai-perf --max-concurrency, fewer than the
    // prompts it sends): the rest wait in the client for a whole generation each, so the server sees
    // at most that many at once whatever its cap, and the first tokens of the later ones wait.
    if (auto mc = ls.number({"max-concurrency"}), np = ls.number({"num-prompts", "request-count"});
        mc && np && *mc >= 1 && *np > 2 * *mc && !ind.get("running") &&
        (has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::throughput_low))) {
      auto item = reading("client_max_concurrency", *mc, "requests", src,
                          fmt::format("{} prompts sent {} at a time by the load generator: the rest wait in the client",
                                      num(*np), num(*mc)), *np, "<");
      c.add("client_concurrency_limit", 1.5, item);
      c.add("running_cap_queueing", -0.5, item);
    }
    // A queue limit that small refuses the rest (Ollama: 503 "server busy" past OLLAMA_MAX_QUEUE).
    if (auto q = ls.number({"OLLAMA_MAX_QUEUE", "MAX_QUEUE", "max-queued-requests"}); q && *q <= 4 && queue_sym)
      c.add("running_cap_queueing", 1.5, reading("max_queue", *q, "requests", src, "requests allowed to wait: the rest are refused"));
  }
  // Xinference (`xinference launch --model-engine X`) puts a model actor in front of the engine;
  // an engine it does not register as concurrent is served one request at a time (sglang in
  // xorbitsai/inference#1976: 85 tok/s at concurrency 10 against 611 for sglang alone).
  if (ls.has("model-engine") && (has_sym(sym, Symptom::throughput_low) || has_sym(sym, Symptom::ttft_spike)))
    c.add("batching_ineffective", 2.0, quote("serving_wrapper", "--model-engine " + *ls.get("model-engine") +
                                                                 " (Xinference's model actor in front of the engine)", src));
  return std::move(c.out);
}

}  // namespace llmtriage::diagnose
