#include "ingest/gpu_telemetry.h"

#include "ingest/gpu_nvml.h"
#include "ingest/gpu_smi.h"

namespace llmtriage::ingest {

LocalGpuReading read_local_gpus(double t_s) {
  LocalGpuReading r;
  std::string why;
  auto nvml = NvmlSession::open();
  if (nvml.ok() && (*nvml)->device_count() > 0) {
    r.source = "nvml";
    r.driver_version = (*nvml)->driver_version();
    r.gpus = (*nvml)->read(t_s);
    if (!r.gpus.empty()) return r;
    why = "NVML listed devices but read none";
  } else {
    why = nvml.ok() ? "NVML sees no device" : nvml.error().message();
  }
  auto smi = run_nvidia_smi(t_s);
  if (smi.ok()) {
    r.source = "nvidia-smi";
    r.gpus = std::move(smi->gpus);
    r.note = "NVML unavailable (" + why + "); read through nvidia-smi";
    return r;
  }
  r.source = "none";
  r.note = "no NVIDIA GPU visible on this machine (" + why + "; " + smi.error().message() +
           "): GPU readings skipped";
  return r;
}

}  // namespace llmtriage::ingest
