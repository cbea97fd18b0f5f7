#include <gtest/gtest.h>

#include <stdexcept>

#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {
namespace {

TEST(Thresholds, DefaultsHaveASectionPerLayer) {
  const auto t = default_thresholds();
  for (const char* section : {"load.", "sched.", "hw.", "numeric.", "gateway.", "traverse.", "triangulate."}) {
    bool found = false;
    for (const auto& [k, v] : t.values) found |= k.rfind(section, 0) == 0;
    EXPECT_TRUE(found) << section;
  }
  EXPECT_EQ(t.get("load.length_shift_ratio"), 1.5);
  EXPECT_THROW(t.get("no.such"), std::logic_error);
}

TEST(Thresholds, FileOverridesWithCommentsAndBlankLines) {
  auto t = default_thresholds();
  const std::string text = "# tuned for our fleet\n\nload.length_shift_ratio = 2   # doubling only\r\n gateway.retry_rate=0.05\n";
  auto st = load_thresholds(t, text, "th.txt");
  ASSERT_TRUE(st.ok()) << st.error().message();
  EXPECT_EQ(t.get("load.length_shift_ratio"), 2);
  EXPECT_EQ(t.get("gateway.retry_rate"), 0.05);
  EXPECT_EQ(t.get("load.rate_increase_ratio"), 1.5);  // untouched
}

TEST(Thresholds, FileErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"\nload.nope = 1\n", "th.txt:2: expected a known threshold name, found load.nope"},
      {"load.length_shift_ratio 2\n", "th.txt:1: expected name = value"},
      {"a=1\n", "found a"},
      {"# x\n# y\nload.length_shift_ratio = two\n", "th.txt:3: expected a number for load.length_shift_ratio, found two"},
  };
  for (const auto& c : cases) {
    auto t = default_thresholds();
    auto st = load_thresholds(t, c.text, "th.txt");
    ASSERT_FALSE(st.ok()) << c.text;
    EXPECT_NE(st.error().message().find(c.want), std::string::npos) << st.error().message();
  }
}

TEST(Slo, ParsesAndRejects) {
  Slo s;
  ASSERT_TRUE(parse_slo(s, "ttft_p99_s=1.5, tpot_p99_s=0.08").ok());
  EXPECT_EQ(s.ttft_p99_s, 1.5);
  EXPECT_EQ(s.tpot_p99_s, 0.08);
  EXPECT_EQ(s.e2e_p99_s, 60.0);
  for (const char* bad : {"ttft=1", "ttft_p99_s", "ttft_p99_s=0", "error_rate=2", "tpot_p99_s=x"}) {
    Slo t;
    auto st = parse_slo(t, bad);
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.error().message().find("--slo"), std::string::npos);
  }
}

}  // namespace
}  // namespace llmtriage::diagnose
