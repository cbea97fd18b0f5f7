#pragma once
// `llmtriage --completion bash|zsh`: a completion script generated from the command tables (the
// same tables --help and the parser use, so it cannot drift). FILE and DIR values complete as
// paths; zsh runs the bash function through bashcompinit.
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/result.h"

namespace llmtriage::cli {
core::Result<std::string> completion_script(const std::vector<Command>& commands, const std::string& shell);
}  // namespace llmtriage::cli
