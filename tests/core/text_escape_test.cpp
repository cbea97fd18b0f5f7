// Input quoted back to a terminal: control and invalid bytes are escaped, text passes.
#include "core/text_escape.h"

#include <gtest/gtest.h>

#include <string>

using namespace llmtriage;

TEST(TextEscape, ControlAndInvalidBytesBecomeVisible) {
  EXPECT_EQ(core::printable("plain text, 42 ms"), "plain text, 42 ms");
  EXPECT_EQ(core::printable("a\x1b[31mred"), "a\\x1b[31mred");
  EXPECT_EQ(core::printable("line\nnext\ttab\r"), "line\\nnext\\ttab\\r");
  EXPECT_EQ(core::printable(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(core::printable("bad \xff\xfe utf8"), "bad \\xff\\xfe utf8");
  EXPECT_EQ(core::printable("\xc3("), "\\xc3(");         // a lead byte without its continuation
  EXPECT_EQ(core::printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");  // C1 CSI: a terminal control
  EXPECT_EQ(core::printable("C:\\models"), "C:\\models");
  EXPECT_EQ(core::printable("→ é 日本"), "→ é 日本");  // valid UTF-8 passes unchanged
}

TEST(TextEscape, CutsAtACharacterBoundary) {
  EXPECT_EQ(core::printable("abcdef", 3), "abc...");
  EXPECT_EQ(core::printable("ab→cd", 3), "ab→...");  // the arrow is kept whole
  EXPECT_EQ(core::printable("abc", 3), "abc");
}

TEST(TextEscape, BinaryHeadsAreTold) {
  std::string random;
  unsigned x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245u + 12345u;
    random.push_back(static_cast<char>((x >> 16) & 0xff));
  }
  EXPECT_TRUE(core::looks_like_binary(random));
  EXPECT_TRUE(core::looks_like_binary(std::string("{\"a\":1}\0", 8)));
  EXPECT_TRUE(core::looks_like_binary("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xed\x9d\x6b\x73\xdb"));
  EXPECT_FALSE(core::looks_like_binary("{\"ttft_s\": 0.1}\n{\"ttft_s\": 0.2}\n"));
  EXPECT_FALSE(core::looks_like_binary("\x1b[32mINFO\x1b[0m 12-03 07:01:12 engine started\n"));
  EXPECT_FALSE(core::looks_like_binary("one stray \xff byte in a long enough line of ordinary text"));
  EXPECT_DOUBLE_EQ(core::non_text_share(""), 0);
}

TEST(TextEscape, BinaryHeadJudgesTheFirstLinesOfAStream) {
  core::BinaryHead text;
  text.add("{\"arrival_s\": 0}");
  text.add(std::string("\0\0", 2));  // a torn line in a text file
  text.add("{\"arrival_s\": 1}");
  text.judge();
  EXPECT_FALSE(text.binary());
  core::BinaryHead bin;
  std::string line;
  for (int i = 0; i < 300; ++i) line.push_back(static_cast<char>(0x80 + i % 64));  // continuation bytes alone
  for (int i = 0; i < 20 && !bin.binary(); ++i) bin.add(line);
  EXPECT_TRUE(bin.binary());
  EXPECT_EQ(bin.describe(), "binary data (100% of the first 4096 bytes are not text)");
}
