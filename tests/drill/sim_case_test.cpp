// The simulated drill's shared logic (drill/sim_case.h): the scenario's diagnosis block, remedies
// mapped onto the simulator's settings, the simulated GPU telemetry and the baseline split at the
// fault's onset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "drill/sim_case.h"

namespace llmtriage::drill {
namespace {

diagnose::Remedy remedy(std::string change, std::string from, std::string to) {
  diagnose::Remedy r;
  r.change = std::move(change);
  r.from = std::move(from);
  r.to = std::move(to);
  return r;
}

sim::Scenario bundled(const std::string& name) {
  auto c = load_case(name);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message());
  return c.ok() ? c->scenario : sim::Scenario{};
}

std::string temp_file(const std::string& text) {
  const std::string p = (std::filesystem::temp_directory_path() / ("drill_case_" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(p) << text;
  return p;
}

TEST(DrillCase, ReadsTheDiagnosisBlockAndItsObservations) {
  auto c = load_case("throughput-below-benchmark-mix");
  ASSERT_TRUE(c.ok()) << c.error().message();
  ASSERT_TRUE(c->expected);
  EXPECT_EQ(c->expected->id, "benchmark_mix_mismatch");
  EXPECT_EQ(c->expected->layer, diagnose::Layer::load);
  EXPECT_EQ(c->expected->symptom, diagnose::Symptom::throughput_low);
  EXPECT_DOUBLE_EQ(c->observations.now.at("expected_output_tokens_per_s"), 12000);
  EXPECT_DOUBLE_EQ(c->observations.baseline.at("input_len_mean"), 512);
}

TEST(DrillCase, BadDiagnosisBlocksAreErrorsNamingTheField) {
  const std::string base = R"({"name": "x", "deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM"}, )";
  auto p = temp_file(base + R"("diagnosis": {"id": "kv_pool_saturated", "layer": "sched", "symptom": "ttft_spike"}})");
  auto c = load_case(p);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().where.find("diagnosis.layer"), std::string::npos) << c.error().message();
  p = temp_file(base + R"("diagnosis": {"id": "x", "layer": "load", "symptom": "slow"}})");
  c = load_case(p);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().where.find("diagnosis.symptom"), std::string::npos);
  p = temp_file(base + R"("diagnosis": {"id": "x", "layer": "load", "symptom": "ttft_spike", "observe": {"qps": 3}}})");
  c = load_case(p);
  ASSERT_FALSE(c.ok());  // unknown observation name
  p = temp_file(base + R"("workload": {"num_requests": 5}})");
  c = load_case(p);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->expected);  // no block: nothing to assert, not an error
  std::filesystem::remove(p);
}

struct MappingCase {
  const char* change;
  const char* to;
  const char* applied;  // substring of the description
};

TEST(DrillCase, RemediesMapOntoTheScenarioSettings) {
  const MappingCase cases[] = {
      {"enable-chunked-prefill", "true", "enable_chunked_prefill -> true"},
      {"--enable-chunked-prefill", "on", "enable_chunked_prefill -> true"},
      {"max-model-len", "16384", "max_model_len -> 16384"},
      {"max_num_seqs", "64", "max_num_seqs -> 64"},
      {"replicas", "4", "replicas -> 4"},
      {"gpu-memory-utilization", "0.95", "gpu_memory_utilization -> 0.95"},
      {"tensor-parallel-size", "2", "tensor_parallel_size -> 2"},
      {"kv-cache-dtype", "fp8", "kv_cache_dtype -> fp8"},
      {"max-num-batched-tokens", "2048", "max_num_batched_tokens -> 2048"},
  };
  for (const auto& m : cases) {
    sim::Scenario s = bundled("long-context-launch");
    auto r = apply_remedy(remedy(m.change, "", m.to), s);
    ASSERT_TRUE(r.ok()) << m.change << ": " << r.error().message();
    EXPECT_NE(r->find(m.applied), std::string::npos) << m.change << " -> " << *r;
  }
  sim::Scenario s = bundled("long-context-launch");
  ASSERT_TRUE(apply_remedy(remedy("max-model-len", "32768", "16384"), s).ok());
  EXPECT_EQ(s.config.max_model_len, 16384);  // re-resolved, not only recorded
  ASSERT_TRUE(apply_remedy(remedy("enable-chunked-prefill", "false", "true"), s).ok());
  EXPECT_TRUE(s.config.scheduler.chunked_prefill);
  ASSERT_TRUE(apply_remedy(remedy("replicas", "2", "4"), s).ok());
  EXPECT_EQ(s.config.replicas, 4);
  // Relative targets and the diagnosis's compact token counts.
  ASSERT_TRUE(apply_remedy(remedy("replicas", "4", "x2"), s).ok());
  EXPECT_EQ(s.config.replicas, 8);
  ASSERT_TRUE(apply_remedy(remedy("tensor-parallel-size", "", "\xc3\x97" "2"), s).ok());
  EXPECT_EQ(s.deployment.tp, 2);
  ASSERT_TRUE(apply_remedy(remedy("max-model-len", "16k", "12.5k"), s).ok());
  EXPECT_EQ(s.config.max_model_len, 12500);
}

