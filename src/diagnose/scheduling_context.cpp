// Requests that ask for more context than one request may hold: prompt + max_tokens above
// max_model_len (llama.cpp: the slot's share of -c, n_ctx / -np unless --kv-unified). The engine
// refuses the prompt (llama.cpp b10470: HTTP 400 "request (N tokens) exceeds the available context
// size (M tokens)") or stops the output at the limit (finish_reason "length" before max_tokens,
// log "stop processing: n_tokens = M-1, truncated = 1"). Both read as errors or short answers at
// the client, while the cause is the per-request context the server was started with.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diagnose/scheduling_rules.h"

namespace llmtriage::diagnose::sched {

void request_exceeds_context(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  (void)m;
  const auto share = c.ind.get("requests_over_context_share");
  const auto mml = c.ind.get("max_model_len");
  if (!share || !mml || *share < c.th.get("sched.over_context_share")) return;
  const double cut = c.ind.get("outputs_cut_at_context").value_or(0);
  const double refused = c.ind.get("prompts_over_context_refused").value_or(0);
  if (cut + refused <= 0) return;  // asked for more, but the engine served it all: nothing was lost
  const bool llama = c.in.now.deployment.engine == core::EngineKind::llamacpp || c.in.now.deployment.engine == core::EngineKind::ollama;
  const Symptom sym = cut >= refused ? Symptom::output_quality : Symptom::timeout_or_stream_break;
  Finding f = kit::finding("request_exceeds_context", Layer::scheduling_capacity, sym, Severity::warning,
                           fmt::format("Requests longer than the {} context ({} tokens): {}", llama ? "slot's" : "per-request",
                                       kit::num(*mml),
                                       refused > 0 && cut > 0 ? "refused or cut short"
                                       : refused > 0          ? "refused"
                                                              : "outputs cut short"));
  f.evidence.push_back(c.ind.item("requests_over_context_share", c.th.get("sched.over_context_share"), ">="));
  if (cut > 0) f.evidence.push_back(c.ind.item("outputs_cut_at_context"));
  if (refused > 0) f.evidence.push_back(c.ind.item("prompts_over_context_refused"));
  f.evidence.push_back(c.ind.item("max_model_len"));
  if (c.ind.get("max_num_seqs") && llama) f.evidence.push_back(c.ind.item("max_num_seqs"));
  const auto longest = c.ind.get("longest_request_tokens");
  if (longest) f.evidence.push_back(c.ind.item("longest_request_tokens", *mml, ">"));
  f.confidence = kit::confidence(0.7, f.evidence);
  f.explanation = fmt::format(
      "{:.0f}% of the requests ask for a prompt plus max_tokens above the {} tokens one request may use{}: the engine "
      "{}. The client sees {} although the server is healthy: its context per request is smaller than the traffic.",
      *share * 100, kit::num(*mml),
      llama ? " (llama.cpp splits -c across the -np slots unless --kv-unified)" : "",
      refused > 0 && cut > 0 ? "refuses the longest prompts and stops the other outputs at the limit"
      : refused > 0          ? "refuses prompts longer than that"
                             : "stops their outputs at the limit (finish_reason length)",
      refused > 0 ? "errors" : "short answers");
  f.explains = std::clamp(*share, 0.0, 1.0);
  // The context that holds the longest request, rounded up to 256 tokens.
  if (longest) {
    const double need = std::ceil(*longest / 256.0) * 256.0;
    f.remedies.push_back(kit::qualitative(
        "max-model-len", kit::num(*mml), kit::num(need),
        fmt::format("every request fits{}; the KV cache grows by {:.0f}% (size the memory with llmtriage ledger)",
                    llama ? " its slot" : "", 100 * (need / *mml - 1))));
  }
  if (llama)
    f.remedies.push_back(kit::qualitative("kv-unified", "false", "true",
                                          "every slot may use all of -c: long requests fit while the others are short "
                                          "(one very long request can then starve the rest)"));
  f.remedies.push_back(kit::qualitative("client max_tokens", "as sent", "context - prompt tokens",
                                        "no request asks for more than fits: answers end by the client's choice, not the server's limit"));
  f.next_measurement = llama ? "GET /props (default_generation_settings.n_ctx, total_slots) against the requests' prompt + max_tokens"
                             : "/v1/models max_model_len against the requests' prompt + max_tokens";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose::sched
