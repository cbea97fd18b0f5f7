#pragma once
// GET /dcgm (and /dcgm/metrics) of `sim serve`: the replica's simulated GPU readings
// (sim/gpu_readings.h) in the exposition dcgm-exporter 3.x writes: its metric names, HELP/TYPE
// lines (etc/default-counters.csv), labels gpu, UUID, pci_bus_id, device, modelName, Hostname
// (internal/pkg/rendermetrics/render_metrics.go) and value formats (integers for DCGM's int
// fields, "%f" for its float fields). https://github.com/NVIDIA/dcgm-exporter
// Series: SM/memory clock, GPU temperature, power, GPU util, FB used/free (default counters),
// plus clock event reasons (both spellings), max SM clock and power management limit, which the
// default CSV leaves out but ratios need (power / limit, clock / max).
#include <cstdint>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "sim/gpu_readings.h"
#include "sim/online.h"

namespace llmtriage::serve {

// Identity labels of the simulated GPUs.
struct DcgmIdentity {
  std::string hostname;   // Hostname label (dcgm-exporter: the node's name)
  uint64_t uuid_seed = 0; // UUIDs are derived from it: distinct per server, stable per seed
};

// The text for a list of GPU samples (index, name and readings; throttle_reasons as the bitmask).
std::string render_dcgm(const std::vector<core::GpuSample>& gpus, const DcgmIdentity& id);

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" for GPU `index` under `seed` (NVML's UUID shape).
std::string simulated_gpu_uuid(uint64_t seed, int index);

// What sim serve's engine thread renders: readings of every replica x TP rank at virtual time t.
class DcgmExposition {
 public:
  // gpu_name: the deployment's GPU (SimConfig::hardware.name); an unknown name keeps the
  // simulator's defaults (700 W, 1980 MHz, 80 GiB) under that name.
  DcgmExposition(const std::string& gpu_name, double gpu_memory_utilization);
  std::vector<core::GpuSample> readings(const sim::OnlineEngine& e, double t) const;
  // `port` distinguishes several servers on one host (their UUIDs differ).
  std::string render(const sim::OnlineEngine& e, double t, uint16_t port) const;
  const sim::SimGpu& gpu() const { return gpu_; }

 private:
  sim::SimGpu gpu_;
  double util_;
  std::string hostname_;
};

}  // namespace llmtriage::serve