TEST(DrillCase, FaultSideRemediesChangeTheFault) {
  sim::Scenario s = bundled("timeouts-retry-storm");
  ASSERT_TRUE(apply_remedy(remedy("gateway timeout", "5 s", "45 s"), s).ok());
  for (const auto& f : s.config.faults)
    if (f.kind == sim::FaultKind::gateway_timeout) {
      EXPECT_DOUBLE_EQ(f.timeout_s, 45);
    }
  ASSERT_TRUE(apply_remedy(remedy("client retries", "3, no backoff", "backoff with a budget"), s).ok());
  for (const auto& f : s.config.faults)
    if (f.kind == sim::FaultKind::client_retries) {
      EXPECT_TRUE(f.exponential_backoff);
    }

  s = bundled("tpot-high-throttling");
  ASSERT_TRUE(apply_remedy(remedy("GPU power cap / cooling", "throttled", "fixed"), s).ok());
  for (const auto& f : s.config.faults) EXPECT_NE(f.kind, sim::FaultKind::clock_throttle);

  s = bundled("prefix-cache-miss-router");
  ASSERT_TRUE(apply_remedy(remedy("router affinity", "round-robin", "prefix-affinity"), s).ok());
  EXPECT_EQ(s.config.router, sim::RouterKind::prefix_affinity);
  for (const auto& f : s.config.faults) EXPECT_NE(f.kind, sim::FaultKind::no_affinity);
}

TEST(DrillCase, RemediesTheSimulatorCannotApplyAreRefusedWithAReason) {
  sim::Scenario s = bundled("long-context-launch");
  for (auto [change, to] : {std::pair{"re-benchmark on the production mix", "capacity run"},
                            std::pair{"chat-template", "the model's own"},
                            std::pair{"max-num-seqs", "fewer"},          // no number
                            std::pair{"gpu-memory-utilization", "1.5"},  // out of range
                            std::pair{"gateway timeout", "30 s"}}) {     // this scenario has none
    auto r = apply_remedy(remedy(change, "", to), s);
    EXPECT_FALSE(r.ok()) << change;
    if (!r.ok()) {
      EXPECT_FALSE(r.error().detail.empty()) << change;
    }
  }
}

TEST(DrillCase, ChoosesTheFirstApplicableRemedyInRankOrder) {
  diagnose::Report rep;
  diagnose::Finding f1, f2;
  f1.id = "input_length_shift";
  f1.remedies = {remedy("re-run capacity on the new mix", "", ""), remedy("enable-chunked-prefill", "false", "true")};
  f2.id = "kv_pool_saturated";
  f2.remedies = {remedy("replicas", "2", "4")};
  rep.findings = {f1, f2};
  sim::Scenario s = bundled("long-context-launch");
  std::vector<std::string> skipped;
  auto ch = choose_remedy(rep, s, skipped);
  ASSERT_TRUE(ch);
  EXPECT_EQ(ch->finding, 0u);
  EXPECT_EQ(ch->remedy, 1u);
  EXPECT_TRUE(s.config.scheduler.chunked_prefill);
  EXPECT_EQ(s.config.replicas, 2);  // one variable only
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find("re-run capacity"), std::string::npos);
}

