#include "cli/version.h"

#ifndef LLMTRIAGE_GIT_DESCRIBE
#define LLMTRIAGE_GIT_DESCRIBE "unknown"
#endif

namespace llmtriage::cli {
std::string version_string() { return std::string(LLMTRIAGE_VERSION) + " (git " + LLMTRIAGE_GIT_DESCRIBE + ")"; }
}  // namespace llmtriage::cli
