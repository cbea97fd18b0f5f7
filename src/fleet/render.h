#pragma once
// The fleet diagnosis for a person (verdict first, then the replicas that differ and why, then
// per-replica findings only where they add something) and as JSON (format "llmtriage-fleet",
// version 1, docs/fleet.md). The verdict itself reads like `diagnose` (src/report).
#include <string>

#include <nlohmann/json.hpp>

#include "fleet/analyze.h"
#include "fleet/prom_client.h"

namespace llmtriage::fleet {

inline constexpr const char* kFleetFormat = "llmtriage-fleet";
inline constexpr int kFleetVersion = 1;

// What was asked and what it cost: for the header and the JSON's `store` section.
struct RunInfo {
  std::string prometheus;     // base URL (no token)
  std::string selector;
  std::string replica_label;
  PromStats stats;
  double analysis_seconds = 0;
};

nlohmann::json to_json(const FleetEvidence& fe, const FleetDiagnosis& d, const RunInfo& info);
std::string render_text(const FleetEvidence& fe, const FleetDiagnosis& d, const RunInfo& info, size_t width = 100);

}  // namespace llmtriage::fleet
