#include "bench/openai.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

using namespace llmtriage::bench;

TEST(OpenAi, CompletionsBodyWithTokenIdsAndPinnedOutput) {
  RequestSpec s;
  s.prompt_ids = {101, 102, 103};
  s.max_tokens = 16;
  s.pin_output = true;
  auto j = nlohmann::json::parse(build_body(s, {.api = Api::completions, .model = "m", .continuous_usage = true, .temperature = 0}));
  EXPECT_EQ(j["prompt"], nlohmann::json({101, 102, 103}));
  EXPECT_EQ(j["max_tokens"], 16);
  EXPECT_EQ(j["min_tokens"], 16);
  EXPECT_EQ(j["ignore_eos"], true);
  EXPECT_EQ(j["stream"], true);
  EXPECT_EQ(j["stream_options"]["include_usage"], true);
  EXPECT_EQ(j["stream_options"]["continuous_usage_stats"], true);
}

TEST(OpenAi, ChatBodyHasMessagesAndNoPinWhenNotAsked) {
  RequestSpec s;
  s.prompt_text = "hi \"there\"";
  s.max_tokens = 4;
  auto j = nlohmann::json::parse(build_body(s, {.api = Api::chat, .model = "m", .continuous_usage = false, .temperature = 0}));
  EXPECT_EQ(j["messages"][0]["content"], "hi \"there\"");
  EXPECT_FALSE(j.contains("ignore_eos"));
  EXPECT_FALSE(j["stream_options"].contains("continuous_usage_stats"));
}

struct ChunkCase {
  const char* data;
  bool valid, choices, content, error;
  int64_t completion;  // -1 = absent
};

TEST(OpenAi, ParseChunkTable) {
  const ChunkCase cases[] = {
      {R"({"choices":[{"index":0,"text":"Hello","finish_reason":null}]})", true, true, true, false, -1},
      {R"({"choices":[{"index":0,"text":""}],"usage":{"prompt_tokens":5,"completion_tokens":3}})", true, true, false, false, 3},
      {R"({"choices":[{"delta":{"role":"assistant","content":""}}]})", true, true, false, false, -1},
      {R"({"choices":[{"delta":{"content":"Hi"}}],"usage":{"completion_tokens":1,"prompt_tokens":9}})", true, true, true, false, 1},
      {R"({"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":12,"total_tokens":21}})", true, false, false, false, 12},
      {R"({"error":{"message":"boom","type":"InternalServerError"}})", true, false, false, true, -1},
      {R"(not json)", false, false, false, false, -1},
      {R"({"choices":[{"text":"x"}])", false, false, false, false, -1},
      {R"({"choices":[{"text":"x"}]} trailing)", false, false, false, false, -1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.data);
    auto r = parse_chunk(c.data);
    EXPECT_EQ(r.valid_json, c.valid);
    EXPECT_EQ(r.has_choices, c.choices);
    EXPECT_EQ(r.has_content, c.content);
    EXPECT_EQ(r.error, c.error);
    EXPECT_EQ(r.completion_tokens.value_or(-1), c.completion);
  }
  EXPECT_EQ(parse_chunk(R"({"error":{"message":"boom"}})").error_message, "boom");
}

TEST(OpenAi, ParseChunkReadsLlamaCppTimings) {
  auto c = parse_chunk(R"({"choices":[{"text":"","index":0,"finish_reason":"length"}],"usage":{"completion_tokens":6,"prompt_tokens":5},"timings":{"cache_n":4,"prompt_n":1,"prompt_ms":32.182,"prompt_per_token_ms":32.182,"predicted_n":6,"predicted_ms":2.712,"predicted_per_second":1843.6}})");
  ASSERT_TRUE(c.valid_json);
  EXPECT_TRUE(c.has_choices);
  EXPECT_FALSE(c.has_content);
  EXPECT_EQ(c.completion_tokens.value_or(-1), 6);
  EXPECT_DOUBLE_EQ(c.prompt_ms.value_or(-1), 32.182);
  EXPECT_DOUBLE_EQ(c.predicted_ms.value_or(-1), 2.712);
  EXPECT_EQ(c.cache_n.value_or(-1), 4);
  EXPECT_EQ(c.prompt_n.value_or(-1), 1);
  EXPECT_EQ(c.predicted_n.value_or(-1), 6);
  EXPECT_FALSE(parse_chunk(R"({"choices":[{"text":"x"}]})").prompt_ms);
}
