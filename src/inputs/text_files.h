#pragma once
// Plain-text inputs of a diagnosis, one item per line: sampled response texts (--outputs) and
// dashboard readings (--observe-file, NAME=VALUE lines). Read here; what a reading means is
// diagnose's (diagnose/observations.h), so a reading is handed on as text with its file:line.
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::inputs {

// Response texts from a file: one per line, or JSONL objects with a text field ("text",
// "output", "content", "response", "generated_text", or OpenAI choices[0].text/message.content).
core::Result<std::vector<std::string>> read_outputs_file(const std::string& path);

struct Reading {
  std::string where;  // "path:line"
  std::string text;   // "NAME=VALUE", comment and surrounding blanks removed
};

// The NAME=VALUE lines of each file ('#' starts a comment; blank lines skipped), and one InputNote
// per file ("observe": how many readings, or why none).
std::vector<Reading> read_readings_files(const std::vector<std::string>& paths, std::vector<core::InputNote>& notes);

}  // namespace llmtriage::inputs
