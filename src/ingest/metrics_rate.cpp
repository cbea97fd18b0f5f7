#include "ingest/metrics_rate.h"

namespace llmtriage::ingest {

std::optional<CounterIncrease> counter_increase(std::span<const CounterPoint> points) {
  if (points.size() < 2) return std::nullopt;
  CounterIncrease r;
  for (size_t i = 1; i < points.size(); ++i) {
    double prev = points[i - 1].value, cur = points[i].value;
    if (cur < prev) {
      r.increase += cur;  // restarted from 0
      ++r.resets;
    } else {
      r.increase += cur - prev;
    }
  }
  r.span_s = points.back().t_s - points.front().t_s;
  return r;
}

std::optional<double> counter_rate(std::span<const CounterPoint> points) {
  auto inc = counter_increase(points);
  if (!inc || !(inc->span_s > 0)) return std::nullopt;
  return inc->increase / inc->span_s;
}

}  // namespace llmtriage::ingest
