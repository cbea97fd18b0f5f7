#pragma once
// The diagnosis as Markdown, for an incident ticket or a post-mortem: the same order as the
// terminal report (verdict, fix, other findings, cleared, not judged, inputs), evidence as tables.
#include <string>

#include "diagnose/finding.h"

namespace llmtriage::report {

std::string render_markdown(const diagnose::Report& report);

}  // namespace llmtriage::report
