// The remedy plan (src/diagnose/plan.h): searched by the simulator what-if, one variable per step.
// The simulator is deterministic with its fixed seed, so each plan is checked by re-simulating it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "diagnose/diagnose.h"
#include "diagnose/plan.h"
#include "diagnose/whatif.h"
#include "diagnose_capacity/capacity_helpers.h"
#include "sim/scenario.h"
#include "sim/simulation.h"

namespace llmtriage::diagnose {
namespace {

using testing::Case;

// 300 requests at 40 req/s, 2000-token prompts and 200-token answers: one H100 replica of
// Llama-3.1-8B queues (its prefill alone is most of a second per second), a few replicas do not.
std::vector<core::RequestRecord> busy_records(double rate) {
  std::vector<core::RequestRecord> out;
  for (int i = 0; i < 300; ++i) {
    core::RequestRecord r;
    r.id = "r" + std::to_string(i);
    r.arrival_s = i / rate;
    r.input_tokens = 1500 + (i * 37) % 1000;
    r.output_tokens = 150 + (i * 13) % 100;
    out.push_back(r);
  }
  return out;
}

Case overloaded(double rate = 40) {
  Case c;
  c.in.what_if = true;
  auto& d = c.in.now.deployment;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  d.engine = core::EngineKind::vllm;
  d.settings.max_model_len = 8192;
  c.in.now.requests = busy_records(rate);
  c.set({{"replicas", 1}, {"ttft_p99_s", 30}});
  return c;
}

Remedy change(const std::string& var, const std::string& from, const std::string& to) {
  Remedy r;
  r.change = var;
  r.from = from;
  r.to = to;
  r.basis = "qualitative";
  return r;
}

Report report_with(std::vector<Remedy> remedies) {
  Report rep;
  Finding f;
  f.id = "queue_backlog";
  f.layer = Layer::scheduling_capacity;
  f.symptom = Symptom::ttft_spike;
  f.severity = Severity::warning;
  f.remedies = std::move(remedies);
  rep.findings.push_back(f);
  return rep;
}

bool meets(const Prediction& p, const PlanObjective& o) {
  return p.starts && p.ttft_p99_s <= o.ttft_p99_s && p.tpot_p99_s <= o.tpot_p99_s;
}

// Every step improves the objective on the state before it (never a change predicted worse).
void expect_monotone(const RemedyPlan& p) {
  double before = std::max(p.before.ttft_p99_s / p.objective.ttft_p99_s, p.before.tpot_p99_s / p.objective.tpot_p99_s);
  for (const auto& s : p.steps) {
    const double after = std::max(s.after.ttft_p99_s / p.objective.ttft_p99_s, s.after.tpot_p99_s / p.objective.tpot_p99_s);
    EXPECT_LT(after, before) << s.change << " " << s.from << " -> " << s.to;
    before = after;
  }
}

TEST(RemedyPlan, ReplicaCountIsTheSmallestThatMeetsTheObjective) {
  Case c = overloaded();
  Report rep = report_with({change("replicas", "1", "2")});
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  ASSERT_TRUE(p.computed) << p.why_not;
  EXPECT_EQ(p.objective.basis, "slo");
  EXPECT_EQ(p.objective.ttft_p99_s, c.in.slo.ttft_p99_s);
  EXPECT_GT(p.before.ttft_p99_s, p.objective.ttft_p99_s) << "the scenario must breach the objective";
  ASSERT_TRUE(p.met) << p.shortfall << " " << p.notes;
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.met_at_step, std::optional<size_t>(1));
  const PlanStep& s = p.steps[0];
  EXPECT_EQ(s.change, "replicas");
  EXPECT_EQ(s.from, "1");
  const int n = std::stoi(s.to);
  ASSERT_GE(n, 2);
  EXPECT_TRUE(s.met);
  EXPECT_EQ(s.after.gpus, n);
  ASSERT_TRUE(s.after.goodput_rps.has_value());
  // Re-simulated: n meets the objective at the observed load and with 10% more (the headroom for
  // the simulator's throughput uncertainty); n - 1 does not meet it with 10% more.
  auto w = whatif_replay_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok()) << w.error().message();
  const double more = 1 + kSimThroughputUncertainty;
  auto at = predict_changed(*w, [n](sim::Scenario& x) { x.config.replicas = n; });
  auto at_more = predict_changed(*w, [&](sim::Scenario& x) { x.config.replicas = n; scale_load(x, more); });
  auto below_more = predict_changed(*w, [&](sim::Scenario& x) { x.config.replicas = n - 1; scale_load(x, more); });
  auto below = predict_changed(*w, [n](sim::Scenario& x) { x.config.replicas = n - 1; });
  ASSERT_TRUE(at.ok() && at_more.ok() && below_more.ok() && below.ok());
  EXPECT_TRUE(meets(*at, p.objective));
  EXPECT_TRUE(meets(*at_more, p.objective)) << n << " replicas leave no headroom";
  EXPECT_FALSE(meets(*below_more, p.objective)) << n - 1 << " replicas already meet it with 10% more load";
  // Raised above the bare minimum only with the reason said.
  EXPECT_EQ(meets(*below, p.objective), s.sizing.find("more load than observed") != std::string::npos) << s.sizing;
  EXPECT_DOUBLE_EQ(at->ttft_p99_s, s.after.ttft_p99_s);
  EXPECT_LE(p.simulations, 51);
  // The finding's own replica remedy is re-sized by the same search, not by a rule of thumb.
  const Remedy& r = rep.findings[0].remedies[0];
  EXPECT_EQ(r.change, "replicas");
  EXPECT_EQ(r.to, s.to);
  EXPECT_EQ(r.basis, "sim");
  EXPECT_EQ(outcome(r), Outcome::improves);
}

