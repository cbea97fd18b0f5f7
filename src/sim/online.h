#pragma once
// The simulator run online: replicas whose steps end at virtual times the caller maps to the
// wall clock (the HTTP server `sim serve`). Requests arrive one by one at the caller's virtual
// time; advance(t) completes every step that ends by t, starts the next ones and reports each
// step, so the caller can stream the tokens it produced. Faults can be switched while running.
// Single-threaded: one thread owns an OnlineEngine.
//
// Clock: each replica keeps its own virtual clock. A busy replica runs steps back to back
// (step k+1 starts when step k ends, as vLLM's engine-core loop does); an idle replica with
// waiting requests starts its next step at the time advance() is called.
//
// Routing: cfg.router picks the replica of each request (prefix_affinity keys on the prompt's
// first blocks of token keys; the no_affinity fault turns it into round robin while active).
// Faults the engine plays itself, besides the replica-side ones: long_prompt_burst (synthetic
// Poisson arrivals with no client), gateway_timeout (a request arriving while it is active and
// without a first token timeout_s later is aborted and reported in StepReport::timed_out) and
// client_retries (a timed-out request is re-enqueued as a copy with no client, after the fault's
// backoff). Requests without a client are "ghosts": origin() tells them apart.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "core/evidence.h"
#include "sim/faults.h"
#include "sim/replica.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

// One completed step of one replica.
struct StepReport {
  int replica = 0;
  double start_s = 0, end_s = 0;     // virtual times
  const StepPlan* plan = nullptr;    // the step that ran (seqs, num_tokens, ...)
  std::vector<int32_t> finished;     // requests that got their last token in this step
  std::vector<int32_t> preempted;    // requests preempted when the NEXT step was scheduled
  std::vector<int32_t> timed_out;    // requests the gateway cut at end_s (plan empty then)
};

enum class Origin : uint8_t { client, burst, retry };  // burst and retry requests have no client

class OnlineEngine {
 public:
  explicit OnlineEngine(const SimConfig& cfg);
  ~OnlineEngine();
  OnlineEngine(const OnlineEngine&) = delete;
  OnlineEngine& operator=(const OnlineEngine&) = delete;

  int num_replicas() const;
  const SimConfig& config() const;

  // Adds a request that arrived at virtual time t to the replica the router picks (or `replica`).
  // Returns its id, or -1 when prompt_len + output_len > max_model_len (the engine's 400).
  // `token_keys` (optional): one content key per prompt token; prompt blocks then hash from
  // their tokens (prefix caching across whatever clients send).
  // `sibling_of` (optional): an earlier id of the same client request (its other choices, n > 1):
  // the gateway cuts them together, and only if none of them has a first token.
  int32_t add(double t, int32_t prompt_len, int32_t output_len, uint64_t content_key = 0, uint64_t group_key = 0,
              int32_t shared_prefix_len = 0, int replica = -1,
              std::shared_ptr<const std::vector<uint64_t>> token_keys = {}, int32_t sibling_of = -1);
  // Removes a waiting or running request (client went away); frees its KV blocks.
  void abort(int32_t id, double t);
  // Completes every step ending at or before t (in time order across replicas), then starts a
  // step on each idle replica that has work. on_step sees each completed step.
  void advance(double t, const std::function<void(const StepReport&)>& on_step);
  // Virtual time of the next thing the engine does by itself (a step end, a burst arrival, a
  // gateway deadline, a retry); +inf when there is none.
  double next_event_s() const;

  // Faults (virtual times). Scenario faults come from cfg.faults; the server adds more.
  void add_fault(const Fault& f);
  void clear_faults(double t);  // ends every active fault at t
  const std::vector<Fault>& faults() const;

  const SimRequest& request(int32_t id) const;
  Origin origin(int32_t id) const;
  uint64_t timed_out_count() const;  // requests the gateway cut
  uint64_t retry_count() const;      // retry copies enqueued
  uint64_t burst_count() const;      // burst requests injected
  size_t num_requests() const;
  const Replica& replica(int i) const;
  // Gauges and counters of replica i as an EngineSample (no histograms).
  core::EngineSample sample(int i, double t) const;
  // "" when every replica's invariants hold.
  std::string check_invariants() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmtriage::sim
