// Whole runs: determinism, request accounting, record shapes, and the effect of each knob and
// fault in the direction a user would expect.
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include "sim/deployment.h"
#include "sim/scenario.h"

using namespace llmtriage::sim;

namespace {

SimConfig base(double rate, int64_t n, int64_t in, int64_t out, const std::string& engine = "vllm") {
  Scenario s;
  s.engine = engine;
  s.config.workload.rate_rps = rate;
  s.config.workload.arrival = std::isinf(rate) ? ArrivalKind::all_at_once : ArrivalKind::poisson;
  s.config.workload.num_requests = n;
  s.config.workload.input = LengthDist::fixed_len(in);
  s.config.workload.output = LengthDist::fixed_len(out);
  s.config.workload.seed = 7;
  s.deployment.max_model_len = 16384;
  EXPECT_TRUE(resolve(s).ok());
  return s.config;
}

Summary run(const SimConfig& c) {
  auto r = run_simulation(c);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? r->summary : Summary{};
}

}  // namespace

TEST(Simulation, SameSeedSameRunBitForBit) {
  auto c = base(20, 400, 800, 100);
  auto a = run_simulation(c), b = run_simulation(c);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->records.size(), b->records.size());
  for (size_t i = 0; i < a->records.size(); ++i) {
    EXPECT_EQ(a->records[i].arrival_s, b->records[i].arrival_s);
    EXPECT_EQ(a->records[i].ttft_s, b->records[i].ttft_s);
    EXPECT_EQ(a->records[i].e2e_s, b->records[i].e2e_s);
  }
  EXPECT_EQ(a->log_lines, b->log_lines);
  c.workload.seed = 8;
  auto d = run_simulation(c);
  ASSERT_TRUE(d.ok());
  EXPECT_NE(a->records[10].arrival_s, d->records[10].arrival_s);
}

TEST(Simulation, EveryRequestAccountedForWithConsistentRecords) {
  auto c = base(30, 300, 500, 64);
  auto r = run_simulation(c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->summary.completed, 300u);
  ASSERT_EQ(r->records.size(), 300u);
  for (const auto& rec : r->records) {
    ASSERT_TRUE(rec.ttft_s && rec.e2e_s && rec.output_tokens);
    EXPECT_EQ(*rec.output_tokens, 64);
    EXPECT_EQ(rec.chunk_times_s.size(), 64u);
    EXPECT_NEAR(rec.chunk_times_s.front(), *rec.ttft_s, 1e-4);
    EXPECT_NEAR(rec.chunk_times_s.back(), *rec.e2e_s, 1e-3);
    EXPECT_LE(*rec.ttft_s, *rec.e2e_s);
  }
  EXPECT_FALSE(r->samples.empty());
  EXPECT_EQ(r->samples.back().generation_tokens_total, 300.0 * 64);
  ASSERT_FALSE(r->log_lines.empty());
  EXPECT_NE(r->log_lines[0].find("GPU KV cache size:"), std::string::npos);
  bool stats = false;
  for (const auto& l : r->log_lines) stats |= l.find("Engine 000: Avg prompt throughput:") != std::string::npos;
  EXPECT_TRUE(stats);
}

TEST(Simulation, OfflineThroughputGrowsWithBatchAndTpotWithIt) {
  auto small = base(INFINITY, 600, 128, 128);
  small.scheduler.max_num_seqs = 16;
  auto big = small;
  big.scheduler.max_num_seqs = 256;
  const auto s = run(small), b = run(big);
  EXPECT_GT(b.output_throughput, 3 * s.output_throughput);
  EXPECT_GT(b.tpot_ms.median, s.tpot_ms.median);
}

TEST(Simulation, ChunkedPrefillCutsTheStallLongPromptsCauseInDecodes) {
  auto on = base(3, 300, 6000, 200);
  on.scheduler.max_num_batched_tokens = 2048;
  auto off = on;
  off.scheduler.chunked_prefill = false;
  off.scheduler.max_num_batched_tokens = 16384;
  const auto a = run(on), b = run(off);
  EXPECT_LT(a.itl_ms.p99, b.itl_ms.p99);
}

TEST(Simulation, MaxModelLenRejectsWithTheEnginesError) {
  auto c = base(10, 50, 4000, 200);
  c.max_model_len = 4096;
  auto r = run_simulation(c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->summary.rejected, 50u);
  EXPECT_EQ(r->records[0].error_category, "http_400");
  ASSERT_FALSE(r->events.empty());
  EXPECT_NE(r->events[0].text.find("maximum context length is 4096 tokens"), std::string::npos);
}

TEST(Simulation, PoolSmallerThanMaxModelLenRefusesToStartLikeVllm) {
  auto c = base(10, 10, 100, 10);
  c.num_blocks = 100;  // 1600 tokens < 16384
  auto r = run_simulation(c);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().detail.find("KV cache is needed, which is larger than the available KV cache memory"), std::string::npos);
}

TEST(Simulation, SmallPoolUnderLoadPreemptsAndNewestIsTheVictim) {
  auto c = base(50, 400, 2000, 400);
  c.num_blocks = 2000;  // 32k tokens: ~15 requests at full length
  c.max_model_len = 4096;
  const auto s = run(c);
  EXPECT_GT(s.preemptions, 10u);
  EXPECT_EQ(s.completed, 400u);
  EXPECT_GT(s.kv_usage_mean, 0.8);
}

TEST(Simulation, StallIsDetectedAndReportedNotSimulatedForever) {
  // The pool shrinks for good below what one request needs: the oldest request preempts itself
  // and can never be re-admitted. The run must stop and say so.
  auto c = base(INFINITY, 8, 1000, 2000);
  c.num_blocks = 400;  // 6400 tokens
  c.max_model_len = 6400;
  c.faults.push_back({FaultKind::kv_pool_shrink, 5.0, 1e300, 0.9});
  auto r = run_simulation(c);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->livelock);
  EXPECT_NE(r->livelock_detail.find("never be scheduled"), std::string::npos) << r->livelock_detail;
  EXPECT_LT(r->summary.sim_seconds, 3600);
}

