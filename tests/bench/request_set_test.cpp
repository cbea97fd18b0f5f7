#include "bench/request_set.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "core/files.h"

using namespace llmtriage;
using namespace llmtriage::bench;

namespace {
std::string tmp_path(const std::string& name) { return ::testing::TempDir() + "/bench_" + name; }
}  // namespace

TEST(RequestSet, SyntheticExactLengthsAndCount) {
  SyntheticOptions o;
  o.num_requests = 37;
  o.input_len = 100;
  o.output_len = 20;
  o.seed = 7;
  auto s = synthetic_set(o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->requests.size(), 37u);
  for (const auto& r : s->requests) {
    EXPECT_EQ(r.prompt_ids.size(), 100u);
    EXPECT_EQ(r.input_tokens, 100);
    EXPECT_EQ(r.max_tokens, 20);
    EXPECT_TRUE(r.pin_output);
    for (auto id : r.prompt_ids) {
      EXPECT_GE(id, 100);
      EXPECT_LT(id, 32000);
    }
  }
}

TEST(RequestSet, SameSeedSameHashOtherSeedOtherHash) {
  SyntheticOptions o;
  o.num_requests = 50;
  o.seed = 1;
  auto a = synthetic_set(o), b = synthetic_set(o);
  o.seed = 2;
  auto c = synthetic_set(o);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->hash, b->hash);
  EXPECT_NE(a->hash, c->hash);
  EXPECT_EQ(a->requests[3].prompt_ids, b->requests[3].prompt_ids);
  EXPECT_EQ(a->hash.rfind("fnv1a64:", 0), 0u);
  // Any change to what reaches the server changes the hash.
  RequestSet d = *a;
  d.requests[49].max_tokens += 1;
  EXPECT_NE(hash_request_set(d), a->hash);
}

TEST(RequestSet, RangeRatioStaysInRange) {
  SyntheticOptions o;
  o.num_requests = 200;
  o.input_len = 100;
  o.output_len = 50;
  o.range_ratio = 0.5;
  auto s = synthetic_set(o);
  ASSERT_TRUE(s.ok());
  bool varied = false;
  for (const auto& r : s->requests) {
    EXPECT_GE(r.input_tokens, 50);
    EXPECT_LE(r.input_tokens, 150);
    EXPECT_EQ(static_cast<int64_t>(r.prompt_ids.size()), r.input_tokens);
    if (r.input_tokens != 100) varied = true;
  }
  EXPECT_TRUE(varied);
}

TEST(RequestSet, SharedPrefixGroups) {
  SyntheticOptions o;
  o.num_requests = 12;
  o.input_len = 64;
  o.prefix_groups = 3;
  o.prefix_len = 48;
  auto s = synthetic_set(o);
  ASSERT_TRUE(s.ok());
  const auto& r = s->requests;
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].prefix_group, static_cast<int>(i % 3));
    EXPECT_EQ(r[i].prompt_ids.size(), 64u);
  }
  auto prefix = [](const RequestSpec& x) { return std::vector<int32_t>(x.prompt_ids.begin(), x.prompt_ids.begin() + 48); };
  EXPECT_EQ(prefix(r[0]), prefix(r[3]));
  EXPECT_NE(prefix(r[0]), prefix(r[1]));
  EXPECT_NE(r[0].prompt_ids, r[3].prompt_ids);  // suffixes differ
}

TEST(RequestSet, TextPromptsHaveOneWordPerToken) {
  SyntheticOptions o;
  o.num_requests = 3;
  o.input_len = 10;
  o.text = true;
  auto s = synthetic_set(o);
  ASSERT_TRUE(s.ok());
  const auto& t = s->requests[0].prompt_text;
  EXPECT_EQ(std::count(t.begin(), t.end(), ' '), 9);
  EXPECT_TRUE(s->requests[0].prompt_ids.empty());
}

TEST(RequestSet, BadOptionsNameTheFlag) {
  SyntheticOptions o;
  o.input_len = 0;
  auto s = synthetic_set(o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().where, "--input-len");
  o.input_len = 10;
  o.prefix_groups = 2;
  o.prefix_len = 10;
  EXPECT_EQ(synthetic_set(o).error().where, "--prefix-len");
}

TEST(RequestSet, SaveAndLoadRoundTrip) {
  SyntheticOptions o;
  o.num_requests = 20;
  o.seed = 9;
  auto s = synthetic_set(o);
  ASSERT_TRUE(s.ok());
  const auto path = tmp_path("saved.jsonl");
  ASSERT_TRUE(core::write_file_atomic(path, to_jsonl(*s)).ok());
  auto back = load_saved_set(path);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->hash, s->hash);
  EXPECT_EQ(back->requests.size(), 20u);
  // A hand edit is caught.
  auto text = to_jsonl(*s);
  auto pos = text.find("\"max_tokens\":128");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 16, "\"max_tokens\":129");
  ASSERT_TRUE(core::write_file_atomic(path, text).ok());
  auto edited = load_saved_set(path);
  ASSERT_FALSE(edited.ok());
  EXPECT_NE(edited.error().detail.find("edited"), std::string::npos);
}

TEST(RequestSet, ShareGptFile) {
  const std::string path = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/bench/sharegpt_small.json";
  FileSetOptions o;
  o.seed = 3;
  auto s = sharegpt_set(path, o);
  ASSERT_TRUE(s.ok()) << s.error().message();
  // 5 entries; one has no reply and one has no conversations: 3 usable.
  EXPECT_EQ(s->requests.size(), 3u);
  for (const auto& r : s->requests) {
    EXPECT_FALSE(r.prompt_text.empty());
    EXPECT_GT(r.max_tokens, 0);
  }
  o.num_requests = 2;
  o.output_len = 7;
  auto t = sharegpt_set(path, o), u = sharegpt_set(path, o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->requests.size(), 2u);
  EXPECT_EQ(t->requests[0].max_tokens, 7);
  EXPECT_EQ(t->hash, u->hash);
}

TEST(RequestSet, JsonlPromptsCountBadLines) {
  const auto path = tmp_path("prompts.jsonl");
  ASSERT_TRUE(core::write_file_atomic(path, "{\"prompt\":\"hello there\",\"output_len\":5}\nnot json\n{\"text\":\"x y z\"}\n").ok());
  FileSetOptions o;
  auto s = jsonl_prompt_set(path, o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->requests.size(), 2u);
  EXPECT_EQ(s->requests[0].max_tokens, 5);
  EXPECT_EQ(s->requests[1].max_tokens, 128);
  ASSERT_TRUE(core::write_file_atomic(path, "nope\n").ok());
  auto bad = jsonl_prompt_set(path, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().found.find("line 1"), std::string::npos);
}

TEST(RequestSet, ReplayKeepsArrivalsAndLengths) {
  const std::string path = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/bench/replay_records.jsonl";
  auto s = replay_set(path, 32000, 1, 0);
  ASSERT_TRUE(s.ok()) << s.error().message();
  ASSERT_EQ(s->requests.size(), 4u);
  EXPECT_DOUBLE_EQ(*s->requests[0].arrival_s, 0.0);
  EXPECT_DOUBLE_EQ(*s->requests[1].arrival_s, 0.25);
  EXPECT_DOUBLE_EQ(*s->requests[3].arrival_s, 2.0);
  EXPECT_EQ(s->requests[1].prompt_ids.size(), 300u);
  EXPECT_EQ(s->requests[1].max_tokens, 40);
}
