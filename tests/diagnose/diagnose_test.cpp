#include <gtest/gtest.h>

#include <algorithm>

#include "diagnose/diagnose.h"
#include "ingest/engine_log.h"

namespace llmtriage::diagnose {
namespace {

const LayerVerdict& verdict(const Report& r, Layer l) {
  for (const auto& v : r.layers)
    if (v.layer == l) return v;
  throw std::runtime_error("no verdict");
}

bool has(const Report& r, const std::string& id) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.id == id; });
}

core::RequestRecord ok(double arrival, double ttft, int64_t in = 500, int64_t out = 100) {
  core::RequestRecord r;
  r.id = "r" + std::to_string(arrival);
  r.arrival_s = arrival;
  r.input_tokens = in;
  r.output_tokens = out;
  r.ttft_s = ttft;
  r.e2e_s = ttft + 0.02 * (out - 1);
  return r;
}

core::RequestRecord timed_out(double arrival, double after, const std::string& id) {
  core::RequestRecord r;
  r.id = id;
  r.arrival_s = arrival;
  r.input_tokens = 500;
  r.status = core::RequestStatus::error;
  r.error_category = "timeout_ttfb";
  r.e2e_s = after;
  return r;
}

TEST(Diagnose, ARuntimeOomIsNotAStartupOomAndNoRemedyRaisesTheMemoryFraction) {
  // A CUDA OOM inside execute_model (the serving loop), pasted without any stats line: before, "no
  // request served" made it a startup OOM, and the remedy raised gpu-memory-utilization 0.90 ->
  // 0.95 -- the wrong way for memory outside the KV pool.
  const std::string p = "ERROR 03-01 10:00:15 [core.py:634] ";
  std::string log = p + "EngineCore encountered a fatal error.\n" + p + "Traceback (most recent call last):\n";
  for (const char* fn : {"run_engine_core", "run_busy_loop", "step", "execute_model"})
    log += p + "  File \"/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py\", line 1, in " + fn + "\n" + p + "    x()\n";
  log += p + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
             "79.19 GiB of which 1.06 GiB is free.\n";
  DiagnoseInput in;
  in.what_if = false;
  in.now.events = ingest::parse_engine_log_text(log).events;
  in.now.deployment.settings.max_num_seqs = 256;
  in.now.deployment.settings.max_num_batched_tokens = 8192;
  const Report r = diagnose(in);
  EXPECT_FALSE(has(r, "startup_oom"));
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "runtime_oom_unprofiled_memory");
  EXPECT_EQ(r.findings[0].symptom, Symptom::runtime_oom_or_preemption);
  bool seqs = false, budget = false;
  for (const auto& f : r.findings)
    for (const auto& m : f.remedies) {
      if (m.change == "gpu-memory-utilization" && !m.from.empty() && !m.to.empty())
        EXPECT_LT(std::stod(m.to), std::stod(m.from)) << f.id << ": " << m.from << " -> " << m.to;
      if (f.id == "runtime_oom_unprofiled_memory" && m.change == "max-num-seqs") seqs = true;
      if (f.id == "runtime_oom_unprofiled_memory" && m.change == "max-num-batched-tokens") budget = true;
    }
  EXPECT_TRUE(seqs);
  EXPECT_TRUE(budget);
}

// `diagnose --bench run-fault --baseline-bench run-healthy`: the same request set, TTFT p50 0.42 ->
// 16.9 s, TPOT flat. Before, inside the default SLO's reach nothing located a cause and the exit
// was 0; the records' own signature is a queue before the first token.
TEST(Diagnose, TtftUpWithTpotFlatAgainstABaselineIsAQueueAndExitsOne) {
  DiagnoseInput in;
  in.what_if = false;
  core::Evidence base;
  for (int i = 0; i < 200; ++i) {
    in.now.requests.push_back(ok(i * 0.5, 16.9 + 0.01 * (i % 7)));
    base.requests.push_back(ok(i * 0.5, 0.42 + 0.01 * (i % 7)));
  }
  in.baseline = base;
  const Report r = diagnose(in);
  EXPECT_TRUE(r.symptoms_detected);
  EXPECT_NE(std::find(r.symptoms.begin(), r.symptoms.end(), Symptom::ttft_spike), r.symptoms.end());
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "queue_from_records");
  EXPECT_EQ(r.findings[0].layer, Layer::scheduling_capacity);
  EXPECT_EQ(r.exit_code(), 1);
}

