#pragma once
// File helpers: whole-file reads with clear errors, atomic writes (temp + fsync + rename), and
// where the bundled data lives.
#include <string>
#include <string_view>

#include "core/result.h"

namespace llmtriage::core {

// Reads a whole file. Error names the path and the OS reason.
Result<std::string> read_file(const std::string& path);

// Writes `content` to `path` atomically: a temp file in the same folder, fsync, rename, fsync of
// the folder. A crash leaves either the old file or the new one, never a torn one.
Status write_file_atomic(const std::string& path, std::string_view content);

// The folder holding data/ (GPU and model catalogs, scenarios): $LLMTRIAGE_DATA_DIR if set, else
// the source tree's data/ baked in at build time, else <dir of executable>/../share/llmtriage/data.
std::string data_dir();

}  // namespace llmtriage::core
