// The remedy plan in the diagnosis report: the text "Plan" section after the top finding, the
// JSON `plan` object (every key documented in docs/diagnose-json.md, read back unchanged).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "report/diagnose_json.h"
#include "report/diagnose_text.h"
#include "report/sample_report.h"

namespace llmtriage::report {
namespace {

using nlohmann::json;

diagnose::Report with_plan() {
  diagnose::Report r = report_test::saturated_report();
  diagnose::RemedyPlan& p = r.plan;
  p.computed = true;
  p.finding_id = r.findings.front().id;
  p.objective = {2.0, 0.1, "slo", "P99 TTFT <= 2 s, P99 TPOT <= 100 ms (the SLO given)"};
  p.before = {2.1, 14.8, 0.068, 2297, 0.5, 2};
  diagnose::PlanStep a;
  a.change = "enable-chunked-prefill";
  a.from = "false";
  a.to = "true";
  a.after = {1.5, 9.0, 0.07, 2400, 1.1, 2};
  a.ttft_uncertainty = 0.3;
  a.tpot_uncertainty = a.throughput_uncertainty = 0.1;
  diagnose::PlanStep b;
  b.change = "replicas";
  b.from = "2";
  b.to = "3";
  b.sizing = "the smallest count that meets the objective (2 does not: P99 TTFT 9 s, P99 TPOT 70 ms)";
  b.after = {0.2, 0.4, 0.05, 2900, 6.0, 3};
  b.ttft_uncertainty = 0.3;
  b.tpot_uncertainty = b.throughput_uncertainty = 0.1;
  b.met = true;
  p.steps = {a, b};
  p.met = true;
  p.met_at_step = 2;
  p.simulations = 9;
  return r;
}

void collect_keys(const json& j, std::set<std::string>& out) {
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      out.insert(it.key());
      collect_keys(*it, out);
    }
  else if (j.is_array())
    for (const auto& x : j) collect_keys(x, out);
}

TEST(PlanReport, TextSaysTheStepsAndWhereTheObjectiveIsMet) {
  const std::string t = render_text(with_plan());
  const auto plan_at = t.find("Plan (simulator what-if");
  ASSERT_NE(plan_at, std::string::npos) << t;
  EXPECT_LT(t.find("Fix: one change at a time"), plan_at);  // after the top finding's fixes
  EXPECT_NE(t.find("1. enable-chunked-prefill false -> true"), std::string::npos) << t;
  EXPECT_NE(t.find("2. replicas 2 -> 3"), std::string::npos) << t;
  EXPECT_NE(t.find("objective met"), std::string::npos) << t;
  EXPECT_NE(t.find("The objective is met at step 2 (predicted)."), std::string::npos) << t;
  EXPECT_NE(t.find("sized: the smallest count"), std::string::npos) << t;
}

TEST(PlanReport, TextSaysWhyThereIsNoPlanAndByHowMuchOneFallsShort) {
  diagnose::Report r = report_test::saturated_report();
  r.plan.why_not = "no simulator what-if (--no-what-if): the plan is searched by the simulator";
  EXPECT_NE(render_text(r).find("Plan: none: no simulator what-if (--no-what-if)"), std::string::npos);
  r = with_plan();
  r.plan.steps.pop_back();
  r.plan.met = false;
  r.plan.met_at_step.reset();
  r.plan.shortfall = "P99 TTFT 9 s vs 2 s (4.50x)";
  EXPECT_NE(render_text(r).find("does not reach the objective: P99 TTFT 9 s vs 2 s (4.50x)"), std::string::npos);
}

TEST(PlanReport, JsonKeysDocumentedAndReadBack) {
  const json j = to_json(with_plan());
  ASSERT_TRUE(j["plan"].is_object());
  EXPECT_EQ(j["plan"]["met_at_step"], 2);
  EXPECT_EQ(j["plan"]["steps"][1]["to"], "3");
  EXPECT_EQ(to_json(report_test::saturated_report())["plan"], nullptr);  // no plan attempted
  std::ifstream in(std::string(LLMTRIAGE_SOURCE_DIR) + "/docs/diagnose-json.md");
  std::stringstream ss;
  ss << in.rdbuf();
  std::set<std::string> keys;
  collect_keys(j["plan"], keys);
  for (const auto& k : keys) EXPECT_NE(ss.str().find("`" + k + "`"), std::string::npos) << "undocumented key " << k;
  auto back = report_from_json(j, "test");
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(to_json(*back)["plan"], j["plan"]);
}

}  // namespace
}  // namespace llmtriage::report
