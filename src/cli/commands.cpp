#include "cli/commands.h"

namespace llmtriage::cli {

// Declarations of the make_*_command() factories, one per <name>_cmd.cpp.
Command make_sim_run_command();
Command make_ledger_command();

std::vector<Command> all_commands() {
  std::vector<Command> c;
  c.push_back(make_sim_run_command());
  c.push_back(make_ledger_command());
  return c;
}

}  // namespace llmtriage::cli
