#include "sim/gpu_readings.h"

#include <algorithm>
#include <cmath>

namespace llmtriage::sim {

namespace {

// Fallbacks when the catalog lacks a figure (H100-SXM's, the simulator's default GPU).
constexpr double kDefaultTdpW = 700, kDefaultMaxClockMhz = 1980;

// Power as a fraction of the limit (see the header). Idle ~0.12: an H100 SXM with a CUDA context
// and no kernels draws 70-90 W of 700 W; busy 0.70: LLM serving (decode-heavy, memory-bound)
// rarely reaches the cap on a healthy board; 0.99 at a binding cap (NVML's power reading sits
// just under the limit while SW_POWER_CAP is active).
constexpr double kIdlePower = 0.12, kBusyPower = 0.70, kCappedPower = 0.99;
constexpr double kBusyUtil = 0.97;  // DCGM_FI_DEV_GPU_UTIL: kernels active almost all of the sample period
constexpr double kInletC = 30, kCPerTdp = 48;  // temperature = inlet + k x power / TDP

// Memory bus width in bits per catalog GPU, for the memory clock NVML reports: the DDR clock,
// with bandwidth = 2 x clock x bus width (H100 SXM: 3350 GB/s over 5120 bits -> 2617 MHz;
// nvidia-smi shows 2619). HBM: 1024 bits per stack (H100 5 stacks, H200 6); GDDR from the
// datasheets (L4 192-bit, T4 256-bit, A10G/L40S/RTX 3090/4090 384-bit).
struct Bus {
  const char* name;
  int bits;
};
constexpr Bus kBus[] = {
    {"A10G", 384}, {"L4", 192}, {"L40S", 384}, {"A100-40GB-SXM", 5120}, {"A100-80GB-SXM", 5120},
    {"A100-80GB-PCIe", 5120}, {"H100-SXM", 5120}, {"H100-PCIe", 5120}, {"H100-NVL", 6144},
    {"H200-SXM", 6144}, {"RTX-4090", 384}, {"RTX-3090", 384}, {"T4", 256},
};

std::string device_name_of(const catalog::GpuSpec& spec) {
  // NVML names start with the vendor ("NVIDIA H100 80GB HBM3"); of those aliases, the longest
  // is the most specific one.
  std::string best;
  for (const auto& a : spec.aliases)
    if ((a.rfind("NVIDIA ", 0) == 0 || a.rfind("AMD ", 0) == 0) && a.size() > best.size()) best = a;
  return best.empty() ? spec.name : best;
}

}  // namespace

SimGpu sim_gpu(const catalog::GpuSpec& spec) {
  SimGpu g;
  g.catalog_name = spec.name;
  g.device_name = device_name_of(spec);
  g.tdp_from_catalog = spec.tdp_w.has_value() && *spec.tdp_w > 0;
  g.tdp_w = g.tdp_from_catalog ? *spec.tdp_w : kDefaultTdpW;
  g.clock_from_catalog = spec.max_sm_clock_mhz.has_value() && *spec.max_sm_clock_mhz > 0;
  g.max_sm_clock_mhz = g.clock_from_catalog ? *spec.max_sm_clock_mhz : kDefaultMaxClockMhz;
  g.memory_gib = spec.memory_gib;
  for (const auto& b : kBus)
    if (spec.name == b.name && spec.hbm_bandwidth_gbps > 0)
      g.mem_clock_mhz = std::round(spec.hbm_bandwidth_gbps * 1000.0 * 8.0 / (2.0 * b.bits));
  return g;
}

core::Result<SimGpu> sim_gpu(const std::string& gpu_name) {
  auto spec = catalog::find_gpu(gpu_name);
  if (!spec.ok()) return std::move(spec).error();
  return sim_gpu(*spec);
}

std::vector<core::GpuSample> replica_gpu_readings(const SimGpu& gpu, const ReplicaActivity& a) {
  const int tp = std::max(1, a.tp);
  const double factor = std::clamp(a.clock_factor, 0.05, 1.0);  // as fault_state folds it
  const bool capped = a.busy && factor < 1.0;
  std::vector<core::GpuSample> out;
  out.reserve(static_cast<size_t>(tp));
  for (int k = 0; k < tp; ++k) {
    core::GpuSample g;
    g.t_s = a.t_s;
    g.index = a.replica * tp + k;
    g.name = gpu.device_name;
    g.power_limit_w = gpu.tdp_w;
    g.max_sm_clock_mhz = gpu.max_sm_clock_mhz;
    g.mem_clock_mhz = gpu.mem_clock_mhz;
    g.mem_total_gib = gpu.memory_gib;
    g.mem_used_gib = gpu.memory_gib * std::clamp(a.gpu_memory_utilization, 0.0, 1.0);
    const double power_frac = capped ? kCappedPower : a.busy ? kBusyPower : kIdlePower;
    g.power_w = gpu.tdp_w * power_frac;
    g.sm_clock_mhz = std::round(gpu.max_sm_clock_mhz * (capped ? factor : 1.0));
    g.throttle_reasons = capped ? kReasonSwPowerCap : a.busy ? 0 : kReasonGpuIdle;
    g.temp_c = std::round(kInletC + kCPerTdp * power_frac);
    g.util = a.busy ? kBusyUtil : 0.0;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace llmtriage::sim
