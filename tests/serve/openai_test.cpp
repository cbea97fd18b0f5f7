#include "serve/openai.h"

#include <gtest/gtest.h>

#include "serve/tokenizer.h"

namespace llmtriage::serve {

namespace {
GenRequest parse_ok(const std::string& body, bool chat = false) {
  ApiError e;
  auto r = parse_gen_request(body, chat, e);
  EXPECT_TRUE(r.ok()) << body << " -> " << e.message;
  return r.ok() ? *r : GenRequest{};
}
}  // namespace

TEST(OpenAiRequest, RejectsMalformedBodiesWithVllmStyle400s) {
  struct Case {
    const char* body;
    bool chat;
    const char* message_part;
  } cases[] = {
      {"{not json", false, "Invalid JSON"},
      {"[1,2]", false, "JSON object"},
      {"{}", false, "'prompt' is required"},
      {R"({"prompt": 5})", false, "'prompt' must be"},
      {R"({"prompt": [[1, "x"]]})", false, "'prompt' must be"},
      {R"({"messages": []})", true, "'messages' must be a non-empty array"},
      {R"({"messages": [{"content": "hi"}]})", true, "'role'"},
      {R"({"prompt": "x", "max_tokens": 0})", false, "max_tokens must be at least 1"},
      {R"({"prompt": "x", "max_tokens": "3"})", false, "'max_tokens' must be an integer"},
      {R"({"prompt": "x", "max_tokens": 3, "min_tokens": 5})", false, "min_tokens must be less than or equal"},
      {R"({"prompt": "x", "n": 0})", false, "n must be between"},
      {R"({"prompt": "x", "temperature": 3})", false, "temperature"},
      {R"({"prompt": "x", "top_p": 0})", false, "top_p"},
      {R"({"prompt": "x", "stop": 3})", false, "'stop'"},
      {R"({"prompt": "x", "stream_options": {"include_usage": true}})", false, "only be defined when `stream=True`"},
      {R"({"prompt": "x", "stream": "yes"})", false, "'stream' must be a boolean"},
  };
  for (const auto& c : cases) {
    ApiError e;
    auto r = parse_gen_request(c.body, c.chat, e);
    EXPECT_FALSE(r.ok()) << c.body;
    EXPECT_EQ(e.status, 400) << c.body;
    EXPECT_EQ(e.type, "BadRequestError");
    EXPECT_NE(e.message.find(c.message_part), std::string::npos) << c.body << " -> " << e.message;
    const auto j = nlohmann::json::parse(error_body(e));
    EXPECT_EQ(j["error"]["code"], 400);
    EXPECT_EQ(j["error"]["message"], e.message);
  }
}

TEST(OpenAiRequest, ReadsPromptFormsAndSamplingFields) {
  auto a = parse_ok(R"({"prompt": "Hello, world!", "max_tokens": 7, "ignore_eos": true, "n": 2, "seed": 3,
                        "stop": ["x", "y"], "stream": true, "stream_options": {"include_usage": true}})");
  ASSERT_EQ(a.prompts.size(), 1u);
  EXPECT_EQ(a.prompts[0].tokens, count_tokens("Hello, world!"));
  EXPECT_EQ(*a.max_tokens, 7);
  EXPECT_TRUE(a.ignore_eos);
  EXPECT_EQ(a.n, 2);
  EXPECT_EQ(*a.seed, 3);
  EXPECT_EQ(a.stop.size(), 2u);
  EXPECT_TRUE(a.stream && a.include_usage);
  auto ids = parse_ok(R"({"prompt": [1, 2, 3, 4, 5]})");
  EXPECT_EQ(ids.prompts.at(0).tokens, 5);
  auto batch = parse_ok(R"({"prompt": [[1, 2], [3, 4, 5]]})");
  ASSERT_EQ(batch.prompts.size(), 2u);
  EXPECT_EQ(batch.prompts[1].tokens, 3);
  EXPECT_NE(batch.prompts[0].content_key, batch.prompts[1].content_key);
  auto chat = parse_ok(R"({"messages": [{"role": "system", "content": "abcdefgh"},
                                        {"role": "user", "content": [{"type": "text", "text": "abcd"}]}],
                           "max_completion_tokens": 9})", true);
  EXPECT_EQ(chat.prompts.at(0).tokens, 3 + 4 + 2 + 4 + 1);  // template + "abcdefgh" + "abcd"
  EXPECT_EQ(*chat.max_tokens, 9);
}

TEST(OpenAiPlan, IgnoreEosRunsToMaxTokensOtherwiseEosOrLength) {
  auto r = parse_ok(R"({"prompt": "x", "ignore_eos": true})");
  auto c = plan_choice(r, r.prompts[0], 0, 100, 1);
  EXPECT_EQ(c.output_tokens, 100);
  EXPECT_EQ(c.finish_reason, "length");
  auto e = parse_ok(R"({"prompt": "x", "min_tokens": 20})");
  int stops = 0;
  for (uint64_t salt = 0; salt < 50; ++salt) {
    auto p = plan_choice(e, e.prompts[0], 0, 300, salt);
    EXPECT_GE(p.output_tokens, 20);
    EXPECT_LE(p.output_tokens, 300);
    EXPECT_TRUE(p.finish_reason == "stop" || (p.finish_reason == "length" && p.output_tokens == 300));
    stops += p.finish_reason == "stop";
  }
  EXPECT_GT(stops, 10);
}

TEST(OpenAiPlan, SeedAndGreedyAreDeterministic) {
  auto s = parse_ok(R"({"prompt": "abc", "seed": 5})");
  auto a = plan_choice(s, s.prompts[0], 0, 50, 111), b = plan_choice(s, s.prompts[0], 0, 50, 222);
  EXPECT_EQ(a.text_seed, b.text_seed);
  EXPECT_EQ(a.output_tokens, b.output_tokens);
  auto g = parse_ok(R"({"prompt": "abc", "temperature": 0})");
  EXPECT_EQ(plan_choice(g, g.prompts[0], 0, 50, 1).text_seed, plan_choice(g, g.prompts[0], 0, 50, 2).text_seed);
  auto u = parse_ok(R"({"prompt": "abc"})");
  EXPECT_NE(plan_choice(u, u.prompts[0], 0, 50, 1).text_seed, plan_choice(u, u.prompts[0], 0, 50, 2).text_seed);
}

TEST(OpenAiPlan, StopStringCutsTheOutputBeforeIt) {
  auto r = parse_ok(R"({"prompt": "abc", "seed": 1, "ignore_eos": true})");
  auto free_run = plan_choice(r, r.prompts[0], 0, 40, 0);
  std::string full;
  for (int k = 0; k < 40; ++k) full += token_text(free_run, k);
  // Stop at the 10th generated word: the output ends with the token that completes it.
  const std::string word = token_text(free_run, 9);
  const std::string stop = word.substr(1);  // without its leading space
  r.stop = {stop};
  auto c = plan_choice(r, r.prompts[0], 0, 40, 0);
  EXPECT_EQ(c.finish_reason, "stop");
  EXPECT_EQ(c.stop_reason, stop);
  std::string text;
  for (int k = 0; k < c.output_tokens; ++k) text += token_text(c, k);
  EXPECT_EQ(text, full.substr(0, full.find(stop)));
  EXPECT_LE(c.output_tokens, 10);
}

}  // namespace llmtriage::serve
