// Every bundled scenario (except the -fixed ones, which are the remedies) run offline in the
// simulator, its run turned into Evidence as the drill does (drill/sim_case.h), diagnosed: the top
// finding must be the fault the scenario injected, in its layer, with its symptom ("diagnosis" block).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "drill/sim_case.h"
#include "diagnose/diagnose.h"

namespace llmtriage::drill {
namespace {

std::vector<std::string> scenario_names() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(LLMTRIAGE_SOURCE_DIR) + "/data/scenarios")) {
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".json" && !stem.ends_with("-fixed")) out.push_back(stem);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string describe(const diagnose::Report& r) {
  std::string s;
  for (size_t i = 0; i < r.findings.size() && i < 5; ++i) {
    const auto& f = r.findings[i];
    s += fmt::format("\n  #{} {} ({}, {}, {}, confidence {:.2f})", i + 1, f.id, diagnose::to_string(f.layer),
                     diagnose::to_string(f.symptom), diagnose::to_string(f.severity), f.confidence);
  }
  if (r.findings.empty()) s = "\n  (no findings)";
  for (const auto& l : r.layers)
    s += fmt::format("\n  layer {}: {}{}", diagnose::to_string(l.layer), diagnose::to_string(l.state),
                     l.why.empty() ? "" : " (" + l.why + ")");
  return s;
}

diagnose::Report diagnose_offline(const DrillCase& c) {
  if (!c.scenario.startup_error.empty()) return diagnose::diagnose(startup_input(c, /*what_if=*/false));
  auto run = sim::run_simulation(c.scenario.config);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message());
  if (!run.ok()) return {};
  return diagnose::diagnose(diagnose_input(c, offline_run_data(*run), /*what_if=*/false));
}

class ScenarioDiagnosis : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioDiagnosis, TopFindingIsTheInjectedFault) {
  auto c = load_case(GetParam());
  ASSERT_TRUE(c.ok()) << c.error().message();
  ASSERT_TRUE(c->expected) << GetParam() << ": the scenario file has no \"diagnosis\" block";
  const auto report = diagnose_offline(*c);
  ASSERT_FALSE(report.findings.empty()) << GetParam() << ": no finding; the diagnosis said:" << describe(report);
  const auto& top = report.findings.front();
  EXPECT_EQ(top.id, c->expected->id) << GetParam() << ":" << describe(report);
  EXPECT_EQ(diagnose::to_string(top.layer), std::string(diagnose::to_string(c->expected->layer)))
      << GetParam() << ":" << describe(report);
  EXPECT_EQ(diagnose::to_string(top.symptom), std::string(diagnose::to_string(c->expected->symptom)))
      << GetParam() << ":" << describe(report);
  // A located cause comes with something to do about it.
  EXPECT_FALSE(top.remedies.empty()) << GetParam() << ": " << top.id << " has no remedy";
}

INSTANTIATE_TEST_SUITE_P(Bundled, ScenarioDiagnosis, ::testing::ValuesIn(scenario_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(ScenarioDiagnosisCorpus, EveryScenarioIsCovered) {
  // The -fixed variants are remedies, not faults; everything else must carry its expected diagnosis.
  EXPECT_GE(scenario_names().size(), 10u);
  for (const auto& n : scenario_names()) {
    auto c = load_case(n);
    ASSERT_TRUE(c.ok()) << c.error().message();
    EXPECT_TRUE(c->expected.has_value()) << n;
  }
}

}  // namespace
}  // namespace llmtriage::drill
