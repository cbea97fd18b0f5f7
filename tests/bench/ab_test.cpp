#include "bench/ab.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "bench/bench_config.h"
#include "bench/export.h"
#include "core/files.h"
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

namespace {
// One `bench --out` folder as the bench command writes it: --config from the flags, then the
// engine's vllm:cache_config_info labels from the first scrape.
std::string write_run(const std::string& dir, const std::string& config_flag, int num_gpu_blocks) {
  BenchFlags f;
  f.endpoint = "http://127.0.0.1:1";
  f.model = "m";
  f.num_requests = 4;
  f.rate = 2;
  f.seed = 7;
  f.config = config_flag;
  auto plan = plan_run(f);
  EXPECT_TRUE(plan) << plan.error().message();
  RunMeta meta = plan->meta;
  record_engine_info(meta, fmt::format("vllm:cache_config_info{{block_size=\"16\",cache_dtype=\"auto\","
                                       "enable_prefix_caching=\"True\",engine=\"0\",gpu_memory_utilization=\"0.9\","
                                       "num_gpu_blocks=\"{}\"}} 1.0\n", num_gpu_blocks));
  RunSummary s;
  s.realized_rate = 2;
  s.duration_s = 2;
  std::vector<BenchRecord> recs;
  EXPECT_TRUE(write_results(dir, s, meta, recs, {}));
  return dir;
}
}  // namespace

TEST(Ab, TheKvBlockCountIsAConsequenceNotAVariable) {
  // `ab --help`'s example: servers differing only in --max-num-seqs (256 vs 8). vLLM sizes its
  // KV pool after profiling with max-num-seqs dummy requests, so num_gpu_blocks differs too
  // (2386 vs 2510); that is what the setting did, not a second variable.
  const auto root = std::filesystem::temp_directory_path() / ("ab_test_" + std::to_string(::getpid()));
  const auto a_dir = write_run((root / "a").string(), "max_num_seqs=256", 2386);
  const auto b_dir = write_run((root / "b").string(), "max_num_seqs=8", 2510);
  auto a = load_run_sample({a_dir});
  auto b = load_run_sample({b_dir});
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->config.count("cache.num_gpu_blocks"), 0u);
  EXPECT_EQ(a->consequences.at("cache.num_gpu_blocks"), "2386");
  auto r = compare_runs(*a, *b, {});
  EXPECT_TRUE(r.verdict_given) << (r.refusals.empty() ? "" : r.refusals[0]);
  ASSERT_EQ(r.config_diff.size(), 1u);
  EXPECT_EQ(r.config_diff.begin()->first, "max_num_seqs");
  ASSERT_EQ(r.consequence_diff.size(), 1u);
  EXPECT_EQ(r.consequence_diff.at("cache.num_gpu_blocks"), (std::pair<std::string, std::string>{"2386", "2510"}));
  const std::string text = ab_text(r, *a, *b);
  EXPECT_EQ(text.find("NO VERDICT"), std::string::npos) << text;
  EXPECT_NE(text.find("cache.num_gpu_blocks"), std::string::npos) << text;
  EXPECT_EQ(ab_json(r, *a, *b)["consequence_diff"]["cache.num_gpu_blocks"]["b"], "2510");
  // The same runs without --config: no recorded setting differs, so the differing block count
  // is a warning that something unrecorded changed, still not a variable.
  const auto c_dir = write_run((root / "c").string(), "", 2386);
  const auto d_dir = write_run((root / "d").string(), "", 2510);
  auto r2 = compare_runs(*load_run_sample({c_dir}), *load_run_sample({d_dir}), {});
  EXPECT_TRUE(r2.verdict_given);
  EXPECT_TRUE(r2.config_diff.empty());
  ASSERT_FALSE(r2.warnings.empty());
  EXPECT_NE(r2.warnings[0].find("not recorded"), std::string::npos);
  std::filesystem::remove_all(root);
}

TEST(Ab, FoldersWrittenBeforeTheSplitReadTheBlockCountAsAConsequence) {
  const auto root = std::filesystem::temp_directory_path() / ("ab_old_" + std::to_string(::getpid()));
  write_run((root / "a").string(), "max_num_seqs=256", 2386);
  // Rewrite the summary as the older writer did: the block count under "config".
  auto j = *read_summary((root / "a").string());
  j["config"]["cache.num_gpu_blocks"] = j["consequences"]["cache.num_gpu_blocks"];
  j.erase("consequences");
  ASSERT_TRUE(core::write_file_atomic((root / "a" / "summary.json").string(), j.dump()));
  auto a = load_run_sample({(root / "a").string()});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->config.count("cache.num_gpu_blocks"), 0u);
  EXPECT_EQ(a->consequences.at("cache.num_gpu_blocks"), "2386");
  std::filesystem::remove_all(root);
}

TEST(Ab, BootstrapIntervalCoversTheTrueDifference) {
  // Identical distributions: the CI of the p50 difference contains 0.
  auto a = sample(200, 20, 11), b = sample(200, 20, 12);
  auto [lo, hi] = bootstrap_diff(a.ttft_s, b.ttft_s, 0.5, 0, 0, 2000, 0.95, 1);
  EXPECT_LT(lo, 0);
  EXPECT_GT(hi, 0);
}
