// The screen as cells: a refresh writes only the characters that changed, in their colours; a
// braille sparkline's character is one cell; a shorter line and missing lines are cleared.
#include "collect/screen_cells.h"

#include <gtest/gtest.h>

#include "collect/live_render.h"

using namespace llmtriage::collect;

TEST(ScreenCells, OneCellPerCharacterWithItsColour) {
  const auto c = cells_of("ab \x1b[1;31m9\xe2\xa3\xbf\x1b[0m.");
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0], (Cell{"a", ""}));
  EXPECT_EQ(c[3], (Cell{"9", "1;31"}));
  EXPECT_EQ(c[4], (Cell{"\xe2\xa3\xbf", "1;31"}));  // U+28FF, one cell
  EXPECT_EQ(c[5], (Cell{".", ""}));
}

TEST(ScreenCells, AFirstFrameClearsTheScreenAndDrawsEverything) {
  const std::string full = screen_update({}, {"one", "two"});
  EXPECT_EQ(full.rfind("\x1b[H\x1b[2J", 0), 0u);
  EXPECT_NE(full.find("\x1b[1;1Hone"), std::string::npos) << full;
  EXPECT_NE(full.find("\x1b[2;1Htwo"), std::string::npos) << full;
}

TEST(ScreenCells, OnlyTheChangedCellsAreWritten) {
  const std::string d = screen_update({"queue    running 64   waiting 107", "kv 22%"},
                                      {"queue    running 64   waiting 108", "kv 22%"});
  EXPECT_EQ(d, "\x1b[1;33H8");  // the one digit, nothing else: no line rewritten, nothing cleared
  EXPECT_EQ(screen_update({"same"}, {"same"}), "");
}

TEST(ScreenCells, NearbyChangesAreOneRunAndColoursAreReset) {
  const std::string d = screen_update({"kv [###.......] 30%"}, {"kv [####......] 41%"});
  EXPECT_EQ(d.find("\x1b[1;1H"), std::string::npos) << d;  // "kv [###" is unchanged
  EXPECT_NE(d.find("\x1b[1;8H#"), std::string::npos) << d;
  const std::string c = screen_update({"kv 89%"}, {"kv \x1b[1;31m91%\x1b[0m"});
  EXPECT_EQ(c, "\x1b[1;4H\x1b[0m\x1b[1;31m91%\x1b[0m");
  // The same text with its colour gone: rewritten in the default colour (every run ends reset, so
  // the terminal draws in the default without a sequence).
  const std::string r = screen_update({"kv \x1b[1;31m91%\x1b[0m"}, {"kv 91%"});
  EXPECT_EQ(r, "\x1b[1;4H91%");
}

TEST(ScreenCells, AShorterLineAndMissingLinesAreCleared) {
  const std::string d = screen_update({"waiting 107 (1.67x)", "line two", "line three"}, {"waiting 7", "line two"});
  EXPECT_NE(d.find("\x1b[1;9H7"), std::string::npos) << d;
  EXPECT_NE(d.find("\x1b[1;10H\x1b[K"), std::string::npos) << d;
  EXPECT_NE(d.find("\x1b[3;1H\x1b[J"), std::string::npos) << d;
}
