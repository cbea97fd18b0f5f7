#pragma once
// Indicators: every number a rule reads, by name, with where it came from. Built once from the
// Evidence (metrics timeline, GPU samples, request records, log events, ledger) and the
// dashboard readings (--observe), so each analyzer reads names, not file formats.
// Names are the observation names of docs/rules.md ("waiting", "kv_usage", "ttft_p99_s", ...)
// plus derived ones documented there ("gpu_util_spread", "kv_capacity_tokens", ...).
#include <map>
#include <optional>
#include <string>

#include "core/evidence.h"
#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {

struct Indicator {
  double value = 0;
  std::string source;   // "metrics (30 s window)", "records (1200 requests)", "observe", "vllm.log:88", "ledger"
};

struct Indicators {
  std::map<std::string, Indicator> now;
  std::map<std::string, Indicator> baseline;  // from the baseline Evidence and baseline_ observations
  // Values derived from files that an observation replaced in `now` (kept for triangulation:
  // a dashboard reading and the metrics disagreeing is itself a finding).
  std::map<std::string, Indicator> replaced;

  std::optional<double> get(const std::string& name) const;
  std::optional<double> base(const std::string& name) const;
  const Indicator* find(const std::string& name) const;
  // An EvidenceItem for a rule's reading: value, unit from docs/rules.md, threshold and op.
  EvidenceItem item(const std::string& name, std::optional<double> threshold = {}, const std::string& op = {}) const;
};

// Observations override values derived from files (the operator read them off a dashboard just now).
Indicators build_indicators(const DiagnoseInput& in);

}  // namespace llmtriage::diagnose