TEST(RemedyPlan, ReachesTheObjectiveInThePredictedNumberOfSteps) {
  // A tighter TTFT objective and two proposals: replay the plan's steps one at a time and check
  // that the objective is met exactly from the step the plan says, with the predicted numbers.
  Case c = overloaded(30);
  c.in.slo.ttft_p99_s = 1.0;
  Report rep = report_with({change("enable-chunked-prefill", "false", "true"), change("replicas", "1", "2"),
                            change("kv-cache-dtype", "auto", "fp8")});
  c.in.now.deployment.settings.enable_chunked_prefill = false;
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  ASSERT_TRUE(p.computed) << p.why_not;
  EXPECT_EQ(p.objective.text.find("the SLO given") != std::string::npos, true) << p.objective.text;
  ASSERT_TRUE(p.met) << p.shortfall;
  ASSERT_TRUE(p.met_at_step.has_value());
  ASSERT_FALSE(p.steps.empty()) << "the scenario must breach the objective";
  ASSERT_EQ(*p.met_at_step, p.steps.size());
  expect_monotone(p);
  auto w = whatif_replay_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok());
  int replicas = 1;
  std::optional<bool> chunked;
  std::string kv = "auto";
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const auto& s = p.steps[i];
    if (s.change == "replicas") replicas = std::stoi(s.to);
    else if (s.change == "enable-chunked-prefill") chunked = s.to == "true";
    else if (s.change == "kv-cache-dtype") kv = s.to;
    else ADD_FAILURE() << "a step not proposed: " << s.change;
    auto pr = predict_changed(*w, [&](sim::Scenario& x) {
      x.config.replicas = replicas;
      if (chunked) x.chunked_prefill = *chunked;
      if (kv != "auto") x.deployment.kv_cache_dtype = kv;
    });
    ASSERT_TRUE(pr.ok());
    EXPECT_DOUBLE_EQ(pr->ttft_p99_s, s.after.ttft_p99_s) << "step " << i + 1;
    EXPECT_EQ(meets(*pr, p.objective), i + 1 == *p.met_at_step) << "step " << i + 1;
    EXPECT_EQ(s.met, i + 1 == *p.met_at_step);
  }
}

