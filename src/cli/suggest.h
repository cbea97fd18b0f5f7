#pragma once
// Did-you-mean: the closest known name to what was typed (subcommands, flags, observation and
// symptom names). Damerau-Levenshtein distance (a swap of two neighbours costs 1), accepted when
// it is at most a third of the typed length (at least 1, at most 3), or when the typed text is a
// prefix of exactly one name.
#include <optional>
#include <string>
#include <vector>

namespace llmtriage::cli {

std::optional<std::string> closest_name(const std::string& typed, const std::vector<std::string>& known);

// " (did you mean 'diagnose'?)" or "".
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& known);

}  // namespace llmtriage::cli
