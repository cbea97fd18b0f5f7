// The two layers through diagnose(): Evidence as the readers produce it (engine samples, GPU
// samples, log events) -> indicators -> the analyzers -> ranked report, with the layer verdicts.
#include <gtest/gtest.h>

#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {
namespace {

core::Evidence engine_window(double running, double waiting, double kv, double preempt_per_s = 0) {
  core::Evidence ev;
  for (int i = 0; i <= 30; ++i) {
    core::EngineSample s;
    s.t_s = 1000.0 + i;
    s.engine = core::EngineKind::vllm;
    s.running = running;
    s.waiting = waiting;
    s.kv_usage = kv;
    s.preemptions_total = preempt_per_s * i;
    s.generation_tokens_total = 2000.0 * i;
    s.requests_finished_total = 5.0 * i;
    ev.engine_samples.push_back(s);
  }
  return ev;
}

void add_gpus(core::Evidence& ev, double power, double clock, uint64_t reasons, std::vector<std::string> names) {
  for (int i = 0; i <= 30; ++i)
    for (int g = 0; g < 2; ++g) {
      core::GpuSample s;
      s.t_s = 1000.0 + i;
      s.index = g;
      s.name = "NVIDIA H100 80GB HBM3";
      s.power_w = power;
      s.power_limit_w = 700;
      s.sm_clock_mhz = clock;
      s.max_sm_clock_mhz = 1980;
      s.temp_c = 60;
      s.util = 0.95;
      s.throttle_reasons = reasons;
      s.throttle_names = names;
      ev.gpu_samples.push_back(s);
    }
}

const LayerVerdict& layer(const Report& r, Layer l) {
  for (const auto& v : r.layers)
    if (v.layer == l) return v;
  static LayerVerdict none;
  return none;
}

TEST(CapacityEndToEnd, DeepQueueAndFullPoolIsTheTopFindingWithHealthyGpusCleared) {
  DiagnoseInput in;
  in.what_if = false;
  in.now = engine_window(60, 40, 0.97);
  add_gpus(in.now, 450, 1980, 0, {});
  in.symptoms = {Symptom::ttft_spike};
  const Report r = diagnose(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "kv_pool_saturated");
  EXPECT_EQ(layer(r, Layer::scheduling_capacity).state, LayerVerdict::State::at_fault);
  const LayerVerdict& hw = layer(r, Layer::operator_hardware);
  EXPECT_EQ(hw.state, LayerVerdict::State::cleared) << hw.why;
  bool power = false;
  for (const auto& e : hw.evidence) power = power || e.indicator == "power_ratio";
  EXPECT_TRUE(power) << "a cleared layer lists the readings that cleared it";
  EXPECT_EQ(r.exit_code(), 1);
}

TEST(CapacityEndToEnd, PowerCappedClocksWithAHighTpotLocateTheHardwareLayer) {
  DiagnoseInput in;
  in.what_if = false;
  in.now = engine_window(20, 0, 0.4);
  add_gpus(in.now, 695, 1100, 0x4, {"sw_power_cap"});
  in.observations.now["tpot_p99_s"] = 0.25;
  const Report r = diagnose(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_power_throttled");
  EXPECT_EQ(r.findings.front().severity, Severity::warning);  // tpot_high detected from the observation
  EXPECT_EQ(layer(r, Layer::scheduling_capacity).state, LayerVerdict::State::cleared);
}

TEST(CapacityEndToEnd, NoGpuTelemetryLeavesTheHardwareLayerNotJudged) {
  DiagnoseInput in;
  in.what_if = false;
  in.now = engine_window(20, 0, 0.4);
  const Report r = diagnose(in);
  const LayerVerdict& hw = layer(r, Layer::operator_hardware);
  EXPECT_EQ(hw.state, LayerVerdict::State::not_judged);
  EXPECT_NE(hw.why.find("GPU telemetry"), std::string::npos) << hw.why;
}

}  // namespace
}  // namespace llmtriage::diagnose
