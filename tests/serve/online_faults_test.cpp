// sim::OnlineEngine's router and the faults it plays itself (src/sim/online.h): prefix affinity
// and no_affinity, long_prompt_burst, gateway_timeout and client_retries.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sim/online.h"
#include "sim/scenario.h"

namespace llmtriage::sim {

namespace {

SimConfig faults_config(int replicas, RouterKind router, std::vector<Fault> faults = {}, int64_t max_num_seqs = 256) {
  Scenario s;
  s.deployment.kv_cache_tokens = 100000;
  s.deployment.max_model_len = 4096;
  s.config.replicas = replicas;
  auto st = resolve(s);
  EXPECT_TRUE(st.ok());
  s.config.router = router;
  s.config.faults = std::move(faults);
  s.config.scheduler.max_num_seqs = max_num_seqs;
  return s.config;
}

// 1600 tokens of prefix `p` then 100 of suffix `q`, as served prompts carry them.
std::shared_ptr<const std::vector<uint64_t>> prompt(uint64_t p, uint64_t q) {
  auto k = std::make_shared<std::vector<uint64_t>>();
  for (uint64_t i = 0; i < 1600; ++i) k->push_back(p * 1000003 + i);
  for (uint64_t i = 0; i < 100; ++i) k->push_back(q * 7919 + i + 1);
  return k;
}

// Advances in small steps to `until`, collecting every report.
std::vector<StepReport> run_to(OnlineEngine& e, double until, double dt = 0.05) {
  std::vector<StepReport> out;
  for (double t = 0; t <= until + 1e-9; t += dt)
    e.advance(t, [&](const StepReport& r) {
      out.push_back(r);
      out.back().plan = nullptr;  // points into the engine's scratch
    });
  EXPECT_EQ(e.check_invariants(), "");
  return out;
}

Fault fault(FaultKind k, double start, double end) {
  Fault f;
  f.kind = k;
  f.start_s = start;
  f.end_s = end;
  return f;
}

}  // namespace

TEST(OnlineFaults, PrefixAffinityKeepsASharedPrefixOnOneReplicaUntilNoAffinity) {
  OnlineEngine e(faults_config(2, RouterKind::prefix_affinity, {fault(FaultKind::no_affinity, 100, 200)}));
  std::set<int> before, during, after;
  for (int i = 0; i < 8; ++i) before.insert(e.request(e.add(i * 1.0, 1700, 4, 0, 0, 0, -1, prompt(1, i))).replica);
  for (int i = 0; i < 8; ++i) during.insert(e.request(e.add(100 + i * 1.0, 1700, 4, 0, 0, 0, -1, prompt(1, 100 + i))).replica);
  for (int i = 0; i < 8; ++i) after.insert(e.request(e.add(200 + i * 1.0, 1700, 4, 0, 0, 0, -1, prompt(1, 200 + i))).replica);
  EXPECT_EQ(before.size(), 1u);
  EXPECT_EQ(during.size(), 2u);  // round robin while the fault is on
  EXPECT_EQ(after, before);      // the ring maps the prefix where it did
  // Prompts with other prefixes spread over the ring.
  std::set<int> others;
  for (uint64_t p = 2; p < 40; ++p) others.insert(e.request(e.add(300, 1700, 4, 0, 0, 0, -1, prompt(p, 1))).replica);
  EXPECT_EQ(others.size(), 2u);
}

TEST(OnlineFaults, OtherRoutersSpreadLoad) {
  for (RouterKind k : {RouterKind::round_robin, RouterKind::least_outstanding, RouterKind::random}) {
    OnlineEngine e(faults_config(3, k));
    std::vector<int> per(3, 0);
    for (int i = 0; i < 30; ++i) ++per[static_cast<size_t>(e.request(e.add(0, 100, 50, 0, 0, 0, -1, prompt(1, 1))).replica)];
    for (int n : per) EXPECT_GT(n, 3) << to_string(k);
    if (k != RouterKind::random) {
      for (int n : per) EXPECT_EQ(n, 10) << to_string(k);
    }
  }
}

TEST(OnlineFaults, LongPromptBurstInjectsSeededGhostArrivalsThatTakeTheEngine) {
  Fault b = fault(FaultKind::long_prompt_burst, 2, 12);
  b.rate_rps = 10;
  b.input_len = 2000;
  b.output_len = 8;
  OnlineEngine e(faults_config(1, RouterKind::least_outstanding, {b}));
  run_to(e, 30);
  // Poisson at 10/s for 10 s: 100 expected (+-4 sigma = 40).
  EXPECT_GT(e.burst_count(), 60u);
  EXPECT_LT(e.burst_count(), 140u);
  EXPECT_EQ(e.num_requests(), e.burst_count());
  for (size_t i = 0; i < e.num_requests(); ++i) {
    const auto& r = e.request(static_cast<int32_t>(i));
    EXPECT_EQ(e.origin(static_cast<int32_t>(i)), Origin::burst);
    EXPECT_GE(r.arrival_s, 2.0);
    EXPECT_LT(r.arrival_s, 12.0);
    EXPECT_EQ(r.state, ReqState::finished);
  }
  const auto s = e.sample(0, 30);
  EXPECT_EQ(*s.prompt_tokens_total, 2000.0 * static_cast<double>(e.burst_count()));
  OnlineEngine again(faults_config(1, RouterKind::least_outstanding, {b}));
  run_to(again, 30);
  EXPECT_EQ(again.burst_count(), e.burst_count());  // seeded
}

TEST(OnlineFaults, GatewayTimeoutCutsRequestsWithoutAFirstTokenAndRetriesComeBackAsGhosts) {
  Fault gw = fault(FaultKind::gateway_timeout, 0, 1e300);
  gw.timeout_s = 1.0;
  Fault rt = fault(FaultKind::client_retries, 0, 1e300);
  rt.max_retries = 2;
  rt.backoff_s = 0.5;
  // One sequence at a time: a long request holds the engine, the next ones wait past the budget.
  OnlineEngine e(faults_config(1, RouterKind::least_outstanding, {gw, rt}, 1));
  const int32_t holder = e.add(0, 100, 2000);
  const int32_t waiter = e.add(0, 100, 10);
  const int32_t c1 = e.add(0, 100, 10);
  const int32_t c2 = e.add(0, 100, 10, 0, 0, 0, -1, {}, c1);  // n = 2: one client request
  const auto reports = run_to(e, 8);
  std::vector<int32_t> cut;
  for (const auto& r : reports) cut.insert(cut.end(), r.timed_out.begin(), r.timed_out.end());
  EXPECT_EQ(e.request(holder).state, ReqState::running);  // its first token came in time
  EXPECT_EQ(e.request(waiter).state, ReqState::aborted);
  EXPECT_EQ(e.request(c1).state, ReqState::aborted);
  EXPECT_EQ(e.request(c2).state, ReqState::aborted);
  EXPECT_DOUBLE_EQ(e.request(waiter).finish_s, 1.0);
  // Each cut request retries twice (at +0.5 s, each cut again 1 s later): 3 originals + 6 copies.
  EXPECT_EQ(e.retry_count(), 6u);
  EXPECT_EQ(e.timed_out_count(), 9u);
  EXPECT_EQ(cut.size(), 9u);
  EXPECT_EQ(e.num_requests(), 10u);
  for (size_t i = 4; i < e.num_requests(); ++i) {
    EXPECT_EQ(e.origin(static_cast<int32_t>(i)), Origin::retry);
    EXPECT_GE(e.request(static_cast<int32_t>(i)).attempt, 1);
    EXPECT_EQ(e.request(static_cast<int32_t>(i)).state, ReqState::aborted);
  }
  EXPECT_EQ(e.replica(0).outstanding, 1);  // only the holder
}

TEST(OnlineFaults, GatewayTimeoutSparesAClientRequestOnceOneChoiceHasATokenAndRequestsBeforeTheFault) {
  Fault gw = fault(FaultKind::gateway_timeout, 5, 1e300);
  gw.timeout_s = 1.0;
  OnlineEngine e(faults_config(1, RouterKind::least_outstanding, {gw}, 1));
  const int32_t early = e.add(0, 100, 10);  // arrived before the fault: no deadline
  e.add(0, 100, 4000 - 101);                // holds the engine for long
  run_to(e, 4);
  const int32_t a = e.add(4.9, 100, 10);
  const int32_t late = e.add(5.5, 100, 10);
  const auto reports = run_to(e, 10);
  EXPECT_EQ(e.request(early).state, ReqState::finished);
  EXPECT_NE(e.request(a).state, ReqState::aborted);
  EXPECT_EQ(e.request(late).state, ReqState::aborted);
  EXPECT_EQ(e.timed_out_count(), 1u);
}

}  // namespace llmtriage::sim
