// analyze_hardware: indicator tables -> finding ids and the layer verdict (docs/rules.md,
// "Layer: operator_hardware").
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "diagnose_capacity/capacity_helpers.h"

namespace llmtriage::diagnose {
namespace {

using testing::Case;
using testing::Row;
using State = LayerVerdict::State;

core::Event warning(const std::string& text) {
  core::Event e;
  e.kind = core::EventKind::warning;
  e.source = "vllm.log:7";
  e.text = text;
  return e;
}

const std::vector<Row>& hardware_rows() {
  static const std::vector<Row> r = {
      {"no telemetry: not judged", [](Case&) {}, {}, State::not_judged},
      {"engine metrics only: still not judged", [](Case& c) { c.set({{"waiting", 3}, {"kv_usage", 0.5}}); }, {},
       State::not_judged},
      {"TPOT 2x the baseline at the same batch and lengths: the processor runs slower (no telemetry needed)",
       [](Case& c) {
         c.set({{"tpot_p50_s", 0.0061}, {"running_max", 2}, {"input_len_mean", 32}, {"output_len_mean", 96}});
         c.base({{"tpot_p50_s", 0.0030}, {"running_max", 2}, {"input_len_mean", 32}, {"output_len_mean", 96}});
       },
       {"step_slower_than_baseline"}, State::at_fault},
      {"TPOT 2x the baseline with four times the batch: the scheduler's doing, not the hardware's",
       [](Case& c) {
         c.set({{"tpot_p50_s", 0.0061}, {"running_max", 8}});
         c.base({{"tpot_p50_s", 0.0030}, {"running_max", 2}});
       },
       {}, State::not_judged},
      {"TPOT 3.5x the baseline at twice the batch: more than a larger batch can make a step (clocks throttled)",
       [](Case& c) {
         c.set({{"tpot_p50_s", 0.0574}, {"running_max", 150}, {"input_len_mean", 1500}, {"output_len_mean", 200}});
         c.base({{"tpot_p50_s", 0.0166}, {"running_max", 73}, {"input_len_mean", 1500}, {"output_len_mean", 200}});
       },
       {"step_slower_than_baseline"}, State::at_fault},
      {"the same, with the server's own prompts longer than the records': other traffic, not the processor",
       [](Case& c) {
         c.set({{"tpot_p50_s", 0.0574}, {"running_max", 150}, {"input_len_mean", 1500}, {"server_input_len_mean", 1929}});
         c.base({{"tpot_p50_s", 0.0166}, {"running_max", 73}, {"input_len_mean", 1500}, {"server_input_len_mean", 1500}});
       },
       {}, State::not_judged},
      {"one replica 3.8x its peer's TPOT for as many requests of the same length: that replica's device",
       [](Case& c) {
         c.set({{"replica_tpot_p50_slowest", 0.062}, {"replica_tpot_p50_others", 0.0162}, {"replica_running_slowest", 40.5},
                {"replica_running_others", 7.7}, {"replica_requests_slowest", 75}, {"replica_requests_others", 75},
                {"replica_input_len_slowest", 1500}, {"replica_input_len_others", 1500}});
       },
       {"replica_slower_than_peers"}, State::at_fault},
      {"one replica slower with longer prompts routed to it: other work",
       [](Case& c) {
         c.set({{"replica_tpot_p50_slowest", 0.062}, {"replica_tpot_p50_others", 0.0162}, {"replica_requests_slowest", 75},
                {"replica_requests_others", 75}, {"replica_input_len_slowest", 6000}, {"replica_input_len_others", 1500}});
       },
       {}, State::not_judged},
      {"one replica slower with 5x the requests routed to it: its batch explains it (imbalance, not the device)",
       [](Case& c) {
         c.set({{"replica_tpot_p50_slowest", 0.030}, {"replica_tpot_p50_others", 0.0162}, {"replica_running_slowest", 40},
                {"replica_running_others", 8}, {"replica_requests_slowest", 125}, {"replica_requests_others", 25},
                {"replica_input_len_slowest", 1500}, {"replica_input_len_others", 1500}});
       },
       {}, State::not_judged},
      {"TPOT 2x the baseline with prompts 3x longer: other work (the load layer's)",
       [](Case& c) {
         c.set({{"tpot_p50_s", 0.0061}, {"input_len_mean", 3000}});
         c.base({{"tpot_p50_s", 0.0030}, {"input_len_mean", 1000}});
       },
       {}, State::not_judged},
      {"healthy GPUs: cleared",
       [](Case& c) { c.set({{"power_ratio", 0.7}, {"clock_ratio", 0.98}, {"temp_c", 65}, {"throttle_power", 0}}, "dcgm"); },
       {}, State::cleared},
      {"power at the cap, clock down: power throttled",
       [](Case& c) { c.set({{"power_ratio", 0.99}, {"clock_ratio", 0.7}, {"throttle_power", 1}}, "dcgm"); },
       {"gpu_power_throttled"}, State::at_fault},
      {"power from dashboard observations",
       [](Case& c) { c.set({{"power_ratio", 0.98}, {"clock_ratio", 0.75}}, "observe"); }, {"gpu_power_throttled"},
       State::at_fault},
      {"power at the cap, clock at max: running flat out, not throttled",
       [](Case& c) { c.set({{"power_ratio", 0.99}, {"clock_ratio", 0.97}}, "dcgm"); }, {}, State::cleared},
      {"power-cap reason seen but clock at max: not throttling",
       [](Case& c) { c.set({{"throttle_power", 1}, {"clock_ratio", 0.95}, {"power_ratio", 0.9}}, "dcgm"); }, {},
       State::cleared},
      {"hot with thermal slowdown",
       [](Case& c) {
         c.set({{"temp_c", 91}, {"throttle_thermal", 1}, {"clock_ratio", 0.7}, {"power_ratio", 0.7}}, "dcgm");
       },
       {"gpu_thermal_throttled"}, State::at_fault},
      {"hot but no slowdown: not throttled",
       [](Case& c) { c.set({{"temp_c", 86}, {"throttle_thermal", 0}, {"clock_ratio", 0.97}}, "dcgm"); }, {},
       State::cleared},
      {"TP 4 over PCIe: lopsided and far below the cap -> interconnect, never power throttling",
       [](Case& c) {
         c.in.now.deployment.gpu = "A100-80GB-PCIe";
         c.set({{"tp", 4}, {"gpu_util_spread", 0.5}, {"power_ratio", 0.35}, {"clock_ratio", 0.7}, {"throttle_power", 1}},
               "dcgm");
       },
       {"interconnect_bottleneck"}, State::at_fault},
      {"TP 1 lopsided: no all-reduce, not the interconnect",
       [](Case& c) { c.set({{"tp", 1}, {"gpu_util_spread", 0.5}, {"power_ratio", 0.35}}, "dcgm"); }, {}, State::cleared},
      {"TP 4 even utilization: not the interconnect",
       [](Case& c) { c.set({{"tp", 4}, {"gpu_util_spread", 0.05}, {"power_ratio", 0.35}}, "dcgm"); }, {},
       State::cleared},
      {"fp8 KV on an A100 (no fp8 tensor cores), no telemetry",
       [](Case& c) {
         c.in.now.deployment.gpu = "A100-80GB-SXM";
         c.in.now.deployment.settings.kv_cache_dtype = "fp8";
       },
       {"slow_kernel_path"}, State::at_fault},
      {"fp8 KV on an H100: native path, no telemetry -> not judged",
       [](Case& c) {
         c.in.now.deployment.gpu = "H100-SXM";
         c.in.now.deployment.settings.kv_cache_dtype = "fp8";
       },
       {}, State::not_judged},
      {"attention backend fallback in the log",
       [](Case& c) {
         c.in.now.events.push_back(warning("Cannot use FlashAttention-2 backend for FP8 KV cache."));
         c.set({{"power_ratio", 0.7}, {"clock_ratio", 0.98}}, "dcgm");
       },
       {"slow_kernel_path"}, State::at_fault},
      {"unrelated warnings: nothing",
       [](Case& c) {
         c.in.now.events.push_back(warning("The tokenizer's chat template is missing; falling back to the default."));
         c.set({{"power_ratio", 0.7}, {"clock_ratio", 0.98}}, "dcgm");
       },
       {}, State::cleared},
  };
  return r;
}

TEST(HardwareRules, Table) {
  for (const auto& row : hardware_rows()) {
    SCOPED_TRACE(row.name);
    Case c;
    row.setup(c);
    const LayerResult r = analyze_hardware(c.ctx());
    testing::expect_row(row, r, Layer::operator_hardware);
  }
}

TEST(HardwareRules, SeverityIsWarningOnlyForAReportedSymptom) {
  Case c;
  c.set({{"power_ratio", 0.99}, {"clock_ratio", 0.7}, {"throttle_power", 1}}, "dcgm");
  {
    const LayerResult r = analyze_hardware(c.ctx());
    ASSERT_TRUE(testing::has(r, "gpu_power_throttled"));
    EXPECT_EQ(testing::get(r, "gpu_power_throttled")->severity, Severity::info);
  }
  c.symptoms = {Symptom::tpot_high};
  const LayerResult r = analyze_hardware(c.ctx());
  EXPECT_EQ(testing::get(r, "gpu_power_throttled")->severity, Severity::warning);
  // The clock shortfall bounds how much of the TPOT rise throttling can explain.
  ASSERT_TRUE(testing::get(r, "gpu_power_throttled")->explains.has_value());
  EXPECT_NEAR(*testing::get(r, "gpu_power_throttled")->explains, 0.3, 1e-9);
}

TEST(HardwareRules, LoweredPowerCapIsNamedWithTheBoardPower) {
  Case c;
  c.in.now.deployment.gpu = "H100-SXM";
  c.set({{"power_ratio", 0.99}, {"clock_ratio", 0.6}, {"power_limit_w", 450}}, "dcgm");
  const LayerResult r = analyze_hardware(c.ctx());
  const Finding* f = testing::get(r, "gpu_power_throttled");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].from, "450 W");
  EXPECT_EQ(f->remedies[0].to, "700 W");  // H100 SXM board power (catalog)
}