TEST(RemedyPlan, AChangeThatSavesReplicasComesBeforeThem) {
  // A batch cap of 8 on an H100 whose pool holds far more: raising it alone does not meet the
  // objective (the prompts need several replicas' prefill), but with it fewer replicas do. The
  // plan takes the change first and sizes the replicas from that state: fewer GPUs than the
  // replicas alone, for the same objective.
  Case c = overloaded();
  c.in.now.deployment.settings.max_num_seqs = 8;
  Report alone = report_with({change("replicas", "1", "2")});
  const RemedyPlan pa = plan_remedies(c.in, c.ind, alone);
  ASSERT_TRUE(pa.met) << pa.shortfall << " " << pa.notes;
  ASSERT_EQ(pa.steps.size(), 1u);
  Report both = report_with({change("max-num-seqs", "8", "16"), change("replicas", "1", "2")});
  const RemedyPlan p = plan_remedies(c.in, c.ind, both);
  ASSERT_TRUE(p.met) << p.shortfall << " " << p.notes;
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.steps[0].change, "max-num-seqs");
  EXPECT_FALSE(p.steps[0].met);
  EXPECT_NE(p.steps[0].sizing.find("replicas meet the objective instead of "), std::string::npos) << p.steps[0].sizing;
  EXPECT_EQ(p.steps[1].change, "replicas");
  EXPECT_TRUE(p.steps[1].met);
  EXPECT_LT(p.steps[1].after.gpus, pa.steps[0].after.gpus);
  expect_monotone(p);
  EXPECT_LE(p.simulations, 51);
}

TEST(RemedyPlan, NoLatencyPlanForAThroughputFindingWithoutASimulatedChange) {
  // A benchmark on another length mix: the fix is an expectation, not a server change; sizing the
  // other findings' replicas against a P99 latency objective would answer another question.
  Case c = overloaded();
  Report rep = report_with({change("benchmark length mix", "the benchmark's", "production: 2000 in / 200 out")});
  rep.findings[0].id = "benchmark_mix_mismatch";
  rep.findings[0].layer = Layer::load;
  rep.findings[0].symptom = Symptom::throughput_low;
  Finding other = report_with({change("replicas", "1", "2")}).findings[0];
  rep.findings.push_back(other);
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  EXPECT_FALSE(p.computed);
  EXPECT_NE(p.why_not.find("about throughput"), std::string::npos) << p.why_not;
  EXPECT_EQ(rep.findings[1].remedies[0].to, "2");  // left as the rule wrote it
  // The same finding with a change the simulator applies is planned.
  rep.findings[0].remedies.push_back(change("max-num-seqs", "256", "512"));
  EXPECT_TRUE(plan_remedies(c.in, c.ind, rep).computed);
}

TEST(RemedyPlan, ALoweredBatchCapForTheTpotIsSizedBySearchAndOnlyThere) {
  // A TPOT objective the observed batch breaks: batch_too_large's "half the running batch" is
  // replaced by the largest cap whose predicted P99 TPOT meets it; a preemption finding's cap
  // (the batch the KV pool holds) answers another question and is left as its rule sized it.
  Case c = overloaded();
  c.in.slo.tpot_p99_s = 0.012;
  Report rep = report_with({change("max-num-seqs", "256", "128"), change("replicas", "1", "2")});
  rep.findings[0].id = "batch_too_large";
  rep.findings[0].symptom = Symptom::tpot_high;
  Finding pre = report_with({change("max-num-seqs", "256", "40")}).findings[0];
  pre.id = "preemption_storm";
  pre.symptom = Symptom::runtime_oom_or_preemption;
  rep.findings.push_back(pre);
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  ASSERT_TRUE(p.computed) << p.why_not;
  auto w = whatif_replay_setup(c.in, c.ind);
  ASSERT_TRUE(w.ok());
  const Remedy* sized = nullptr;
  for (const auto& r : rep.findings[0].remedies)
    if (r.change == "max-num-seqs") sized = &r;
  ASSERT_NE(sized, nullptr);
  ASSERT_NE(sized->predicted_effect.find("the largest batch cap whose P99 TPOT meets the objective"), std::string::npos)
      << sized->predicted_effect;
  const int64_t n = std::stoll(sized->to);
  ASSERT_GE(n, 1);
  ASSERT_LT(n, 256);
  auto at = predict_changed(*w, [n](sim::Scenario& x) { x.max_num_seqs = n; });
  ASSERT_TRUE(at.ok());
  EXPECT_LE(at->tpot_p99_s, c.in.slo.tpot_p99_s);
  EXPECT_EQ(rep.findings[1].remedies[0].to, "40");  // the preemption finding's, untouched
}

