// fleet::fleet_picture (src/fleet/picture.h): a small synthetic fleet in, the small multiples'
// rows out — readings per step per replica, the analysis' outliers in their cells, the rows that
// differ first and by distance from the fleet median, the fleet median at each step.
#include "fleet/picture.h"
#include "fleet/fleet_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

namespace llmtriage::fleet {
namespace {

using testing::all_at;

// 61 steps 1 s apart at 2 req/s, 200 generated tok/s; `clock` is SM clock / max, `waiting` a gauge.
ReplicaEvidence picture_replica(const std::string& name, double clock, double waiting, bool restart = false) {
  ReplicaEvidence r;
  r.replica = name;
  r.now.deployment.engine = core::EngineKind::vllm;
  for (int i = 0; i <= 60; ++i) {
    const int n = restart && i >= 30 ? i - 30 : i;  // the engine restarted at 30 s: counters from zero
    core::EngineSample s;
    s.t_s = 1000 + i;
    s.engine = core::EngineKind::vllm;
    s.running = 8;
    s.waiting = waiting;
    s.kv_usage = 0.3;
    s.requests_finished_total = 2.0 * n;
    s.generation_tokens_total = 200.0 * n;
    s.prompt_tokens_total = 3200.0 * n;
    s.ttft_s = all_at(0.2, 2.0 * n);
    r.now.engine_samples.push_back(s);
    core::GpuSample g;
    g.t_s = s.t_s;
    g.name = "NVIDIA H100 80GB HBM3";
    g.power_limit_w = 700;
    g.power_w = clock < 1 ? 690 : 420;
    g.max_sm_clock_mhz = 1980;
    g.sm_clock_mhz = 1980 * clock;
    g.util = 0.95;
    r.now.gpu_samples.push_back(g);
  }
  return r;
}

FleetEvidence picture_fleet(std::vector<ReplicaEvidence> reps) {
  FleetEvidence f;
  f.engine = core::EngineKind::vllm;
  f.start_s = 1000;
  f.end_s = 1060;
  f.step_s = 1;
  f.replicas = std::move(reps);
  return f;
}

size_t column(const report::FleetPicture& p, const std::string& id) {
  for (size_t c = 0; c < p.columns.size(); ++c)
    if (p.columns[c].id == id) return c;
  ADD_FAILURE() << "no column " << id;
  return 0;
}

TEST(FleetPicture, ThrottledReplicaFirstItsClockCellMarkedHealthyRowsAtTheMedian) {
  const auto fe = picture_fleet({picture_replica("a", 1, 0), picture_replica("b", 1, 0), picture_replica("c", 0.5, 0), picture_replica("d", 1, 0)});
  const auto d = analyze(fe, {});
  const auto p = fleet_picture(fe, d);
  ASSERT_EQ(p.rows.size(), 4u);
  EXPECT_DOUBLE_EQ(p.t1_s, 60);
  const size_t clk = column(p, "sm_clock_ratio"), wait = column(p, "waiting"), rate = column(p, "request_rate");
  EXPECT_EQ(p.columns[clk].unit, "fraction");
  EXPECT_FALSE(p.columns[column(p, "ttft_p99")].sparkline) << "a window-only reading";
  const auto& top = p.rows.front();
  EXPECT_EQ(top.replica, "c");
  EXPECT_TRUE(top.differs);
  EXPECT_NE(std::find(top.findings.begin(), top.findings.end(), "replica_gpu_throttled"), top.findings.end());
  EXPECT_TRUE(top.cells[clk].outlier);
  EXPECT_NE(top.cells[clk].outlier_text.find("clock_ratio 0.5"), std::string::npos) << top.cells[clk].outlier_text;
  EXPECT_FALSE(top.cells[wait].outlier);
  EXPECT_EQ(top.farthest, "sm_clock_ratio");
  EXPECT_NEAR(top.distance, 0.5 / 0.08, 1e-9) << "MAD 0: the spread is the clock ratio's 0.08 floor";
  for (size_t i = 1; i < 4; ++i) {
    EXPECT_FALSE(p.rows[i].differs) << p.rows[i].replica;
    EXPECT_EQ(p.rows[i].farthest, "") << p.rows[i].replica;
  }
  EXPECT_EQ(p.rows[1].replica, "a") << "ties by name";
  // Rates from counter differences, one per step after the first; the median at every step.
  EXPECT_EQ(top.cells[rate].v.size(), 60u);
  EXPECT_DOUBLE_EQ(top.cells[rate].v.front(), 2);
  EXPECT_DOUBLE_EQ(top.cells[rate].t_s.front(), 1);
  EXPECT_DOUBLE_EQ(*top.cells[clk].value, 0.5);
  EXPECT_EQ(p.median[clk].t_s.size(), 61u);
  EXPECT_DOUBLE_EQ(p.median[clk].v.front(), 1);
}

TEST(FleetPicture, NoRateAcrossARestartAndNoLatencySparkline) {
  const auto fe = picture_fleet({picture_replica("a", 1, 0, true), picture_replica("b", 1, 0), picture_replica("c", 1, 0)});
  const auto p = fleet_picture(fe, analyze(fe, {}));
  const size_t rate = column(p, "request_rate");
  for (const auto& r : p.rows)
    if (r.replica == "a") {
      EXPECT_EQ(r.cells[rate].v.size(), 59u) << "the step across the counter reset has no rate";
      for (double t : r.cells[rate].t_s) {
        EXPECT_NE(t, 30);
      }
    }
  for (const auto& c : p.columns) {
    if (c.sparkline) {
      EXPECT_EQ(c.id.find("ttft"), std::string::npos) << c.id;
    }
  }
  EXPECT_NE(std::find_if(p.notes.begin(), p.notes.end(), [](const std::string& n) { return n.find("two ends only") != std::string::npos; }),
            p.notes.end());
}

TEST(FleetPicture, ARawClockInMhzWhenTheStoreHasNoMaxClock) {
  auto a = picture_replica("a", 1, 0), b = picture_replica("b", 1, 0), c = picture_replica("c", 1, 0);
  for (auto* r : {&a, &b, &c})
    for (auto& g : r->now.gpu_samples) g.max_sm_clock_mhz.reset();
  const auto fe = picture_fleet({a, b, c});
  const auto p = fleet_picture(fe, analyze(fe, {}));
  EXPECT_EQ(p.columns[column(p, "sm_clock_mhz")].unit, "MHz");
  for (const auto& col : p.columns) EXPECT_NE(col.id, "sm_clock_ratio");
}

// A finding most replicas share is said once in the verdict with one replica's evidence: that
// replica is not marked as differing for it.
TEST(FleetPicture, AFleetWidePatternMarksNoReplica) {
  const auto fe = picture_fleet({picture_replica("a", 1, 0), picture_replica("b", 1, 0), picture_replica("c", 1, 0)});
  auto d = analyze(fe, {});
  diagnose::Finding shared;
  shared.id = "kv_pool_preallocated";
  diagnose::EvidenceItem e;
  e.source = "a: GPU telemetry";
  shared.evidence.push_back(e);
  d.verdict.findings.push_back(shared);
  d.fleet_wide_ids.push_back("kv_pool_preallocated");
  const auto p = fleet_picture(fe, d);
  for (const auto& r : p.rows) {
    EXPECT_FALSE(r.differs) << r.replica;
    EXPECT_TRUE(r.findings.empty()) << r.replica;
  }
}

}  // namespace
}  // namespace llmtriage::fleet
