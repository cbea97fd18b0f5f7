#pragma once
// Fleet diagnosis: the layered diagnosis of each replica (the same `diagnose()`), the same
// diagnosis of the whole fleet (all replicas' engine series together: the traffic mix against the
// baseline), and what only a fleet view shows — replicas that differ from their siblings (robust
// z-scores), load imbalance across replicas, and prefix-cache hit rates below what a
// prefix-affine router gives the same traffic. Pure: no network, no clock. Rules and thresholds:
// docs/rules.md, "Fleet".
#include <optional>
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "diagnose/indicators.h"
#include "fleet/gather.h"

namespace llmtriage::fleet {

struct AnalyzeOptions {
  diagnose::Slo slo;
  diagnose::Thresholds thresholds = diagnose::default_thresholds();
  std::vector<diagnose::Symptom> symptoms;  // given; empty = detect per replica
};

// One reading of one replica that differs from its siblings.
struct Outlier {
  std::string replica;
  std::string indicator;     // "clock_ratio", "waiting", "tpot_p50_s", ...
  std::string unit;
  double value = 0;
  double median = 0;         // of the fleet (all replicas with a reading)
  double robust_z = 0;       // 0.6745 (x - median) / MAD; +-inf when the siblings agree exactly
  diagnose::Layer layer = diagnose::Layer::scheduling_capacity;
};

struct ReplicaDiagnosis {
  std::string replica;
  diagnose::Report report;
  diagnose::Indicators indicators;
  std::vector<std::string> notes;
  bool differs = false;      // an outlier, or named by a fleet finding
};

struct FleetDiagnosis {
  diagnose::Report verdict;  // fleet-level findings first, then the whole-fleet diagnosis's
  std::vector<Outlier> outliers;
  std::vector<ReplicaDiagnosis> replicas;
  // Finding ids that most replicas share: said once in the verdict, left out of the replicas' lists.
  std::vector<std::string> fleet_wide_ids;
  int exit_code() const;
};

FleetDiagnosis analyze(const FleetEvidence& fleet, const AnalyzeOptions& options);

// Robust z-score helpers (exposed for tests): median and MAD of the values.
struct RobustStats {
  double median = 0;
  double mad = 0;
};
RobustStats robust_stats(std::vector<double> values);
double robust_z(double x, const RobustStats& s);

}  // namespace llmtriage::fleet
