#include "ingest/gpu_throttle.h"

#include <cstdio>

namespace llmtriage::ingest {
namespace {
struct Bit {
  uint64_t bit;
  const char* name;
};
// nvml.h / dcgm_fields.h values.
constexpr Bit kBits[] = {
    {0x1, "gpu_idle"},
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
};
constexpr uint64_t kLimiting = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
}  // namespace

std::vector<std::string> throttle_reason_names(uint64_t mask) {
  std::vector<std::string> out;
  uint64_t known = 0;
  for (const auto& b : kBits) {
    known |= b.bit;
    if (mask & b.bit) out.emplace_back(b.name);
  }
  for (int i = 0; i < 64; ++i) {
    uint64_t bit = uint64_t{1} << i;
    if ((mask & bit) && !(known & bit)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "bit_0x%llx", static_cast<unsigned long long>(bit));
      out.emplace_back(buf);
    }
  }
  return out;
}

bool throttle_is_limiting(uint64_t mask) { return (mask & kLimiting) != 0; }

}  // namespace llmtriage::ingest
