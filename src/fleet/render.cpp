#include "fleet/render.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fmt/format.h>

#include "core/text_escape.h"
#include "core/units.h"
#include "report/diagnose_format.h"
#include "report/diagnose_json.h"
#include "report/diagnose_text.h"

namespace llmtriage::fleet {

namespace {

std::string utc(double t) {
  const std::time_t s = static_cast<std::time_t>(std::floor(t));
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool fleet_wide(const FleetDiagnosis& d, const std::string& id) {
  return std::find(d.fleet_wide_ids.begin(), d.fleet_wide_ids.end(), id) != d.fleet_wide_ids.end();
}

// The readings a person compares across replicas, when present.
constexpr const char* kShown[] = {"request_rate", "waiting", "kv_usage", "prefix_cache_hit_rate", "ttft_p99_s",
                                  "tpot_p50_s",   "clock_ratio", "power_ratio", "temp_c"};

nlohmann::json z_json(double z) {
  if (std::isinf(z)) return z > 0 ? "+inf" : "-inf";
  return z;
}

}  // namespace

nlohmann::json to_json(const FleetEvidence& fe, const FleetDiagnosis& d, const RunInfo& info) {
  nlohmann::json j;
  j["format"] = kFleetFormat;
  j["version"] = kFleetVersion;
  j["definitions"] = "docs/metrics.md";
  j["prometheus"] = info.prometheus;
  j["selector"] = info.selector;
  j["replica_label"] = info.replica_label;
  j["engine"] = core::to_string(fe.engine);
  j["window"] = {{"start", utc(fe.start_s)}, {"end", utc(fe.end_s)}, {"seconds", fe.end_s - fe.start_s}, {"step_s", fe.step_s}};
  if (fe.baseline_end_s)
    j["baseline_window"] = {{"start", utc(*fe.baseline_start_s)}, {"end", utc(*fe.baseline_end_s)}};
  else
    j["baseline_window"] = nullptr;
  const auto& s = info.stats;
  j["store"] = {{"queries", s.queries},       {"retries", s.retries},           {"failures", s.failures},
                {"bytes", s.bytes},           {"series", s.series},             {"points", s.points},
                {"store_seconds", s.store_seconds}, {"parse_seconds", s.parse_seconds}, {"analysis_seconds", info.analysis_seconds}};
  j["verdict"] = report::to_json(d.verdict);
  j["fleet_wide_finding_ids"] = d.fleet_wide_ids;
  auto outs = nlohmann::json::array();
  for (const auto& o : d.outliers)
    outs.push_back({{"replica", o.replica}, {"indicator", o.indicator}, {"unit", o.unit}, {"value", o.value},
                    {"fleet_median", o.median}, {"robust_z", z_json(o.robust_z)}, {"layer", diagnose::to_string(o.layer)}});
  j["outliers"] = outs;
  auto reps = nlohmann::json::array();
  for (const auto& r : d.replicas) {
    nlohmann::json rj;
    rj["replica"] = r.replica;
    rj["differs"] = r.differs;
    rj["notes"] = r.notes;
    nlohmann::json ind = nlohmann::json::object();
    for (const char* n : kShown)
      if (auto v = r.indicators.get(n)) ind[n] = *v;
    rj["indicators"] = ind;
    auto full = report::to_json(r.report);
    auto fs = nlohmann::json::array();
    for (const auto& f : full["findings"])
      if (!fleet_wide(d, f.value("id", ""))) fs.push_back(f);
    rj["findings"] = fs;
    rj["symptoms"] = full["symptoms"];
    reps.push_back(std::move(rj));
  }
  j["replicas"] = reps;
  j["exit_code"] = d.exit_code();
  return j;
}

std::string render_text(const FleetEvidence& fe, const FleetDiagnosis& d, const RunInfo& info, size_t width) {
  std::string o;
  o += fmt::format("Fleet: {} replicas ({}) by '{}' in {}{}\n", fe.replicas.size(), core::to_string(fe.engine), info.replica_label,
                   info.prometheus, info.selector.empty() ? "" : ", selector " + info.selector);
  o += fmt::format("Window: {} .. {} (step {}){}\n", utc(fe.start_s), utc(fe.end_s), core::format_duration_s(fe.step_s),
                   fe.baseline_end_s ? fmt::format("; baseline {} .. {}", utc(*fe.baseline_start_s), utc(*fe.baseline_end_s))
                                     : std::string("; no baseline window"));
  const auto& s = info.stats;
  o += fmt::format("Store: {} queries ({} retried, {} failed), {:.1f} MB, {} series, {} points; {} waiting on the store, "
                   "{} parsing, {} analysis\n\n",
                   s.queries, s.retries, s.failures, static_cast<double>(s.bytes) / 1e6, s.series, s.points,
                   core::format_duration_s(s.store_seconds), core::format_duration_s(s.parse_seconds),
                   core::format_duration_s(info.analysis_seconds));

  o += "== Fleet verdict ==\n";
  report::TextOptions to;
  to.width = width;
  to.definitions = false;  // said once, at the end of the fleet report
  o += report::render_text(d.verdict, to);

  std::vector<const ReplicaDiagnosis*> differ;
  for (const auto& r : d.replicas)
    if (r.differs) differ.push_back(&r);
  o += "\n== Replicas that differ ==\n";
  if (differ.empty()) o += "  none: every replica's readings are within the fleet's spread\n";
  for (const auto* r : differ) {
    o += "  " + core::printable(r->replica) + ":";  // label values come from the store: escaped
    for (const auto& out : d.outliers)
      if (out.replica == r->replica)
        o += fmt::format(" {} {} (fleet median {});", out.indicator, report::format_value(out.value, out.unit),
                         report::format_value(out.median, out.unit));
    if (auto h = r->indicators.get("prefix_cache_hit_rate")) o += " prefix-cache hit " + core::format_quantity(*h, "fraction") + ";";
    if (auto q = r->indicators.get("request_rate")) o += " " + core::format_quantity(*q, "req/s");
    o += "\n";
  }

  o += "\n== Per-replica findings (beyond the fleet-wide ones) ==\n";
  bool any = false;
  for (const auto& r : d.replicas) {
    for (const auto& f : r.report.findings) {
      if (fleet_wide(d, f.id)) continue;
      any = true;
      o += fmt::format("  {}: [{}] {} ({})\n", core::printable(r.replica), report::layer_title(f.layer), f.title,
                       diagnose::to_string(f.severity));
    }
    for (const auto& n : r.notes) o += fmt::format("  {}: note: {}\n", core::printable(r.replica), core::printable(n));
  }
  if (!any) o += "  none\n";
  o += "\nTTFT, TPOT and ITL as defined in docs/metrics.md; quantiles from the engines' histograms over the window.\n";
  return o;
}

}  // namespace llmtriage::fleet
