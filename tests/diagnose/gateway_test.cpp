#include <gtest/gtest.h>

#include "analyzer_fixture.h"

namespace llmtriage::diagnose {
namespace {

using testing::RuleCase;
using S = LayerVerdict::State;
const auto T = Symptom::timeout_or_stream_break;

const RuleCase kGatewayCases[] = {
    {"nothing", {}, {}, {}, {}, S::not_judged},
    {"observed_timeout_below_p99", {{"gateway_timeout_s", 5}, {"ttft_p99_s", 8}}, {}, {T}, {"gateway_timeout_below_ttft_p99"}, S::at_fault},
    {"observed_timeout_above_p99", {{"gateway_timeout_s", 30}, {"ttft_p99_s", 8}}, {}, {T}, {}, S::cleared},
    {"records_timeouts_cluster", {{"records_count", 1000}, {"timeout_error_share", 0.1}, {"timeout_cluster_s", 5}, {"timeout_cluster_share", 0.9}},
     {}, {T}, {"gateway_timeout_below_ttft_p99"}, S::at_fault},
    {"records_timeouts_scattered", {{"records_count", 1000}, {"timeout_error_share", 0.1}, {"timeout_cluster_s", 5}, {"timeout_cluster_share", 0.2}},
     {}, {T}, {}, S::cleared},
    {"rare_timeouts", {{"records_count", 1000}, {"timeout_error_share", 0.001}, {"timeout_cluster_s", 5}, {"timeout_cluster_share", 1}},
     {}, {T}, {}, S::cleared},
    {"retry_storm_observed", {{"client_retry_rate", 0.3}}, {}, {T}, {"client_retry_storm"}, S::at_fault},
    {"retry_storm_from_ids", {{"records_count", 100}, {"retry_duplicate_share", 0.25}}, {}, {Symptom::ttft_spike}, {"client_retry_storm"}, S::at_fault},
    {"stream_breaks", {{"records_count", 100}, {"stream_break_share", 0.05}}, {}, {T}, {"stream_breaks"}, S::at_fault},
    {"clean_records", {{"records_count", 100}, {"timeout_error_share", 0}, {"stream_break_share", 0}, {"retry_duplicate_share", 0}}, {}, {}, {}, S::cleared},
    {"streams_cut_at_the_proxy_deadline", {{"records_count", 30}, {"gateway_timeout_s", 300}, {"ttft_p99_s", 399}, {"stream_break_share", 0.27},
      {"stream_break_cluster_s", 301}, {"stream_break_cluster_share", 1}}, {}, {T}, {"gateway_timeout_below_ttft_p99"}, S::at_fault},
    {"streams_cut_at_one_duration_without_a_reading", {{"records_count", 30}, {"stream_break_share", 0.27}, {"stream_break_cluster_s", 60},
      {"stream_break_cluster_share", 0.9}}, {}, {T}, {"gateway_timeout_below_ttft_p99"}, S::at_fault},
    {"streams_broken_at_random", {{"records_count", 30}, {"stream_break_share", 0.27}, {"stream_break_cluster_s", 60},
      {"stream_break_cluster_share", 0.2}}, {}, {T}, {"stream_breaks"}, S::at_fault},
    {"timeouts_and_retries", {{"records_count", 3000}, {"timeout_error_share", 0.2}, {"timeout_cluster_s", 5}, {"timeout_cluster_share", 1}, {"retry_duplicate_share", 0.15}},
     {}, {T}, {"gateway_timeout_below_ttft_p99", "client_retry_storm"}, S::at_fault},
};

class GatewayRules : public ::testing::TestWithParam<RuleCase> {};

TEST_P(GatewayRules, FindsWhatTheTableSays) {
  const RuleCase& c = GetParam();
  const auto r = testing::run_rule(analyze_gateway, c);
  EXPECT_EQ(testing::ids(r), c.expect_ids);
  EXPECT_EQ(r.verdict.state, c.state) << r.verdict.why;
  testing::expect_well_formed(r, Layer::gateway_client);
  if (c.state == S::cleared) {
    EXPECT_FALSE(r.verdict.evidence.empty());
  }
  if (c.state == S::not_judged) {
    EXPECT_FALSE(r.verdict.why.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Table, GatewayRules, ::testing::ValuesIn(kGatewayCases), [](const auto& info) { return std::string(info.param.name); });

TEST(Gateway, TimeoutRemedyMovesTheBudgetAboveTheTail) {
  RuleCase c{"x", {{"gateway_timeout_s", 5}, {"ttft_p99_s", 8}, {"timeout_error_share", 0.1}, {"error_rate", 0.2}}, {}, {T}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_gateway, c);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.severity, Severity::warning);
  EXPECT_DOUBLE_EQ(*f.explains, 0.5);  // half of the errors are these timeouts
  ASSERT_FALSE(f.remedies.empty());
  EXPECT_EQ(f.remedies[0].change, "gateway timeout");
  EXPECT_EQ(f.remedies[0].from, "5 s");
  EXPECT_EQ(f.remedies[0].to, "12 s");  // max(2 x 5, 1.5 x 8)
}

TEST(Gateway, RetryShareIsTheShareOfTheOfferedLoad) {
  // retry_duplicate_share and client_retry_rate are already shares of all requests: a quarter of
  // the records being retries means retries are a quarter of the load (not 0.25 / 1.25).
  RuleCase c{"x", {{"records_count", 100}, {"retry_duplicate_share", 0.25}}, {}, {Symptom::ttft_spike}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_gateway, c);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.id, "client_retry_storm");
  ASSERT_TRUE(f.explains);
  EXPECT_DOUBLE_EQ(*f.explains, 0.25);
  ASSERT_FALSE(f.remedies.empty());
  EXPECT_EQ(f.remedies[0].predicted_effect, "offered load down by up to 25%");
}

}  // namespace
}  // namespace llmtriage::diagnose
