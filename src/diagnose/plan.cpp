// The remedy plan: a greedy search over cumulative single-variable changes, each predicted by the
// simulator what-if on the observed workload (whatif.h), for the shortest sequence that meets the
// objective. docs/rules.md, "The remedy plan".
//
// Candidates are the variables the findings already propose and the simulator can apply; their
// values are sized by search, not by the rules' proportional figures: replicas by doubling then
// bisection (the smallest count that meets the objective), max-num-seqs up to what the KV pool
// holds at the observed lengths, the other variables at the values the rules computed (ledger
// sizes for memory variables). A step is taken only when the simulator predicts it improves the
// objective beyond the binding metric's uncertainty (or meets it), never when it predicts worse.
#include "diagnose/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/units.h"
#include "diagnose/diagnose.h"
#include "diagnose/indicators.h"
#include "diagnose/whatif.h"

namespace llmtriage::diagnose {
namespace {

// Bounds: the what-if costs ~0.1-0.5 s a run; a diagnosis spends at most this many on its plan.
constexpr int kMaxSimulations = 30;
constexpr int kMaxReplicas = 64;

enum class Var { replicas, max_num_seqs, chunked_prefill, max_num_batched_tokens, kv_cache_dtype, gpu_memory_utilization, max_model_len };

std::optional<Var> var_of(const std::string& change) {
  if (change == "replicas") return Var::replicas;
  if (change == "max-num-seqs") return Var::max_num_seqs;
  if (change == "enable-chunked-prefill") return Var::chunked_prefill;
  if (change == "max-num-batched-tokens") return Var::max_num_batched_tokens;
  if (change == "kv-cache-dtype") return Var::kv_cache_dtype;
  if (change == "gpu-memory-utilization" || change == "mem-fraction-static") return Var::gpu_memory_utilization;
  if (change == "max-model-len" || change == "context-length") return Var::max_model_len;
  return std::nullopt;
}

std::optional<double> number(const std::string& s) {
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
};

std::string key(const Config& c) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{:.4f}", c.replicas, c.max_num_seqs, c.max_num_batched_tokens, c.max_model_len,
                     c.chunked_prefill, c.kv_cache_dtype, c.gpu_memory_utilization);
}

