#pragma once
// `llmtriage top`'s rendering: a Frame as the lines a person reads (plain text, or with ANSI
// colours for a terminal), and the escape sequences that redraw a screen in place, changed lines
// only. No curses: the few sequences used are VT100's (docs/top.md).
#include <string>
#include <vector>

#include "collect/live_view.h"

namespace llmtriage::collect {

struct RenderOptions {
  int width = 120;      // columns; every line is cut to it (ANSI sequences do not count)
  bool color = false;   // ANSI SGR colours for states (warning yellow, critical red, stale dim)
};

// The frame as lines (no trailing newlines). Same content with or without colour.
std::vector<std::string> render_frame(const Frame& frame, const RenderOptions& options);

// Redraws a terminal from `previous` (what is on the screen now; empty = unknown, clear first)
// to `next`, cell by cell (collect/screen_cells.cpp): only the characters that changed are
// written, each run after a cursor move, in its colours; a shorter line is cleared from its end,
// lines no longer there are cleared. Returns the bytes to write.
std::string screen_update(const std::vector<std::string>& previous, const std::vector<std::string>& next);

}  // namespace llmtriage::collect
