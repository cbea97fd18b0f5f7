#pragma once
// The flags that say how to judge evidence, shared by diagnose, fleet and rules: --symptom
// (repeatable; an unknown name lists the known ones), --slo and --thresholds FILE.
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnose.h"

namespace llmtriage::cli {

// Appends the named symptoms (each once) to `out`.
core::Status parse_symptoms(const std::vector<std::string>& names, std::vector<diagnose::Symptom>& out);
// Applies --slo (when not empty) and the --thresholds file (when not empty).
core::Status apply_slo_and_thresholds(const std::string& slo, const std::string& thresholds_file, diagnose::Slo& slo_out,
                                      diagnose::Thresholds& thresholds_out);

}  // namespace llmtriage::cli
