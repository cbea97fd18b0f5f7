#include "sim/faults.h"

#include <algorithm>

namespace llmtriage::sim {

const char* to_string(FaultKind k) {
  switch (k) {
    case FaultKind::clock_throttle: return "clock_throttle";
    case FaultKind::slow_replica: return "slow_replica";
    case FaultKind::no_affinity: return "no_affinity";
    case FaultKind::prefix_cache_off: return "prefix_cache_off";
    case FaultKind::kv_pool_shrink: return "kv_pool_shrink";
    case FaultKind::long_prompt_burst: return "long_prompt_burst";
    case FaultKind::client_retries: return "client_retries";
    case FaultKind::gateway_timeout: return "gateway_timeout";
  }
  return "?";
}

core::Result<FaultKind> fault_kind_from_string(const std::string& s) {
  for (FaultKind k : {FaultKind::clock_throttle, FaultKind::slow_replica, FaultKind::no_affinity,
                      FaultKind::prefix_cache_off, FaultKind::kv_pool_shrink, FaultKind::long_prompt_burst,
                      FaultKind::client_retries, FaultKind::gateway_timeout})
    if (s == to_string(k)) return k;
  return core::make_error(core::ErrorKind::input, "fault kind",
                          "one of clock_throttle, slow_replica, no_affinity, prefix_cache_off, kv_pool_shrink, "
                          "long_prompt_burst, client_retries, gateway_timeout",
                          "'" + s + "'");
}

FaultState fault_state(const std::vector<Fault>& faults, double t) {
  FaultState s;
  for (const auto& f : faults) {
    if (!f.active(t)) continue;
    switch (f.kind) {
      case FaultKind::clock_throttle: s.clock_factor *= std::clamp(f.factor, 0.05, 1.0); break;
      case FaultKind::no_affinity: s.no_affinity = true; break;
      case FaultKind::prefix_cache_off: s.prefix_cache_off = true; break;
      case FaultKind::kv_pool_shrink: s.kv_withheld_fraction = std::max(s.kv_withheld_fraction, std::clamp(f.factor, 0.0, 0.99)); break;
      case FaultKind::slow_replica: case FaultKind::long_prompt_burst: case FaultKind::client_retries:
      case FaultKind::gateway_timeout: break;
    }
  }
  return s;
}

double slow_factor(const std::vector<Fault>& faults, double t, int replica) {
  double f = 1.0;
  for (const auto& x : faults)
    if (x.kind == FaultKind::slow_replica && x.replica == replica && x.active(t)) f *= std::max(1.0, x.factor);
  return f;
}

const Fault* active_fault(const std::vector<Fault>& faults, FaultKind kind, double t) {
  for (const auto& f : faults)
    if (f.kind == kind && f.active(t)) return &f;
  return nullptr;
}

}  // namespace llmtriage::sim