std::string value_text(Var v, const Config& c) {
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

const char* default_name(Var v) {
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
void apply(const Config& c, const Config& observed, sim::Scenario& s) {
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
}

PlanObjective objective_for(const DiagnoseInput& in, const Indicators& ind) {
  PlanObjective o;
  const Slo def;
  const bool slo_given = in.slo.ttft_p99_s != def.ttft_p99_s || in.slo.tpot_p99_s != def.tpot_p99_s;
  const auto bt = ind.base("ttft_p99_s"), bp = ind.base("tpot_p99_s");
  o.ttft_p99_s = in.slo.ttft_p99_s;
  o.tpot_p99_s = in.slo.tpot_p99_s;
  const std::string slo_text = fmt::format("P99 TTFT <= {}, P99 TPOT <= {}", core::format_duration_s(in.slo.ttft_p99_s),
                                           core::format_duration_s(in.slo.tpot_p99_s));
  if (slo_given || (!bt && !bp)) {
    o.basis = "slo";
    o.text = fmt::format("{} (the SLO{})", slo_text, slo_given ? " given" : ", defaults: no --slo and no baseline");
    return o;
  }
  // The healthy period's P99s; where it was already faster than the SLO the SLO is the
  // objective (being back within it is the goal, not matching an idle baseline).
  o.basis = "baseline";
  if (bt) o.ttft_p99_s = std::max(*bt, in.slo.ttft_p99_s);
  if (bp) o.tpot_p99_s = std::max(*bp, in.slo.tpot_p99_s);
  o.text = fmt::format("P99 TTFT <= {}, P99 TPOT <= {} (the baseline's P99s: TTFT {}, TPOT {}; no tighter than the SLO)",
                       core::format_duration_s(o.ttft_p99_s), core::format_duration_s(o.tpot_p99_s),
                       bt ? core::format_duration_s(*bt) : "unknown", bp ? core::format_duration_s(*bp) : "unknown");
  return o;
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
};

// The binding metric's uncertainty: a step must beat it to count as an improvement (the same
// tolerance the remedies' "no predicted effect" uses).
double tolerance(const Eval& e, const PlanObjective& o) {
  if (!std::isfinite(e.score)) return 0;
  return e.p.ttft_p99_s / o.ttft_p99_s >= e.p.tpot_p99_s / o.tpot_p99_s ? kSimTtftUncertainty : kSimTpotUncertainty;
}

bool helps(const Eval& cand, const Eval& cur, const PlanObjective& o, uint64_t rejected_before) {
  if (!cand.p.starts || !std::isfinite(cand.score) || cand.p.rejected > rejected_before) return false;
  if (!std::isfinite(cur.score)) return true;  // the engine did not start before: serving at all helps
  if (cand.met) return cand.score <= cur.score;
  return cand.score < cur.score * (1 - tolerance(cur, o));
}

// The smallest replica count above the current one that meets the objective: doubling, then
// bisection between the last miss and the first hit. Without a hit up to kMaxReplicas, the
// smallest count within 5% of the best score tried.
std::optional<Candidate> size_replicas(Search& s, const Config& cur, const Eval& cur_eval) {
  Config c = cur;
  int lo = cur.replicas, hi = 0;
  std::map<int, Eval> tried;
  tried[lo] = cur_eval;
  for (int n = std::min(kMaxReplicas, cur.replicas * 2); n > lo; n = std::min(kMaxReplicas, n * 2)) {
    c.replicas = n;
    auto e = s.run(c);
    if (!e) break;
    tried[n] = *e;
    if (e->met) {
      hi = n;
      break;
    }
    lo = n;
    if (n == kMaxReplicas) break;
  }
  if (hi) {
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      c.replicas = mid;
      auto e = s.run(c);
      if (!e) break;
      tried[mid] = *e;
      (e->met ? hi : lo) = mid;
    }
    Candidate k{Var::replicas, cur, tried[hi], ""};
    k.cfg.replicas = hi;
    const Eval& miss = tried.count(hi - 1) ? tried[hi - 1] : tried[lo];
    const int miss_n = tried.count(hi - 1) ? hi - 1 : lo;
    k.sizing = fmt::format("the smallest count that meets the objective ({} does not: P99 TTFT {}, P99 TPOT {})", miss_n,
                           core::format_duration_s(miss.p.ttft_p99_s), core::format_duration_s(miss.p.tpot_p99_s));
    return k;
  }
  if (tried.size() < 2) return std::nullopt;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [n, e] : tried) best = std::min(best, e.score);
  for (const auto& [n, e] : tried)
    if (n != cur.replicas && e.score <= best * 1.05) {
      Candidate k{Var::replicas, cur, e, ""};
      k.cfg.replicas = n;
      k.sizing = fmt::format("no count up to {} meets the objective; {} comes within 5% of the best tried",
                             tried.rbegin()->first, n);
      return k;
    }
  return std::nullopt;
}

PlanState state_of(const Eval& e, const Config& c, const PlanObjective& o) {
  PlanState st;
  st.ttft_p50_s = e.p.ttft_p50_s;
  st.ttft_p99_s = e.p.ttft_p99_s;
  st.tpot_p99_s = e.p.tpot_p99_s;
  st.output_tokens_per_s = e.p.output_tokens_per_s;
  if (e.p.duration_s > 0) {
    size_t good = 0;
    for (const auto& [ttft, tpot] : e.p.ttft_tpot_s) good += ttft <= o.ttft_p99_s && tpot <= o.tpot_p99_s;
    st.goodput_rps = static_cast<double>(good) / e.p.duration_s;
  }
  st.gpus = c.replicas * c.tp;
  return st;
}

// The variables the findings propose, with the values their rules computed.
struct Proposals {
  std::map<Var, std::set<std::string>> values;
  std::map<Var, std::string> names;
};