TEST(RemedyPlan, AChangePredictedWorseIsNeverAStep) {
  // Less GPU memory for the KV pool only hurts an overloaded replica: it is no step, and with
  // nothing else proposed the plan says it does not reach the objective, and by how much.
  Case c = overloaded();
  Report rep = report_with({change("gpu-memory-utilization", "0.90", "0.40")});
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  ASSERT_TRUE(p.computed) << p.why_not;
  EXPECT_TRUE(p.steps.empty());
  EXPECT_FALSE(p.met);
  EXPECT_NE(p.shortfall.find("P99 TTFT"), std::string::npos) << p.shortfall;
  EXPECT_NE(p.notes.find("no remaining candidate improves"), std::string::npos) << p.notes;
  // With replicas proposed too, the worse change is still left out.
  Report rep2 = report_with({change("gpu-memory-utilization", "0.90", "0.40"), change("replicas", "1", "2")});
  const RemedyPlan p2 = plan_remedies(c.in, c.ind, rep2);
  ASSERT_TRUE(p2.met);
  for (const auto& s : p2.steps) EXPECT_NE(s.change, "gpu-memory-utilization");
  expect_monotone(p2);
}

TEST(RemedyPlan, NoPlanWithoutAWhatIfAndTheReportSaysWhy) {
  Case c = overloaded();
  c.in.what_if = false;
  Report rep = report_with({change("replicas", "1", "2")});
  RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  EXPECT_FALSE(p.computed);
  EXPECT_NE(p.why_not.find("--no-what-if"), std::string::npos) << p.why_not;
  EXPECT_EQ(rep.findings[0].remedies[0].to, "2");  // left as the rule wrote it

  Case nomodel = overloaded();
  nomodel.in.now.deployment.model.clear();
  p = plan_remedies(nomodel.in, nomodel.ind, rep);
  EXPECT_FALSE(p.computed);
  EXPECT_NE(p.why_not.find("no simulator what-if"), std::string::npos) << p.why_not;

  Report qualitative_only = report_with({change("router", "round-robin", "prefix-affinity")});
  p = plan_remedies(overloaded().in, overloaded().ind, qualitative_only);
  EXPECT_FALSE(p.computed);
  EXPECT_NE(p.why_not.find("no finding proposes"), std::string::npos) << p.why_not;
}

TEST(RemedyPlan, ObjectiveIsTheBaselineWhenNoSloIsGiven) {
  Case c = overloaded();
  c.base({{"ttft_p99_s", 3.0}, {"tpot_p99_s", 0.02}});
  Report rep = report_with({change("replicas", "1", "2")});
  const RemedyPlan p = plan_remedies(c.in, c.ind, rep);
  ASSERT_TRUE(p.computed);
  EXPECT_EQ(p.objective.basis, "baseline");
  EXPECT_DOUBLE_EQ(p.objective.ttft_p99_s, 3.0);                 // the baseline, looser than the SLO's 2 s
  EXPECT_DOUBLE_EQ(p.objective.tpot_p99_s, c.in.slo.tpot_p99_s);  // the SLO, looser than the baseline
}

TEST(RemedyPlan, DiagnoseAttachesThePlanToTheReport) {
  Case c = overloaded();
  c.in.symptoms = {Symptom::ttft_spike};
  c.in.now.deployment.settings.max_num_seqs = 256;
  // Engine samples: a deep queue with KV to spare (queue_backlog, replicas proposed).
  for (int i = 0; i < 30; ++i) {
    core::EngineSample s;
    s.t_s = i;
    s.running = 40;
    s.waiting = 60;
    s.kv_usage = 0.5;
    c.in.now.engine_samples.push_back(s);
  }
  const Report rep = diagnose(c.in);
  ASSERT_FALSE(rep.findings.empty());
  EXPECT_EQ(rep.plan.finding_id, rep.findings.front().id);
  ASSERT_TRUE(rep.plan.computed) << rep.plan.why_not;
  EXPECT_TRUE(rep.plan.met) << rep.plan.shortfall;
  expect_monotone(rep.plan);
}

}  // namespace
}  // namespace llmtriage::diagnose

