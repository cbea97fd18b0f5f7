#include <gtest/gtest.h>

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
