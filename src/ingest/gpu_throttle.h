#pragma once
// Clock event ("throttle") reason bits, identical in NVML (nvmlClocksEventReason*, formerly
// nvmlClocksThrottleReason*), DCGM (DCGM_CLOCKS_EVENT_REASON_*) and nvidia-smi
// (clocks_event_reasons.active). Names are nvidia-smi's per-reason field names.
#include <cstdint>
#include <string>
#include <vector>

namespace llmtriage::ingest {

// "sw_power_cap", "hw_slowdown", ...; an unknown bit becomes "bit_0x200". 0 -> empty.
std::vector<std::string> throttle_reason_names(uint64_t mask);

// True when a reason in the mask slows the clocks for a cause the operator can act on (power,
// thermal, hardware slowdown), as opposed to idle, application clock settings or sync boost.
bool throttle_is_limiting(uint64_t mask);

}  // namespace llmtriage::ingest
