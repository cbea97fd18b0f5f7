#include "cli/commands.h"

namespace llmtriage::cli {

// Declarations of the make_*_command() factories, one per <name>_cmd.cpp.

std::vector<Command> all_commands() {
  std::vector<Command> c;
  return c;
}

}  // namespace llmtriage::cli
