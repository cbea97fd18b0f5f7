// Load-layer summaries and the baseline comparison: definitions, shift detection, no false
// alarms on two samples of the same distribution.
#include <gtest/gtest.h>

#include <random>

#include "ingest/records_summary.h"

using namespace llmtriage;

namespace {
std::vector<core::RequestRecord> synth(int n, double rate, double in_mu, double temp, unsigned seed,
                                       double err_p = 0.0) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> gap(rate);
  std::lognormal_distribution<double> in(in_mu, 0.5);
  std::uniform_int_distribution<int> out(50, 150);
  std::bernoulli_distribution err(err_p);
  std::vector<core::RequestRecord> v;
  double t = 0;
  for (int i = 0; i < n; ++i) {
    core::RequestRecord r;
    r.id = std::to_string(i);
    r.arrival_s = t;
    t += gap(rng);
    r.input_tokens = static_cast<int64_t>(in(rng)) + 1;
    r.output_tokens = out(rng);
    r.ttft_s = 0.05 + 0.0001 * static_cast<double>(*r.input_tokens);
    r.e2e_s = *r.ttft_s + 0.02 * static_cast<double>(*r.output_tokens - 1);
    r.temperature = temp;
    if (err(rng)) {
      r.status = core::RequestStatus::error;
      r.error_category = "http_503";
    }
    v.push_back(r);
  }
  return v;
}
}  // namespace

TEST(RecordsSummary, TpotIsVllmsDefinitionAndSkipsSingleTokenOutputs) {
  core::RequestRecord a;
  a.ttft_s = 0.1;
  a.e2e_s = 1.1;
  a.output_tokens = 11;  // (1.1 − 0.1) / 10 = 0.1
  core::RequestRecord b = a;
  b.output_tokens = 1;   // no TPOT
  core::RequestRecord c = a;
  c.status = core::RequestStatus::error;
  c.error_category = "timeout";
  auto s = ingest::summarize_records({a, b, c});
  EXPECT_EQ(s.tpot_s.stats.count, 1u);
  EXPECT_DOUBLE_EQ(s.tpot_s.stats.p50, 0.1);
  EXPECT_EQ(s.ttft_s.stats.count, 2u);  // the failed request's latency is not a measurement
  EXPECT_EQ(s.errors_by_category.at("timeout"), 1);
  EXPECT_EQ(s.ok, 2);
}

TEST(RecordsSummary, RateWindowsHistogramAndSamplingMix) {
  auto v = synth(2000, 10.0, 6.0, 0.7, 1);
  auto s = ingest::summarize_records(v, {.window_s = 10});
  ASSERT_TRUE(s.mean_rate_rps.has_value());
  EXPECT_NEAR(*s.mean_rate_rps, 10.0, 0.6);
  EXPECT_NEAR(*s.interarrival_cv, 1.0, 0.1);  // Poisson arrivals
  int64_t total = 0;
  for (auto c : s.input_tokens.histogram.counts) total += c;
  EXPECT_EQ(total, 2000);
  EXPECT_EQ(s.input_tokens.histogram.edges.size(), s.input_tokens.histogram.counts.size() + 1);
  EXPECT_EQ(s.sampling.at("temperature").at("0.7"), 2000);
  EXPECT_EQ(s.sampling.count("top_p"), 0u);  // no record states it
  double sum = 0;
  for (const auto& w : s.rate) sum += w.rate_rps;
  EXPECT_NEAR(sum / static_cast<double>(s.rate.size()), 10.0, 1.0);
}

TEST(RecordsSummary, ArrivalRateIsNotInventedWhenTheSourceHasNoTimes) {
  auto v = synth(100, 10.0, 6.0, 0.7, 1);
  for (auto& r : v) r.arrival_s = 0;
  auto s = ingest::summarize_records(v, {.unavailable = {"arrival_s"}});
  EXPECT_FALSE(s.arrival_known);
  EXPECT_FALSE(s.mean_rate_rps.has_value());
  EXPECT_TRUE(s.rate.empty());
}

TEST(RecordsSummary, KsStatistic) {
  EXPECT_DOUBLE_EQ(ingest::ks_statistic({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(ingest::ks_statistic({1, 2, 3}, {4, 5, 6}), 1.0);
  EXPECT_NEAR(ingest::ks_statistic({1, 2, 3, 4}, {3, 4, 5, 6}), 0.5, 1e-12);
  EXPECT_NEAR(ingest::ks_critical(1000, 1000), 1.628 * std::sqrt(2.0 / 1000), 1e-3);
}

TEST(RecordsSummary, SameDistributionDifferentSeedIsNotAChange) {
  auto b = ingest::summarize_records(synth(3000, 10.0, 6.0, 0.7, 1));
  auto n = ingest::summarize_records(synth(3000, 10.0, 6.0, 0.7, 2));
  auto c = ingest::compare_summaries(b, n);
  EXPECT_FALSE(c.any_change()) << c.findings.front();
}

TEST(RecordsSummary, LongerPromptsFasterArrivalsNewSamplingAndErrorsAreNamed) {
  auto b = ingest::summarize_records(synth(3000, 10.0, 6.0, 0.7, 1));
  auto n = ingest::summarize_records(synth(3000, 20.0, 6.7, 0.0, 2, 0.05));
  auto c = ingest::compare_summaries(b, n);
  ASSERT_TRUE(c.any_change());
  auto has = [&](const std::string& w) {
    for (const auto& f : c.findings) if (f.find(w) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("input_tokens shifted")) ;
  EXPECT_TRUE(has("arrival rate changed"));
  EXPECT_TRUE(has("sampling parameter temperature"));
  EXPECT_TRUE(has("error rate changed"));
  EXPECT_FALSE(has("output_tokens shifted"));
  const auto& in = c.shifts[0];
  EXPECT_EQ(in.metric, "input_tokens");
  EXPECT_NEAR(*in.p50_ratio, std::exp(0.7), 0.15);  // lognormal median ratio e^(Δμ)
  EXPECT_NEAR(*c.rate_ratio, 2.0, 0.2);
  EXPECT_EQ(c.findings.front().rfind("load: ", 0), 0u);  // load layer first
}
