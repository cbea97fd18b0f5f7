// The fleet report's text: numbers in a readable unit, label values from the store escaped.
#include "fleet/render.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(FleetRender, NumbersReadableAndLabelsEscaped) {
  fleet::FleetEvidence fe;
  fe.step_s = 15;
  fe.start_s = 0;
  fe.end_s = 1800;
  fleet::FleetDiagnosis d;
  fleet::ReplicaDiagnosis r;
  r.replica = "pod-1\x1b[2J";
  r.differs = true;
  r.indicators.now["request_rate"] = {1234.4, "metrics"};
  r.indicators.now["prefix_cache_hit_rate"] = {0.052, "metrics"};
  r.notes = {"note with \x07 bell"};
  d.replicas.push_back(r);
  fleet::RunInfo info;
  info.stats.store_seconds = 0.25;
  const std::string t = fleet::render_text(fe, d, info);
  EXPECT_NE(t.find("(step 15 s)"), std::string::npos) << t;
  EXPECT_NE(t.find("250 ms waiting on the store"), std::string::npos) << t;
  EXPECT_NE(t.find("  pod-1\\x1b[2J: prefix-cache hit 5.2%; 1234 req/s"), std::string::npos) << t;
  EXPECT_NE(t.find("note with \\x07 bell"), std::string::npos) << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos) << t;
  EXPECT_EQ(t.find("e+0"), std::string::npos) << t;
}
