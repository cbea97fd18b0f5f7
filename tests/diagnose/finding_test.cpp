#include <gtest/gtest.h>

#include <cmath>

#include "diagnose/finding.h"

namespace llmtriage::diagnose {
namespace {

TEST(Finding, NamesRoundTrip) {
  for (Layer l : all_layers()) EXPECT_EQ(layer_from_string(to_string(l)), l);
  for (Symptom s : all_symptoms()) EXPECT_EQ(symptom_from_string(to_string(s)), s);
  EXPECT_EQ(all_layers().size(), 5u);
  EXPECT_EQ(all_symptoms().size(), 7u);
  EXPECT_FALSE(layer_from_string("hardware"));
  EXPECT_FALSE(symptom_from_string("slow"));
  EXPECT_STREQ(to_string(Layer::scheduling_capacity), "scheduling_capacity");
  EXPECT_STREQ(to_string(Symptom::timeout_or_stream_break), "timeout_or_stream_break");
  EXPECT_STREQ(to_string(Severity::critical), "critical");
  EXPECT_STREQ(to_string(LayerVerdict::State::not_judged), "not_judged");
}

TEST(Finding, ExitCodeIsOneOnlyForWarningOrAbove) {
  Report r;
  EXPECT_EQ(r.exit_code(), 0);
  Finding f;
  f.severity = Severity::info;
  r.findings.push_back(f);
  EXPECT_EQ(r.exit_code(), 0);
  f.severity = Severity::warning;
  r.findings.push_back(f);
  EXPECT_EQ(r.exit_code(), 1);
  f.severity = Severity::critical;
  r.findings = {f};
  EXPECT_EQ(r.exit_code(), 1);
}

}  // namespace
}  // namespace llmtriage::diagnose

// A remedy's numbers decide whether it is a fix: better by more than the prediction's tolerance
// improves; within it is no effect (688 ms -> 688 ms); worse by more than it is worse.
TEST(Finding, RemedyOutcomeFromItsPredictedNumbers) {
  using llmtriage::diagnose::Outcome;
  using llmtriage::diagnose::PredictedValue;
  using llmtriage::diagnose::Remedy;
  Remedy r{"max-num-seqs", "256", "128", "", "sim", 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::not_predicted);
  r.predicted = PredictedValue{"P99 TTFT", "s", 12.4, 1.9, false, 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::improves);
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 0.688, false, 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::no_effect);
  // -13% with the what-if's +-30%: a predicted gain (the two runs differ only by the change); the
  // uncertainty is stated beside it. Within 5% it is no effect.
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 0.6, false, 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::improves);
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 0.67, false, 0.3};  // -2.6%
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::no_effect);
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 0.75, false, 0.3};  // +9%: worse, never first
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::worse);
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 2.1, false, 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::worse);
  r.predicted = PredictedValue{"P99 TTFT", "s", 0.688, INFINITY, false, 0.3};  // the engine would not start
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::worse);
  r.predicted = PredictedValue{"output throughput", "tok/s", 1000, 1500, true, 0.1};
  EXPECT_EQ(llmtriage::diagnose::outcome(r), Outcome::improves);
  EXPECT_TRUE(llmtriage::diagnose::listed_as_fix(r));
  r.kind = Remedy::Kind::precaution;
  EXPECT_FALSE(llmtriage::diagnose::listed_as_fix(r));
  // A what-if that does not reproduce the observed state (uncertainty widened to 100%) neither
  // vetoes nor promotes: +10% P99 TTFT from a simulated 2.86 s when 9.12 s was observed.
  Remedy w{"enable-chunked-prefill", "false", "true", "", "sim", 1.0};
  w.predicted = PredictedValue{"P99 TTFT", "s", 2.86, 3.15, false, 0.3};
  EXPECT_EQ(llmtriage::diagnose::outcome(w), Outcome::not_predicted);
  EXPECT_TRUE(llmtriage::diagnose::listed_as_fix(w));
  w.predicted = PredictedValue{"P99 TTFT", "s", 2.86, INFINITY, false, 0.3};  // still: it would not start
  EXPECT_EQ(llmtriage::diagnose::outcome(w), Outcome::worse);
}

TEST(Finding, OrderRemediesPutsPrecautionsFirstAndNilOrWorseLast) {
  using llmtriage::diagnose::PredictedValue;
  using llmtriage::diagnose::Remedy;
  Remedy nil{"a", "1", "2", "", "sim", 0.3};
  nil.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 0.688, false, 0.3};
  Remedy worse{"b", "1", "2", "", "sim", 0.3};
  worse.predicted = PredictedValue{"P99 TTFT", "s", 0.688, 2.0, false, 0.3};
  Remedy good{"c", "1", "2", "", "sim", 0.3};
  good.predicted = PredictedValue{"P99 TTFT", "s", 12.4, 1.9, false, 0.3};
  Remedy qual{"d", "1", "2", "", "qualitative", std::nullopt};
  Remedy keep{"capture before restart", "", "keep x", "", "qualitative", std::nullopt};
  keep.kind = Remedy::Kind::precaution;
  std::vector<Remedy> v = {worse, nil, good, keep, qual};
  llmtriage::diagnose::order_remedies(v);
  std::string order;
  for (const auto& r : v) order += r.change.substr(0, 1);
  EXPECT_EQ(order, "ccdab");  // precaution ("capture..."), good, qualitative, nil, worse
}
