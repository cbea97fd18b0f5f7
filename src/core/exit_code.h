#pragma once
// The exit codes every subcommand uses (README, "Exit codes").
namespace llmtriage::core {
enum ExitCode : int {
  kExitHealthy = 0,   // nothing at warning or above
  kExitFindings = 1,  // at least one finding at warning or above
  kExitUsage = 2,     // usage or input error
};
}  // namespace llmtriage::core