namespace llmtriage::diagnose {
namespace {

// The reference case (data/scenarios/long-context-launch.json) run offline in the simulator and
// split at the fault's onset into baseline and incident, as the drill does (src/drill/sim_case.cpp):
// the plan is computed, each step improves the objective, and the report says whether it is met.
DiagnoseInput reference_case_input() {
  DiagnoseInput in;
  auto sc = sim::load_scenario("long-context-launch");
  EXPECT_TRUE(sc.ok()) << (sc.ok() ? "" : sc.error().message());
  if (!sc.ok()) return in;
  auto run = sim::run_simulation(sc->config);
  EXPECT_TRUE(run.ok());
  if (!run.ok()) return in;
  core::Deployment d;
  d.model = sc->deployment.model;
  d.gpu = sc->deployment.gpu;
  d.engine = core::EngineKind::vllm;
  d.num_gpus = sc->deployment.tp * sc->config.replicas;
  d.settings.tensor_parallel_size = sc->deployment.tp;
  d.settings.data_parallel_size = sc->config.replicas;
  d.settings.max_model_len = sc->config.max_model_len;
  d.settings.max_num_seqs = sc->config.scheduler.max_num_seqs;
  d.settings.max_num_batched_tokens = sc->config.scheduler.max_num_batched_tokens;
  d.settings.enable_chunked_prefill = sc->config.scheduler.chunked_prefill;
  d.settings.gpu_memory_utilization = sc->deployment.gpu_memory_utilization;
  const double onset = 60;  // the long_prompt_burst fault's start_s
  core::Evidence now, base;
  now.deployment = base.deployment = d;
  for (auto s : run->samples) {
    s.engine = core::EngineKind::vllm;
    (s.t_s < onset ? base : now).engine_samples.push_back(s);
  }
  for (const auto& r : run->records) (r.arrival_s < onset ? base : now).requests.push_back(r);
  in.now = std::move(now);
  in.baseline = std::move(base);
  in.symptoms = {Symptom::ttft_spike};
  return in;
}

TEST(RemedyPlan, ReferenceCaseLongContextLaunch) {
  const DiagnoseInput in = reference_case_input();
  const Report rep = diagnose(in);
  ASSERT_FALSE(rep.findings.empty());
  const RemedyPlan& p = rep.plan;
  ASSERT_TRUE(p.computed) << p.why_not;
  EXPECT_EQ(p.finding_id, rep.findings.front().id);
  EXPECT_EQ(p.objective.basis, "baseline");
  EXPECT_GT(p.before.ttft_p99_s, p.objective.ttft_p99_s) << "the simulated incident must breach the objective";
  expect_monotone(p);
  EXPECT_LE(p.steps.size(), 4u);
  EXPECT_LE(p.simulations, 31);
  if (p.met) EXPECT_TRUE(p.met_at_step.has_value());
  else EXPECT_FALSE(p.shortfall.empty());
  // No remedy keeps the proportional replica count (2 -> 34 for 16.6x longer prompts).
  for (const auto& f : rep.findings)
    for (const auto& r : f.remedies)
      if (r.change == "replicas") {
        EXPECT_EQ(r.basis, "sim") << f.id << ": replicas " << r.from << " -> " << r.to;
      }
  if (std::getenv("LLMTRIAGE_PRINT_PLAN")) {
    std::printf("top %s; objective %s\nbefore: P99 TTFT %.3f s P50 %.3f s P99 TPOT %.4f s %.0f tok/s\n", p.finding_id.c_str(),
                p.objective.text.c_str(), p.before.ttft_p99_s, p.before.ttft_p50_s, p.before.tpot_p99_s,
                p.before.output_tokens_per_s);
    for (const auto& s : p.steps)
      std::printf("  %s %s -> %s: P99 TTFT %.3f s P50 %.3f s P99 TPOT %.4f s %.0f tok/s goodput %.2f gpus %d met %d [%s]\n",
                  s.change.c_str(), s.from.c_str(), s.to.c_str(), s.after.ttft_p99_s, s.after.ttft_p50_s,
                  s.after.tpot_p99_s, s.after.output_tokens_per_s, s.after.goodput_rps.value_or(-1), s.after.gpus, s.met,
                  s.sizing.c_str());
    std::printf("met %d at %d; shortfall %s; notes %s; sims %d\n", p.met, p.met_at_step ? int(*p.met_at_step) : -1,
                p.shortfall.c_str(), p.notes.c_str(), p.simulations);
    for (const auto& f : rep.findings)
      for (const auto& r : f.remedies)
        if (r.change == "replicas") std::printf("%s: replicas %s -> %s\n", f.id.c_str(), r.from.c_str(), r.to.c_str());
  }
}

}  // namespace
}  // namespace llmtriage::diagnose