Proposals proposals(const Report& rep) {
  Proposals p;
  for (const Finding& f : rep.findings) {
    for (const auto& r : f.remedies) {
      if (r.kind != Remedy::Kind::change) continue;
      if (auto v = var_of(r.change)) {
        p.values[*v].insert(r.to);
        p.names.emplace(*v, r.change);
      }
    }
  }
  return p;
}

double mean_of(const sim::LengthDist& d) {
  if (d.kind == sim::LengthDist::Kind::empirical && !d.samples.empty()) {
    double s = 0;
    for (auto v : d.samples) s += v;
    return s / static_cast<double>(d.samples.size());
  }
  if (d.kind == sim::LengthDist::Kind::uniform) return (static_cast<double>(d.lo) + static_cast<double>(d.hi)) / 2;
  return d.mean;
}

// One candidate per proposed variable (replicas aside): the best of its values, from `cur`.
std::vector<Candidate> config_candidates(Search& s, const Proposals& props, const Config& cur, const WhatIfSetup& w) {
  std::vector<Candidate> out;
  for (const auto& [var, values] : props.values) {
    std::vector<std::pair<Config, std::string>> tries;
    auto with = [&](auto set, const std::string& sizing) {
      Config c = cur;
      set(c);
      if (key(c) != key(cur)) tries.emplace_back(c, sizing);
    };
    switch (var) {
      case Var::replicas: break;  // sized by its own search
      case Var::chunked_prefill:
        with([](Config& c) { c.chunked_prefill = true; }, "");
        break;
      case Var::max_num_seqs: {
        // The largest batch the KV pool holds at the observed mean lengths (the pool per replica
        // the simulated engine sized from the ledger, or the engine's own figure).
        const double per_seq = mean_of(w.scenario.config.workload.input) + mean_of(w.scenario.config.workload.output);
        const auto pool = s.observed_eval().p.kv_cache_tokens;
        if (per_seq > 0 && pool > 0) {
          const int64_t fit = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(pool) / per_seq));
          with([fit](Config& c) { c.max_num_seqs = fit; },
               fmt::format("the largest batch the KV pool holds: {} tokens / {:.0f} per sequence", pool, per_seq));
        }
        for (const auto& v : values)
          if (auto n = number(v); n && *n >= 1) with([n](Config& c) { c.max_num_seqs = static_cast<int64_t>(*n); }, "the rule's value");
        break;
      }
      case Var::max_num_batched_tokens:
        for (const auto& v : values)
          if (auto n = number(v); n && *n >= 16) with([n](Config& c) { c.max_num_batched_tokens = static_cast<int64_t>(*n); }, "");
        break;
      case Var::kv_cache_dtype:
        for (const auto& v : values)
          if (!v.empty())
            with([v](Config& c) { c.kv_cache_dtype = v; },
                 v.rfind("fp8", 0) == 0 ? "about twice the KV tokens per GiB (ledger); check output quality on the same prompts" : "");
        break;
      case Var::gpu_memory_utilization:
        for (const auto& v : values)
          if (auto n = number(v); n && *n > 0 && *n <= 1) with([n](Config& c) { c.gpu_memory_utilization = *n; }, "");
        break;
      case Var::max_model_len:
        for (const auto& v : values)
          if (auto n = number(v); n && *n >= 16) with([n](Config& c) { c.max_model_len = static_cast<int64_t>(*n); }, "the ledger's value");
        break;
    }
    std::optional<Candidate> best;
    for (const auto& [c, sizing] : tries) {
      auto e = s.run(c);
      if (!e) continue;
      if (!best || e->score < best->eval.score) best = Candidate{var, c, *e, sizing};
    }
    if (best) out.push_back(std::move(*best));
  }
  return out;
}

