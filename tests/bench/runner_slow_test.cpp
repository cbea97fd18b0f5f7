// The runner against scripted OpenAI-compatible peers on loopback (tests/bench/fake_openai.h):
// exact counts and lengths, open and closed loop, the concurrency cap, each fault in its error
// category, the global deadline. No timing assertions.
#include "bench/runner.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "bench/schedule.h"
#include "bench/summary.h"
#include "fake_openai.h"

using namespace llmtriage;
using namespace llmtriage::bench;
using namespace std::chrono_literals;

namespace {
using Fake = llmtriage::bench::testing::FakeOpenAi;

RequestSet small_set(int n, int in, int out, uint64_t seed = 1) {
  SyntheticOptions o;
  o.num_requests = n;
  o.input_len = in;
  o.output_len = out;
  o.seed = seed;
  return *synthetic_set(o);
}

RunnerOptions opts(const std::string& base, const std::string& model) {
  RunnerOptions o;
  o.base_url = base;
  o.body.model = model;
  o.concurrency = 4;
  o.timeouts.connect = 2000ms;
  o.timeouts.first_byte = 5000ms;
  o.timeouts.idle = 5000ms;
  o.deadline_s = 60;
  o.scrape_interval_s = 0;
  return o;
}

}  // namespace

TEST(Runner, ClosedLoopExactCountsAndLengths) {
  Fake srv;
  auto set = small_set(20, 32, 5);
  auto o = opts(srv.base_url(), "ok");
  o.api_key = "sk-test-secret";
  auto res = run_load(set, o);
  ASSERT_EQ(res.records.size(), 20u);
  for (const auto& r : res.records) {
    SCOPED_TRACE(r.id + " " + r.error_detail);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.output_tokens(), 5);
    EXPECT_EQ(r.client_tokens(), 5);
    EXPECT_EQ(r.chunk_s.size(), 5u);
    EXPECT_TRUE(r.chunk_tokens_exact);
    EXPECT_EQ(r.server_prompt_tokens.value_or(-1), 32);
    EXPECT_EQ(r.http_status, 200);
    ASSERT_TRUE(r.first_byte_s && r.send_s && r.written_s);
    EXPECT_LE(*r.send_s, *r.first_byte_s);
    EXPECT_LE(*r.send_s, *r.written_s);
    EXPECT_LE(r.chunk_s.back(), *r.end_s);
  }
  auto seen = srv.seen();
  ASSERT_EQ(seen.size(), 20u);
  // Every request carried X-Request-Id "<run tag>-<index>", and its record keeps that id.
  ASSERT_FALSE(res.run_tag.empty());
  std::set<std::string> sent_ids, record_ids;
  for (const auto& s : seen) sent_ids.insert(s.request_id);
  for (const auto& r : res.records) {
    EXPECT_EQ(r.id, res.run_tag + "-" + std::to_string(r.index));
    EXPECT_EQ(r.set_id, std::to_string(r.index));  // the synthetic set's own ids
    record_ids.insert(r.id);
  }
  EXPECT_EQ(sent_ids, record_ids);
  EXPECT_EQ(record_ids.size(), 20u);
  for (const auto& s : seen) {
    EXPECT_EQ(s.prompt_ids, 32u);
    EXPECT_EQ(s.max_tokens, 5);
    EXPECT_EQ(s.min_tokens, 5);
    EXPECT_TRUE(s.ignore_eos);
    EXPECT_EQ(s.authorization, "Bearer sk-test-secret");
  }
  auto sum = summarize_run(res.records, {});
  EXPECT_EQ(sum.completed, 20);
  EXPECT_EQ(sum.failed, 0);
  EXPECT_EQ(sum.output_tokens, 100);
  EXPECT_EQ(sum.token_disagreements, 0);
  EXPECT_EQ(sum.output_len_mismatch, 0);
  EXPECT_EQ(sum.itl_token_s.count, 80u);
}

