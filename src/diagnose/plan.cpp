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
#include "diagnose/plan_search.h"
#include "diagnose/whatif.h"

namespace llmtriage::diagnose {
namespace {

using namespace plan_search;  // NOLINT: the search's types and sizing, plan_search.h

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
std::vector<Candidate> config_candidates(Search& s, const Proposals& props, const Config& cur, const Eval& cur_eval,
                                         const WhatIfSetup& w) {
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
        bool lowers = false;
        for (const auto& v : values)
          if (auto n = number(v); n && *n >= 1) {
            if (*n < static_cast<double>(cur.max_num_seqs)) lowers = true;
            with([n](Config& c) { c.max_num_seqs = static_cast<int64_t>(*n); }, "the rule's value");
          }
        // A rule that lowers the cap (the batch is too large for the TPOT): the value sized by search.
        if (lowers)
          if (auto k = size_batch_down(s, cur, cur_eval))
            tries.emplace_back(k->cfg, k->sizing);
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

// Re-sizes a TPOT finding's remedy that lowers max-num-seqs by the search from the observed
// configuration (size_batch_down), instead of the rule's "half the running batch".
void resize_batch_remedies(Report& rep, Search& s, const Config& observed, const WhatIfSetup& w, const Indicators& ind,
                           const PlanObjective& obj) {
  std::optional<std::optional<Candidate>> sized;
  for (auto& f : rep.findings) {
    // Only where the batch is lowered for the TPOT (batch_too_large): a preemption finding's
    // cap is sized by the KV pool (the batch that fits), another question.
    if (f.symptom != Symptom::tpot_high) continue;
    bool changed = false;
    for (auto& r : f.remedies) {
      if (r.kind != Remedy::Kind::change || r.change != "max-num-seqs") continue;
      const auto to = number(r.to);
      if (!to || *to >= static_cast<double>(observed.max_num_seqs)) continue;
      if (!sized) sized = size_batch_down(s, observed, s.observed_eval());
      if (!*sized) continue;
      const Candidate& k = **sized;
      Remedy nr = whatif_remedy("max-num-seqs", std::to_string(observed.max_num_seqs), std::to_string(k.cfg.max_num_seqs), w,
                                k.eval.p, Metric::tpot_p99, ind.get("tpot_p99_s"));
      nr.predicted_effect = fmt::format("sized by the simulator against {}: {}; {}", obj.text, k.sizing, nr.predicted_effect);
      r = std::move(nr);
      changed = true;
    }
    if (changed) order_remedies(f.remedies);
  }
}

}  // namespace

bool plan_searches(const std::string& change) { return var_of(change).has_value(); }

RemedyPlan plan_remedies(const DiagnoseInput& in, const Indicators& ind, Report& rep, int max_steps) {
  RemedyPlan plan;
  if (rep.findings.empty()) return plan;  // nothing located, nothing to plan (no why: a healthy report)
  const Finding& top = rep.findings.front();
  plan.finding_id = top.id;
  if (top.status == "located" && top.severity == Severity::info) {
    plan.why_not = "the top finding is a contributing factor (info), not a located cause";
    return plan;
  }
  // A throughput finding whose own remedies are not simulated variables (a benchmark on another
  // length mix, one-token outputs): the plan's objective is P99 latency, which does not measure
  // it, and sizing the other findings' replicas against latency would answer a question nobody
  // asked (an offline batch's P99 TTFT is its queue by construction: 64 replicas).
  if (top.symptom == Symptom::throughput_low &&
      std::none_of(top.remedies.begin(), top.remedies.end(),
                   [](const Remedy& r) { return r.kind == Remedy::Kind::change && var_of(r.change); })) {
    plan.why_not = fmt::format("the top finding ({}) is about throughput and proposes no change the simulator applies: the "
                               "plan reaches a P99 latency objective, which does not measure it; its remedies stand as given",
                               top.id);
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
  std::optional<int> replicas_hint;  // a count found to meet the objective from the state a step leads to
  for (int step = 0; step < max_steps && !cur_eval.met; ++step) {
    std::optional<int> next_hint;
    std::vector<Candidate> cands = config_candidates(s, props, cur, cur_eval, w);
    std::optional<Candidate> pick;
    // A configuration change that meets the objective costs no GPUs: it wins.
    for (auto& k : cands)
      if (k.eval.met && helps(k.eval, cur_eval, o, w.baseline.rejected) && (!pick || k.eval.score < pick->eval.score)) pick = k;
    std::optional<Candidate> reps;
    if (!pick && props.values.count(Var::replicas)) {
      reps = size_replicas(s, cur, cur_eval, replicas_hint);
      if (reps && reps->eval.met && helps(reps->eval, cur_eval, o, w.baseline.rejected)) {
        pick = reps;
        // A configuration change first when, with it, fewer replicas meet the objective: the same
        // objective for fewer GPUs (the replicas are sized at the next step, from that state).
        // On a tie the replicas alone win: one step fewer.
        std::optional<int> fewest;
        for (auto& k : cands) {
          if (!helps(k.eval, cur_eval, o, w.baseline.rejected)) continue;
          // Both counts at the observed load (the replicas step adds its headroom after).
          const int upper = fewest ? *fewest : reps->bare_replicas;
          if (auto n = fewest_replicas_below(s, k.cfg, upper)) {
            fewest = n;
            next_hint = n;
            pick = k;
            pick->sizing += fmt::format("{}with it {} replicas meet the objective instead of {} (at the observed load)",
                                        k.sizing.empty() ? "" : "; ", *n, reps->bare_replicas);
          }
        }
      }
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
    replicas_hint = pick->var == Var::replicas ? std::nullopt : next_hint;
    if (cur_eval.met) {
      plan.met = true;
      plan.met_at_step = plan.steps.size();
    }
  }
  if (!plan.met) plan.shortfall = shortfall_text(cur_eval, o);
  resize_replica_remedies(rep, s, observed, w, ind, o);
  resize_batch_remedies(rep, s, observed, w, ind, o);
  plan.simulations = s.sims() + 1;  // + the baseline
  return plan;
}

}  // namespace llmtriage::diagnose
