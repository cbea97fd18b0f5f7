#pragma once
// The simulated drill's result as text (for a person at a terminal, step by step as the drill goes)
// and JSON (drill.json, --json; docs/drill.md).
#include <string>

#include <nlohmann/json.hpp>

#include "drill/sim_drill.h"

namespace llmtriage::drill {

// The text one step adds, printed when the step is reached.
std::string sim_drill_step_text(const SimDrillResult& r, SimDrillStep step);
// The text of every step reached, in order.
std::string sim_drill_text(const SimDrillResult& r);
nlohmann::json sim_drill_json(const SimDrillResult& r);

// The scenario's faults in one line ("clock_throttle x0.6 [30 s, end)"; "none (the settings are the fault)").
std::string faults_line(const sim::Scenario& s);

}  // namespace llmtriage::drill
