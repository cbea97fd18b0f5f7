#include "ingest/gpu_nvml.h"

#include <dlfcn.h>

#include "core/units.h"
#include "ingest/gpu_throttle.h"

namespace llmtriage::ingest {
// The few NVML types used, as nvml.h declares them (stable ABI since NVML 5). A named namespace:
// NvmlSession::Api (external linkage) holds them.
namespace nvml_abi {
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
constexpr int kSuccess = 0;
constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
constexpr int kTempGpu = 0;                 // nvmlTemperatureSensors_t
}  // namespace nvml_abi
using namespace nvml_abi;

struct NvmlSession::Api {
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*shutdown)() = nullptr;
  const char* (*error_string)(nvmlReturn_t) = nullptr;
  nvmlReturn_t (*count)(unsigned*) = nullptr;
  nvmlReturn_t (*handle)(unsigned, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*name)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*uuid)(nvmlDevice_t, char*, unsigned) = nullptr;
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned*) = nullptr;        // mW
  nvmlReturn_t (*power_limit)(nvmlDevice_t, unsigned*) = nullptr;  // mW
  nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned*) = nullptr;   // MHz
  nvmlReturn_t (*max_clock)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*reasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;   // bytes
  nvmlReturn_t (*util)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;  // %
  nvmlReturn_t (*driver)(char*, unsigned) = nullptr;
};

namespace {
template <typename F>
void bind(void* lib, F& f, const char* name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
}
}  // namespace

core::Result<std::unique_ptr<NvmlSession>> NvmlSession::open(const std::string& library) {
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    return core::make_error(core::ErrorKind::not_found, library, "the NVIDIA driver's NVML library",
                            why ? why : "dlopen failed", "no NVIDIA driver on this machine?");
  }
  std::unique_ptr<NvmlSession> s(new NvmlSession());
  s->lib_ = lib;
  s->api_ = std::make_unique<Api>();
  Api& a = *s->api_;
  bind(lib, a.init, "nvmlInit_v2");
  bind(lib, a.shutdown, "nvmlShutdown");
  bind(lib, a.error_string, "nvmlErrorString");
  bind(lib, a.count, "nvmlDeviceGetCount_v2");
  bind(lib, a.handle, "nvmlDeviceGetHandleByIndex_v2");
  bind(lib, a.name, "nvmlDeviceGetName");
  bind(lib, a.uuid, "nvmlDeviceGetUUID");
  bind(lib, a.power, "nvmlDeviceGetPowerUsage");
  bind(lib, a.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  bind(lib, a.clock, "nvmlDeviceGetClockInfo");
  bind(lib, a.max_clock, "nvmlDeviceGetMaxClockInfo");
  bind(lib, a.temperature, "nvmlDeviceGetTemperature");
  // Renamed in NVML 12.x (clocks "event" reasons); the old name stays as an alias for a while.
  bind(lib, a.reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!a.reasons) bind(lib, a.reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  bind(lib, a.memory, "nvmlDeviceGetMemoryInfo");
  bind(lib, a.util, "nvmlDeviceGetUtilizationRates");
  bind(lib, a.driver, "nvmlSystemGetDriverVersion");
  if (!a.init || !a.shutdown || !a.count || !a.handle) {
    return core::make_error(core::ErrorKind::input, library,
                            "nvmlInit_v2, nvmlDeviceGetCount_v2 and nvmlDeviceGetHandleByIndex_v2",
                            "a library without them");
  }
  nvmlReturn_t rc = a.init();
  if (rc != kSuccess) {
    a.shutdown = nullptr;  // not initialised: nothing to shut down
    return core::make_error(core::ErrorKind::input, library, "nvmlInit_v2 to succeed",
                            a.error_string ? a.error_string(rc) : "error " + std::to_string(rc));
  }
  unsigned n = 0;
  if (a.count(&n) == kSuccess) s->count_ = static_cast<int>(n);
  return s;
}

NvmlSession::~NvmlSession() {
  if (api_ && api_->shutdown) api_->shutdown();
  if (lib_) dlclose(lib_);
}

std::string NvmlSession::driver_version() const {
  char buf[96] = {0};
  if (api_->driver && api_->driver(buf, sizeof buf) == kSuccess) return buf;
  return {};
}

std::vector<core::GpuSample> NvmlSession::read(double t_s) const {
  std::vector<core::GpuSample> out;
  const Api& a = *api_;
  for (int i = 0; i < count_; ++i) {
    nvmlDevice_t dev = nullptr;
    if (a.handle(static_cast<unsigned>(i), &dev) != kSuccess) continue;
    core::GpuSample g;
    g.t_s = t_s;
    g.index = i;
    char buf[96] = {0};
    if (a.name && a.name(dev, buf, sizeof buf) == kSuccess) g.name = buf;
    buf[0] = 0;
    if (a.uuid && a.uuid(dev, buf, sizeof buf) == kSuccess) g.uuid = buf;
    unsigned v = 0;
    if (a.power && a.power(dev, &v) == kSuccess) g.power_w = v / 1000.0;
    if (a.power_limit && a.power_limit(dev, &v) == kSuccess) g.power_limit_w = v / 1000.0;
    if (a.clock && a.clock(dev, kClockSm, &v) == kSuccess) g.sm_clock_mhz = v;
    if (a.max_clock && a.max_clock(dev, kClockSm, &v) == kSuccess) g.max_sm_clock_mhz = v;
    if (a.clock && a.clock(dev, kClockMem, &v) == kSuccess) g.mem_clock_mhz = v;
    if (a.temperature && a.temperature(dev, kTempGpu, &v) == kSuccess) g.temp_c = v;
    unsigned long long mask = 0;
    if (a.reasons && a.reasons(dev, &mask) == kSuccess) {
      g.throttle_reasons = mask;
      g.throttle_names = throttle_reason_names(mask);
    }
    nvmlMemory_t mem{};
    if (a.memory && a.memory(dev, &mem) == kSuccess) {
      g.mem_used_gib = core::bytes_to_gib(static_cast<double>(mem.used));
      g.mem_total_gib = core::bytes_to_gib(static_cast<double>(mem.total));
    }
    nvmlUtilization_t u{};
    if (a.util && a.util(dev, &u) == kSuccess) g.util = u.gpu / 100.0;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace llmtriage::ingest
