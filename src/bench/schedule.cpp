#include "bench/schedule.h"

#include <fmt/format.h>

#include <cmath>

#include "core/rng.h"

namespace llmtriage::bench {

core::Result<std::vector<double>> open_loop_schedule(int64_t n, const ScheduleOptions& o) {
  using core::ErrorKind;
  if (n <= 0) return core::make_error(ErrorKind::usage, "--num-requests", "a count > 0", std::to_string(n));
  if (!(o.rate >= 0)) return core::make_error(ErrorKind::usage, "--rate", "requests/s >= 0", fmt::format("{}", o.rate));
  if (!(o.burstiness > 0) || !std::isfinite(o.burstiness))
    return core::make_error(ErrorKind::usage, "--burstiness", "a gamma shape > 0 (1 = Poisson)", fmt::format("{}", o.burstiness));
  if (o.ramp_to < 0 || (o.ramp_to > 0 && !(o.rate > 0 && std::isfinite(o.rate))))
    return core::make_error(ErrorKind::usage, "--ramp-to", "a rate > 0, with a finite --rate > 0 to start from",
                            fmt::format("{}", o.ramp_to));
  std::vector<double> t(static_cast<size_t>(n), 0.0);
  if (o.rate == 0 || std::isinf(o.rate)) return t;
  core::Rng rng(core::mix64(o.seed, 0x5343484544ULL));  // own stream: independent of the request set
  double now = 0;
  for (int64_t i = 1; i < n; ++i) {
    double r = o.rate;
    if (o.ramp_to > 0) r = o.rate + (o.ramp_to - o.rate) * static_cast<double>(i) / static_cast<double>(n - 1);
    // Gamma(k, 1/(r k)) has mean 1/r and CV 1/sqrt(k); k = 1 is exponential (Poisson arrivals).
    now += o.burstiness == 1 ? rng.exponential(1.0 / r) : rng.gamma(o.burstiness, 1.0 / (r * o.burstiness));
    t[static_cast<size_t>(i)] = now;
  }
  return t;
}

core::Result<std::vector<double>> replay_schedule(const std::vector<double>& arrivals_s, double speed) {
  if (!(speed > 0) || !std::isfinite(speed))
    return core::make_error(core::ErrorKind::usage, "--replay-speed", "a factor > 0", fmt::format("{}", speed));
  std::vector<double> t;
  t.reserve(arrivals_s.size());
  const double t0 = arrivals_s.empty() ? 0 : arrivals_s.front();
  for (double a : arrivals_s) t.push_back(std::max(0.0, (a - t0) / speed));
  for (size_t i = 1; i < t.size(); ++i) t[i] = std::max(t[i], t[i - 1]);
  return t;
}

double schedule_rate(const std::vector<double>& t) {
  if (t.size() < 2 || !(t.back() > t.front())) return 0;
  return static_cast<double>(t.size() - 1) / (t.back() - t.front());
}

std::string hash_schedule(const std::vector<double>& t) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (double x : t) {
    auto v = static_cast<int64_t>(std::llround(x * 1e9));
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<uint64_t>(v >> (8 * b)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

}  // namespace llmtriage::bench
