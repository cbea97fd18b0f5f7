#include "ingest/gpu_smi.h"

#include "core/numcast.h"
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sys/wait.h>

#include "core/units.h"
#include "ingest/gpu_throttle.h"

namespace llmtriage::ingest {

const char* const kSmiQueryFields =
    "index,name,uuid,power.draw,power.limit,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,"
    "clocks_event_reasons.active,memory.used,memory.total,utilization.gpu";
const char* const kSmiQueryFieldsLegacy =
    "index,name,uuid,power.draw,power.limit,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,"
    "clocks_throttle_reasons.active,memory.used,memory.total,utilization.gpu";

namespace {

enum class Col { index, name, uuid, power, power_limit, sm, max_sm, mem_clock, temp, reasons,
                 mem_used, mem_total, util, other };

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

Col column_of(std::string_view h) {
  h = trim(h);
  if (auto b = h.find(" ["); b != std::string_view::npos) h = h.substr(0, b);  // "power.draw [W]"
  if (h == "index") return Col::index;
  if (h == "name" || h == "gpu_name") return Col::name;
  if (h == "uuid" || h == "gpu_uuid") return Col::uuid;
  if (h == "power.draw" || h == "power.draw.average" || h == "power.draw.instant") return Col::power;
  if (h == "power.limit" || h == "enforced.power.limit") return Col::power_limit;
  if (h == "clocks.sm" || h == "clocks.current.sm") return Col::sm;
  if (h == "clocks.max.sm" || h == "clocks.max.sm_clock") return Col::max_sm;
  if (h == "clocks.mem" || h == "clocks.current.memory") return Col::mem_clock;
  if (h == "temperature.gpu") return Col::temp;
  if (h == "clocks_event_reasons.active" || h == "clocks_throttle_reasons.active") return Col::reasons;
  if (h == "memory.used") return Col::mem_used;
  if (h == "memory.total") return Col::mem_total;
  if (h == "utilization.gpu") return Col::util;
  return Col::other;
}

std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      out.push_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

// "250.00 W", "81559 MiB", "45 %", "1980 MHz", "[N/A]" -> number or nullopt.
std::optional<double> number(std::string_view v) {
  v = trim(v);
  if (v.empty() || v.front() == '[' || v == "N/A") return std::nullopt;
  auto sp = v.find(' ');
  if (sp != std::string_view::npos) v = v.substr(0, sp);
  std::string s(v);
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return d;
}

std::optional<uint64_t> hex_mask(std::string_view v) {
  v = trim(v);
  if (v.empty() || v.front() == '[') return std::nullopt;
  std::string s(v);
  char* end = nullptr;
  unsigned long long m = std::strtoull(s.c_str(), &end, 0);  // "0x0000000000000004"
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return m;
}

}  // namespace

core::Result<SmiParse> parse_nvidia_smi_csv(std::string_view text, double t_s,
                                            const std::string& source) {
  SmiParse out;
  std::vector<Col> cols;
  {  // default order, for --format=csv,noheader
    for (auto f : split_csv(kSmiQueryFields)) cols.push_back(column_of(f));
  }
  size_t pos = 0;
  int line_no = 0;
  bool header_seen = false;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, (nl == std::string_view::npos ? text.size() : nl) - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    line = trim(line);
    if (line.empty()) continue;
    auto fields = split_csv(line);
    bool looks_header = !number(fields[0]);
    bool any_known = false;
    for (auto f : fields) any_known = any_known || column_of(f) != Col::other;
    if (!header_seen && out.gpus.empty() && looks_header && any_known) {
      cols.clear();
      for (auto f : fields) cols.push_back(column_of(f));
      header_seen = true;
      continue;
    }
    if (fields.size() != cols.size()) {
      ++out.malformed;
      if (out.errors.size() < 5)
        out.errors.push_back("line " + std::to_string(line_no) + ": expected " +
                             std::to_string(cols.size()) + " columns, found " +
                             std::to_string(fields.size()));
      continue;
    }
    core::GpuSample g;
    g.t_s = t_s;
    g.index = static_cast<int>(out.gpus.size());
    for (size_t i = 0; i < cols.size(); ++i) {
      std::string_view v = fields[i];
      switch (cols[i]) {
        case Col::index: if (auto n = number(v)) g.index = core::clamp_int(*n); break;
        case Col::name: g.name = std::string(v); break;
        case Col::uuid: g.uuid = std::string(v); break;
        case Col::power: g.power_w = number(v); break;
        case Col::power_limit: g.power_limit_w = number(v); break;
        case Col::sm: g.sm_clock_mhz = number(v); break;
        case Col::max_sm: g.max_sm_clock_mhz = number(v); break;
        case Col::mem_clock: g.mem_clock_mhz = number(v); break;
        case Col::temp: g.temp_c = number(v); break;
        case Col::reasons:
          if (auto m = hex_mask(v)) {
            g.throttle_reasons = *m;
            g.throttle_names = throttle_reason_names(*m);
          }
          break;
        case Col::mem_used: if (auto n = number(v)) g.mem_used_gib = *n / 1024.0; break;   // MiB
        case Col::mem_total: if (auto n = number(v)) g.mem_total_gib = *n / 1024.0; break;
        case Col::util: if (auto n = number(v)) g.util = *n / 100.0; break;                  // %
        case Col::other: break;
      }
    }
    out.gpus.push_back(std::move(g));
  }
  if (out.gpus.empty())
    return core::make_error(core::ErrorKind::input, source, "at least one GPU row of nvidia-smi "
                            "--query-gpu CSV output", text.empty() ? "empty input" : "no data row",
                            out.errors.empty() ? "" : out.errors.front());
  return out;
}

core::Result<SmiParse> run_nvidia_smi(double t_s) {
  for (const char* fields : {kSmiQueryFields, kSmiQueryFieldsLegacy}) {
    std::string cmd = std::string("nvidia-smi --query-gpu=") + fields +
                      " --format=csv,nounits 2>/dev/null";
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) break;
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    int rc = pclose(f);
    if (rc == 0) return parse_nvidia_smi_csv(text, t_s, "nvidia-smi");
    // 127: not installed. Other codes: an old driver rejecting clocks_event_reasons; retry.
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 127) break;
  }
  return core::make_error(core::ErrorKind::not_found, "nvidia-smi", "nvidia-smi listing a GPU",
                          "no nvidia-smi, or it reported no GPU");
}

}  // namespace llmtriage::ingest
