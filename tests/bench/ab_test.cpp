#include "bench/ab.h"

#include <gtest/gtest.h>

#include "core/rng.h"

using namespace llmtriage;
using namespace llmtriage::bench;

namespace {
RunSample sample(double ttft_ms, double spread, uint64_t seed, int n = 400) {
  RunSample s;
  s.label = "run" + std::to_string(seed);
  s.request_set_hash = "fnv1a64:1";
  s.mode = "rate";
  s.realized_rate = 10;
  s.duration_s = 40;
  s.trials = 1;
  core::Rng rng(seed);
  for (int i = 0; i < n; ++i) {
    s.ttft_s.push_back((ttft_ms + spread * rng.normal()) / 1e3);
    s.tpot_s.push_back(0.02 + 0.001 * rng.normal());
    s.e2e_s.push_back(1 + 0.05 * rng.normal());
    s.output_tokens.push_back(100);
  }
  return s;
}
const MetricDiff& metric(const AbResult& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.metric == name) return m;
  throw std::runtime_error("no metric " + name);
}
}  // namespace

TEST(Ab, DetectsABetterTtftAndNoChangeElsewhere) {
  auto a = sample(200, 20, 1), b = sample(150, 20, 2);
  auto r = compare_runs(a, b, {});
  ASSERT_TRUE(r.verdict_given);
  EXPECT_EQ(metric(r, "ttft_p50_ms").verdict, "better");
  EXPECT_LT(metric(r, "ttft_p50_ms").hi, 0);
  EXPECT_EQ(metric(r, "tpot_p50_ms").verdict, "no significant change");
  EXPECT_EQ(metric(r, "output_throughput_tok_s").verdict, "no significant change");
  auto worse = compare_runs(b, a, {});
  EXPECT_EQ(metric(worse, "ttft_p50_ms").verdict, "worse");
}

TEST(Ab, SeededBootstrapIsReproducible) {
  auto a = sample(200, 20, 1), b = sample(190, 20, 2);
  auto r1 = compare_runs(a, b, {.seed = 5}), r2 = compare_runs(a, b, {.seed = 5});
  EXPECT_EQ(metric(r1, "ttft_p99_ms").lo, metric(r2, "ttft_p99_ms").lo);
  EXPECT_EQ(metric(r1, "ttft_p99_ms").hi, metric(r2, "ttft_p99_ms").hi);
}

TEST(Ab, RefusesDifferentRequestSetsAndLoads) {
  auto a = sample(200, 20, 1), b = sample(150, 20, 2);
  b.request_set_hash = "fnv1a64:2";
  b.realized_rate = 10.5;
  auto r = compare_runs(a, b, {});
  EXPECT_FALSE(r.verdict_given);
  ASSERT_EQ(r.refusals.size(), 2u);
  EXPECT_NE(r.refusals[0].find("request sets differ"), std::string::npos);
  EXPECT_NE(r.refusals[1].find("realized loads differ"), std::string::npos);
  b.request_set_hash = a.request_set_hash;
  b.realized_rate = 10.1;  // within the 2% tolerance
  EXPECT_TRUE(compare_runs(a, b, {}).verdict_given);
}

TEST(Ab, OneConfigVariableAtATime) {
  auto a = sample(200, 20, 1), b = sample(150, 20, 2);
  a.config = {{"max_num_seqs", "256"}, {"block_size", "16"}};
  b.config = {{"max_num_seqs", "128"}, {"block_size", "16"}};
  auto one = compare_runs(a, b, {});
  EXPECT_TRUE(one.verdict_given);
  EXPECT_EQ(one.config_diff.size(), 1u);
  b.config["block_size"] = "32";
  b.config["chunked_prefill"] = "on";
  auto multi = compare_runs(a, b, {});
  EXPECT_FALSE(multi.verdict_given);
  EXPECT_EQ(multi.config_diff.size(), 3u);
  EXPECT_NE(multi.refusals[0].find("block_size (16 -> 32)"), std::string::npos);
  EXPECT_NE(multi.refusals[0].find("chunked_prefill ((unset) -> on)"), std::string::npos);
  auto forced = compare_runs(a, b, {.allow_multi = true});
  EXPECT_TRUE(forced.verdict_given);
  ASSERT_FALSE(forced.warnings.empty());
  EXPECT_NE(forced.warnings[0].find("--allow-multi"), std::string::npos);
}

TEST(Ab, BootstrapIntervalCoversTheTrueDifference) {
  // Identical distributions: the CI of the p50 difference contains 0.
  auto a = sample(200, 20, 11), b = sample(200, 20, 12);
  auto [lo, hi] = bootstrap_diff(a.ttft_s, b.ttft_s, 0.5, 0, 0, 2000, 0.95, 1);
  EXPECT_LT(lo, 0);
  EXPECT_GT(hi, 0);
}
