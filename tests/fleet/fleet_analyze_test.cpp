// fleet::analyze (src/fleet/analyze.h): per-replica Evidence in, fleet findings out. Each case
// builds a small synthetic fleet (engine samples over 60 s, GPU samples) with one thing changed.
#include "fleet/analyze.h"
#include "fleet/fleet_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace llmtriage::fleet {
namespace {

struct Knobs {
  double rate = 2;          // requests/s
  double hit = 0.8;         // prefix-cache hit rate
  double prompt = 1600;     // tokens per request
  double waiting = 0;
  double clock = 1.0;       // SM clock / max
  double power = 0.6;       // power / limit
  bool gpu = true;
  double ttft = 0.2;        // seconds, every request
  double kv = 0.3;          // KV pool usage
  bool limits = true;       // DCGM gives the power limit and max clock (not in dcgm-exporter's default counters)
};

using testing::all_at;

// One replica: 61 engine samples 1 s apart, counters growing at the knobs' rates.
ReplicaEvidence replica(const std::string& name, const Knobs& k) {
  ReplicaEvidence r;
  r.replica = name;
  r.now.deployment.engine = core::EngineKind::vllm;
  for (int i = 0; i <= 60; ++i) {
    core::EngineSample s;
    s.t_s = 1000 + i;
    s.engine = core::EngineKind::vllm;
    s.running = 8;
    s.waiting = k.waiting;
    s.kv_usage = k.kv;
    s.preemptions_total = 0;
    s.requests_finished_total = k.rate * i;
    s.prompt_tokens_total = k.rate * i * k.prompt;
    s.generation_tokens_total = k.rate * i * 100;
    s.prefix_cache_queries_total = k.rate * i * k.prompt;
    s.prefix_cache_hits_total = k.rate * i * k.prompt * k.hit;
    s.ttft_s = all_at(k.ttft, k.rate * i);
    s.prompt_tokens = all_at(k.prompt, k.rate * i);
    r.now.engine_samples.push_back(s);
    if (k.gpu) {
      core::GpuSample g;
      g.t_s = s.t_s;
      g.name = "NVIDIA H100 80GB HBM3";
      if (k.limits) g.power_limit_w = 700;
      g.power_w = 700 * k.power;
      if (k.limits) g.max_sm_clock_mhz = 1980;
      g.sm_clock_mhz = 1980 * k.clock;
      g.temp_c = 60;
      g.util = 0.95;
      g.throttle_reasons = k.clock < 1 ? 0x4 : 0;
      if (k.clock < 1) g.throttle_names = {"sw_power_cap"};
      r.now.gpu_samples.push_back(g);
    }
  }
  return r;
}

FleetEvidence fleet(const std::vector<Knobs>& knobs) {
  FleetEvidence f;
  f.engine = core::EngineKind::vllm;
  f.start_s = 1000;
  f.end_s = 1060;
  f.step_s = 1;
  for (size_t i = 0; i < knobs.size(); ++i) f.replicas.push_back(replica("r" + std::to_string(i), knobs[i]));
  return f;
}

std::vector<std::string> ids(const FleetDiagnosis& d) {
  std::vector<std::string> v;
  for (const auto& f : d.verdict.findings)
    if (f.id == "replica_gpu_throttled" || f.id == "replica_outlier" || f.id == "load_imbalance" || f.id == "prefix_affinity_lost")
      v.push_back(f.id);
  return v;
}

const diagnose::Finding* find(const FleetDiagnosis& d, const std::string& id) {
  for (const auto& f : d.verdict.findings)
    if (f.id == id) return &f;
  return nullptr;
}

struct Case {
  const char* name;
  std::vector<Knobs> knobs;
  std::vector<std::string> want;   // fleet-level finding ids, in order
  std::string names_replica;       // the first finding's evidence names this replica ("" = none)
};

TEST(FleetAnalyze, Table) {
  Knobs h;
  Knobs throttled = h;
  throttled.clock = 0.5;
  throttled.power = 0.99;
  Knobs mild = h;  // 15% below max clock with the power-cap reason, power like its siblings'
  mild.clock = 0.85;
  Knobs bare = h;
  bare.limits = false;
  Knobs bare_throttled = throttled;
  bare_throttled.limits = false;
  Knobs busy = h;
  busy.rate = 6;
  Knobs scattered = h;
  scattered.hit = 0.05;
  Knobs scattered_long = scattered;
  scattered_long.prompt = 8000;  // other prompts: a load difference, not routing
  Knobs queue = h;
  queue.waiting = 40;
  const std::vector<Case> cases = {
      {"identical replicas: nothing", {h, h, h, h}, {}, ""},
      {"one GPU at half clock and at its power limit", {h, h, throttled, h}, {"replica_gpu_throttled"}, "r2"},
      {"two replicas: no median to stand out from", {h, throttled}, {}, ""},
      {"15% below max clock with a power-cap reason: throttled, though less than 25% off the median",
       {h, h, mild, h}, {"replica_gpu_throttled"}, "r2"},
      {"default DCGM counters (no max clock, no limit): the raw SM clock stands out",
       {bare, bare, bare_throttled, bare}, {"replica_gpu_throttled"}, "r2"},
      {"one replica takes 3x the median rate", {h, busy, h, h}, {"load_imbalance"}, "r1"},
      {"one replica's prefix hits far below its siblings'", {h, h, h, scattered}, {"prefix_affinity_lost"}, "r3"},
      {"low hits with much longer prompts: not routing", {h, h, h, scattered_long}, {}, ""},
      {"one replica's queue 40 deep, siblings empty", {h, h, queue, h}, {"replica_outlier"}, "r2"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto d = analyze(fleet(c.knobs), {});
    EXPECT_EQ(ids(d), c.want);
    if (!c.names_replica.empty() && !d.verdict.findings.empty()) {
      std::string all;
      for (const auto& e : d.verdict.findings.front().evidence) all += e.source + " ";
      EXPECT_NE(all.find(c.names_replica + ":"), std::string::npos) << all;
    }
    // A fleet finding is a warning: exit 1. (Without one, a replica's own finding may still set it.)
    if (!c.want.empty()) {
      EXPECT_EQ(d.exit_code(), 1);
    }
  }
}

TEST(FleetAnalyze, AHealthyFleetExitsZero) {
  Knobs h;
  const auto d = analyze(fleet({h, h, h, h}), {});
  EXPECT_TRUE(d.outliers.empty());
  EXPECT_EQ(d.exit_code(), 0) << (d.verdict.findings.empty() ? "" : d.verdict.findings.front().id);
}

TEST(FleetAnalyze, ThrottledReplicaIsHardwareWithItsThrottleReason) {
  Knobs h, t;
  t.clock = 0.5;
  t.power = 0.99;
  const auto d = analyze(fleet({h, h, t, h, h}), {});
  const auto* f = find(d, "replica_gpu_throttled");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->layer, diagnose::Layer::operator_hardware);
  EXPECT_NE(f->title.find("power cap"), std::string::npos) << f->title;
  // The header names the symptom the verdict answers (not "none seen" above a warning).
  EXPECT_NE(std::find(d.verdict.symptoms.begin(), d.verdict.symptoms.end(), diagnose::Symptom::tpot_high), d.verdict.symptoms.end());
  ASSERT_FALSE(d.outliers.empty());
  for (const auto& o : d.outliers) EXPECT_EQ(o.replica, "r2");
  for (const auto& r : d.replicas) EXPECT_EQ(r.differs, r.replica == "r2") << r.replica;
  EXPECT_EQ(d.exit_code(), 1);
}

TEST(FleetAnalyze, ThresholdsComeFromTheTable) {
  Knobs h, busy;
  busy.rate = 2.8;  // 1.4x the median: below the default 1.5
  EXPECT_EQ(ids(analyze(fleet({h, busy, h, h}), {})), std::vector<std::string>{});
  AnalyzeOptions o;
  o.thresholds.values["fleet.imbalance_ratio"] = 1.3;
  EXPECT_EQ(ids(analyze(fleet({h, busy, h, h}), o)), std::vector<std::string>{"load_imbalance"});
}

TEST(FleetAnalyze, RobustZ) {
  auto s = robust_stats({1, 1, 1, 0.5});
  EXPECT_DOUBLE_EQ(s.median, 1);
  EXPECT_DOUBLE_EQ(s.mad, 0);
  EXPECT_TRUE(std::isinf(robust_z(0.5, s)));
  EXPECT_EQ(robust_z(1, s), 0);
  s = robust_stats({1, 2, 3, 4, 100});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mad, 1);
  EXPECT_NEAR(robust_z(100, s), 0.6745 * 97, 1e-9);
}

