// The drill's path (drill/sim_path.h) without a server: the objective and its distance, what a
// run measures, and which steps the path takes (the plan's, else the first applicable remedy).
#include "drill/sim_path.h"

#include <gtest/gtest.h>

#include <cmath>

namespace llmtriage::drill {
namespace {

diagnose::Report report_with_plan() {
  diagnose::Report rep;
  diagnose::Finding f;
  f.id = "input_length_shift";
  f.remedies = {{"capacity benchmark input length", "300", "5000", "re-measure", "qualitative"},
                {"replicas", "2", "3", "proportional", "qualitative"}};
  rep.findings = {f};
  rep.plan.computed = true;
  rep.plan.finding_id = f.id;
  rep.plan.objective = {2.0, 0.1, "baseline", "P99 TTFT <= 2 s, P99 TPOT <= 100 ms"};
  diagnose::PlanStep s;
  s.change = "replicas";
  s.from = "2";
  s.to = "4";
  s.sizing = "the smallest count that meets the objective";
  s.after.ttft_p99_s = 0.32;
  s.after.tpot_p99_s = 0.035;
  s.met = true;
  rep.plan.steps = {s};
  return rep;
}

TEST(SimPath, DistanceIsTheWorstPartOfTheObjective) {
  DrillObjective o{2.0, 0.1, "x"};
  EXPECT_DOUBLE_EQ(o.distance(1.0, 0.05), 0.5);
  EXPECT_DOUBLE_EQ(o.distance(1.0, 0.2), 2.0);   // TPOT twice its bound
  EXPECT_DOUBLE_EQ(o.distance(126, 0.099), 63);  // TTFT far off
  DrillObjective ttft_only{2.0, 0, "x"};
  EXPECT_DOUBLE_EQ(ttft_only.distance(1.0, 9.0), 0.5);  // TPOT not part of it
  DrillObjective none;
  EXPECT_FALSE(none.known());
  EXPECT_DOUBLE_EQ(none.distance(3.0, 0.2), 3.0);  // no objective: the P99 TTFT itself
}

TEST(SimPath, ObjectiveFlagWinsOverThePlans) {
  const auto rep = report_with_plan();
  SimDrillOptions o;
  auto plan = drill_objective(rep, o);
  EXPECT_DOUBLE_EQ(plan.ttft_p99_s, 2.0);
  EXPECT_DOUBLE_EQ(plan.tpot_p99_s, 0.1);
  EXPECT_NE(plan.source.find("the plan's"), std::string::npos);
  o.objective_ttft_p99_s = 0.5;
  auto flag = drill_objective(rep, o);
  EXPECT_DOUBLE_EQ(flag.ttft_p99_s, 0.5);
  EXPECT_DOUBLE_EQ(flag.tpot_p99_s, 0);
  EXPECT_EQ(flag.source, "--objective");
  EXPECT_FALSE(drill_objective(diagnose::Report{}, SimDrillOptions{}).known());
}

TEST(SimPath, MeasureReadsP99sAndThroughputOfTheSample) {
  bench::RunSample s;
  for (int i = 1; i <= 100; ++i) {
    s.ttft_s.push_back(i * 0.01);
    s.tpot_s.push_back(0.02);
    s.output_tokens.push_back(100);
  }
  s.duration_s = 10;
  RunData d;
  d.records.resize(104);
  for (size_t i = 100; i < 104; ++i) d.records[i].status = core::RequestStatus::error;
  const Measured m = measure(s, d);
  EXPECT_NEAR(m.ttft_p99_s, 0.99, 0.011);
  EXPECT_DOUBLE_EQ(m.tpot_p99_s, 0.02);
  EXPECT_DOUBLE_EQ(m.output_tok_s, 1000);
  EXPECT_EQ(m.sent, 104u);
  EXPECT_EQ(m.failed, 4u);
}

TEST(SimPath, FailuresAboveOnePercentMissTheObjective) {
  // A gateway timeout hides the tail: the completed requests' P99 looks fine while 4% never got a
  // first token. Above 1% failed, the P99 over every request is a failure.
  DrillObjective o{2.0, 0.1, "x"};
  Measured m;
  m.ttft_p99_s = 1.0;
  m.tpot_p99_s = 0.05;
  m.sent = 100;
  m.failed = 4;
  EXPECT_TRUE(std::isinf(o.distance(m)));
  m.failed = 1;
  EXPECT_DOUBLE_EQ(o.distance(m), 0.5);  // at the share the P99 allows: the completed requests' P99s
  m.failed = 0;
  m.sent = 0;
  EXPECT_DOUBLE_EQ(o.distance(m), 0.5);
}

TEST(SimPath, TheTopFindingsOwnFixesComeBeforeThePlansSteps) {
  // timeouts-retry-storm: the gateway gives up after 5 s and clients retry at once. The plan sizes
  // capacity; the located cause's own fixes (the timeout, the retry policy) are taken first.
  auto c = load_case("timeouts-retry-storm");
  ASSERT_TRUE(c.ok()) << c.error().message();
  auto rep = report_with_plan();
  rep.findings[0].id = "gateway_timeout_below_ttft_p99";
  rep.findings[0].remedies = {{"gateway timeout", "5 s", "60 s", "", "qualitative"},
                              {"client retry policy", "immediate retry", "exponential backoff with jitter", "", "qualitative"},
                              {"replicas", "1", "2", "", "qualitative"},
                              {"client max_tokens", "none", "512", "", "qualitative"}};
  rep.plan.finding_id = rep.findings[0].id;
  std::string source;
  std::vector<std::string> skipped;
  const auto steps = path_steps(rep, c->scenario, source, skipped);
  EXPECT_EQ(source, "plan");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].change.change, "gateway timeout");
  EXPECT_FALSE(steps[0].predicted);
  EXPECT_EQ(steps[1].change.change, "replicas");
  EXPECT_EQ(steps[1].change.to, "4");  // the plan's, not the finding's
  EXPECT_EQ(steps[1].index, 2u);
  // The retries are in the request set every step sends; the client setting is not the simulator's.
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_NE(skipped[0].find("client retry policy"), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[1].find("client max_tokens"), std::string::npos) << skipped[1];
  // Without the plan naming this finding, only the plan's steps.
  rep.plan.finding_id = "something_else";
  skipped.clear();
  EXPECT_EQ(path_steps(rep, c->scenario, source, skipped).size(), 1u);
}

