#pragma once
// The remedy plan's search, below plan.cpp: the variables a plan may change (Config), one
// simulated evaluation against the objective (Eval), the what-if runner with its cache and budget
// (Search), and the sizing searches (plan_sizing.cpp: replicas with headroom, the fewest replicas a
// configuration change leaves, a lowered max-num-seqs). Internal to src/diagnose; plan.h is the API.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>

#include "diagnose/plan.h"
#include "diagnose/whatif.h"
#include "sim/scenario.h"

namespace llmtriage::diagnose::plan_search {

// Bounds: the what-if costs ~0.1-0.5 s a run; a diagnosis spends at most this many on its plan.
inline constexpr int kMaxSimulations = 50;
inline constexpr int kMaxReplicas = 64;

enum class Var { replicas, max_num_seqs, chunked_prefill, max_num_batched_tokens, kv_cache_dtype, gpu_memory_utilization, max_model_len };

inline std::optional<Var> var_of(const std::string& change) {
  if (change == "replicas") return Var::replicas;
  if (change == "max-num-seqs") return Var::max_num_seqs;
  if (change == "enable-chunked-prefill") return Var::chunked_prefill;
  if (change == "max-num-batched-tokens") return Var::max_num_batched_tokens;
  if (change == "kv-cache-dtype") return Var::kv_cache_dtype;
  if (change == "gpu-memory-utilization" || change == "mem-fraction-static") return Var::gpu_memory_utilization;
  if (change == "max-model-len" || change == "context-length") return Var::max_model_len;
  return std::nullopt;
}

inline std::optional<double> number(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

// The variables a plan may change, as the simulated scenario holds them (resolved values, so a
// step's "from" is the engine's effective setting, not "default").
struct Config {
  int replicas = 1;
  int tp = 1;
  int64_t max_num_seqs = 256, max_num_batched_tokens = 8192, max_model_len = 8192;
  bool chunked_prefill = true;
  std::string kv_cache_dtype = "auto";
  double gpu_memory_utilization = 0.9;
  double load = 1;  // the observed load x this: headroom checks only (never a step's variable)
};

inline std::string key(const Config& c) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{:.4f}|{:.3f}", c.replicas, c.max_num_seqs, c.max_num_batched_tokens, c.max_model_len,
                     c.chunked_prefill, c.kv_cache_dtype, c.gpu_memory_utilization, c.load);
}

inline std::string value_text(Var v, const Config& c) {
  switch (v) {
    case Var::replicas: return std::to_string(c.replicas);
    case Var::max_num_seqs: return std::to_string(c.max_num_seqs);
    case Var::chunked_prefill: return c.chunked_prefill ? "true" : "false";
    case Var::max_num_batched_tokens: return std::to_string(c.max_num_batched_tokens);
    case Var::kv_cache_dtype: return c.kv_cache_dtype;
    case Var::gpu_memory_utilization: return fmt::format("{:.2f}", c.gpu_memory_utilization);
    case Var::max_model_len: return std::to_string(c.max_model_len);
  }
  return "";
}

inline const char* default_name(Var v) {
  switch (v) {
    case Var::replicas: return "replicas";
    case Var::max_num_seqs: return "max-num-seqs";
    case Var::chunked_prefill: return "enable-chunked-prefill";
    case Var::max_num_batched_tokens: return "max-num-batched-tokens";
    case Var::kv_cache_dtype: return "kv-cache-dtype";
    case Var::gpu_memory_utilization: return "gpu-memory-utilization";
    case Var::max_model_len: return "max-model-len";
  }
  return "";
}

// The scenario with the plan's variables applied; only what differs from the observed
// configuration is set, so an unchanged variable keeps the engine's own default logic.
inline void apply(const Config& c, const Config& observed, sim::Scenario& s) {
  s.config.replicas = c.replicas;
  if (c.max_num_seqs != observed.max_num_seqs) s.max_num_seqs = c.max_num_seqs;
  if (c.chunked_prefill != observed.chunked_prefill) {
    s.chunked_prefill = c.chunked_prefill;
    // vLLM V0 with chunking on and no explicit budget: 2048 tokens per step (as the rule's what-if).
    if (c.chunked_prefill && !s.max_num_batched_tokens && s.engine == "vllm-v0") s.max_num_batched_tokens = 2048;
  }
  if (c.max_num_batched_tokens != observed.max_num_batched_tokens) s.max_num_batched_tokens = c.max_num_batched_tokens;
  if (c.max_model_len != observed.max_model_len) s.deployment.max_model_len = c.max_model_len;
  if (c.kv_cache_dtype != observed.kv_cache_dtype) s.deployment.kv_cache_dtype = c.kv_cache_dtype;
  if (c.gpu_memory_utilization != observed.gpu_memory_utilization)
    s.deployment.gpu_memory_utilization = c.gpu_memory_utilization;
  scale_load(s, c.load);
}