TEST(Simulation, RepeatedPreemptionOfOneRequestIsReportedAsLivelock) {
  auto c = base(INFINITY, 200, 1000, 1500);
  c.num_blocks = 1000;
  c.max_model_len = 16000;
  c.livelock_preemptions = 1;  // the first request preempted once already counts
  auto r = run_simulation(c);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->livelock);
  EXPECT_NE(r->livelock_detail.find("preempted"), std::string::npos) << r->livelock_detail;
}

TEST(Simulation, ClockThrottleRaisesTpot) {
  auto c = base(5, 200, 500, 200);
  const auto a = run(c);
  c.faults.push_back({FaultKind::clock_throttle, 0, 1e9, 0.5});
  const auto b = run(c);
  EXPECT_GT(b.tpot_ms.median, 1.5 * a.tpot_ms.median);
}

TEST(Simulation, PrefixAffinityRouterKeepsCacheHitsThatRoundRobinLoses) {
  auto c = base(40, 800, 3000, 50);
  c.replicas = 4;
  c.workload.prefix_groups = 16;
  c.workload.shared_prefix_len = 2800;
  c.router = RouterKind::prefix_affinity;
  const auto aff = run(c);
  c.faults.push_back({FaultKind::no_affinity, 0, 1e9});
  const auto none = run(c);
  EXPECT_GT(aff.prefix_cache_hit_rate, none.prefix_cache_hit_rate + 0.02);
  EXPECT_LT(aff.ttft_ms.mean, none.ttft_ms.mean);
}

TEST(Simulation, GatewayTimeoutAndRetriesAmplifyTheQueue) {
  auto c = base(12, 600, 4000, 300);
  Fault gw;
  gw.kind = FaultKind::gateway_timeout;
  gw.timeout_s = 2.0;
  c.faults.push_back(gw);
  const auto no_retry = run(c);
  Fault rt;
  rt.kind = FaultKind::client_retries;
  rt.max_retries = 3;
  c.faults.push_back(rt);
  const auto retry = run(c);
  EXPECT_GT(no_retry.timed_out, 0u);
  EXPECT_GT(retry.retries, 0u);
  EXPECT_GT(retry.timed_out, no_retry.timed_out);
}

TEST(Simulation, ClosedLoopKeepsConcurrencyInFlight) {
  auto c = base(1, 300, 200, 100);
  c.workload.arrival = ArrivalKind::closed_loop;
  c.workload.concurrency = 32;
  const auto s = run(c);
  EXPECT_EQ(s.completed, 300u);
  EXPECT_LE(s.running_max, 32);
  EXPECT_GT(s.running_mean, 20);
}

TEST(Simulation, ReplicasScaleOfflineThroughput) {
  auto c = base(INFINITY, 2000, 128, 128);
  const auto one = run(c);
  c.replicas = 2;
  c.router = RouterKind::least_outstanding;
  const auto two = run(c);
  EXPECT_GT(two.output_throughput, 1.7 * one.output_throughput);
}

TEST(Simulation, TraceReplayKeepsArrivalsAndLengthsOfTheRecords) {
  auto c = base(1, 1, 100, 10);
  c.workload.arrival = ArrivalKind::trace;
  for (int i = 0; i < 50; ++i) {
    llmtriage::core::RequestRecord r;
    r.arrival_s = 100.0 + i * 0.5;  // shifted so the trace starts at 0
    r.input_tokens = 200 + i;
    r.output_tokens = 20;
    c.workload.trace.push_back(r);
  }
  auto r = run_simulation(c);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->records.size(), 50u);
  EXPECT_DOUBLE_EQ(r->records[0].arrival_s, 0.0);
  EXPECT_DOUBLE_EQ(r->records[49].arrival_s, 24.5);
  EXPECT_EQ(*r->records[49].input_tokens, 249);
  EXPECT_EQ(*r->records[49].output_tokens, 20);
  c.workload.trace[3].output_tokens.reset();
  auto bad = run_simulation(c);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("record 4"), std::string::npos) << bad.error().message();
}

TEST(Simulation, SlowReplicaAndPrefixCacheOffHurtWhereExpected) {
  auto c = base(20, 600, 1000, 100);
  c.replicas = 2;
  c.router = RouterKind::round_robin;
  const auto a = run(c);
  c.faults.push_back({FaultKind::slow_replica, 0, 1e9, 3.0, /*replica*/ 1});
  const auto b = run(c);
  EXPECT_GT(b.e2e_ms.p90, 1.5 * a.e2e_ms.p90);

  auto p = base(20, 600, 2000, 50);
  p.workload.prefix_groups = 4;
  p.workload.shared_prefix_len = 1800;
  const auto on = run(p);
  p.faults.push_back({FaultKind::prefix_cache_off, 0, 1e9});
  const auto off = run(p);
  EXPECT_GT(on.prefix_cache_hit_rate, 0.5);
  EXPECT_EQ(off.prefix_cache_hit_rate, 0.0);
  EXPECT_GT(off.ttft_ms.mean, on.ttft_ms.mean);
}

TEST(Simulation, GammaBurstinessBelowOneRaisesTheTail) {
  auto c = base(25, 1500, 800, 100);
  const auto poisson = run(c);
  c.workload.arrival = ArrivalKind::gamma;
  c.workload.burstiness = 0.2;
  const auto bursty = run(c);
  EXPECT_GT(bursty.ttft_ms.p99, poisson.ttft_ms.p99);
}