TEST(Diagnose, SymptomsDetectedWithNoCauseLocatedExitOne) {
  // TTFT and TPOT both tripled against the baseline: not the queue signature; whatever the
  // analyzers make of it, symptoms seen in the evidence are not a healthy exit.
  DiagnoseInput in;
  in.what_if = false;
  core::Evidence base;
  for (int i = 0; i < 50; ++i) {
    core::RequestRecord a = ok(i, 0.9), b = ok(i, 0.3);
    a.e2e_s = 0.9 + 0.06 * 99;
    in.now.requests.push_back(a);
    base.requests.push_back(b);
  }
  in.baseline = base;
  const Report r = diagnose(in);
  ASSERT_FALSE(r.symptoms.empty());
  EXPECT_FALSE(has(r, "queue_from_records"));
  EXPECT_EQ(r.exit_code(), 1);
  // Given symptoms are the operator's word, not evidence: the exit follows the findings alone.
  DiagnoseInput given;
  given.symptoms = {Symptom::ttft_spike};
  EXPECT_EQ(diagnose(given).exit_code(), 0);
}

TEST(Diagnose, NoEvidenceJudgesNothingAndSaysWhy) {
  DiagnoseInput in;
  const auto r = diagnose(in);
  EXPECT_TRUE(r.symptoms_detected);
  EXPECT_TRUE(r.symptoms.empty());
  EXPECT_TRUE(r.findings.empty());
  ASSERT_EQ(r.layers.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r.layers[i].layer, all_layers()[i]);
    EXPECT_EQ(r.layers[i].state, LayerVerdict::State::not_judged) << to_string(r.layers[i].layer);
    EXPECT_FALSE(r.layers[i].why.empty());
  }
  EXPECT_GE(r.missing.size(), 5u);
  EXPECT_EQ(r.exit_code(), 0);
}

TEST(Diagnose, DetectsSymptomsFromTheSloMostSpecificFirst) {
  DiagnoseInput in;
  for (int i = 0; i < 100; ++i) in.now.requests.push_back(ok(i * 0.1, i < 95 ? 0.5 : 4.0));
  for (int i = 0; i < 20; ++i) in.now.requests.push_back(timed_out(10 + i * 0.1, 5.0 + 0.01 * (i % 3), "t" + std::to_string(i)));
  const auto r = diagnose(in);
  ASSERT_TRUE(r.symptoms_detected);
  ASSERT_GE(r.symptoms.size(), 2u);
  EXPECT_EQ(r.symptoms[0], Symptom::timeout_or_stream_break);
  EXPECT_EQ(r.symptoms[1], Symptom::ttft_spike);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "gateway_timeout_below_ttft_p99");
  EXPECT_EQ(r.findings[0].layer, Layer::gateway_client);
  EXPECT_EQ(r.exit_code(), 1);
  // A stricter SLO is the operator's to set.
  in.slo.ttft_p99_s = 10;
  const auto r2 = diagnose(in);
  EXPECT_EQ(std::count(r2.symptoms.begin(), r2.symptoms.end(), Symptom::ttft_spike), 0);
}

TEST(Diagnose, APreemptionStormDilutedOverALongWindowIsStillDetected) {
  DiagnoseInput in;
  // 160 preemptions for 300 finished requests over 2100 s: 0.08/s, but every other request recomputed.
  for (int t = 0; t <= 1; ++t) {
    core::EngineSample s;
    s.t_s = t * 2100.0;
    s.preemptions_total = t * 160.0;
    s.requests_finished_total = t * 300.0;
    in.now.engine_samples.push_back(s);
  }
  const auto r = diagnose(in);
  EXPECT_NE(std::find(r.symptoms.begin(), r.symptoms.end(), Symptom::runtime_oom_or_preemption), r.symptoms.end());
}

