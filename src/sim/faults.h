#pragma once
// Faults, each active over [start_s, end_s) of virtual time. They change one thing, so a
// scenario (or a diagnosis test) can check that the symptom follows from it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::sim {

enum class FaultKind {
  clock_throttle,     // factor in (0,1]: GPU compute runs at factor x nominal (power/thermal cap)
  slow_replica,       // replica `replica` steps take factor (>= 1) times longer
  no_affinity,        // the router ignores prefix affinity (falls back to round robin)
  prefix_cache_off,   // replicas neither look up nor register cached blocks
  kv_pool_shrink,     // factor in (0,1): that fraction of every pool is withheld
  long_prompt_burst,  // extra Poisson arrivals at `rate_rps` with `input_len`/`output_len`
  client_retries,     // a timed-out request is retried up to `max_retries` times
  gateway_timeout,    // requests arriving in the interval time out after `timeout_s` without a first token
};
const char* to_string(FaultKind k);
core::Result<FaultKind> fault_kind_from_string(const std::string& s);

struct Fault {
  FaultKind kind = FaultKind::clock_throttle;
  double start_s = 0;
  double end_s = 1e300;
  double factor = 1.0;
  int replica = 0;
  double rate_rps = 0;
  int32_t input_len = 0, output_len = 0;
  int max_retries = 0;
  double backoff_s = 0;         // first retry delay; 0 = retry at once
  bool exponential_backoff = false;  // delay doubles per attempt (with +-25% jitter)
  double timeout_s = 0;

  bool active(double t) const { return t >= start_s && t < end_s; }
};

// Values of the active faults at time t, folded (several throttles multiply).
struct FaultState {
  double clock_factor = 1.0;
  bool no_affinity = false;
  bool prefix_cache_off = false;
  double kv_withheld_fraction = 0;
};
FaultState fault_state(const std::vector<Fault>& faults, double t);
double slow_factor(const std::vector<Fault>& faults, double t, int replica);
// The active gateway timeout (0 = none) and retry policy for a request arriving at t.
const Fault* active_fault(const std::vector<Fault>& faults, FaultKind kind, double t);

}  // namespace llmtriage::sim