std::string shortfall_text(const Eval& e, const PlanObjective& o) {
  if (!e.p.starts) return "the simulated engine does not start: " + e.p.startup_error;
  std::string s;
  if (e.p.ttft_p99_s > o.ttft_p99_s)
    s = fmt::format("P99 TTFT {} vs {} ({:.2f}x)", core::format_duration_s(e.p.ttft_p99_s),
                    core::format_duration_s(o.ttft_p99_s), e.p.ttft_p99_s / o.ttft_p99_s);
  if (e.p.tpot_p99_s > o.tpot_p99_s)
    s += fmt::format("{}P99 TPOT {} vs {} ({:.2f}x)", s.empty() ? "" : ", ", core::format_duration_s(e.p.tpot_p99_s),
                     core::format_duration_s(o.tpot_p99_s), e.p.tpot_p99_s / o.tpot_p99_s);
  return s;
}

Config observed_config(const WhatIfSetup& w) {
  sim::Scenario s = w.scenario;
  Config c;
  if (sim::resolve(s).ok()) {
    c.max_num_seqs = s.config.scheduler.max_num_seqs;
    c.max_num_batched_tokens = s.config.scheduler.max_num_batched_tokens;
    c.chunked_prefill = s.config.scheduler.chunked_prefill;
    c.max_model_len = s.config.max_model_len;
  }
  c.replicas = w.scenario.config.replicas;
  c.tp = w.scenario.deployment.tp;
  c.kv_cache_dtype = w.scenario.deployment.kv_cache_dtype;
  c.gpu_memory_utilization = w.scenario.deployment.gpu_memory_utilization;
  return c;
}

// Re-sizes every finding's replica remedy by the search from the observed configuration: the
// smallest count the simulator predicts to meet the objective, instead of a proportional rule.
void resize_replica_remedies(Report& rep, Search& s, const Config& observed, const WhatIfSetup& w,
                             const Indicators& ind, const PlanObjective& obj) {
  std::optional<std::optional<Candidate>> sized;  // searched once, on first use
  for (auto& f : rep.findings) {
    bool changed = false;
    for (auto& r : f.remedies) {
      if (r.kind != Remedy::Kind::change || r.change != "replicas") continue;
      const Eval& now = s.observed_eval();
      if (now.met) continue;  // the simulator does not see the breach: nothing to size against
      if (!sized) sized = size_replicas(s, observed, now);
      if (!*sized) continue;
      const Candidate& k = **sized;
      const Metric focus = f.symptom == Symptom::tpot_high ? Metric::tpot_p99 : Metric::ttft_p99;
      const char* obs = focus == Metric::tpot_p99 ? "tpot_p99_s" : "ttft_p99_s";
      Remedy nr = whatif_remedy("replicas", std::to_string(observed.replicas), std::to_string(k.cfg.replicas), w,
                                k.eval.p, focus, ind.get(obs));
      nr.predicted_effect = fmt::format("sized by the simulator against {}: {}; {}", obj.text, k.sizing, nr.predicted_effect);
      r = std::move(nr);
      changed = true;
    }
    if (changed) order_remedies(f.remedies);
  }
}

}  // namespace

