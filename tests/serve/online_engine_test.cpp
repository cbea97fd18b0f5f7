// sim::OnlineEngine (src/sim/online.h), the simulator as `sim serve` drives it.
#include "sim/online.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/scenario.h"

namespace llmtriage::sim {

namespace {
SimConfig small_config(int64_t kv_tokens = 100000, int replicas = 1) {
  Scenario s;
  s.deployment.kv_cache_tokens = kv_tokens;
  s.deployment.max_model_len = 4096;
  s.config.replicas = replicas;
  auto st = resolve(s);
  EXPECT_TRUE(st.ok());
  return s.config;
}

// Runs until idle; returns the number of steps.
int drain(OnlineEngine& e, std::vector<int32_t>* tokens_seen = nullptr) {
  int steps = 0;
  while (std::isfinite(e.next_event_s())) {
    e.advance(e.next_event_s(), [&](const StepReport& r) {
      ++steps;
      EXPECT_LE(r.start_s, r.end_s);
      if (tokens_seen)
        for (const auto& q : r.plan->seqs) (*tokens_seen)[static_cast<size_t>(q.req)] = e.request(q.req).num_output;
    });
    EXPECT_EQ(e.check_invariants(), "");
  }
  return steps;
}
}  // namespace

TEST(OnlineEngine, RequestsFinishWithTheirTokensAndCountersAgree) {
  OnlineEngine e(small_config());
  std::vector<int32_t> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(e.add(0.0, 100 + i, 20));
  e.advance(0.0, nullptr);  // starts the first step
  std::vector<int32_t> seen(8, 0);
  EXPECT_EQ(drain(e, &seen), 20);  // the prefill step samples the first token: 20 steps for 20 tokens
  uint64_t gen = 0;
  for (int32_t id : ids) {
    const auto& r = e.request(id);
    EXPECT_EQ(r.state, ReqState::finished);
    EXPECT_EQ(r.num_output, 20);
    EXPECT_EQ(seen[static_cast<size_t>(id)], 20);
    EXPECT_GT(r.first_token_s, r.arrival_s);
    EXPECT_GE(r.finish_s, r.first_token_s);
    gen += static_cast<uint64_t>(r.num_output);
  }
  const auto s = e.sample(0, 1.0);
  EXPECT_EQ(*s.generation_tokens_total, static_cast<double>(gen));
  EXPECT_EQ(*s.requests_finished_total, 8.0);
  EXPECT_EQ(*s.running, 0.0);
  EXPECT_EQ(*s.kv_usage, 0.0);
}

TEST(OnlineEngine, RejectsOverMaxModelLenAndAbortFreesBlocks) {
  OnlineEngine e(small_config());
  EXPECT_EQ(e.add(0.0, 4000, 200), -1);
  const int32_t a = e.add(0.0, 500, 1000);
  const int32_t b = e.add(0.0, 500, 10);
  e.advance(0.0, nullptr);
  e.advance(e.next_event_s(), nullptr);
  EXPECT_GT(e.replica(0).kv.usage(), 0.0);
  e.abort(a, e.next_event_s());
  EXPECT_EQ(e.request(a).state, ReqState::aborted);
  drain(e);
  EXPECT_EQ(e.request(b).state, ReqState::finished);
  EXPECT_EQ(e.replica(0).kv.usage(), 0.0);
  EXPECT_EQ(e.check_invariants(), "");
}

TEST(OnlineEngine, IdleClockJumpsToTheArrivalAndAClockThrottleSlowsSteps) {
  auto step_time = [](bool throttle) {
    OnlineEngine e(small_config());
    if (throttle) e.add_fault(Fault{FaultKind::clock_throttle, 0, 1e300, 0.5});
    e.add(50.0, 200, 10);
    e.advance(50.0, nullptr);
    double first_end = e.next_event_s();
    EXPECT_GT(first_end, 50.0);  // the engine starts at the arrival, not at 0
    double t0 = 0, t1 = 0;
    int k = 0;
    while (std::isfinite(e.next_event_s()))
      e.advance(e.next_event_s(), [&](const StepReport& r) {
        if (k++ == 2) t0 = r.end_s;
        t1 = r.end_s;
      });
    return (t1 - t0) / (k - 3);
  };
  EXPECT_GT(step_time(true), step_time(false) * 1.2);
}

TEST(OnlineEngine, SpreadsRequestsOverReplicasAndPreemptsUnderKvPressure) {
  OnlineEngine two(small_config(100000, 2));
  two.add(0, 100, 5);
  two.add(0, 100, 5);
  EXPECT_NE(two.request(0).replica, two.request(1).replica);
  // A pool of 2048 tokens cannot hold 8 requests growing to 600 tokens each: preemptions.
  OnlineEngine e(small_config(2048));
  for (int i = 0; i < 8; ++i) e.add(0.0, 100, 500);
  e.advance(0.0, nullptr);
  size_t preempted = 0;
  while (std::isfinite(e.next_event_s()))
    e.advance(e.next_event_s(), [&](const StepReport& r) { preempted += r.preempted.size(); });
  EXPECT_GT(preempted, 0u);
  EXPECT_EQ(static_cast<uint64_t>(preempted), e.replica(0).preemptions);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(e.request(i).state, ReqState::finished);
}

}  // namespace llmtriage::sim

namespace llmtriage::sim {

// Served prompts carry per-token keys: two prompts sharing a 1600-token prefix share its full
// blocks in the prefix cache, whatever else differs; a prompt with other tokens shares nothing.
TEST(OnlineEngine, ServedPromptsShareCachedBlocksByTheirTokens) {
  OnlineEngine e(small_config());
  auto prompt = [](uint64_t prefix_seed, uint64_t suffix_seed) {
    auto k = std::make_shared<std::vector<uint64_t>>();
    for (uint64_t i = 0; i < 1600; ++i) k->push_back(prefix_seed * 1000003 + i);
    for (uint64_t i = 0; i < 100; ++i) k->push_back(suffix_seed * 7919 + i + 1);
    return k;
  };
  const int32_t a = e.add(0.0, 1700, 4, 11, 0, 0, -1, prompt(1, 1));
  e.advance(0.0, nullptr);
  drain(e);
  const int32_t b = e.add(10.0, 1700, 4, 12, 0, 0, -1, prompt(1, 2));
  const int32_t c = e.add(10.0, 1700, 4, 13, 0, 0, -1, prompt(2, 3));
  e.advance(10.0, nullptr);
  drain(e);
  EXPECT_EQ(e.request(a).prefix_hit_tokens, 0);
  EXPECT_EQ(e.request(b).prefix_hit_tokens, 1600);  // 100 full 16-token blocks of the shared prefix
  EXPECT_EQ(e.request(c).prefix_hit_tokens, 0);     // another prefix: no false hits
  const auto s = e.sample(0, 11.0);
  EXPECT_EQ(*s.prefix_cache_hits_total, 1600.0);
}

}  // namespace llmtriage::sim
