#pragma once
// Duration flag values ("30s", "2m", "500ms", "1h", "7d", "2w"; a bare number is seconds).
#include <optional>
#include <string>

namespace llmtriage::cli {

// The largest unit a flag accepts: a live capture's window stops at hours, a Prometheus range
// (diagnose, fleet) goes up to days and weeks.
enum class DurationUnits { up_to_hours, up_to_weeks };

// Seconds, or nullopt for a negative number or an unknown unit.
std::optional<double> parse_duration_s(const std::string& text, DurationUnits units = DurationUnits::up_to_weeks);

}  // namespace llmtriage::cli
