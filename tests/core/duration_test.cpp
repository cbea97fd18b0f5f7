// The one duration grammar: units, compounds, bare seconds, and the refusals (overflow, exponents,
// signs, absurd values) with errors that name the flag, what was expected and what was found.
#include "core/duration.h"

#include <gtest/gtest.h>

namespace llmtriage::core {
namespace {

TEST(Duration, UnitsCompoundsAndBareSeconds) {
  struct Case {
    const char* text;
    double seconds;
  } cases[] = {{"30", 30},   {"30s", 30},     {"500ms", 0.5},     {"250us", 250e-6}, {"2m", 120},
               {"1h", 3600}, {"7d", 604800},  {"1w", 604800},     {"1h30m", 5400},   {"0.5s", 0.5},
               {"0", 0},     {"365d", 365 * 86400.0}, {" 5s ", 5}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto d = parse_duration(c.text, "--window");
    ASSERT_TRUE(d.ok()) << d.error().message();
    EXPECT_DOUBLE_EQ(*d, c.seconds);
  }
}

TEST(Duration, RefusalsNameTheFlagExpectedAndFound) {
  struct Case {
    const char* text;
    const char* want;  // in the message
  } cases[] = {
      {"5000000000000s", "up to 365d"},  // overflowed to "0 of 0 scrapes"
      {"99999999999999999999s", "up to 365d"},
      {"1000d", "up to 365d"},
      {"1e9s", "Exponents are not accepted"},
      {"-5s", "no sign"},
      {"5x", "Unknown unit 'x'"},
      {"", "a duration"},
      {"inf", "a duration"},
      {"nan", "a duration"},
      {"1h30", "needs a unit"},
      {"1..5s", "a duration"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto d = parse_duration(c.text, "--window");
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().where, "--window");
    EXPECT_EQ(d.error().found, std::string("'") + c.text + "'");
    EXPECT_NE(d.error().message().find(c.want), std::string::npos) << d.error().message();
  }
}

TEST(Duration, BoundsOfTheFlag) {
  EXPECT_FALSE(parse_duration("0s", "--interval", {.min_s = 0, .min_exclusive = true}).ok());
  EXPECT_TRUE(parse_duration("1ms", "--interval", {.min_s = 0, .min_exclusive = true}).ok());
  auto day = parse_duration("2d", "--window", {.max_s = 86400});
  ASSERT_FALSE(day.ok());
  EXPECT_NE(day.error().message().find("up to 1d"), std::string::npos) << day.error().message();
  auto bare = parse_duration("500", "--slo", {.bare_is_seconds = false});
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().message().find("Give the unit"), std::string::npos);
}

TEST(Duration, FormatsTheShortestExactSpelling) {
  EXPECT_EQ(format_duration(0.5), "500ms");
  EXPECT_EQ(format_duration(30), "30s");
  EXPECT_EQ(format_duration(90), "90s");
  EXPECT_EQ(format_duration(3600), "1h");
  EXPECT_EQ(format_duration(604800), "7d");
  EXPECT_EQ(format_duration(0), "0s");
  for (double s : {0.5, 30.0, 90.0, 3600.0, 604800.0, 1.25, 0.00025})
    EXPECT_DOUBLE_EQ(*parse_duration(format_duration(s), "x"), s) << format_duration(s);
}

}  // namespace
}  // namespace llmtriage::core
