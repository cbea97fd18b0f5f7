#pragma once
// The flags that say how to judge evidence, shared by diagnose, fleet and rules: --symptom
// (repeatable; an unknown name lists the known ones), --slo and --thresholds FILE.
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnose.h"

namespace llmtriage::cli {

// diagnose::add_observation, with the closest known name suggested for an unknown one
// ("--observe wating=40": did you mean 'waiting'?).
core::Status add_observation_suggesting(diagnose::Observations& obs, const std::string& assignment, const std::string& where);

// Appends the named symptoms (each once) to `out`.
core::Status parse_symptoms(const std::vector<std::string>& names, std::vector<diagnose::Symptom>& out);
// Applies --slo (when not empty) and the --thresholds file (when not empty).
core::Status apply_slo_and_thresholds(const std::string& slo, const std::string& thresholds_file, diagnose::Slo& slo_out,
                                      diagnose::Thresholds& thresholds_out);

}  // namespace llmtriage::cli
