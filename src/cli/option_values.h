#pragma once
// One flag's text -> its target, the one validated parse every command's numbers, durations and
// SLOs go through (docs/cli.md): integers, numbers within Bounds, durations in seconds, SLOs
// checked by core::parse_slo. Errors name the flag, what was expected and what was found.
#include <string>

#include "cli/command.h"
#include "core/result.h"

namespace llmtriage::cli {

// The value's type as --help shows it: the declared one, else NUMBER / LIST / TEXT from the
// target. "" for on/off flags.
std::string value_type(const Option& o);

// Parses `text` into o.target. `flag` is the name used in errors ("--window").
core::Status assign_value(const Option& o, const std::string& flag, const std::string& text);

// The default --help shows: o.default_shown, else the target's value (durations as "30s").
std::string shown_default(const Option& o);

}  // namespace llmtriage::cli
