#pragma once
// The real-engine drill's result as text (for a person at a terminal) and JSON (docs/drill.md).
#include <string>

#include <nlohmann/json.hpp>

#include "drill/engine_drill.h"

namespace llmtriage::drill {

std::string engine_drill_text(const EngineDrillResult& r);
nlohmann::json engine_drill_json(const EngineDrillResult& r);

}  // namespace llmtriage::drill
