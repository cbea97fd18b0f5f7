#include "sim/workload.h"

#include <algorithm>
#include <cmath>

#include "sim/rng.h"

namespace llmtriage::sim {

const char* to_string(ArrivalKind k) {
  switch (k) {
    case ArrivalKind::poisson: return "poisson";
    case ArrivalKind::gamma: return "gamma";
    case ArrivalKind::constant: return "constant";
    case ArrivalKind::closed_loop: return "closed_loop";
    case ArrivalKind::trace: return "trace";
    case ArrivalKind::all_at_once: return "all_at_once";
  }
  return "?";
}

namespace {

int32_t draw(const LengthDist& d, Rng& rng) {
  double v = 0;
  switch (d.kind) {
    case LengthDist::Kind::fixed: v = d.mean; break;
    case LengthDist::Kind::uniform: v = static_cast<double>(rng.uniform_int(d.lo, d.hi)); break;
    case LengthDist::Kind::lognormal: v = std::round(rng.lognormal_mean(d.mean, d.sigma)); break;
    case LengthDist::Kind::empirical:
      v = d.samples.empty() ? 1 : d.samples[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(d.samples.size()) - 1))];
      break;
  }
  return static_cast<int32_t>(std::clamp<double>(v, static_cast<double>(std::max<int64_t>(1, d.min)), static_cast<double>(d.max)));
}

core::Error bad_workload(const std::string& where, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, where, expected, found);
}

}  // namespace

LengthDist empirical_from_records(const std::vector<core::RequestRecord>& recs, bool input) {
  LengthDist d;
  d.kind = LengthDist::Kind::empirical;
  for (const auto& r : recs) {
    const auto& v = input ? r.input_tokens : r.output_tokens;
    if (v && *v > 0) d.samples.push_back(static_cast<int32_t>(*v));
  }
  return d;
}

core::Result<std::vector<ClientRequest>> generate(const WorkloadSpec& spec) {
  Rng arr(spec.seed * 4 + 1), len(spec.seed * 4 + 2), keys(spec.seed * 4 + 3);
  std::vector<ClientRequest> out;
  if (spec.arrival == ArrivalKind::trace) {
    if (spec.trace.empty()) return bad_workload("workload.trace", "at least one request record", "none");
    out.reserve(spec.trace.size());
    for (size_t i = 0; i < spec.trace.size(); ++i) {
      const auto& r = spec.trace[i];
      if (!r.input_tokens || !r.output_tokens)
        return bad_workload("workload.trace record " + std::to_string(i + 1) + " (id '" + r.id + "')",
                   "input_tokens and output_tokens", "a record without them");
      ClientRequest c;
      c.arrival_s = r.arrival_s;
      c.prompt_len = static_cast<int32_t>(std::max<int64_t>(1, *r.input_tokens));
      c.output_len = static_cast<int32_t>(std::max<int64_t>(1, *r.output_tokens));
      c.max_tokens = r.max_tokens ? static_cast<int32_t>(*r.max_tokens) : c.output_len;
      c.content_key = keys.next_u64() | 1;
      out.push_back(c);
    }
    const double t0 = std::min_element(out.begin(), out.end(), [](auto& a, auto& b) { return a.arrival_s < b.arrival_s; })->arrival_s;
    for (auto& c : out) c.arrival_s -= t0;
    std::stable_sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.arrival_s < b.arrival_s; });
    return out;
  }
  if (spec.num_requests < 0) return bad_workload("workload.num_requests", "a count >= 0", std::to_string(spec.num_requests));
  const bool open = spec.arrival == ArrivalKind::poisson || spec.arrival == ArrivalKind::gamma ||
                    spec.arrival == ArrivalKind::constant;
  if (open && !(spec.rate_rps > 0)) return bad_workload("workload.rate", "a rate > 0 requests/s (or inf)", std::to_string(spec.rate_rps));
  if (spec.arrival == ArrivalKind::gamma && !(spec.burstiness > 0))
    return bad_workload("workload.burstiness", "a gamma shape > 0", std::to_string(spec.burstiness));
  for (const LengthDist* d : {&spec.input, &spec.output})
    if (d->kind == LengthDist::Kind::empirical && d->samples.empty())
      return bad_workload("workload lengths", "empirical samples (request records with token counts)", "none");
  std::vector<uint64_t> groups(static_cast<size_t>(std::max<int64_t>(0, spec.prefix_groups)));
  for (auto& g : groups) g = keys.next_u64() | 1;
  out.reserve(static_cast<size_t>(spec.num_requests));
  double t = 0;
  const bool infinite = std::isinf(spec.rate_rps);
  for (int64_t i = 0; i < spec.num_requests; ++i) {
    ClientRequest c;
    if (!infinite) {
      switch (spec.arrival) {
        case ArrivalKind::poisson: t += arr.exponential(1.0 / spec.rate_rps); break;
        // Gamma inter-arrivals with shape k and mean 1/rate: theta = 1 / (rate k).
        case ArrivalKind::gamma: t += arr.gamma(spec.burstiness, 1.0 / (spec.rate_rps * spec.burstiness)); break;
        case ArrivalKind::constant: t = static_cast<double>(i) / spec.rate_rps; break;
        case ArrivalKind::closed_loop: case ArrivalKind::all_at_once: case ArrivalKind::trace: break;
      }
    }
    c.arrival_s = t;
    c.prompt_len = draw(spec.input, len);
    c.output_len = draw(spec.output, len);
    c.max_tokens = spec.max_tokens > 0 ? static_cast<int32_t>(spec.max_tokens) : c.output_len;
    if (spec.max_tokens > 0 && c.output_len > c.max_tokens) c.output_len = c.max_tokens;
    c.content_key = keys.next_u64() | 1;
    if (!groups.empty()) {
      c.group_key = groups[static_cast<size_t>(keys.uniform_int(0, static_cast<int64_t>(groups.size()) - 1))];
      c.shared_prefix_len = static_cast<int32_t>(std::min<int64_t>(spec.shared_prefix_len, c.prompt_len));
    }
    out.push_back(c);
  }
  return out;
}

std::vector<ClientRequest> burst(double start_s, double end_s, double rate_rps, int32_t input_len,
                                 int32_t output_len, uint64_t seed) {
  std::vector<ClientRequest> out;
  if (!(rate_rps > 0) || end_s <= start_s) return out;
  Rng rng(seed ^ 0xb0b5ULL);
  for (double t = start_s + rng.exponential(1.0 / rate_rps); t < end_s; t += rng.exponential(1.0 / rate_rps)) {
    ClientRequest c;
    c.arrival_s = t;
    c.prompt_len = input_len;
    c.output_len = output_len;
    c.max_tokens = output_len;
    c.content_key = rng.next_u64() | 1;
    out.push_back(c);
  }
  return out;
}

}  // namespace llmtriage::sim
