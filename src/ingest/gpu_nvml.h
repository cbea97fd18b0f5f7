#pragma once
// GPU readings through NVML, loaded at run time with dlopen("libnvidia-ml.so.1"): llmtriage has
// no build-time dependency on the driver, and runs (without GPU readings) where there is none.
#include <memory>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::ingest {

class NvmlSession {
 public:
  // Loads the library and calls nvmlInit_v2. Error (not_found) when the library is missing,
  // or (input) when initialisation fails, with NVML's own error string.
  static core::Result<std::unique_ptr<NvmlSession>> open(const std::string& library = "libnvidia-ml.so.1");
  ~NvmlSession();
  NvmlSession(const NvmlSession&) = delete;
  NvmlSession& operator=(const NvmlSession&) = delete;

  int device_count() const { return count_; }
  // One reading of every GPU. A query a device does not support leaves its field unset.
  std::vector<core::GpuSample> read(double t_s) const;
  std::string driver_version() const;

 private:
  NvmlSession() = default;
  struct Api;
  void* lib_ = nullptr;
  std::unique_ptr<Api> api_;
  int count_ = 0;
};

}  // namespace llmtriage::ingest
