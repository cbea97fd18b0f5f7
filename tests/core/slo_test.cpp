// One SLO grammar: bench's ttft=500ms and diagnose's ttft_p99_s=0.5 are the same objective, and
// every refusal lists the accepted names.
#include "core/slo.h"

#include <gtest/gtest.h>

namespace llmtriage::core {
namespace {

TEST(Slo, BothSpellingsYieldTheSameObjective) {
  auto a = parse_slo("ttft=500ms,tpot=50ms,e2e=10s,error_rate=0.01");
  auto b = parse_slo("ttft_p99_s=0.5, tpot_p99_s=0.05, e2e_p99_s=10, error_rate=0.01");
  auto c = parse_slo("ttft_p99=500ms,tpot_p99_s=50ms,e2e=10000ms,error_rate=0.01");
  for (const auto* s : {&a, &b, &c}) {
    ASSERT_TRUE(s->ok()) << s->error().message();
    EXPECT_DOUBLE_EQ(*(*s)->ttft_s, 0.5);
    EXPECT_DOUBLE_EQ(*(*s)->tpot_s, 0.05);
    EXPECT_DOUBLE_EQ(*(*s)->e2e_s, 10);
    EXPECT_DOUBLE_EQ(*(*s)->error_rate, 0.01);
  }
  EXPECT_EQ(a->to_string(), "ttft=500ms,tpot=50ms,e2e=10s,error_rate=0.01");
  EXPECT_EQ(parse_slo(a->to_string())->to_string(), a->to_string());
}

TEST(Slo, RefusalsListTheAcceptedNames) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"latency=5ms", "ttft_p99_s"},          // unknown name: the accepted ones listed
      {"ttft", "ttft, tpot, e2e"},            // no value
      {"ttft=500", "Give the unit"},          // 500 ms or 500 s?
      {"ttft=-1ms", "no sign"},
      {"ttft_p99_s=0", "> 0s"},
      {"ttft=2h", "up to 1h"},                // absurd
      {"error_rate=2", "a fraction in (0, 1]"},
      {"tpot_p99_s=x", "tpot_p99_s="},
      {"", "NAME=VALUE"},
      {",", "NAME=VALUE"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto s = parse_slo(c.text, "--slo");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().where, "--slo");
    EXPECT_NE(s.error().message().find(c.want), std::string::npos) << s.error().message();
  }
}

}  // namespace
}  // namespace llmtriage::core
