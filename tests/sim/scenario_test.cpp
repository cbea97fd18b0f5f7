// Every bundled scenario states a symptom and produces it; the long-context reference case is
// fixed by its remedies. Also the scenario parser's error paths.
#include "sim/scenario.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/files.h"

using namespace llmtriage::sim;

TEST(Scenarios, EveryBundledScenarioProducesTheSymptomItStates) {
  const auto names = bundled_scenarios();
  ASSERT_GE(names.size(), 10u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    auto s = load_scenario(name);
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_FALSE(s->symptom.empty());
    ASSERT_TRUE(!s->expect.empty() || !s->expect_startup_error.empty()) << "a scenario must say what it produces";
    if (!s->expect_startup_error.empty()) {
      EXPECT_NE(s->startup_error.find(s->expect_startup_error), std::string::npos) << s->startup_error;
      continue;
    }
    ASSERT_TRUE(s->startup_error.empty()) << s->startup_error;
    auto r = run_simulation(s->config);
    ASSERT_TRUE(r.ok()) << r.error().message();
    const auto failed = check_expectations(s->expect, r->summary.to_json());
    EXPECT_TRUE(failed.empty()) << [&] {
      std::string m;
      for (const auto& f : failed) m += f + "\n";
      return m;
    }();
  }
}

TEST(Scenarios, LongContextLaunchIsFixedBySmallerMaxLenChunkedPrefillAndMoreReplicas) {
  auto bad = load_scenario("long-context-launch"), good = load_scenario("long-context-launch-fixed");
  ASSERT_TRUE(bad.ok() && good.ok());
  auto a = run_simulation(bad->config), b = run_simulation(good->config);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->summary.ttft_ms.p99, 10 * b->summary.ttft_ms.p99);
  EXPECT_EQ(a->summary.completed, b->summary.completed);
}

TEST(Scenarios, ParserNamesTheFieldAndWhatItExpected) {
  auto r = parse_scenario(R"({"workload": {"arrival": "hourly"}})", "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("workload.arrival"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("hourly"), std::string::npos);
  r = parse_scenario(R"({"faults": [{"kind": "meteor"}]})", "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("clock_throttle"), std::string::npos);
  r = parse_scenario(R"({"calibration": {"mbu": 1.5}})", "x.json");
  ASSERT_FALSE(r.ok());
  r = parse_scenario(R"({"calibration": {"mbuu": 0.5}})", "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("mbuu"), std::string::npos);
  r = parse_scenario("{not json", "x.json");
  ASSERT_FALSE(r.ok());
  auto u = load_scenario("no-such-scenario");
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message().find("preemption-storm"), std::string::npos) << "lists the bundled names";
}

TEST(Scenarios, ExpectationPathsReachNestedSummaryFields) {
  nlohmann::json s = {{"ttft_ms", {{"p99", 1200.0}}}, {"preemptions", 3}};
  EXPECT_TRUE(check_expectations({{"ttft_ms.p99", ">", 1000}}, s).empty());
  EXPECT_EQ(check_expectations({{"ttft_ms.p99", "<", 1000}}, s).size(), 1u);
  EXPECT_EQ(check_expectations({{"ttft_ms.p42", ">", 0}}, s).size(), 1u);
  EXPECT_TRUE(check_expectations({{"preemptions", "==", 3}}, s).empty());
}
