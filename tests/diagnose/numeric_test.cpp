#include <gtest/gtest.h>

#include "analyzer_fixture.h"

namespace llmtriage::diagnose {
namespace {

using testing::RuleCase;
using S = LayerVerdict::State;
const auto Q = Symptom::output_quality;

const RuleCase kNumericCases[] = {
    {"nothing", {}, {}, {}, {}, S::not_judged},
    {"truncation_in_logs_without_outputs", {{"truncation_events", 3}}, {}, {Q}, {"prompt_truncated_silently"}, S::at_fault},
    {"prompts_pinned_at_context", {{"inputs_at_max_model_len_share", 0.3}, {"max_model_len", 4096}}, {}, {Q}, {"prompt_truncated_silently"}, S::at_fault},
    {"no_truncation_no_outputs", {{"truncation_events", 0}}, {}, {Q}, {}, S::not_judged},
    {"template_markers", {{"outputs_count", 20}, {"template_marker_share", 0.5}, {"repetitive_output_share", 0}, {"garbled_output_share", 0}},
     {}, {Q}, {"chat_template_mismatch"}, S::at_fault},
    {"greedy_loops", {{"outputs_count", 20}, {"repetitive_output_share", 0.5}, {"temperature_mean", 0}}, {}, {Q}, {"repetitive_output"}, S::at_fault},
    {"quantized_and_looping", {{"outputs_count", 20}, {"repetitive_output_share", 0.5}, {"weights_quantized", 1}}, {}, {Q},
     {"quantization_mismatch"}, S::at_fault},
    {"fp8_kv_and_garbled", {{"outputs_count", 20}, {"garbled_output_share", 0.6}, {"kv_cache_quantized", 1}}, {}, {Q},
     {"quantization_mismatch"}, S::at_fault},
    {"garbled_unquantized_is_not_blamed_on_quantization", {{"outputs_count", 20}, {"garbled_output_share", 0.6}, {"weights_quantized", 0}}, {},
     {Q}, {}, S::cleared},
    {"clean_outputs", {{"outputs_count", 20}, {"template_marker_share", 0}, {"repetitive_output_share", 0.05}, {"garbled_output_share", 0}},
     {}, {Q}, {}, S::cleared},
};

class NumericRules : public ::testing::TestWithParam<RuleCase> {};

TEST_P(NumericRules, FindsWhatTheTableSays) {
  const RuleCase& c = GetParam();
  const auto r = testing::run_rule(analyze_numeric, c);
  EXPECT_EQ(testing::ids(r), c.expect_ids);
  EXPECT_EQ(r.verdict.state, c.state) << r.verdict.why;
  testing::expect_well_formed(r, Layer::numeric_parameter);
  for (const auto& f : r.findings) EXPECT_EQ(f.symptom, Symptom::output_quality);
}

INSTANTIATE_TEST_SUITE_P(Table, NumericRules, ::testing::ValuesIn(kNumericCases), [](const auto& info) { return std::string(info.param.name); });

TEST(Numeric, GreedyLoopsGetARepetitionPenaltyRemedy) {
  RuleCase c{"x", {{"outputs_count", 20}, {"repetitive_output_share", 0.5}, {"temperature_mean", 0}}, {}, {Q}, {}, S::at_fault};
  const auto r = testing::run_rule(analyze_numeric, c);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].remedies.at(0).change, "repetition_penalty");
  EXPECT_EQ(r.findings[0].remedies.at(0).basis, "qualitative");
}

TEST(Numeric, NotJudgedSaysOutputsAreMissing) {
  RuleCase c{"x", {}, {}, {Q}, {}, S::not_judged};
  const auto r = testing::run_rule(analyze_numeric, c);
  EXPECT_NE(r.verdict.why.find("--outputs"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::diagnose
