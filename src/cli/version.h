#pragma once
// "0.1.0 (git 3f2a9c1-dirty)": the project version and the commit it was configured from
// (CMake runs `git describe --always --dirty` at configure time; "unknown" outside a git checkout).
#include <string>

namespace llmtriage::cli {
std::string version_string();
}  // namespace llmtriage::cli
