#include "serve/gpu_exposition.h"

#include "ingest/prom_parser.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/rng.h"
#include "sim/faults.h"

namespace llmtriage::serve {

namespace {

// One exposed DCGM field: its metric name, Prometheus type and HELP text as dcgm-exporter's
// CSVs give them (the last four are not in default-counters.csv; their HELP is the wording a
// custom CSV line commonly carries), and whether DCGM stores it as a double ("%f") or an integer.
struct DcgmField {
  const char* name;
  const char* help;
  bool fp64;
  std::optional<double> (*get)(const core::GpuSample&);
};

std::optional<double> mib(std::optional<double> gib) {
  if (!gib) return std::nullopt;
  return *gib * 1024.0;
}

const DcgmField kDcgmFields[] = {
    {"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", false, [](const core::GpuSample& g) { return g.sm_clock_mhz; }},
    {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", false, [](const core::GpuSample& g) { return g.mem_clock_mhz; }},
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", false, [](const core::GpuSample& g) { return g.temp_c; }},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", true, [](const core::GpuSample& g) { return g.power_w; }},
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", false,
     [](const core::GpuSample& g) -> std::optional<double> {
       if (!g.util) return std::nullopt;
       return *g.util * 100.0;
     }},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", false,
     [](const core::GpuSample& g) -> std::optional<double> {
       if (!g.mem_total_gib || !g.mem_used_gib) return std::nullopt;
       return std::max(0.0, *mib(g.mem_total_gib) - *mib(g.mem_used_gib));
     }},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", false, [](const core::GpuSample& g) { return mib(g.mem_used_gib); }},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "Current clock throttle reasons.", false,
     [](const core::GpuSample& g) -> std::optional<double> {
       if (!g.throttle_reasons) return std::nullopt;
       return static_cast<double>(*g.throttle_reasons);
     }},
    {"DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "Current clock event reasons.", false,
     [](const core::GpuSample& g) -> std::optional<double> {
       if (!g.throttle_reasons) return std::nullopt;
       return static_cast<double>(*g.throttle_reasons);
     }},
    {"DCGM_FI_DEV_MAX_SM_CLOCK", "Maximum supported SM clock (in MHz).", false,
     [](const core::GpuSample& g) { return g.max_sm_clock_mhz; }},
    {"DCGM_FI_DEV_POWER_MGMT_LIMIT", "Power management limit (in W).", true,
     [](const core::GpuSample& g) { return g.power_limit_w; }},
};

uint64_t hostname_hash(const std::string& s) {  // FNV-1a
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

std::string local_hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "localhost";
  return buf;
}

}  // namespace

std::string simulated_gpu_uuid(uint64_t seed, int index) {
  const uint64_t a = core::splitmix64_mix(seed ^ (0x51ULL << 56) ^ static_cast<uint64_t>(index));
  const uint64_t b = core::splitmix64_mix(a);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xffff, b >> 48,
                     b & 0xffffffffffffULL);
}

std::string render_dcgm(const std::vector<core::GpuSample>& gpus, const DcgmIdentity& id) {
  std::string s = "# llmtriage sim serve: simulated GPU readings (a model of the engine's state, not a measurement)\n";
  std::vector<std::string> labels;
  labels.reserve(gpus.size());
  for (const auto& g : gpus)
    labels.push_back(fmt::format("gpu=\"{}\",UUID=\"{}\",pci_bus_id=\"00000000:{:02X}:00.0\",device=\"nvidia{}\",modelName=\"{}\",Hostname=\"{}\"",
                                 g.index, g.uuid.empty() ? simulated_gpu_uuid(id.uuid_seed, g.index) : g.uuid,
                                 (0x18 + g.index) & 0xff, g.index, ingest::escape_label_value(g.name), ingest::escape_label_value(id.hostname)));
  for (const auto& f : kDcgmFields) {
    std::string body;
    for (size_t i = 0; i < gpus.size(); ++i) {
      const auto v = f.get(gpus[i]);
      if (!v || !std::isfinite(*v)) continue;
      body += fmt::format("{}{{{}}} ", f.name, labels[i]);
      body += f.fp64 ? fmt::format("{:.6f}\n", *v) : fmt::format("{}\n", static_cast<int64_t>(std::llround(*v)));
    }
    if (body.empty()) continue;  // dcgm-exporter skips a field no GPU supports
    s += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", f.name, f.help, f.name);
    s += body;
  }
  return s;
}

DcgmExposition::DcgmExposition(const std::string& gpu_name, double gpu_memory_utilization)
    : util_(gpu_memory_utilization), hostname_(local_hostname()) {
  if (auto g = sim::sim_gpu(gpu_name); g.ok()) {
    gpu_ = *g;
  } else {
    gpu_.catalog_name = gpu_.device_name = gpu_name.empty() ? "simulated GPU" : gpu_name;
  }
}

std::vector<core::GpuSample> DcgmExposition::readings(const sim::OnlineEngine& e, double t) const {
  std::vector<core::GpuSample> out;
  const auto& cfg = e.config();
  const double factor = sim::fault_state(e.faults(), t).clock_factor;
  for (int r = 0; r < e.num_replicas(); ++r) {
    sim::ReplicaActivity a;
    a.replica = r;
    a.tp = cfg.hardware.tp;
    const auto& rep = e.replica(r);
    a.busy = rep.busy || !rep.sched.running().empty();
    a.clock_factor = factor;
    a.gpu_memory_utilization = util_;
    a.t_s = t;
    auto v = sim::replica_gpu_readings(gpu_, a);
    out.insert(out.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  }
  return out;
}

std::string DcgmExposition::render(const sim::OnlineEngine& e, double t, uint16_t port) const {
  DcgmIdentity id;
  id.hostname = hostname_;
  id.uuid_seed = hostname_hash(hostname_) ^ (static_cast<uint64_t>(port) << 32);
  return render_dcgm(readings(e, t), id);
}

}  // namespace llmtriage::serve
