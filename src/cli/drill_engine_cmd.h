#pragma once
// `llmtriage drill --engine-cmd TEMPLATE --engine-model FILE SCENARIO`: the drill on a real
// server the drill starts and restarts (src/drill/engine_drill.h). Parsing and wiring only.
#include <optional>
#include <string>

#include "cli/command.h"

namespace llmtriage::cli {

struct EngineDrillFlags {
  std::string engine_cmd, engine_model;
  double run_deadline_s = 180;
};

int run_engine_drill_command(Context& ctx, const std::string& scenario, const EngineDrillFlags& f,
                             const std::optional<std::string>& out, bool no_remedy);

}  // namespace llmtriage::cli
