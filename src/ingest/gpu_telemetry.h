#pragma once
// Local GPU readings from whichever source this machine has, in order of preference: NVML
// (dlopen, no build-time dependency), then nvidia-smi. No GPU is not an error: the result says
// so once (note) and has no samples.
#include <string>
#include <vector>

#include "core/evidence.h"

namespace llmtriage::ingest {

struct LocalGpuReading {
  std::string source;   // "nvml", "nvidia-smi" or "none"
  std::string note;     // "no NVIDIA GPU visible (libnvidia-ml.so.1: ...; nvidia-smi: ...)"
  std::string driver_version;
  std::vector<core::GpuSample> gpus;
};

LocalGpuReading read_local_gpus(double t_s);

}  // namespace llmtriage::ingest
