#pragma once
#include <vector>

#include "cli/command.h"

namespace llmtriage::cli {
// Every subcommand, in the order of the overview. Each make_*_command() lives in its own
// <name>_cmd.cpp; add one line to commands.cpp to register a new one.
std::vector<Command> all_commands();
}  // namespace llmtriage::cli
