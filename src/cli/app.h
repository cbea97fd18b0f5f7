#pragma once
#include <iosfwd>
#include <vector>

#include "cli/command.h"

namespace llmtriage::cli {
// Parses argv against the command tables and runs the chosen command. Returns the exit code:
// 0 healthy, 1 findings at warning or above, 2 usage or input error. Never throws.
int run_app(std::vector<Command> commands, int argc, const char* const* argv, std::ostream& out,
            std::ostream& err);
}  // namespace llmtriage::cli
