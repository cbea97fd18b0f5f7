#pragma once
// The diagnosis for a person at a terminal, verdict first: the top finding, its layer, its
// evidence and its fix as a numbered list of single-variable changes with predicted effects;
// then the other findings, the layers cleared (with the values that cleared them), the layers not
// judged (and why), and the inputs. Short lines, a unit on every number.
#include <string>

#include "diagnose/finding.h"

namespace llmtriage::report {

struct TextOptions {
  bool color = false;     // ANSI colors (the CLI: only when stdout is a TTY, or --color always)
  bool headings = false;  // group the other findings under per-layer headings, with rules
  size_t width = 100;     // wrap paragraphs at this many columns
  bool definitions = true;  // end with the line naming where TTFT/TPOT/ITL are defined (a caller that embeds the report says it once itself)
};

std::string render_text(const diagnose::Report& report, const TextOptions& options = {});

}  // namespace llmtriage::report
