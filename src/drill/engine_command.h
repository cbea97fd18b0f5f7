#pragma once
// A real engine's command line from a template: `--engine-cmd "llama-server -m {model} --port
// {port} -np {parallel} -c {ctx} -t {threads} --metrics"`. Placeholders are the drill's knobs;
// quoting ('...' and "...") groups words; no shell is involved (nothing is expanded or run by one).
#include <map>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::drill {

// Splits on blanks outside quotes and substitutes {name} from `vars` inside every word. An
// unknown placeholder, an unclosed quote or an empty template is an error naming it (where =
// "--engine-cmd").
core::Result<std::vector<std::string>> expand_command(const std::string& tmpl, const std::map<std::string, std::string>& vars);

// The placeholders a template uses ("model", "port", ...), in order of first use.
std::vector<std::string> placeholders(const std::string& tmpl);

// One line for reports: the words joined by spaces, quoted where they hold a blank.
std::string command_line(const std::vector<std::string>& argv);

}  // namespace llmtriage::drill
