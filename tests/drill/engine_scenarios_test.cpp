// The bundled real-engine scenarios parse and each names its planted cause; the parser refuses
// what a drill could not run.
#include <gtest/gtest.h>

#include <set>

#include "drill/engine_scenarios.h"

namespace llmtriage::drill {
namespace {

TEST(EngineScenarios, BundledFileNamesEachPlantedCause) {
  const auto& all = engine_scenarios();
  ASSERT_TRUE(all.ok()) << all.error().message();
  std::set<std::string> names, layers;
  for (const auto& s : *all) {
    names.insert(s.name);
    layers.insert(s.planted_layer);
    EXPECT_FALSE(s.planted_finding.empty()) << s.name;
    EXPECT_TRUE(s.knobs.count(s.planted_knob)) << s.name << ": the planted knob is one of its knobs";
  }
  EXPECT_TRUE(names.count("too-few-slots"));
  EXPECT_TRUE(names.count("prompts-over-slot-context"));
  EXPECT_TRUE(names.count("cpu-starved"));
  EXPECT_TRUE(layers.count("scheduling_capacity"));
  EXPECT_TRUE(layers.count("operator_hardware"));
  auto u = find_engine_scenario("too-many-slots");
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().message().find("too-few-slots"), std::string::npos) << u.error().message();
}

TEST(EngineScenarios, RefusesScenariosADrillCannotRun) {
  EXPECT_FALSE(parse_engine_scenarios("not json", "f").ok());
  EXPECT_FALSE(parse_engine_scenarios(R"({"scenarios":[{"name":"x","knobs":{"parallel":1,"ctx":0,"threads":1},"planted":{"layer":"load"}}]})", "f").ok());
  EXPECT_FALSE(parse_engine_scenarios(R"({"scenarios":[{"name":"x","knobs":{"parallel":1,"ctx":64,"threads":1}}]})", "f").ok());
  auto e = parse_engine_scenarios(R"({"scenarios":[{"name":"x","knobs":{"parallel":-1,"ctx":64,"threads":1},"planted":{"layer":"load"}}]})", "f");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message().find("knobs.parallel"), std::string::npos) << e.error().message();
}

}  // namespace
}  // namespace llmtriage::drill
