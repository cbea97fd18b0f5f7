// Error messages: what was expected, what was found, where; input quoted in them is escaped.
#include "core/error.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(Error, MessageNamesWhereExpectedFound) {
  auto e = core::make_error(core::ErrorKind::input, "a.jsonl:3", "a JSON object", "[1, 2]", "skip it");
  EXPECT_EQ(e.message(), "a.jsonl:3: expected a JSON object, found [1, 2]. skip it");
}

TEST(Error, FoundTextFromTheInputIsEscaped) {
  auto e = core::make_error(core::ErrorKind::input, "x.log:1", "a log line", "\x1b[2J\xff\xfe\n");
  EXPECT_EQ(e.message(), "x.log:1: expected a log line, found \\x1b[2J\\xff\\xfe\\n");
  EXPECT_EQ(core::make_error(core::ErrorKind::input, "", "", "caf\xc3\xa9 \x07").message(), "caf\xc3\xa9 \\x07");
}