TEST(Diagnose, GivenSymptomsAreKeptAndRankFindings) {
  DiagnoseInput in;
  in.symptoms = {Symptom::output_quality};
  in.now.outputs = {"<|im_start|>assistant\nHello", "<|im_start|>assistant\nHi", "fine"};
  ASSERT_TRUE(add_observation(in.observations, "client_retry_rate=0.4", "--observe").ok());
  const auto r = diagnose(in);
  EXPECT_FALSE(r.symptoms_detected);
  EXPECT_EQ(r.symptoms, std::vector<Symptom>{Symptom::output_quality});
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].id, "chat_template_mismatch");  // answers the reported symptom
  EXPECT_TRUE(has(r, "client_retry_storm"));               // still reported, ranked below
  EXPECT_EQ(verdict(r, Layer::numeric_parameter).state, LayerVerdict::State::at_fault);
  bool observe_listed = false;
  for (const auto& i : r.inputs) observe_listed |= i.kind == "observe";
  EXPECT_TRUE(observe_listed);
}

TEST(Diagnose, UpstreamLayerRanksFirstForTheSameSymptom) {
  DiagnoseInput in;
  in.symptoms = {Symptom::timeout_or_stream_break};
  core::Evidence base;
  for (int i = 0; i < 50; ++i) base.requests.push_back(ok(i, 0.3, 500));
  in.baseline = base;
  // Twice the arrival rate, and a gateway deadline below the tail.
  for (int i = 0; i < 100; ++i) in.now.requests.push_back(ok(i * 0.5, 0.3, 500));
  for (int i = 0; i < 10; ++i) in.now.requests.push_back(timed_out(50 + i * 0.1, 5.0, "t" + std::to_string(i)));
  const auto r = diagnose(in);
  ASSERT_TRUE(has(r, "request_rate_increase"));
  ASSERT_TRUE(has(r, "gateway_timeout_below_ttft_p99"));
  EXPECT_EQ(r.findings[0].id, "request_rate_increase");
  EXPECT_EQ(r.findings[0].layer, Layer::load);
}

TEST(Diagnose, DisagreementBetweenAReadingAndTheMetricsIsAFinding) {
  DiagnoseInput in;
  for (int t = 0; t < 3; ++t) {
    core::EngineSample s;
    s.t_s = t * 10;
    s.running = 20;
    s.waiting = 40;
    s.kv_usage = 0.5;
    in.now.engine_samples.push_back(s);
  }
  ASSERT_TRUE(add_observation(in.observations, "waiting=2", "--observe").ok());
  ASSERT_TRUE(add_observation(in.observations, "running=21", "--observe").ok());
  const auto r = diagnose(in);
  ASSERT_TRUE(has(r, "evidence_disagreement"));
  for (const auto& f : r.findings)
    if (f.id == "evidence_disagreement") {
      EXPECT_EQ(f.severity, Severity::info);
      EXPECT_EQ(f.layer, Layer::scheduling_capacity);
      ASSERT_EQ(f.evidence.size(), 2u);
      EXPECT_EQ(f.evidence[0].indicator, "waiting");  // running agrees (21 vs 20): no finding for it
    }
}

