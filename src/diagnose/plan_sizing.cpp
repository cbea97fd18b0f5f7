// The remedy plan's sizing searches (plan_search.h): each value found by simulation, not by a
// rule's proportion. docs/rules.md, "The remedy plan", "Sizing".
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/units.h"
#include "diagnose/plan_search.h"

namespace llmtriage::diagnose::plan_search {

// Headroom: the simulator's throughput is uncertain by kSimThroughputUncertainty, so a count that
// meets the objective at the observed load but not at that much more sits on the knee of the
// latency curve, where a few percent of capacity decide between a P99 of a second and of a
// minute (a drill of preemption-storm measured 2.9 s at the 18 replicas predicted to give 0.6 s;
// 17 were predicted at 6.3 s). The count is raised until it also meets the objective with that
// much more load; the step's prediction stays the one at the observed load.
void add_headroom(Search& s, Candidate& k) {
  const int sized = k.cfg.replicas;
  Config h = k.cfg;
  h.load = 1 + kSimThroughputUncertainty;
  std::optional<Eval> at_more, edge;
  for (; h.replicas <= kMaxReplicas; ++h.replicas) {
    at_more = s.run(h);
    if (!at_more || at_more->met) break;
    if (!edge) edge = at_more;
  }
  // Unchecked (the search budget spent, or no count up to kMaxReplicas meets it with more load):
  // the count stands at the observed load, and its sizing says the headroom is not known.
  const char* unchecked = "; headroom for 10% more load not established (search budget or replica bound)";
  if (!at_more || !at_more->met) {
    k.sizing += unchecked;
    return;
  }
  if (!edge) return;  // it meets the objective with more load already
  Config n = k.cfg;
  n.replicas = h.replicas;
  auto nominal = s.run(n);
  if (!nominal || !nominal->met) {
    k.sizing += unchecked;
    return;
  }
  k.cfg = n;
  k.eval = *nominal;
  k.sizing = fmt::format("the smallest count that meets the objective with {:.0f}% more load than observed (the simulator's "
                         "throughput uncertainty): {} meets it at the observed load only (with {:.0f}% more: P99 TTFT {}, "
                         "P99 TPOT {}), on the knee of the latency curve",
                         kSimThroughputUncertainty * 100, sized, kSimThroughputUncertainty * 100,
                         core::format_duration_s(edge->p.ttft_p99_s), core::format_duration_s(edge->p.tpot_p99_s));
}

// The smallest replica count above the current one that meets the objective: doubling, then
// bisection between the last miss and the first hit. Without a hit up to kMaxReplicas, the
// smallest count within 5% of the best score tried.
// `known_met`: a count already found to meet it from this state (the search that chose the
// previous step): the bisection starts below it, on simulations already made.
std::optional<Candidate> size_replicas(Search& s, const Config& cur, const Eval& cur_eval, std::optional<int> known_met) {
  Config c = cur;
  int lo = cur.replicas, hi = 0;
  std::map<int, Eval> tried;
  tried[lo] = cur_eval;
  if (known_met && *known_met > lo) {
    c.replicas = *known_met;
    if (auto e = s.run(c); e && e->met) {
      tried[*known_met] = *e;
      hi = *known_met;
    }
  }
  for (int n = std::min(kMaxReplicas, cur.replicas * 2); !hi && n > lo; n = std::min(kMaxReplicas, n * 2)) {
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
    k.bare_replicas = hi;
    add_headroom(s, k);
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

// The fewest replicas below `upper` that meet the objective with `cfg`'s other settings, or
// nullopt when `upper` - 1 does not: one simulation for a change that saves no replica, a
// bisection for one that does.
std::optional<int> fewest_replicas_below(Search& s, Config cfg, int upper) {
  int lo = cfg.replicas, hi = upper - 1;
  if (hi <= lo) return std::nullopt;
  cfg.replicas = hi;
  auto e = s.run(cfg);
  if (!e || !e->met) return std::nullopt;
  while (hi - lo > 1) {
    cfg.replicas = lo + (hi - lo) / 2;
    auto m = s.run(cfg);
    if (!m) break;
    (m->met ? hi : lo) = cfg.replicas;
  }
  return hi;
}

// The largest max-num-seqs below the current one whose P99 TPOT meets the objective (every decode
// step reads the KV of the whole batch: a smaller batch, a shorter step), instead of a rule's
// "half the running batch": halving until the TPOT is met, then bisection to within an eighth.
// nullopt when the TPOT already meets it or no batch down to 1 does.
std::optional<Candidate> size_batch_down(Search& s, const Config& cur, const Eval& cur_eval) {
  const double obj = s.objective().tpot_p99_s;
  if (cur.max_num_seqs <= 1 || !cur_eval.p.starts || cur_eval.p.tpot_p99_s <= obj) return std::nullopt;
  auto tpot_met = [&](const Eval& e) { return e.p.starts && e.p.completed > 0 && e.p.tpot_p99_s <= obj; };
  int64_t bad = cur.max_num_seqs, good = 0;
  Eval good_e, bad_e = cur_eval;
  Config c = cur;
  for (int64_t n = cur.max_num_seqs / 2; n >= 1 && !good; n /= 2) {
    c.max_num_seqs = n;
    auto e = s.run(c);
    if (!e) return std::nullopt;
    if (tpot_met(*e)) {
      good = n;
      good_e = *e;
    } else {
      bad = n;
      bad_e = *e;
    }
    if (n == 1) break;
  }
  if (!good) return std::nullopt;
  while (bad - good > std::max<int64_t>(1, good / 8)) {
    c.max_num_seqs = good + (bad - good) / 2;
    auto e = s.run(c);
    if (!e) break;
    if (tpot_met(*e)) {
      good = c.max_num_seqs;
      good_e = *e;
    } else {
      bad = c.max_num_seqs;
      bad_e = *e;
    }
  }
  Candidate k{Var::max_num_seqs, cur, good_e, ""};
  k.cfg.max_num_seqs = good;
  k.sizing = fmt::format("the largest batch cap whose P99 TPOT meets the objective, within an eighth ({}: P99 TPOT {})", bad,
                         core::format_duration_s(bad_e.p.tpot_p99_s));
  return k;
}

}  // namespace llmtriage::diagnose::plan_search
