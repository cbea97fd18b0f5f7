#pragma once
// GPU readings from a Prometheus exposition: dcgm-exporter's DCGM_FI_* metrics, or Triton's
// nv_gpu_* gauges. One GpuSample per GPU (`gpu` / `gpu_uuid` label), in GPU order.
// DCGM "blank" sentinels (DCGM_INT64_BLANK = 0x7ffffffffffffff0 and +1..+3,
// DCGM_FP64_BLANK = 140737488355328.0 and +1..+3, DCGM_INT32_BLANK = 0x7ffffff0 for 32-bit
// fields; dcgmlib/dcgm_structs.h) mean "no data", never a reading.
#include <string_view>
#include <vector>

#include "core/evidence.h"

namespace llmtriage::ingest {

struct DcgmParse {
  std::vector<core::GpuSample> gpus;
  size_t series_used = 0;
  size_t blanks = 0;      // sentinel or impossible values dropped (no reading)
  size_t malformed = 0;   // exposition lines skipped
};

DcgmParse gpu_samples_from_exposition(std::string_view exposition, double t_s);

}  // namespace llmtriage::ingest
