#pragma once
// The parts of build_indicators (indicators.cpp), one per kind of evidence.
#include <map>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "diagnose/diagnose.h"
#include "diagnose/indicators.h"

namespace llmtriage::diagnose {

using IndicatorMap = std::map<std::string, Indicator>;

// Unit of an indicator name (docs/rules.md), "" when it has none.
std::string indicator_unit(const std::string& name);

void summarize_evidence(const core::Evidence& ev, const Thresholds& th, IndicatorMap& out);
void summarize_deployment(const core::Deployment& d, IndicatorMap& out);
void summarize_ledger(const core::Deployment& d, IndicatorMap& out);  // ledger_kv_tokens, when model and GPU are known
void summarize_engine_samples(const std::vector<core::EngineSample>& samples, IndicatorMap& out);
void summarize_gpu_samples(const std::vector<core::GpuSample>& samples, IndicatorMap& out);
void summarize_records(const std::vector<core::RequestRecord>& records, const Thresholds& th, IndicatorMap& out);
void summarize_events(const core::Evidence& ev, IndicatorMap& out);
void summarize_outputs(const std::vector<std::string>& outputs, const Thresholds& th, IndicatorMap& out);

}  // namespace llmtriage::diagnose
