#pragma once
// Report -> JSON, exactly as docs/diagnose-json.md documents it (format "llmtriage-diagnosis",
// version 1). Stable: fields are added, never renamed or removed, within a version.
#include <nlohmann/json.hpp>

#include "core/result.h"
#include "diagnose/finding.h"

namespace llmtriage::report {

inline constexpr const char* kDiagnosisFormat = "llmtriage-diagnosis";
inline constexpr int kDiagnosisVersion = 1;

nlohmann::json to_json(const diagnose::Report& report);

// Reads a document written by to_json back (for tools and tests). A different format or a newer
// version is refused, naming what was found.
core::Result<diagnose::Report> report_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace llmtriage::report
