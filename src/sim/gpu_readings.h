#pragma once
// GPU telemetry of a simulated replica: what NVML / DCGM would read on its TP GPUs at one moment,
// from the GPU's catalog figures, whether the replica is running a step, and the clock factor of
// the active faults. The drill's GPU samples and sim serve's /dcgm both come from here.
//
// The model (a model, not a measurement; docs/serve.md "GPU telemetry"):
//   power limit  = the catalog's TDP (DCGM_FI_DEV_POWER_MGMT_LIMIT on an uncapped board)
//   max SM clock = the catalog's max boost clock (DCGM_FI_DEV_MAX_SM_CLOCK)
//   idle         : power = 0.12 x TDP, SM clock = max, reasons = GPU_IDLE (0x1), util 0
//   busy         : power = 0.70 x TDP, SM clock = max, reasons = none, util 97%
//   busy and clock_factor < 1 (the clock_throttle fault stands for a power cap that binds):
//                  power = 0.99 x limit, SM clock = max x factor, reasons = SW_POWER_CAP (0x4)
//   temperature  = 30 C inlet + 48 C x power / TDP (steady state: ~36 C idle, ~64 C busy,
//                  ~78 C at the cap; below the ~85-90 C "GPU Slowdown Temp" nvidia-smi -q
//                  shows on data-center boards, so no thermal reason)
//   memory used  = gpu_memory_utilization x capacity (vLLM preallocates its whole budget)
// An idle replica draws little power, so a power cap does not bind and the clocks are not
// held down: throttling shows under load, as on real boards.
// NOTE: real boards drop SM clocks when idle and vary power with the batch's arithmetic
// intensity; the model keeps clocks at max unless throttled so that "SM clock below max" means
// throttling only, and uses two power levels. Sources of the constants: docs/serve.md.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::sim {

// NVML nvmlClocksEventReason* / DCGM DCGM_CLOCKS_EVENT_REASON_* bits the model sets (nvml.h).
// Callers decode names with ingest::throttle_reason_names (sim may not depend on ingest).
inline constexpr uint64_t kReasonGpuIdle = 0x1;
inline constexpr uint64_t kReasonSwPowerCap = 0x4;

// The static facts of one simulated GPU model.
struct SimGpu {
  std::string catalog_name;        // "H100-SXM"
  std::string device_name;         // NVML's name, as dcgm-exporter's modelName: "NVIDIA H100 80GB HBM3"
  double tdp_w = 700;              // power management limit
  double max_sm_clock_mhz = 1980;
  std::optional<double> mem_clock_mhz;  // max memory clock (HBM/GDDR), when known
  double memory_gib = 80;          // capacity as the driver reports it
  bool tdp_from_catalog = false;   // false: the 700 W default stands in
  bool clock_from_catalog = false; // false: the 1980 MHz default stands in
};

SimGpu sim_gpu(const catalog::GpuSpec& spec);
// Looks the GPU up in the catalog (errors: the catalog's not_found message).
core::Result<SimGpu> sim_gpu(const std::string& gpu_name);

// What one replica is doing at the moment of the reading.
struct ReplicaActivity {
  int replica = 0;                 // GPU indexes are replica x tp + rank (as vLLM DP x TP lays them out)
  int tp = 1;
  bool busy = false;               // a step is running
  double clock_factor = 1.0;       // sim::fault_state(...).clock_factor
  double gpu_memory_utilization = 0.9;
  double t_s = 0;
};

// One GpuSample per TP rank of the replica (throttle_names left empty; see above).
std::vector<core::GpuSample> replica_gpu_readings(const SimGpu& gpu, const ReplicaActivity& a);

}  // namespace llmtriage::sim