// Metrics count preemptions in a window; the log's preemption lines are compared with it only
// when both are on the same clock.
TEST(Diagnose, PreemptionsInMetricsButNotInTheLogWindowDisagreeOnlyOnOneClock) {
  for (const char* base : {"", "unix", "relative"}) {
    DiagnoseInput in;
    for (int t = 0; t < 3; ++t) {
      core::EngineSample s;
      s.t_s = 1.7e9 + t * 10;  // a live scrape: unix seconds
      s.running = 4;
      s.preemptions_total = 5.0 * t;
      in.now.engine_samples.push_back(s);
    }
    core::Event e;
    e.kind = core::EventKind::preemption;
    e.t_s = 12.0;  // far outside the window on the unix clock
    e.source = "vllm.log:40";
    if (*base) e.labels["time_base"] = base;
    in.now.events = {e};
    const auto r = diagnose(in);
    bool disagree = false;
    for (const auto& f : r.findings) disagree |= f.id == "evidence_disagreement" && f.title.find("reempt") != std::string::npos;
    EXPECT_EQ(disagree, std::string(base) != "relative") << "time_base '" << base << "'";
  }
}

TEST(Diagnose, KvCapacityFromMetricsAndLogsDisagreeing) {
  DiagnoseInput in;
  core::EngineSample s;
  s.kv_cache_capacity_tokens = 500000;
  in.now.engine_samples = {s};
  core::Event e;
  e.kind = core::EventKind::startup_memory;
  e.source = "other.log:3";
  e.fields["kv_tokens"] = 120000;
  in.now.events = {e};
  const auto r = diagnose(in);
  ASSERT_TRUE(has(r, "evidence_disagreement"));
  EXPECT_NE(r.findings.back().title.find("KV cache capacity"), std::string::npos);
  // Token counts read whole, not in exponent notation.
  EXPECT_NE(r.findings.back().title.find("500000"), std::string::npos) << r.findings.back().title;
  EXPECT_NE(r.findings.back().title.find("120000"), std::string::npos) << r.findings.back().title;
}

TEST(Diagnose, LiveSevereFindingPutsCaptureBeforeRestartFirst) {
  DiagnoseInput in;
  in.live = true;
  in.snapshot_path = "/tmp/llmtriage-snapshot-1.json";
  ASSERT_TRUE(add_observation(in.observations, "gateway_timeout_s=5", "--observe").ok());
  ASSERT_TRUE(add_observation(in.observations, "ttft_p99_s=9", "--observe").ok());
  const auto r = diagnose(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings[0].id, "gateway_timeout_below_ttft_p99");
  ASSERT_GE(r.findings[0].remedies.size(), 2u);
  EXPECT_EQ(r.findings[0].remedies[0].change, "capture before restart");
  EXPECT_NE(r.findings[0].remedies[0].to.find("/tmp/llmtriage-snapshot-1.json"), std::string::npos);
  EXPECT_EQ(r.snapshot_path, in.snapshot_path);
  in.live = false;
  EXPECT_EQ(diagnose(in).findings[0].remedies[0].change, "gateway timeout");
}

TEST(Diagnose, ABrokenRuleCostsOnlyItsLayer) {
  DiagnoseInput in;
  in.thresholds.values.erase("load.length_shift_ratio");
  in.now.outputs = {"<|eot_id|> hi"};
  ASSERT_TRUE(add_observation(in.observations, "input_len_mean=300", "--observe").ok());
  ASSERT_TRUE(add_observation(in.observations, "baseline_input_len_mean=300", "--observe").ok());
  const auto r = diagnose(in);
  EXPECT_EQ(verdict(r, Layer::load).state, LayerVerdict::State::not_judged);
  EXPECT_NE(verdict(r, Layer::load).why.find("internal error"), std::string::npos);
  EXPECT_TRUE(has(r, "chat_template_mismatch"));
}

TEST(Diagnose, UnreadableInputsAreListedAsMissing) {
  DiagnoseInput in;
  in.now.inputs.push_back({"vllm.log", "log", false, "cannot open: No such file or directory"});
  const auto r = diagnose(in);
  ASSERT_EQ(r.inputs.size(), 1u);
  EXPECT_FALSE(r.inputs[0].ok);
  bool listed = false;
  for (const auto& m : r.missing) listed |= m.find("vllm.log") != std::string::npos;
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace llmtriage::diagnose