TEST(SimPath, ThePlansStepsAreThePathWithTheirPredictions) {
  auto c = load_case("long-context-launch");
  ASSERT_TRUE(c.ok()) << c.error().message();
  std::string source;
  std::vector<std::string> skipped;
  const auto steps = path_steps(report_with_plan(), c->scenario, source, skipped);
  EXPECT_EQ(source, "plan");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].index, 1u);
  EXPECT_EQ(steps[0].change.change, "replicas");
  EXPECT_EQ(steps[0].change.to, "4");  // the plan's size, not the finding's proportional 3
  EXPECT_EQ(steps[0].finding_id, "input_length_shift");
  ASSERT_TRUE(steps[0].predicted);
  EXPECT_DOUBLE_EQ(steps[0].predicted->ttft_p99_s, 0.32);
  EXPECT_TRUE(steps[0].predicted_met);
  EXPECT_TRUE(steps[0].applied.empty());  // planned, not yet taken
}

TEST(SimPath, WithoutAPlanTheFirstApplicableRemedyIsTheOneStep) {
  auto c = load_case("long-context-launch");
  ASSERT_TRUE(c.ok()) << c.error().message();
  auto rep = report_with_plan();
  rep.plan = {};
  std::string source;
  std::vector<std::string> skipped;
  const auto steps = path_steps(rep, c->scenario, source, skipped);
  EXPECT_EQ(source, "remedy");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].change.change, "replicas");
  EXPECT_EQ(steps[0].change.to, "3");
  ASSERT_EQ(skipped.size(), 1u);  // the benchmark re-run is not a setting of the simulator
  EXPECT_NE(skipped[0].find("capacity benchmark input length"), std::string::npos) << skipped[0];
}


// The plan spent short of the objective says which step fell short and by how much its
// measurement missed its prediction.
TEST(SimPath, AShortfallNamesTheStepItsPredictionAndItsMeasurement) {
  SimDrillResult r;
  r.objective = DrillObjective{2.0, 0.1, "x"};
  DrillStep st;
  st.index = 1;
  st.change = diagnose::Remedy{"replicas", "1", "18", "", "sim"};
  st.predicted = diagnose::PlanState{};
  st.predicted->ttft_p99_s = 0.613;
  st.predicted->tpot_p99_s = 0.087;
  st.predicted_met = true;
  st.sample = bench::RunSample{};
  st.before = Measured{2472.6, 0.155, 100};
  st.after = Measured{2.93, 0.087, 900};
  st.kept = true;
  r.steps = {st};
  r.steps_done = 1;
  const std::string why = shortfall_why(r);
  EXPECT_NE(why.find("step 1 (replicas 1 -> 18) was predicted to meet it"), std::string::npos) << why;
  EXPECT_NE(why.find("P99 TTFT 2.93 s"), std::string::npos) << why;
  EXPECT_NE(why.find("4.8x the predicted TTFT"), std::string::npos) << why;
  EXPECT_NE(why.find("misses the objective by 1.5x"), std::string::npos) << why;
  r.steps_done = 0;
  EXPECT_EQ(shortfall_why(r), "");
}

}  // namespace
}  // namespace llmtriage::drill
