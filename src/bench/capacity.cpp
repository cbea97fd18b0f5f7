#include "bench/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace llmtriage::bench {
namespace {

// Two-sided 95% Student t quantiles for 1..10 degrees of freedom (tables; 1.96 beyond).
double t95(int df) {
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
  return df >= 1 && df <= 10 ? t[df - 1] : 1.96;
}

CapacityPoint measure(const TrialFn& fn, double load, const CapacityOptions& o) {
  CapacityPoint p;
  p.load = load;
  for (int i = 0; i < std::max(1, o.trials); ++i) {
    p.trials.push_back(fn(load, i));
    if (p.trials.back().attainment_pct < o.oversaturated_pct && i + 1 < o.trials) {
      p.stopped_early = true;
      break;
    }
  }
  const double n = static_cast<double>(p.trials.size());
  double sd = 0;
  for (const auto& t : p.trials) {
    p.attainment_mean += t.attainment_pct / n;
    p.goodput_rps += t.goodput_rps / n;
    p.ttft_p99_ms += t.ttft_p99_ms / n;
    p.tpot_p99_ms += t.tpot_p99_ms / n;
    p.client_bound = p.client_bound || t.client_bound;
  }
  for (const auto& t : p.trials) sd += (t.attainment_pct - p.attainment_mean) * (t.attainment_pct - p.attainment_mean);
  const double half = p.trials.size() > 1 ? t95(static_cast<int>(n) - 1) * std::sqrt(sd / (n - 1)) / std::sqrt(n) : 0;
  p.ci_low = std::max(0.0, p.attainment_mean - half);
  p.ci_high = std::min(100.0, p.attainment_mean + half);
  p.pass = !p.stopped_early && p.attainment_mean >= o.target_pct;
  return p;
}

}  // namespace

CapacityResult find_capacity(const TrialFn& fn, const CapacityOptions& o) {
  CapacityResult r;
  std::optional<double> lo, hi;  // highest pass, lowest fail
  auto round_load = [&](double x) { return o.integer_load ? std::max(1.0, std::round(x)) : x; };
  auto probe = [&](double load) {
    for (const auto& p : r.curve)
      if (p.load == load) return p.pass;
    r.curve.push_back(measure(fn, load, o));
    const auto& p = r.curve.back();
    if (p.client_bound) r.notes.push_back(fmt::format("load {:.4g}: a trial was client-bound", load));
    if (p.pass) lo = std::max(lo.value_or(load), load);
    else hi = std::min(hi.value_or(load), load);
    return p.pass;
  };
  double x = round_load(std::clamp(o.start, o.min_load, o.max_load));
  // Bracket.
  if (probe(x)) {
    while (!hi && static_cast<int>(r.curve.size()) < o.max_points) {
      const double nx = round_load(std::min(x * 2, o.max_load));
      if (nx == x) {
        r.notes.push_back(fmt::format("passes at the maximum load {:.4g}", x));
        break;
      }
      x = nx;
      probe(x);
    }
  } else {
    while (!lo && static_cast<int>(r.curve.size()) < o.max_points) {
      const double nx = round_load(x / 2);
      if (nx < o.min_load || nx == x) {
        r.notes.push_back(fmt::format("no load down to {:.4g} meets the SLO", x));
        break;
      }
      x = nx;
      probe(x);
    }
  }
  // Bisect.
  while (lo && hi && static_cast<int>(r.curve.size()) < o.max_points) {
    double mid;
    if (o.integer_load) {
      if (*hi - *lo <= 1) break;
      mid = std::floor((*lo + *hi) / 2);
    } else {
      if (*hi / *lo - 1 < o.rel_precision) break;
      mid = std::sqrt(*lo * *hi);  // geometric: scale-free, fine at 0.01 req/s as at 1000
    }
    probe(mid);
  }
  std::sort(r.curve.begin(), r.curve.end(), [](const auto& a, const auto& b) { return a.load < b.load; });
  r.capacity = lo;
  r.failing_above = hi;
  double best = -1;
  for (const auto& p : r.curve)
    if (p.goodput_rps > best) {
      best = p.goodput_rps;
      r.knee = p.load;
    }
  if (static_cast<int>(r.curve.size()) >= o.max_points) r.notes.push_back("stopped at the maximum number of points");
  return r;
}

}  // namespace llmtriage::bench