TEST(Runner, OpenLoopFollowsTheScheduleAndScrapesMetrics) {
  Fake srv;
  auto set = small_set(30, 8, 3);
  auto o = opts(srv.base_url(), "ok");
  auto sched = open_loop_schedule(30, {.rate = 300, .burstiness = 1, .ramp_to = 0, .seed = 4});
  ASSERT_TRUE(sched.ok());
  o.schedule = *sched;
  o.scrape_interval_s = 0.05;
  o.warmup = 5;
  o.run_tag = "tagged";  // a caller's own tag is used as given
  auto res = run_load(set, o);
  ASSERT_EQ(res.records.size(), 30u);
  EXPECT_EQ(res.run_tag, "tagged");
  std::set<std::string> sent;
  for (const auto& s : srv.seen()) sent.insert(s.request_id);
  for (size_t i = 0; i < 30; ++i) {
    const auto& r = res.records[i];
    ASSERT_TRUE(r.ok()) << r.error_detail;
    EXPECT_EQ(r.id, "tagged-" + std::to_string(i));
    EXPECT_EQ(sent.count(r.id), 1u);
    EXPECT_EQ(r.scheduled_s, (*sched)[i]);
    EXPECT_GE(*r.send_s, r.scheduled_s);  // never early
    EXPECT_EQ(r.warmup, i < 5);
  }
  ASSERT_GE(res.scrapes.size(), 2u);
  EXPECT_EQ(res.scrapes.front().phase, "before");
  EXPECT_EQ(res.scrapes.back().phase, "after");
  EXPECT_NE(res.scrapes.front().text.find("vllm:num_requests_running"), std::string::npos);
  SummaryOptions so;
  so.open_loop = true;
  auto sum = summarize_run(res.records, so);
  EXPECT_EQ(sum.warmup, 5);
  EXPECT_EQ(sum.completed, 25);
}

TEST(Runner, MaxConcurrencyCapQueuesInTheClient) {
  Fake srv(5);
  auto set = small_set(12, 8, 4);
  auto o = opts(srv.base_url(), "ok");
  o.schedule = std::vector<double>(12, 0.0);  // all due at once
  o.max_concurrency = 2;
  auto res = run_load(set, o);
  int queued = 0;
  for (const auto& r : res.records) {
    ASSERT_TRUE(r.ok()) << r.error_detail;
    if (r.queue_s() > 0) ++queued;
    EXPECT_GE(r.released_s, r.scheduled_s);
  }
  EXPECT_GE(queued, 10);  // only two can start at t=0
  SummaryOptions so;
  so.open_loop = true;
  so.max_concurrency = 2;
  auto sum = summarize_run(res.records, so);
  EXPECT_TRUE(sum.server_saturated);
  EXPECT_GT(sum.queue_s.max, 0);
}

TEST(Runner, ChunksOfSeveralTokensAndMissingUsage) {
  Fake srv;
  auto o = opts(srv.base_url(), "ok-multi");
  auto res = run_load(small_set(3, 8, 7), o);
  for (const auto& r : res.records) {
    ASSERT_TRUE(r.ok()) << r.error_detail;
    EXPECT_EQ(r.chunk_tokens, (std::vector<int32_t>{3, 3, 1}));
    EXPECT_EQ(r.output_tokens(), 7);
  }
  auto o2 = opts(srv.base_url(), "ok-nousage");
  auto res2 = run_load(small_set(3, 8, 6), o2);
  for (const auto& r : res2.records) {
    ASSERT_TRUE(r.ok()) << r.error_detail;
    EXPECT_FALSE(r.chunk_tokens_exact);
    EXPECT_EQ(r.client_tokens(), 6);
    EXPECT_EQ(r.server_completion_tokens.value_or(-1), 6);  // from the final usage chunk
  }
}

