#pragma once
// The real-engine drill scenarios (data/drills/engine_scenarios.json): faulty knobs, the load, and
// the cause a correct diagnosis names. Knowledge as data: sizes and rationale live in the file.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::drill {

using Knobs = std::map<std::string, int64_t>;  // "parallel" -> 1, "ctx" -> 2048, "threads" -> 2, "neighbours" -> 0

struct EngineLoad {
  int64_t input_len = 32, output_len = 64, num_requests = 24, concurrency = 4;
};

struct EngineScenario {
  std::string name, about;
  Knobs knobs;
  std::optional<Knobs> baseline_knobs;  // a healthy run first (overrides of knobs), the diagnosis' baseline
  EngineLoad load;
  std::string slo;              // the objective (diagnose --slo grammar), "" = the diagnosis' defaults
  std::string planted_layer;    // "scheduling_capacity", "operator_hardware", ...
  std::string planted_finding;  // the finding id that names it
  std::string planted_knob;     // the knob its remedy changes
};

// Parses the scenarios file's text (errors name `where` and the field).
core::Result<std::vector<EngineScenario>> parse_engine_scenarios(const std::string& text, const std::string& where);
// The bundled file (data dir), read once.
const core::Result<std::vector<EngineScenario>>& engine_scenarios();
// By name; an unknown name is an error listing the known ones.
core::Result<EngineScenario> find_engine_scenario(const std::string& name);

}  // namespace llmtriage::drill
