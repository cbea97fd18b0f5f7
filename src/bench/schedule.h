#pragma once
// When each request is sent: an absolute schedule (offsets from the run's start) computed before
// the run, so a late dispatch never shifts the ones after it (no drift), and the same seed gives
// the same instants bit for bit. Closed-loop runs have no schedule (a finished request frees a slot).
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::bench {

struct ScheduleOptions {
  double rate = 0;        // mean requests/s; 0 or inf = everything at t=0 ("burst")
  double burstiness = 1;  // gamma shape of the inter-arrival times: 1 = Poisson, <1 burstier, >1 smoother
  double ramp_to = 0;     // > 0: the rate moves linearly from `rate` to this over the run
  uint64_t seed = 0;
};

// n offsets in seconds, ascending, the first at 0 (a run starts with a request, not a wait).
core::Result<std::vector<double>> open_loop_schedule(int64_t n, const ScheduleOptions& o);

// Replay: the recorded arrival offsets divided by `speed` (2 = twice as fast).
core::Result<std::vector<double>> replay_schedule(const std::vector<double>& arrivals_s, double speed);

// The rate the schedule itself realizes: (n-1) / (last - first); 0 when undefined. Finite samples
// of a Poisson process miss the nominal rate by ~1/sqrt(n); dispatch is judged against this.
double schedule_rate(const std::vector<double>& offsets_s);

// "fnv1a64:<hex>" over the offsets at nanosecond resolution.
std::string hash_schedule(const std::vector<double>& offsets_s);

}  // namespace llmtriage::bench
