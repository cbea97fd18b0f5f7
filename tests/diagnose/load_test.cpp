#include <gtest/gtest.h>

#include "analyzer_fixture.h"

namespace llmtriage::diagnose {
namespace {

using testing::RuleCase;
using S = LayerVerdict::State;

const RuleCase kLoadCases[] = {
    {"nothing", {}, {}, {}, {}, S::not_judged},
    {"input_grew_16x", {{"input_len_mean", 5000}, {"ttft_p50_s", 4}}, {{"input_len_mean", 300}, {"ttft_p50_s", 0.5}},
     {Symptom::ttft_spike}, {"input_length_shift"}, S::at_fault},
    {"input_within_ratio", {{"input_len_mean", 360}}, {{"input_len_mean", 300}}, {Symptom::ttft_spike}, {}, S::cleared},
    {"output_grew", {{"output_len_mean", 900}}, {{"output_len_mean", 300}}, {Symptom::throughput_low}, {"output_length_shift"}, S::at_fault},
    {"rate_doubled", {{"request_rate", 20}}, {{"request_rate", 10}}, {Symptom::ttft_spike}, {"request_rate_increase"}, S::at_fault},
    {"rate_up_a_little", {{"request_rate", 12}}, {{"request_rate", 10}}, {Symptom::ttft_spike}, {}, S::cleared},
    {"max_tokens_changed", {{"max_tokens_mode", 64}, {"max_tokens_mode_share", 0.9}}, {{"max_tokens_mode", 512}, {"max_tokens_mode_share", 0.95}},
     {Symptom::throughput_low}, {"sampling_params_changed"}, S::at_fault},
    {"drawn_caps_have_no_meaningful_mode", {{"max_tokens_mode", 400}, {"max_tokens_mode_share", 0.8}, {"input_len_mean", 300}},
     {{"max_tokens_mode", 137}, {"max_tokens_mode_share", 0.01}, {"input_len_mean", 300}}, {Symptom::throughput_low}, {}, S::cleared},
    {"temperature_changed", {{"temperature_mean", 0}, {"input_len_mean", 300}}, {{"temperature_mean", 0.7}, {"input_len_mean", 300}},
     {Symptom::output_quality}, {"sampling_params_changed"}, S::at_fault},
    {"one_token", {{"one_token_output_share", 0.9}}, {}, {Symptom::throughput_low}, {"one_token_outputs"}, S::at_fault},
    {"max_tokens_cut", {{"output_len_max_share", 0.8}, {"max_tokens_mode", 256}}, {}, {Symptom::output_quality},
     {"default_max_tokens_cutoff"}, S::at_fault},
    {"max_tokens_pinned_by_benchmark", {{"output_len_max_share", 1}, {"max_tokens_mode", 256}, {"ignore_eos_share", 1}}, {},
     {}, {}, S::cleared},
    {"tiny_cap_is_deliberate", {{"output_len_max_share", 1}, {"max_tokens_mode", 8}}, {}, {}, {}, S::cleared},
    {"prefix_defeated", {{"prefix_cache_hit_rate", 0.05}, {"input_len_mean", 2000}}, {{"prefix_cache_hit_rate", 0.8}, {"input_len_mean", 2050}},
     {Symptom::ttft_spike}, {"prefix_defeated_by_varying_prefix"}, S::at_fault},
    {"prefix_drop_with_longer_prompts_is_a_length_shift", {{"prefix_cache_hit_rate", 0.05}, {"input_len_mean", 6000}},
     {{"prefix_cache_hit_rate", 0.8}, {"input_len_mean", 2000}}, {Symptom::ttft_spike}, {"input_length_shift"}, S::at_fault},
    {"prefix_partly_lost_over_replicas_is_routing_first", {{"prefix_cache_hit_rate", 0.3}, {"input_len_mean", 2000}, {"replicas", 4}},
     {{"prefix_cache_hit_rate", 0.8}, {"input_len_mean", 2000}}, {Symptom::ttft_spike}, {"prefix_defeated_by_varying_prefix"}, S::at_fault},
    {"prefix_drop_with_caching_switched_off_is_not_the_prompts",
     {{"prefix_cache_hit_rate", 0.0}, {"input_len_mean", 2000}, {"prefix_caching", 0}},
     {{"prefix_cache_hit_rate", 0.8}, {"input_len_mean", 2000}}, {Symptom::ttft_spike}, {}, S::cleared},
    {"more_at_the_server_than_clients_sent_with_timeouts_is_retries_not_load",
     {{"request_rate", 30}, {"records_request_rate", 10}, {"timeout_error_share", 0.9}},
     {{"request_rate", 10}, {"records_request_rate", 10}}, {Symptom::timeout_or_stream_break}, {}, S::cleared},
    // Another caller's requests: the server's prompt histogram counts 191 where the client sent 150.
    {"other_traffic_the_records_do_not_hold",
     {{"server_requests", 191}, {"records_count", 150}, {"server_input_len_mean", 1929}, {"input_len_mean", 1500}},
     {{"server_requests", 150}, {"records_count", 150}, {"server_input_len_mean", 1500}, {"input_len_mean", 1500}},
     {Symptom::ttft_spike}, {"unrecorded_traffic"}, S::at_fault},
    {"steady_other_traffic_is_not_the_change",
     {{"server_requests", 191}, {"records_count", 150}, {"input_len_mean", 1500}},
     {{"server_requests", 188}, {"records_count", 150}, {"input_len_mean", 1500}}, {Symptom::ttft_spike}, {}, S::cleared},
    {"a_scrape_window_wider_than_the_run_catches_a_few",
     {{"server_requests", 156}, {"records_count", 150}, {"input_len_mean", 1500}},
     {{"server_requests", 150}, {"records_count", 150}, {"input_len_mean", 1500}}, {Symptom::ttft_spike}, {}, S::cleared},
    {"requests_the_client_gave_up_on_are_its_own",
     {{"server_requests", 300}, {"records_count", 150}, {"input_len_mean", 1500}, {"timeout_error_share", 0.6}},
     {{"server_requests", 150}, {"records_count", 150}, {"input_len_mean", 1500}}, {Symptom::timeout_or_stream_break}, {}, S::cleared},
    {"prefix_low_in_baseline_too", {{"prefix_cache_hit_rate", 0.02}}, {{"prefix_cache_hit_rate", 0.1}}, {Symptom::ttft_spike}, {}, S::cleared},
};

class LoadRules : public ::testing::TestWithParam<RuleCase> {};

TEST_P(LoadRules, FindsWhatTheTableSays) {
  const RuleCase& c = GetParam();
  const auto r = testing::run_rule(analyze_load, c);
  EXPECT_EQ(testing::ids(r), c.expect_ids);
  EXPECT_EQ(r.verdict.state, c.state) << to_string(r.verdict.state) << " " << r.verdict.why;
  testing::expect_well_formed(r, Layer::load);
}

INSTANTIATE_TEST_SUITE_P(Table, LoadRules, ::testing::ValuesIn(kLoadCases), [](const auto& info) { return std::string(info.param.name); });

TEST(Load, InputShiftStatesTheShareOfTheTtftRiseItExplains) {
  RuleCase c{"x", {{"input_len_mean", 600}, {"ttft_p50_s", 2.0}, {"chunked_prefill", 0}},
             {{"input_len_mean", 300}, {"ttft_p50_s", 0.5}}, {Symptom::ttft_spike}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c);
  ASSERT_EQ(r.findings.size(), 1u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.severity, Severity::warning);
  EXPECT_EQ(f.symptom, Symptom::ttft_spike);
  ASSERT_TRUE(f.explains);
  EXPECT_NEAR(*f.explains, (2.0 - 1) / (4.0 - 1), 1e-12);  // 2x prompts, 4x TTFT
  ASSERT_FALSE(f.remedies.empty());
  EXPECT_EQ(f.remedies[0].change, "enable-chunked-prefill");
}

TEST(Load, LengthAndRateShareTheGrowthOfPrefillWork) {
  // 16x longer prompts and 4x the requests: prefill work x64, of which the length is ln16/ln64 = 2/3.
  RuleCase c{"x", {{"input_len_mean", 4800}, {"request_rate", 8}}, {{"input_len_mean", 300}, {"request_rate", 2}},
             {Symptom::ttft_spike}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c);
  ASSERT_EQ(testing::ids(r), (std::set<std::string>{"input_length_shift", "request_rate_increase"}));
  for (const auto& f : r.findings) {
    ASSERT_TRUE(f.explains) << f.id;
    EXPECT_NEAR(*f.explains, f.id == "input_length_shift" ? 2.0 / 3 : 1.0 / 3, 1e-9) << f.id;
  }
}

TEST(Load, RateIncreaseCitesTheQueueGrowingFromEmpty) {
  // A healthy period's queue is usually empty: 0 -> 95 waiting must still be cited.
  RuleCase c{"x", {{"request_rate", 8}, {"waiting", 95}}, {{"request_rate", 4}, {"waiting", 0}}, {Symptom::ttft_spike}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c);
  ASSERT_EQ(r.findings.size(), 1u);
  bool cites_waiting = false;
  for (const auto& e : r.findings[0].evidence) cites_waiting |= e.indicator == "waiting";
  EXPECT_TRUE(cites_waiting);
}

TEST(Load, WithoutBaselineSaysSoButJudgesArtifacts) {
  RuleCase c{"x", {{"input_len_mean", 600}, {"one_token_output_share", 0.95}}, {}, {}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c);
  EXPECT_EQ(testing::ids(r), std::set<std::string>{"one_token_outputs"});
  EXPECT_NE(r.verdict.why.find("not judged against a baseline"), std::string::npos);
  EXPECT_EQ(r.findings[0].severity, Severity::info);  // no reported symptom it explains
}

TEST(Load, SeveralReplicasLowerTheVaryingPrefixConfidence) {
  RuleCase one{"x", {{"prefix_cache_hit_rate", 0.05}, {"input_len_mean", 2000}}, {{"prefix_cache_hit_rate", 0.8}, {"input_len_mean", 2000}},
               {Symptom::ttft_spike}, {}, S::at_fault};
  RuleCase four = one;
  four.now["replicas"] = 4;
  four.now["prefix_cache_hit_rate"] = 0.3;  // partly lost: routing fits as well
  const auto a = testing::run_rule(analyze_load, one);
  const auto b = testing::run_rule(analyze_load, four);
  ASSERT_EQ(a.findings.size(), 1u);
  ASSERT_EQ(b.findings.size(), 1u);
  EXPECT_GT(a.findings[0].confidence, b.findings[0].confidence);
  EXPECT_EQ(b.findings[0].severity, Severity::info);  // the scheduling layer's routing rule leads
  four.now["prefix_cache_hit_rate"] = 0.01;             // gone everywhere: no routing does that
  EXPECT_EQ(testing::run_rule(analyze_load, four).findings[0].severity, Severity::warning);
}

TEST(Load, BenchmarkMixShareIsQuantifiedWithTheSimulator) {
  DiagnoseInput in;
  in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  in.now.deployment.gpu = "H100-SXM";
  in.now.deployment.settings.max_model_len = 32768;
  RuleCase c{"x", {{"output_tokens_per_s", 2000}, {"expected_output_tokens_per_s", 12000}, {"input_len_mean", 6000}, {"output_len_mean", 150}},
             {}, {Symptom::throughput_low}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c, in);
  ASSERT_EQ(testing::ids(r), std::set<std::string>{"benchmark_mix_mismatch"});
  const auto& f = r.findings[0];
  ASSERT_TRUE(f.explains);
  EXPECT_GT(*f.explains, 0.3);
  EXPECT_LE(*f.explains, 1.0);
  EXPECT_EQ(f.remedies[0].basis, "sim");
  testing::expect_well_formed(r, Layer::load);
  // The same shortfall on a decode-heavy mix is not explained by the mix.
  RuleCase d = c;
  d.now["input_len_mean"] = 200;
  d.now["output_len_mean"] = 800;
  EXPECT_TRUE(testing::run_rule(analyze_load, d, in).findings.empty());
  // Without a model and GPU the ratio comes from a reference deployment and an assumed benchmark
  // mix, said so, with less confidence.
  const auto ref = testing::run_rule(analyze_load, c);
  ASSERT_EQ(testing::ids(ref), std::set<std::string>{"benchmark_mix_mismatch"});
  EXPECT_LT(ref.findings[0].confidence, f.confidence);
  EXPECT_NE(ref.findings[0].evidence.back().text.find("assumed benchmark mix"), std::string::npos);
  EXPECT_TRUE(testing::run_rule(analyze_load, d).findings.empty());
}

TEST(Load, OneTokenOutputsCarryTheBenchmarkShortfallShare) {
  RuleCase c{"x", {{"output_tokens_per_s", 9}, {"expected_output_tokens_per_s", 310}, {"input_len_mean", 650}, {"output_len_mean", 1},
                   {"one_token_output_share", 1}},
             {}, {Symptom::throughput_low}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_load, c);
  ASSERT_EQ(testing::ids(r), std::set<std::string>{"one_token_outputs"});
  ASSERT_TRUE(r.findings[0].explains);
  EXPECT_GT(*r.findings[0].explains, 0.5);
  EXPECT_EQ(r.findings[0].severity, Severity::warning);
}

TEST(Load, InferredMaxTokensCapIsLessCertain) {
  RuleCase given{"x", {{"output_len_max_share", 1}, {"max_tokens_mode", 16}, {"max_tokens_inferred", 0}}, {}, {Symptom::output_quality}, {}, S::at_fault};
  RuleCase inferred = given;
  inferred.now["max_tokens_inferred"] = 1;
  const auto a = testing::run_rule(analyze_load, given);
  const auto b = testing::run_rule(analyze_load, inferred);
  ASSERT_EQ(testing::ids(b), std::set<std::string>{"default_max_tokens_cutoff"});
  EXPECT_GT(a.findings[0].confidence, b.findings[0].confidence);
  EXPECT_EQ(b.findings[0].remedies[0].from, "unset (default 16)");
}

}  // namespace
}  // namespace llmtriage::diagnose