struct Eval {
  Prediction p;
  double score = std::numeric_limits<double>::infinity();  // max over the objectives of P99 / objective; <= 1 met
  bool met = false;
};

class Search {
 public:
  Search(const WhatIfSetup& w, const Config& observed, const PlanObjective& obj)
      : w_(w), observed_(observed), obj_(obj) {
    cache_[key(observed)] = evaluate(w.baseline);
  }

  // nullopt when the budget is spent or the simulator refused the configuration.
  std::optional<Eval> run(const Config& c) {
    const std::string k = key(c);
    if (auto it = cache_.find(k); it != cache_.end()) return it->second;
    if (sims_ >= kMaxSimulations) {
      budget_hit_ = true;
      return std::nullopt;
    }
    ++sims_;
    auto r = predict_changed(w_, [&](sim::Scenario& s) { apply(c, observed_, s); });
    if (!r.ok()) return std::nullopt;
    return cache_[k] = evaluate(*r);
  }

  Eval evaluate(const Prediction& p) const {
    Eval e;
    e.p = p;
    if (!p.starts || p.completed == 0) return e;
    e.score = std::max(p.ttft_p99_s / obj_.ttft_p99_s, p.tpot_p99_s / obj_.tpot_p99_s);
    // Requests the change turns away (a shorter context) do not count as served faster.
    e.met = e.score <= 1 && p.rejected <= w_.baseline.rejected;
    return e;
  }

  const PlanObjective& objective() const { return obj_; }
  int sims() const { return sims_; }
  bool budget_hit() const { return budget_hit_; }
  const Eval& observed_eval() { return cache_[key(observed_)]; }

 private:
  const WhatIfSetup& w_;
  Config observed_;
  PlanObjective obj_;
  std::map<std::string, Eval> cache_;
  int sims_ = 0;
  bool budget_hit_ = false;
};

struct Candidate {
  Var var;
  Config cfg;
  Eval eval;
  std::string sizing;
  int bare_replicas = 0;  // replicas: the smallest count meeting the objective at the observed load (before headroom)
};

// The binding metric's uncertainty: a step must beat it to count as an improvement (the same
// tolerance the remedies' "no predicted effect" uses).
inline double tolerance(const Eval& e, const PlanObjective& o) {
  if (!std::isfinite(e.score)) return 0;
  return e.p.ttft_p99_s / o.ttft_p99_s >= e.p.tpot_p99_s / o.tpot_p99_s ? kSimTtftUncertainty : kSimTpotUncertainty;
}

inline bool helps(const Eval& cand, const Eval& cur, const PlanObjective& o, uint64_t rejected_before) {
  if (!cand.p.starts || !std::isfinite(cand.score) || cand.p.rejected > rejected_before) return false;
  if (!std::isfinite(cur.score)) return true;  // the engine did not start before: serving at all helps
  if (cand.met) return cand.score <= cur.score;
  return cand.score < cur.score * (1 - tolerance(cur, o));
}

// Sizing searches (plan_sizing.cpp).

// Raises a replica candidate that meets the objective only at the observed load until it also
// meets it with kSimThroughputUncertainty more load (the knee), saying so in its sizing.
void add_headroom(Search& s, Candidate& k);

// The smallest replica count above the current one that meets the objective (with headroom);
// `known_met`: a count already found to meet it from this state.
std::optional<Candidate> size_replicas(Search& s, const Config& cur, const Eval& cur_eval, std::optional<int> known_met = {});

// The fewest replicas below `upper` that meet the objective with `cfg`'s other settings.
std::optional<int> fewest_replicas_below(Search& s, Config cfg, int upper);

// The largest max-num-seqs below the current one whose P99 TPOT meets the objective.
std::optional<Candidate> size_batch_down(Search& s, const Config& cur, const Eval& cur_eval);

}  // namespace llmtriage::diagnose::plan_search
