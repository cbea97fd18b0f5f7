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

CapacityPoint measure(const TrialFn& fn, double load, const CapacityOptions& o, std::string& stop) {
  CapacityPoint p;
  p.load = load;
  for (int i = 0; i < std::max(1, o.trials); ++i) {
    TrialResult t = fn(load, i);
    if (!t.stop.empty()) {
      stop = t.stop;
      break;
    }
    p.trials.push_back(std::move(t));
    if (p.trials.back().attainment_pct < o.oversaturated_pct && i + 1 < o.trials) {
      p.stopped_early = true;
      break;
    }
  }
  if (p.trials.empty()) return p;
  const double n = static_cast<double>(p.trials.size());
  double sd = 0;
  for (const auto& t : p.trials) {
    p.attainment_mean += t.attainment_pct / n;
    p.goodput_rps += t.goodput_rps / n;
    p.ttft_p99_ms += t.ttft_p99_ms / n;
    p.tpot_p99_ms += t.tpot_p99_ms / n;
    p.e2e_p99_ms += t.e2e_p99_ms / n;
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
  double e2e_p50_ms = 0;  // of the last point measured
  auto probe = [&](double load) {
    for (const auto& p : r.curve)
      if (p.load == load) return p.pass;
    std::string stop;
    CapacityPoint measured = measure(fn, load, o, stop);
    if (!stop.empty()) r.stopped = stop;
    if (measured.trials.empty()) return false;
    e2e_p50_ms = 0;
    for (const auto& t : measured.trials) e2e_p50_ms += t.e2e_p50_ms / static_cast<double>(measured.trials.size());
    r.curve.push_back(std::move(measured));
    const auto& p = r.curve.back();
    if (p.client_bound) r.notes.push_back(fmt::format("load {:.4g}: a trial was client-bound", load));
    if (p.pass) lo = std::max(lo.value_or(load), load);
    else hi = std::min(hi.value_or(load), load);
    return p.pass;
  };
  double x = round_load(std::clamp(o.start, o.min_load, o.max_load));
  // Bracket.
  auto going = [&] { return r.stopped.empty() && static_cast<int>(r.curve.size()) < o.max_points; };
  if (probe(x)) {
    while (!hi && going()) {
      const double nx = round_load(std::min(x * 2, o.max_load));
      if (nx == x) {
        r.at_max_load = true;
        r.notes.push_back(fmt::format("passes at the maximum load {:.4g}", x));
        break;
      }
      x = nx;
      probe(x);
    }
  } else {
    while (!lo && going()) {
      // Requests that barely overlap run as fast as they ever will: halving again only waits longer.
      if (!o.integer_load && e2e_p50_ms > 0 && x * e2e_p50_ms / 1e3 < 0.5) {
        r.out_of_reach = true;
        r.notes.push_back(fmt::format("fails at {:.4g} req/s, where requests barely overlap ({:.4g} req/s x E2E p50 {:.0f} ms "
                                      "= {:.2f} in flight): no lower load is faster, the SLO is out of reach",
                                      x, x, e2e_p50_ms, x * e2e_p50_ms / 1e3));
        break;
      }
      const double nx = round_load(x / 2);
      if (nx < o.min_load || nx == x) {
        r.out_of_reach = nx == x && o.integer_load;
        r.notes.push_back(fmt::format("no load down to {:.4g} meets the SLO", x));
        break;
      }
      x = nx;
      probe(x);
    }
  }
  // Bisect.
  while (lo && hi && going()) {
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
  if (!r.stopped.empty()) r.notes.push_back("search stopped: " + r.stopped);
  return r;
}

std::vector<std::string> slo_floor_notes(const CapacityResult& r, const core::Slo& slo) {
  std::vector<std::string> out;
  if (r.capacity || r.curve.empty()) return out;
  const CapacityPoint& low = r.curve.front();  // sorted by load
  auto check = [&](const char* name, std::optional<double> limit_s, double p99_ms) {
    if (limit_s && p99_ms > *limit_s * 1e3)
      out.push_back(fmt::format("{} floor {:.0f} ms > SLO {:.0f} ms (p99 at the lowest load tried, {:.4g})", name, p99_ms,
                                *limit_s * 1e3, low.load));
  };
  check("TTFT", slo.ttft_s, low.ttft_p99_ms);
  check("TPOT", slo.tpot_s, low.tpot_p99_ms);
  check("E2E", slo.e2e_s, low.e2e_p99_ms);
  return out;
}

}  // namespace llmtriage::bench