TEST(DrillCase, SimulatedGpusShowThePowerCapOnlyWhileTheThrottleIsOn) {
  sim::Scenario s = bundled("tpot-high-throttling");
  std::vector<core::EngineSample> samples;
  for (double t : {10.0, 100.0, 250.0}) {
    core::EngineSample e;
    e.t_s = t;
    e.engine_index = "0";
    e.running = 5;
    samples.push_back(e);
  }
  auto g = simulated_gpu_samples(s, samples);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_DOUBLE_EQ(*g[0].sm_clock_mhz, *g[0].max_sm_clock_mhz);
  EXPECT_TRUE(g[0].throttle_names.empty());
  EXPECT_NEAR(*g[1].sm_clock_mhz / *g[1].max_sm_clock_mhz, 0.45, 1e-9);  // the fault's factor
  EXPECT_GT(*g[1].power_w / *g[1].power_limit_w, 0.95);
  ASSERT_EQ(g[1].throttle_names.size(), 1u);
  EXPECT_EQ(g[1].throttle_names[0], "sw_power_cap");
  EXPECT_TRUE(g[2].throttle_names.empty());
  // One reading per GPU: replicas x TP.
  sim::Scenario two = bundled("long-context-launch");
  samples[0].engine_index = "1";
  EXPECT_EQ(simulated_gpu_samples(two, samples).size(), 3u * 2u);
}

TEST(DrillCase, TheHealthyPeriodBeforeTheFaultIsTheBaseline) {
  auto c = load_case("tpot-high-throttling");  // clock_throttle from t=60 s
  ASSERT_TRUE(c.ok());
  RunData run;
  for (double t : {1.0, 30.0, 59.0, 61.0, 200.0}) {
    core::EngineSample e;
    e.t_s = t;
    e.running = 1;
    run.samples.push_back(e);
    core::RequestRecord r;
    r.arrival_s = t;
    run.records.push_back(r);
  }
  auto in = diagnose_input(*c, run, false);
  ASSERT_TRUE(in.baseline);
  EXPECT_EQ(in.baseline->engine_samples.size(), 3u);
  EXPECT_EQ(in.baseline->requests.size(), 3u);
  EXPECT_EQ(in.now.engine_samples.size(), 2u);
  EXPECT_EQ(in.now.requests.size(), 2u);
  EXPECT_EQ(in.now.deployment.gpu, "H100-SXM");
  ASSERT_EQ(in.symptoms.size(), 1u);
  EXPECT_EQ(in.symptoms[0], diagnose::Symptom::tpot_high);

  auto q = load_case("ttft-spike-deep-queue");  // no fault: no healthy period to compare with
  ASSERT_TRUE(q.ok());
  auto in2 = diagnose_input(*q, run, false);
  EXPECT_FALSE(in2.baseline);
  EXPECT_EQ(in2.now.requests.size(), 5u);
  EXPECT_EQ(in2.now.deployment.settings.max_num_seqs, 64);
}

TEST(DrillCase, StartupFailureBecomesAnOomEvent) {
  auto c = load_case("startup-oom");
  ASSERT_TRUE(c.ok());
  ASSERT_FALSE(c->scenario.startup_error.empty());
  auto in = startup_input(*c, false);
  ASSERT_EQ(in.now.events.size(), 1u);
  EXPECT_EQ(in.now.events[0].kind, core::EventKind::oom);
  EXPECT_EQ(in.now.events[0].labels.at("phase"), "startup");
  EXPECT_GT(in.now.events[0].fields.at("weights_gib"), 100);
  EXPECT_EQ(in.now.deployment.model, "meta-llama/Llama-3.3-70B-Instruct");
}

}  // namespace
}  // namespace llmtriage::drill

namespace llmtriage::drill {
namespace {

TEST(DrillCase, OneRemedyIsOneConfigDifferenceForTheAB) {
  // V0-style presets derive the token budget from chunked prefill; the A/B's one-variable check
  // must see the change made, not what the engine resolved from it.
  auto c = load_case("long-context-launch");
  ASSERT_TRUE(c.ok());
  sim::Scenario b = c->scenario;
  diagnose::Remedy r;
  r.change = "enable-chunked-prefill";
  r.to = "true";
  ASSERT_TRUE(apply_remedy(r, b).ok());
  const auto ca = scenario_config(c->scenario), cb = scenario_config(b);
  std::vector<std::string> diff;
  for (const auto& [k, v] : ca)
    if (cb.at(k) != v) diff.push_back(k);
  ASSERT_EQ(diff.size(), 1u) << (diff.size() > 1 ? diff[1] : "");
  EXPECT_EQ(diff[0], "enable_chunked_prefill");
}

}  // namespace
}  // namespace llmtriage::drill