TEST(FleetAnalyze, AFindingMostReplicasShareIsSaidOnce) {
  // Every replica's KV pool is full and its queue deep (a fleet short of capacity): one fleet-wide
  // finding, not four.
  Knobs q;
  q.waiting = 40;
  q.ttft = 8;
  q.kv = 0.97;
  const auto d = analyze(fleet({q, q, q, q}), {});
  std::string seen;
  for (const auto& r : d.replicas)
    for (const auto& f : r.report.findings) seen += r.replica + ":" + f.id + " ";
  for (const auto& f : d.verdict.findings) seen += "verdict:" + f.id + " ";
  ASSERT_FALSE(d.fleet_wide_ids.empty()) << seen;
  int mentions = 0;
  for (const auto& f : d.verdict.findings)
    if (std::find(d.fleet_wide_ids.begin(), d.fleet_wide_ids.end(), f.id) != d.fleet_wide_ids.end()) ++mentions;
  EXPECT_EQ(mentions, static_cast<int>(d.fleet_wide_ids.size()));
  EXPECT_TRUE(ids(d).empty());  // no replica differs: none is an outlier
}

// Against last week's window: every replica's prompts doubled in length and the rate rose 2x —
// a traffic-mix shift of the whole fleet, named in the load layer of the verdict.
TEST(FleetAnalyze, BaselineShiftOfTheWholeFleetIsALoadFinding) {
  Knobs now, before;
  now.prompt = 3200;
  now.rate = 4;
  now.ttft = 4;  // the symptom the shift causes
  FleetEvidence f = fleet({now, now, now});
  for (size_t i = 0; i < f.replicas.size(); ++i) f.replicas[i].baseline = replica(f.replicas[i].replica, before).now;
  const auto d = analyze(f, {});
  std::vector<std::string> load;
  for (const auto& x : d.verdict.findings)
    if (x.layer == diagnose::Layer::load) load.push_back(x.id);
  EXPECT_NE(std::find(load.begin(), load.end(), "input_length_shift"), load.end()) << ::testing::PrintToString(load);
  EXPECT_NE(std::find(load.begin(), load.end(), "request_rate_increase"), load.end()) << ::testing::PrintToString(load);
  EXPECT_TRUE(ids(d).empty());  // the replicas agree with each other
  EXPECT_EQ(d.exit_code(), 1);
}

}  // namespace
}  // namespace llmtriage::fleet