RemedyPlan plan_remedies(const DiagnoseInput& in, const Indicators& ind, Report& rep, int max_steps) {
  RemedyPlan plan;
  if (rep.findings.empty()) return plan;  // nothing located, nothing to plan (no why: a healthy report)
  const Finding& top = rep.findings.front();
  plan.finding_id = top.id;
  if (top.status == "located" && top.severity == Severity::info) {
    plan.why_not = "the top finding is a contributing factor (info), not a located cause";
    return plan;
  }
  const Proposals props = proposals(rep);
  if (!in.what_if) {
    plan.why_not = "no simulator what-if (--no-what-if): the plan is searched by the simulator";
    return plan;
  }
  if (props.values.empty()) {
    plan.why_not = "no finding proposes a change the simulator can apply (replicas, max-num-seqs, enable-chunked-prefill, "
                   "max-num-batched-tokens, kv-cache-dtype, gpu-memory-utilization, max-model-len)";
    return plan;
  }
  auto setup = whatif_replay_setup(in, ind);
  if (!setup.ok()) {
    plan.why_not = "no simulator what-if: " + setup.error().message();
    return plan;
  }
  const WhatIfSetup& w = *setup;
  plan.objective = objective_for(in, ind);
  const Config observed = observed_config(w);
  Search s(w, observed, plan.objective);
  const PlanObjective& o = plan.objective;
  plan.computed = true;
  Config cur = observed;
  Eval cur_eval = s.observed_eval();
  plan.before = state_of(cur_eval, cur, o);
  const bool repro = reproduces(w.baseline, Metric::ttft_p99, ind.get("ttft_p99_s")) &&
                     reproduces(w.baseline, Metric::tpot_p99, ind.get("tpot_p99_s"));
  const double widen = repro ? 1.0 : 1.0 / kSimTtftUncertainty;  // direction only: +-100% on TTFT
  if (!repro)
    plan.notes = fmt::format("the simulated observed state (P99 TTFT {}, P99 TPOT {}) does not reproduce the observed "
                             "one within a factor 2: trust the direction of each step, not its size",
                             core::format_duration_s(w.baseline.ttft_p99_s), core::format_duration_s(w.baseline.tpot_p99_s));
  if (cur_eval.met) {
    plan.met = true;
    plan.met_at_step = 0;
    plan.notes += std::string(plan.notes.empty() ? "" : "; ") +
                  "the simulated observed state already meets the objective: the simulator does not see the breach, so "
                  "no change is sized by it";
  }
  for (int step = 0; step < max_steps && !cur_eval.met; ++step) {
    std::vector<Candidate> cands = config_candidates(s, props, cur, w);
    std::optional<Candidate> pick;
    // A configuration change that meets the objective costs no GPUs: it wins.
    for (auto& k : cands)
      if (k.eval.met && helps(k.eval, cur_eval, o, w.baseline.rejected) && (!pick || k.eval.score < pick->eval.score)) pick = k;
    std::optional<Candidate> reps;
    if (!pick && props.values.count(Var::replicas)) {
      reps = size_replicas(s, cur, cur_eval);
      if (reps && reps->eval.met && helps(reps->eval, cur_eval, o, w.baseline.rejected)) pick = reps;
    }
    // Otherwise the configuration change that improves most; more replicas only when none helps.
    if (!pick)
      for (auto& k : cands)
        if (helps(k.eval, cur_eval, o, w.baseline.rejected) && (!pick || k.eval.score < pick->eval.score)) pick = k;
    if (!pick && reps && helps(reps->eval, cur_eval, o, w.baseline.rejected)) pick = reps;
    if (!pick) {
      plan.notes += std::string(plan.notes.empty() ? "" : "; ") +
                    (s.budget_hit() ? fmt::format("stopped: the search budget ({} simulations) is spent", kMaxSimulations)
                                    : "stopped: no remaining candidate improves the objective beyond its uncertainty");
      break;
    }
    PlanStep st;
    st.change = props.names.count(pick->var) ? props.names.at(pick->var) : default_name(pick->var);
    st.from = value_text(pick->var, cur);
    st.to = value_text(pick->var, pick->cfg);
    st.sizing = pick->sizing;
    st.after = state_of(pick->eval, pick->cfg, o);
    st.ttft_uncertainty = std::min(1.0, kSimTtftUncertainty * widen);
    st.tpot_uncertainty = repro ? kSimTpotUncertainty : 1.0;
    st.throughput_uncertainty = repro ? kSimThroughputUncertainty : 1.0;
    st.met = pick->eval.met;
    plan.steps.push_back(std::move(st));
    cur = pick->cfg;
    cur_eval = pick->eval;
    if (cur_eval.met) {
      plan.met = true;
      plan.met_at_step = plan.steps.size();
    }
  }
  if (!plan.met) plan.shortfall = shortfall_text(cur_eval, o);
  resize_replica_remedies(rep, s, observed, w, ind, o);
  plan.simulations = s.sims() + 1;  // + the baseline
  return plan;
}

}  // namespace llmtriage::diagnose