TEST(HardwareRules, NoP2pLineRaisesInterconnectConfidence) {
  auto conf = [](bool line) {
    Case c;
    c.set({{"tp", 2}, {"gpu_util_spread", 0.4}, {"power_ratio", 0.4}}, "dcgm");
    if (line)
      c.in.now.events.push_back(warning("Custom allreduce is disabled because your platform lacks GPU P2P capability "
                                        "or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly."));
    const LayerResult r = analyze_hardware(c.ctx());
    const Finding* f = testing::get(r, "interconnect_bottleneck");
    return f ? f->confidence : -1.0;
  };
  EXPECT_GT(conf(false), 0);
  EXPECT_GT(conf(true), conf(false));
}

TEST(HardwareRules, Fp8KvRemedyReportsTheLedgerPool) {
  Case c;
  c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.in.now.deployment.gpu = "A100-80GB-SXM";
  c.in.now.deployment.settings.kv_cache_dtype = "fp8";
  c.in.now.deployment.settings.max_model_len = 8192;
  const LayerResult r = analyze_hardware(c.ctx());
  const Finding* f = testing::get(r, "slow_kernel_path");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "kv-cache-dtype");
  EXPECT_EQ(f->remedies[0].to, "auto");
  EXPECT_EQ(f->remedies[0].basis, "ledger");
  EXPECT_NE(f->remedies[0].predicted_effect.find("KV pool"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::diagnose

namespace llmtriage::diagnose {
namespace {

// A CPU server with its threads at the host's cores and slower steps: one thread fewer than the
// cores, sized from the observations an operator has (nproc, the launch line).
TEST(HardwareRules, StepSlowerOnACpuServerSizesThreadsFromTheCores) {
  testing::Case c;
  c.in.now.deployment.engine = core::EngineKind::llamacpp;
  c.set({{"tpot_p50_s", 0.0061}, {"running_max", 2}, {"engine_threads", 2}, {"host_cpu_cores", 2}});
  c.base({{"tpot_p50_s", 0.0030}, {"running_max", 2}});
  const LayerResult r = analyze_hardware(c.ctx());
  const Finding* f = testing::get(r, "step_slower_than_baseline");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "threads");
  EXPECT_EQ(f->remedies[0].from, "2");
  EXPECT_EQ(f->remedies[0].to, "1");
  c.set({{"engine_threads", 1}, {"host_cpu_cores", 8}});
  const LayerResult r2 = analyze_hardware(c.ctx());
  const Finding* g = testing::get(r2, "step_slower_than_baseline");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->remedies[0].to, "8");  // fewer threads than cores: use them
}

}  // namespace
}  // namespace llmtriage::diagnose