// llama.cpp's last chunk carries choices (empty text, finish_reason) with usage and timings: it
// is the closing summary, not a chunk of `usage - 1` tokens (which made every request disagree).
TEST(Runner, LlamaCppStreamCountsOneTokenPerChunkAndKeepsTheServerClock) {
  Fake srv;
  auto o = opts(srv.base_url(), "ok-llamacpp");
  auto res = run_load(small_set(3, 8, 6), o);
  for (const auto& r : res.records) {
    ASSERT_TRUE(r.ok()) << r.error_detail;
    EXPECT_EQ(r.chunk_tokens, (std::vector<int32_t>{1, 1, 1, 1, 1, 1}));
    EXPECT_EQ(r.server_completion_tokens.value_or(-1), 6);
    ASSERT_TRUE(r.server_prompt_s);
    EXPECT_DOUBLE_EQ(*r.server_prompt_s, 0.0015);
    EXPECT_DOUBLE_EQ(r.server_predicted_s.value_or(0), 0.00925);
    EXPECT_EQ(r.server_cached_tokens.value_or(-1), 2);
    ASSERT_TRUE(r.ttft_outside_server_s());
  }
  SummaryOptions so;
  auto sum = summarize_run(res.records, so);
  EXPECT_EQ(sum.token_disagreements, 0);
  EXPECT_EQ(sum.itl_token_unavailable, 0);
  EXPECT_EQ(sum.itl_token_s.count, 15u);  // 5 gaps x 3 requests, one token each
  EXPECT_EQ(sum.ttft_outside_server_s.count, 3u);
}

TEST(Runner, FaultsLandInTheirCategories) {
  Fake srv;
  const std::map<std::string, std::string> want = {
      {"429", "http_429"}, {"503", "http_503"}, {"reset", "reset"},
      {"malformed", "malformed_sse"}, {"stall", "timeout_idle"}};
  for (const auto& [model, cat] : want) {
    SCOPED_TRACE(model);
    auto o = opts(srv.base_url(), model);
    o.timeouts.idle = 300ms;
    auto res = run_load(small_set(3, 8, 5), o);
    for (const auto& r : res.records) {
      EXPECT_FALSE(r.ok());
      EXPECT_EQ(r.error_category, cat) << r.error_detail;
      // A refusal carries the server's own message (its JSON error document), not only the status.
      if (cat.starts_with("http_")) {
        EXPECT_NE(r.error_detail.find(": overloaded"), std::string::npos) << r.error_detail;
      }
    }
    auto sum = summarize_run(res.records, {});
    EXPECT_EQ(sum.failed, 3);
    EXPECT_EQ(sum.errors_by_category.at(cat), 3);
    EXPECT_EQ(sum.ttft_s.count, 0u);  // failures never enter latency statistics
  }
}

TEST(Runner, GlobalDeadlineEndsAHungRun) {
  Fake srv;
  auto o = opts(srv.base_url(), "stall");
  o.timeouts.idle = 0ms;  // only the deadline can end these streams
  o.timeouts.first_byte = 0ms;
  o.deadline_s = 0.5;
  o.concurrency = 2;
  auto res = run_load(small_set(5, 8, 5), o);
  EXPECT_TRUE(res.deadline_hit);
  ASSERT_EQ(res.records.size(), 5u);
  int sent = 0;
  for (const auto& r : res.records) {
    EXPECT_EQ(r.error_category, "deadline");
    if (r.send_s) ++sent;
  }
  EXPECT_EQ(sent, 2);  // the other three never got a slot
  SummaryOptions so;
  so.deadline_hit = true;
  auto sum = summarize_run(res.records, so);
  EXPECT_EQ(sum.not_sent, 3);
  // The two in flight were cut by the run's end: neither successes nor failures (issue 15).
  EXPECT_EQ(sum.failed, 0);
  EXPECT_EQ(sum.cut, 2);
}

TEST(Runner, ConnectionRefusedIsACategoryNotAHang) {
  auto o = opts("http://127.0.0.1:1", "ok");
  auto res = run_load(small_set(2, 8, 2), o);
  for (const auto& r : res.records) EXPECT_EQ(r.error_category, "connect_refused") << r.error_detail;
}
