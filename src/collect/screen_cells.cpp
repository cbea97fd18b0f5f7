// Cells and the cell-by-cell screen update (collect/screen_cells.h, collect/live_render.h).
#include "collect/screen_cells.h"

#include <fmt/format.h>

#include "collect/live_render.h"

namespace llmtriage::collect {

std::vector<Cell> cells_of(const std::string& line) {
  std::vector<Cell> out;
  std::string sgr;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      const size_t m = line.find('m', i);
      if (m == std::string::npos) break;  // a cut sequence: nothing after it is drawn
      sgr = line.substr(i + 2, m - i - 2);
      if (sgr == "0") sgr.clear();
      i = m + 1;
      continue;
    }
    size_t n = 1;  // the UTF-8 sequence's length from its lead byte
    const auto c = static_cast<unsigned char>(line[i]);
    if (c >= 0xF0) n = 4;
    else if (c >= 0xE0) n = 3;
    else if (c >= 0xC0) n = 2;
    out.push_back({line.substr(i, n), sgr});
    i += n;
  }
  return out;
}

// Cursor to each run of changed cells (runs closer than kJoin cells are joined: a cursor move
// costs more than a few unchanged characters), the run in its colours, the colour reset after it;
// a line that got shorter is cleared from its new end; lines the new frame no longer has are
// cleared. An empty `prev` (the screen's content unknown) clears the screen first.
std::string screen_update(const std::vector<std::string>& prev, const std::vector<std::string>& next) {
  constexpr size_t kJoin = 4;
  std::string s;
  if (prev.empty()) s += "\x1b[H\x1b[2J";
  for (size_t row = 0; row < next.size(); ++row) {
    const std::vector<Cell> n = cells_of(next[row]);
    const std::vector<Cell> p = row < prev.size() ? cells_of(prev[row]) : std::vector<Cell>{};
    auto same = [&](size_t j) { return j < p.size() && p[j] == n[j]; };
    for (size_t j = 0; j < n.size();) {
      if (same(j)) {
        ++j;
        continue;
      }
      size_t end = j + 1;  // the run [j, end): extended over short stretches of unchanged cells
      for (size_t k = end; k < n.size() && k < end + kJoin; ++k)
        if (!same(k)) end = k + 1;
      s += fmt::format("\x1b[{};{}H", row + 1, j + 1);
      std::string cur;
      for (size_t k = j; k < end; ++k) {
        if (n[k].sgr != cur) {
          s += "\x1b[0m";
          if (!n[k].sgr.empty()) s += "\x1b[" + n[k].sgr + "m";
          cur = n[k].sgr;
        }
        s += n[k].glyph;
      }
      if (!cur.empty()) s += "\x1b[0m";
      j = end;
    }
    if (p.size() > n.size()) s += fmt::format("\x1b[{};{}H\x1b[K", row + 1, n.size() + 1);
  }
  if (prev.empty() || prev.size() > next.size()) s += fmt::format("\x1b[{};1H\x1b[J", next.size() + 1);
  return s;
}

}  // namespace llmtriage::collect
