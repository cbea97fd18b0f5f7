#pragma once
// The terminal screen as cells (collect/live_render.h's screen_update): each rendered line split
// into cells, one per character (a UTF-8 sequence: braille sparklines are one cell each) with the
// SGR colour it is drawn in; two frames compared cell by cell, so a refresh rewrites only the
// characters that changed (a digit of a counter, a sparkline's last cell), not whole lines.
#include <string>
#include <vector>

namespace llmtriage::collect {

struct Cell {
  std::string glyph;  // one UTF-8 character
  std::string sgr;    // the SGR parameters it is drawn with ("1;31"); "" = the default
  bool operator==(const Cell&) const = default;
};

// A rendered line (text with SGR escapes, as render_frame writes them) as cells. An SGR sequence
// replaces the colour (render_frame resets after each painted span); "0" is the default.
std::vector<Cell> cells_of(const std::string& line);

}  // namespace llmtriage::collect
