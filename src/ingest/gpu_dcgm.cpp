#include "ingest/gpu_dcgm.h"

#include "core/numcast.h"
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "core/units.h"
#include "ingest/gpu_throttle.h"
#include "ingest/prom_parser.h"

namespace llmtriage::ingest {
namespace {

enum class F { sm, mem_clock, max_sm, temp, power, power_instant, power_limit, enforced_limit,
               reasons, util, fb_used, fb_free, fb_total, fb_reserved, dram_active,
               nv_util, nv_power, nv_power_limit, nv_mem_total, nv_mem_used };

struct Field {
  std::string_view name;
  F f;
  bool int32;  // a 32-bit DCGM field: DCGM_INT32_BLANK applies
};

// dcgm-exporter metric names (old spellings, as the exporter still emits them) and field ids.
constexpr Field kFields[] = {
    {"DCGM_FI_DEV_SM_CLOCK", F::sm, true},                       // 100, MHz
    {"DCGM_FI_DEV_MEM_CLOCK", F::mem_clock, true},               // 101, MHz
    {"DCGM_FI_DEV_MAX_SM_CLOCK", F::max_sm, true},               // 110, MHz
    {"DCGM_FI_DEV_CLOCKS_EVENT_REASONS", F::reasons, false},     // 112, bitmask
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", F::reasons, false},   // 112, old name
    {"DCGM_FI_DEV_GPU_TEMP", F::temp, true},                     // 150, C
    {"DCGM_FI_DEV_POWER_USAGE", F::power, false},                // 155, W
    {"DCGM_FI_DEV_POWER_USAGE_INSTANT", F::power_instant, false},// 157, W
    {"DCGM_FI_DEV_POWER_MGMT_LIMIT", F::power_limit, false},     // 160, W
    {"DCGM_FI_DEV_ENFORCED_POWER_LIMIT", F::enforced_limit, false},  // 164, W
    {"DCGM_FI_DEV_GPU_UTIL", F::util, true},                     // 203, %
    {"DCGM_FI_DEV_FB_TOTAL", F::fb_total, true},                 // 250, MiB
    {"DCGM_FI_DEV_FB_FREE", F::fb_free, true},                   // 251, MiB
    {"DCGM_FI_DEV_FB_USED", F::fb_used, true},                   // 252, MiB
    {"DCGM_FI_DEV_FB_RESERVED", F::fb_reserved, true},           // 253, MiB
    {"DCGM_FI_PROF_DRAM_ACTIVE", F::dram_active, false},         // 1005, ratio
    // Triton server (triton-inference-server/core src/metrics.cc), label gpu_uuid.
    {"nv_gpu_utilization", F::nv_util, false},                   // 0..1
    {"nv_gpu_power_usage", F::nv_power, false},                  // W
    {"nv_gpu_power_limit", F::nv_power_limit, false},            // W
    {"nv_gpu_memory_total_bytes", F::nv_mem_total, false},
    {"nv_gpu_memory_used_bytes", F::nv_mem_used, false},
};

bool is_blank(double v, bool int32) {
  constexpr double kInt64Blank = 9223372036854775792.0;  // 0x7ffffffffffffff0
  constexpr double kFp64Blank = 140737488355328.0;
  constexpr double kInt32Blank = 2147483632.0;           // 0x7ffffff0
  if (std::isnan(v) || v >= kInt64Blank) return true;
  if (v >= kFp64Blank && v <= kFp64Blank + 3) return true;
  if (int32 && v >= kInt32Blank && v <= kInt32Blank + 3) return true;
  return false;
}

struct GpuAcc {
  std::string key;
  core::GpuSample g;
  std::optional<double> fb_used, fb_free, fb_total, fb_reserved, power_instant, enforced;
};

}  // namespace

DcgmParse gpu_samples_from_exposition(std::string_view text, double t_s) {
  DcgmParse out;
  std::vector<GpuAcc> accs;
  PromParser p(text);
  for (PromEntry e; (e = p.next()) != PromEntry::end;) {
    if (e != PromEntry::series) continue;
    const Field* fd = nullptr;
    for (const auto& f : kFields)
      if (f.name == p.name()) fd = &f;
    if (!fd) continue;
    double v = p.value();
    if (is_blank(v, fd->int32)) {
      ++out.blanks;
      continue;
    }
    std::string_view key = p.label("gpu").value_or(p.label("gpu_uuid").value_or(p.label("UUID").value_or("")));
    auto it = std::find_if(accs.begin(), accs.end(), [&](const GpuAcc& a) { return a.key == key; });
    if (it == accs.end()) {
      accs.emplace_back();
      it = accs.end() - 1;
      it->key = std::string(key);
      it->g.t_s = t_s;
      it->g.index = static_cast<int>(accs.size() - 1);
      if (auto g = p.label("gpu")) {
        auto n = parse_prom_float(*g);
        if (n) it->g.index = core::clamp_int(*n);
      }
    }
    GpuAcc& a = *it;
    if (a.g.uuid.empty())
      a.g.uuid = std::string(p.label("UUID").value_or(p.label("gpu_uuid").value_or("")));
    if (a.g.name.empty()) a.g.name = std::string(p.label("modelName").value_or(""));
    ++out.series_used;
    switch (fd->f) {
      case F::sm: a.g.sm_clock_mhz = v; break;
      case F::mem_clock: a.g.mem_clock_mhz = v; break;
      case F::max_sm: a.g.max_sm_clock_mhz = v; break;
      case F::temp: a.g.temp_c = v; break;
      case F::power: a.g.power_w = v; break;
      case F::power_instant: a.power_instant = v; break;
      case F::power_limit: a.g.power_limit_w = v; break;
      case F::enforced_limit: a.enforced = v; break;
      case F::reasons: {
        if (auto mask = core::as_mask(v)) {
          a.g.throttle_reasons = *mask;
          a.g.throttle_names = throttle_reason_names(*mask);
        } else {
          ++out.blanks;  // -1, 0.5, 1e300: not a bitmask, so no reading
        }
        break;
      }
      case F::util: a.g.util = v / 100.0; break;
      case F::fb_used: a.fb_used = v; break;
      case F::fb_free: a.fb_free = v; break;
      case F::fb_total: a.fb_total = v; break;
      case F::fb_reserved: a.fb_reserved = v; break;
      case F::dram_active: a.g.dram_active = v; break;
      case F::nv_util: a.g.util = v; break;
      case F::nv_power: a.g.power_w = v; break;
      case F::nv_power_limit: a.g.power_limit_w = v; break;
      case F::nv_mem_total: a.g.mem_total_gib = core::bytes_to_gib(v); break;
      case F::nv_mem_used: a.g.mem_used_gib = core::bytes_to_gib(v); break;
    }
  }
  out.malformed = p.malformed_count();
  for (auto& a : accs) {
    if (!a.g.power_w && a.power_instant) a.g.power_w = a.power_instant;
    if (!a.g.power_limit_w && a.enforced) a.g.power_limit_w = a.enforced;
    if (a.fb_used) a.g.mem_used_gib = *a.fb_used / 1024.0;  // MiB
    if (a.fb_total) {
      a.g.mem_total_gib = *a.fb_total / 1024.0;
    } else if (a.fb_used && a.fb_free) {
      a.g.mem_total_gib = (*a.fb_used + *a.fb_free + a.fb_reserved.value_or(0)) / 1024.0;
    }
    out.gpus.push_back(std::move(a.g));
  }
  std::sort(out.gpus.begin(), out.gpus.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
  return out;
}

}  // namespace llmtriage::ingest
