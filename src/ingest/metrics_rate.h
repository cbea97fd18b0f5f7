#pragma once
// Rates from monotone counters sampled over time, with counter resets handled the way
// Prometheus' increase() does: a value lower than the previous one means the counter restarted
// from 0, so the increase across that step is the new value itself.
// NOTE: unlike PromQL's rate(), no extrapolation to the window edges: the rate is the increase
// between the first and last sample divided by the time between them, which is what a snapshot
// over a fixed window observed.
#include <optional>
#include <span>

namespace llmtriage::ingest {

struct CounterPoint {
  double t_s = 0;
  double value = 0;
};

struct CounterIncrease {
  double increase = 0;   // sum of per-step increases, resets counted from zero
  double span_s = 0;     // last t - first t
  int resets = 0;        // how many decreases were seen
};

// Points must be in time order. Fewer than 2 points -> nullopt.
std::optional<CounterIncrease> counter_increase(std::span<const CounterPoint> points);
// increase / span_s; nullopt with fewer than 2 points or a zero span.
std::optional<double> counter_rate(std::span<const CounterPoint> points);

}  // namespace llmtriage::ingest
