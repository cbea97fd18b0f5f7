#pragma once
// One analyzer per layer (docs/rules.md). Each judges its layer by its indicators and returns the
// findings it located and the layer's verdict (cleared with the values that cleared it, at fault,
// or not judged for lack of evidence — never "healthy" without evidence).
#include <vector>

#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "diagnose/indicators.h"

namespace llmtriage::diagnose {

struct Context {
  const DiagnoseInput& in;
  const Indicators& ind;
  const std::vector<Symptom>& symptoms;  // given or detected
  const Thresholds& th;
};

struct LayerResult {
  std::vector<Finding> findings;
  LayerVerdict verdict;
};

LayerResult analyze_load(const Context& c);
LayerResult analyze_scheduling(const Context& c);   // includes memory: startup OOM (ledger), runtime OOM, preemption
LayerResult analyze_hardware(const Context& c);
LayerResult analyze_numeric(const Context& c);
LayerResult analyze_gateway(const Context& c);

}  // namespace llmtriage::diagnose
