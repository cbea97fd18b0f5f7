// The simulated drill's flow (drill/sim_drill.h) and its report (drill/sim_drill_report.h) on the
// case that needs no server: a deployment that cannot start. The HTTP runs are covered end to end
// by drill_slow_test.cpp through the binary.
#include <gtest/gtest.h>

#include <vector>

#include "drill/sim_drill.h"
#include "drill/sim_drill_report.h"

namespace llmtriage::drill {
namespace {

DrillCase startup_oom() {
  auto c = load_case("startup-oom");
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message());
  return c.ok() ? std::move(c.value()) : DrillCase{};
}

TEST(SimDrill, StartupFailureIsDiagnosedWithoutARunAndTheRemedyReResolved) {
  std::vector<SimDrillStep> steps;
  std::string streamed;
  SimDrillOptions o;
  o.on_step = [&](SimDrillStep s, const SimDrillResult& r) {
    steps.push_back(s);
    streamed += sim_drill_step_text(r, s);
    return core::ok_status();
  };
  auto r = run_sim_drill(startup_oom(), o);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(steps, (std::vector<SimDrillStep>{SimDrillStep::started, SimDrillStep::startup}));
  EXPECT_TRUE(r->startup_failed());
  EXPECT_FALSE(r->load);
  EXPECT_FALSE(r->a);
  EXPECT_TRUE(r->matched) << (r->report.findings.empty() ? "no finding" : r->report.findings[0].id);
  ASSERT_TRUE(r->remedy);
  EXPECT_NE(r->remedy->chosen.applied, "");
  EXPECT_EQ(r->remedy->starts, r->remedy->scenario.startup_error.empty());

  // What was printed step by step is the whole text.
  const std::string text = sim_drill_text(*r);
  EXPECT_EQ(streamed, text);
  EXPECT_NE(text.find("== llmtriage drill: startup-oom =="), std::string::npos);
  EXPECT_NE(text.find("[A] The simulated engine does not start:"), std::string::npos);
  EXPECT_NE(text.find("[B] after " + r->remedy->chosen.applied), std::string::npos);

  const auto j = sim_drill_json(*r);
  EXPECT_EQ(j.at("scenario"), "startup-oom");
  EXPECT_EQ(j.at("startup_error"), r->dcase.scenario.startup_error);
  EXPECT_EQ(j.at("diagnosis_matches_scenario"), true);
  EXPECT_EQ(j.at("expected").at("id"), r->dcase.expected->id);
  EXPECT_EQ(j.at("remedy").at("applied"), r->remedy->chosen.applied);
  EXPECT_EQ(j.at("remedy").at("starts"), r->remedy->starts);
  EXPECT_TRUE(j.contains("remedies_skipped"));
  EXPECT_FALSE(j.contains("run_a"));
}

TEST(SimDrill, NoRemedyStopsAfterTheDiagnosis) {
  SimDrillOptions o;
  o.apply_remedy = false;
  auto r = run_sim_drill(startup_oom(), o);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_FALSE(r->remedy);
  EXPECT_EQ(sim_drill_text(*r).find("[B]"), std::string::npos);
  EXPECT_FALSE(sim_drill_json(*r).contains("remedies_skipped"));
}

TEST(SimDrill, AStepsErrorStopsTheDrillWithIt) {
  std::vector<SimDrillStep> steps;
  SimDrillOptions o;
  o.on_step = [&](SimDrillStep s, const SimDrillResult&) -> core::Status {
    steps.push_back(s);
    return core::make_error(core::ErrorKind::input, "out/a", "a folder that can be written", "read-only");
  };
  auto r = run_sim_drill(startup_oom(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "out/a");
  EXPECT_EQ(steps, (std::vector<SimDrillStep>{SimDrillStep::started}));
}

TEST(SimDrill, FaultsLineNamesEachFaultAndItsWindow) {
  auto c = load_case("tpot-high-throttling");
  ASSERT_TRUE(c.ok()) << c.error().message();
  const std::string line = faults_line(c->scenario);
  EXPECT_NE(line.find("clock_throttle x"), std::string::npos) << line;
  EXPECT_EQ(faults_line(startup_oom().scenario), "none (the settings are the fault)");
}

}  // namespace
}  // namespace llmtriage::drill
