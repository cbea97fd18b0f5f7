// analyze_scheduling: indicator tables -> finding ids and the layer verdict (docs/rules.md,
// "Layer: scheduling_capacity"). What-ifs are off here (whatif_test.cpp covers them).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "diagnose_capacity/capacity_helpers.h"

namespace llmtriage::diagnose {
namespace {

using testing::Case;
using testing::Row;
using State = LayerVerdict::State;

core::Event event(core::EventKind k, const std::string& text, std::map<std::string, double> fields = {},
                  std::map<std::string, std::string> labels = {}) {
  core::Event e;
  e.kind = k;
  e.source = "vllm.log:42";
  e.text = text;
  e.fields = std::move(fields);
  e.labels = std::move(labels);
  return e;
}

const std::vector<Row>& scheduling_rows() {
  static const std::vector<Row> r = {
      {"no evidence: not judged", [](Case&) {}, {}, State::not_judged},
      {"healthy queue: cleared", [](Case& c) { c.set({{"waiting_p50", 0}, {"kv_usage", 0.4}, {"running", 20}}); }, {},
       State::cleared},
      {"deep queue, pool full: saturated",
       [](Case& c) { c.set({{"waiting_p50", 40}, {"kv_usage", 0.97}, {"running", 60}}); }, {"kv_pool_saturated"},
       State::at_fault},
      {"deep queue, pool half used: not the pool, but a backlog (the layer is not healthy)",
       [](Case& c) { c.set({{"waiting_p50", 40}, {"kv_usage", 0.5}}); }, {"queue_backlog"}, State::at_fault},
      {"deep queue, batch at max-num-seqs, KV to spare: the batch cap binds",
       [](Case& c) {
         c.set({{"waiting_p50", 150}, {"kv_usage", 0.3}, {"running_max", 64}, {"max_num_seqs", 64},
                {"kv_capacity_tokens", 450000}, {"input_len_mean", 1500}, {"output_len_mean", 300}});
       },
       {"kv_pool_saturated"}, State::at_fault},
      {"deep queue, KV low, batch far below its cap: not the pool or the cap, a backlog",
       [](Case& c) { c.set({{"waiting_p50", 150}, {"kv_usage", 0.3}, {"running_max", 10}, {"max_num_seqs", 256}}); },
       {"queue_backlog"}, State::at_fault},
      {"llama.cpp: 8 waiting behind 4 busy slots is a queue (relative to the slots, not an absolute 10)",
       [](Case& c) { c.set({{"waiting_p50", 8}, {"running", 4}, {"running_max", 4}, {"max_num_seqs", 4}}); },
       {"kv_pool_saturated"}, State::at_fault},
      {"2 waiting behind 4 slots: half a service time of queueing is a queue",
       [](Case& c) { c.set({{"waiting_p50", 2}, {"running", 4}, {"running_max", 4}, {"max_num_seqs", 4}}); },
       {"kv_pool_saturated"}, State::at_fault},
      {"llama.cpp: 1 deferred behind 1 busy slot, yet the clients hold 3 more: the queue its HTTP threads hide",
       [](Case& c) {
         c.set({{"waiting_p50", 1}, {"running", 1}, {"running_max", 1}, {"max_num_seqs", 1}, {"waiting_client", 3}});
       },
       {"kv_pool_saturated"}, State::at_fault},
      {"1 waiting behind 1 slot: arrival jitter, not a queue (floor sched.waiting_deep_min)",
       [](Case& c) { c.set({{"waiting_p50", 1}, {"running", 1}, {"running_max", 1}, {"max_num_seqs", 1}}); }, {},
       State::cleared},
      {"8 waiting behind 256 running with KV to spare: short for that batch (ceiling sched.waiting_deep)",
       [](Case& c) { c.set({{"waiting_p50", 8}, {"running", 256}, {"running_max", 256}, {"kv_usage", 0.5}}); }, {},
       State::cleared},
      {"prompts + max_tokens above the slot's context, outputs cut at the limit",
       [](Case& c) {
         c.set({{"requests_over_context_share", 0.6}, {"outputs_cut_at_context", 12}, {"max_model_len", 512},
                {"longest_request_tokens", 700}});
       },
       {"request_exceeds_context"}, State::at_fault},
      {"asking for more than the context but all served (the engine did not stop them): nothing lost",
       [](Case& c) { c.set({{"requests_over_context_share", 0.6}, {"outputs_cut_at_context", 0}, {"max_model_len", 512}}); },
       {}, State::cleared},
      {"a few waiting: no backlog",
       [](Case& c) { c.set({{"waiting_p50", 4}, {"kv_usage", 0.3}}); }, {}, State::cleared},
      {"deep queue with a preemption storm: one finding, the storm",
       [](Case& c) { c.set({{"waiting_p50", 30}, {"kv_usage", 0.98}, {"kv_usage_max", 1.0}, {"preemptions_per_s", 2}}); },
       {"preemption_storm"}, State::at_fault},
      {"200 running under a cap of 1024, TPOT high: large in absolute terms",
       [](Case& c) { c.set({{"tpot_p99_s", 0.08}, {"running", 200}, {"max_num_seqs", 1024}}); c.in.slo.tpot_p99_s = 0.05; },
       {"batch_too_large"}, State::at_fault},
      {"deep queue observed on a dashboard",
       [](Case& c) { c.set({{"waiting", 25}, {"kv_usage", 0.95}}, "observe"); }, {"kv_pool_saturated"}, State::at_fault},
      {"preemptions with the pool full: storm",
       [](Case& c) {
         c.set({{"preemptions_per_s", 3}, {"kv_usage_max", 0.99}, {"running_max", 200}, {"input_len_mean", 1000},
                {"output_len_mean", 500}, {"kv_capacity_tokens", 100000}, {"max_num_seqs", 256}});
       },
       {"preemption_storm"}, State::at_fault},
      {"preemptions from log events over the window",
       [](Case& c) { c.set({{"preemption_events", 120}, {"window_s", 60}, {"kv_usage_max", 0.97}}); },
       {"preemption_storm"}, State::at_fault},
      {"preemptions with a half-empty pool: not KV pressure",
       [](Case& c) { c.set({{"preemptions_per_s", 3}, {"kv_usage_max", 0.5}}); }, {}, State::cleared},
      {"slow engine preempting half its requests: a storm by preemptions per request",
       [](Case& c) {
         c.set({{"preemptions_per_s", 0.076}, {"request_rate", 0.143}, {"kv_usage_max", 1.0}, {"waiting_p50", 124},
                {"kv_usage", 0.94}});
       },
       {"preemption_storm"}, State::at_fault},
      {"hit rate 0.79 -> 0.47 across 4 replicas: partial loss is routing",
       [](Case& c) {
         c.set({{"replicas", 4}, {"prefix_cache_hit_rate", 0.47}, {"waiting_p50", 2}});
         c.base({{"prefix_cache_hit_rate", 0.79}});
       },
       {"prefix_cache_miss_routing"}, State::at_fault},
      {"TPOT under the default SLO but reported high, 200 running",
       [](Case& c) {
         c.set({{"tpot_p99_s", 0.06}, {"running", 200}, {"max_num_seqs", 1024}});
         c.symptoms = {Symptom::tpot_high};
       },
       {"batch_too_large"}, State::at_fault},
      {"100 running yield 70 tok/s against 800 expected: a per-token cost, not the batch",
       [](Case& c) {
         c.set({{"tpot_p50_s", 1.7}, {"running", 100}, {"output_tokens_per_s", 70}, {"expected_output_tokens_per_s", 800}});
         c.symptoms = {Symptom::tpot_high};
       },
       {}, State::cleared},
      {"rare preemptions: below the threshold",
       [](Case& c) { c.set({{"preemptions_per_s", 0.05}, {"kv_usage_max", 0.99}}); }, {}, State::cleared},
      {"idle queue, long prompts, chunked prefill off",
       [](Case& c) {
         c.set({{"waiting_p50", 0}, {"ttft_p99_s", 6}, {"chunked_prefill", 0}, {"input_len_p99", 24000}});
       },
       {"long_prefill_blocking"}, State::at_fault},
      {"vLLM V0 without the flag: chunking off by default",
       [](Case& c) {
         c.in.now.deployment.engine = core::EngineKind::vllm_v0;
         c.set({{"waiting_p50", 0}, {"ttft_p99_s", 6}, {"longest_input_tokens", 24000}});
       },
       {"long_prefill_blocking"}, State::at_fault},
      {"a few waiting behind the long step: still prefill blocking",
       [](Case& c) {
         c.set({{"waiting_p50", 3}, {"ttft_p99_s", 6}, {"chunked_prefill", 0}, {"longest_input_tokens", 24000}, {"kv_usage", 0.3}});
       },
       {"long_prefill_blocking"}, State::at_fault},
      {"shallow queue but KV pool full: not prefill blocking (capacity's rules judge it)",
       [](Case& c) {
         c.set({{"waiting_p50", 3}, {"ttft_p99_s", 6}, {"chunked_prefill", 0}, {"longest_input_tokens", 24000}, {"kv_usage", 0.97}});
       },
       {}, State::cleared},
      {"chunked prefill on: not prefill blocking",
       [](Case& c) {
         c.set({{"waiting_p50", 0}, {"ttft_p99_s", 6}, {"chunked_prefill", 1}, {"input_len_p99", 24000}});
       },
       {}, State::cleared},
      {"short prompts: not prefill blocking",
       [](Case& c) { c.set({{"waiting_p50", 0}, {"ttft_p99_s", 6}, {"chunked_prefill", 0}, {"input_len_p99", 800}}); },
       {}, State::cleared},
      {"TTFT within the SLO: nothing to explain",
       [](Case& c) {
         c.set({{"waiting_p50", 0}, {"ttft_p99_s", 1.2}, {"chunked_prefill", 0}, {"input_len_p99", 24000}});
       },
       {}, State::cleared},
      {"hit rate collapsed across 4 replicas",
       [](Case& c) {
         c.set({{"replicas", 4}, {"prefix_cache_hit_rate", 0.3}, {"waiting_p50", 0}});
         c.base({{"prefix_cache_hit_rate", 0.9}});
       },
       {"prefix_cache_miss_routing"}, State::at_fault},
      {"hit rate collapsed on one replica: not routing",
       [](Case& c) {
         c.set({{"prefix_cache_hit_rate", 0.3}, {"waiting_p50", 0}});
         c.base({{"prefix_cache_hit_rate", 0.9}});
       },
       {}, State::cleared},
      {"large batch, TPOT high, clocks fine",
       [](Case& c) {
         c.set({{"tpot_p99_s", 0.2}, {"running", 240}, {"max_num_seqs", 256}, {"clock_ratio", 0.98},
                {"throttle_power", 0}});
       },
       {"batch_too_large"}, State::at_fault},
      {"large batch but clocks throttled: the hardware layer's",
       [](Case& c) { c.set({{"tpot_p99_s", 0.2}, {"running", 240}, {"max_num_seqs", 256}, {"clock_ratio", 0.7}}); },
       {}, State::cleared},
      {"small batch, TPOT high: not the batch",
       [](Case& c) { c.set({{"tpot_p99_s", 0.2}, {"running", 20}, {"max_num_seqs", 256}}); }, {}, State::cleared},
      {"nothing runs, one waits, prompt longer than the pool",
       [](Case& c) {
         c.set({{"running_max", 0}, {"waiting_p50", 1}, {"longest_input_tokens", 150000},
                {"kv_capacity_tokens", 100000}});
       },
       {"request_exceeds_kv_pool"}, State::at_fault},
      {"nothing runs, one waits, prompt fits: not this rule",
       [](Case& c) {
         c.set({{"running_max", 0}, {"waiting_p50", 1}, {"longest_input_tokens", 5000}, {"kv_capacity_tokens", 100000}});
       },
       {}, State::cleared},
      {"runtime OOM with the pool at 30%",
       [](Case& c) {
         c.set({{"oom_events", 2}, {"startup_oom_events", 0}, {"kv_usage_max", 0.3}, {"max_num_seqs", 1024}});
         c.in.now.events.push_back(event(core::EventKind::oom,
                                         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB.",
                                         {{"tried_to_allocate_gib", 4}, {"total_capacity_gib", 79.19}}));
       },
       {"runtime_oom_unprofiled_memory"}, State::at_fault},
      {"runtime OOM named by its span though nothing was seen served (TGI batch{...}:prefill)",
       [](Case& c) {
         c.set({{"oom_events", 1}, {"startup_oom_events", 1}});
         c.in.now.events.push_back(event(core::EventKind::oom,
                                         "batch{batch_size=1}:prefill:prefill{id=1 size=1}: Server error: CUDA out of "
                                         "memory. Tried to allocate 222.00 MiB.",
                                         {{"tried_to_allocate_gib", 0.2168}}));
       },
       {"runtime_oom_unprofiled_memory"}, State::at_fault},
      {"an OOM line with no phase, nothing seen served, the operator reports a runtime OOM: while serving",
       [](Case& c) {
         c.set({{"oom_events", 1}, {"startup_oom_events", 1}});
         c.in.now.events.push_back(event(core::EventKind::oom,
                                         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB.",
                                         {{"tried_to_allocate_gib", 3.82}}));
         c.symptoms = {Symptom::runtime_oom_or_preemption};
       },
       {"runtime_oom_unprofiled_memory"}, State::at_fault},
      {"OOM in the profiling run: startup, even after an earlier served start",
       [](Case& c) {
         c.set({{"oom_events", 1}, {"startup_oom_events", 0}, {"running_max", 4}});
         c.in.now.events.push_back(event(core::EventKind::oom,
                                         "torch.OutOfMemoryError: CUDA out of memory (in profile_run)"));
       },
       {"startup_oom"}, State::at_fault},
      {"one V0 warning line with a cumulative count of 101: storm without a time base",
       [](Case& c) {
         c.set({{"preemption_events", 1}});
         c.in.now.events.push_back(event(core::EventKind::preemption,
                                         "Sequence group 221 is preempted by PreemptionMode.RECOMPUTE mode ... "
                                         "total_num_cumulative_preemption=101",
                                         {{"cumulative_preemptions", 101}}));
       },
       {"preemption_storm"}, State::at_fault},
      {"one V0 warning line with a count of 1, no symptom: not a storm",
       [](Case& c) {
         c.set({{"preemption_events", 1}, {"kv_usage", 0.5}});
         c.in.now.events.push_back(event(core::EventKind::preemption, "Sequence group 3 is preempted ... "
                                         "total_num_cumulative_preemption=1", {{"cumulative_preemptions", 1}}));
       },
       {}, State::cleared},
      {"runtime OOM with the pool full: not unprofiled memory",
       [](Case& c) { c.set({{"oom_events", 1}, {"startup_oom_events", 0}, {"kv_usage_max", 0.97}}); }, {},
       State::cleared},
      {"startup OOM from the log, no model for the ledger",
       [](Case& c) {
         c.set({{"oom_events", 1}, {"startup_oom_events", 1}});
         c.in.now.events.push_back(event(core::EventKind::oom, "torch.OutOfMemoryError: CUDA out of memory."));
       },
       {"startup_oom"}, State::at_fault},
      {"startup OOM predicted by the ledger: 70B on one H100",
       [](Case& c) {
         c.in.now.deployment.model = "meta-llama/Llama-3.3-70B-Instruct";
         c.in.now.deployment.gpu = "H100-SXM";
         c.in.now.deployment.engine = core::EngineKind::vllm;
       },
       {"startup_oom"}, State::at_fault},
      {"max-model-len larger than the pool: ledger + log",
       [](Case& c) {
         c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
         c.in.now.deployment.gpu = "A10G";
         c.in.now.deployment.engine = core::EngineKind::vllm;
         c.in.now.deployment.settings.max_model_len = 131072;
         c.set({{"max_len_exceeds_kv_events", 1}});
         c.in.now.events.push_back(event(core::EventKind::max_len_exceeds_kv,
                                         "ValueError: The model's max seq len (131072) is larger than the maximum number "
                                         "of tokens that can be stored in KV cache (31232).",
                                         {{"max_model_len_tokens", 131072}, {"kv_tokens", 31232}}));
       },
       {"max_len_exceeds_kv"}, State::at_fault},
      {"8B on one H100 serving normally: ledger fits, cleared",
       [](Case& c) {
         c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
         c.in.now.deployment.gpu = "H100-SXM";
         c.in.now.deployment.engine = core::EngineKind::vllm;
         c.in.now.deployment.settings.max_model_len = 8192;
       },
       {}, State::cleared},
  };
  return r;
}

TEST(SchedulingRules, Table) {
  for (const auto& row : scheduling_rows()) {
    SCOPED_TRACE(row.name);
    Case c;
    row.setup(c);
    LayerResult r = analyze_scheduling(c.ctx());
    testing::expect_row(row, r, Layer::scheduling_capacity);
    EXPECT_EQ(r.verdict.layer, Layer::scheduling_capacity);
    for (const auto& f : r.findings) {
      EXPECT_FALSE(f.explanation.empty()) << f.id;
      EXPECT_GT(f.confidence, 0.0) << f.id;
      EXPECT_LE(f.confidence, 1.0) << f.id;
    }
    if (r.verdict.state == State::not_judged) {
      EXPECT_FALSE(r.verdict.why.empty());
    }
  }
}

TEST(SchedulingRules, SeveritiesFollowTheContract) {
  // critical: startup OOM, runtime OOM, a request that can never run; warning: located SLO causes.
  for (const auto& row : scheduling_rows()) {
    Case c;
    row.setup(c);
    for (const auto& f : analyze_scheduling(c.ctx()).findings) {
      const bool crit = f.id == "startup_oom" || f.id == "max_len_exceeds_kv" || f.id == "request_exceeds_kv_pool" ||
                        f.id == "runtime_oom_unprofiled_memory";
      EXPECT_EQ(f.severity, crit ? Severity::critical : Severity::warning) << row.name << ": " << f.id;
    }
  }
}

TEST(SchedulingRules, StartupOomRemediesComeFromTheLedger) {
  Case c;
  c.in.now.deployment.model = "meta-llama/Llama-3.3-70B-Instruct";
  c.in.now.deployment.gpu = "H100-SXM";
  LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "startup_oom");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::critical);
  bool tp = false;
  for (const auto& m : f->remedies) {
    EXPECT_EQ(m.basis, "ledger") << m.change;
    EXPECT_NE(m.predicted_effect.find("KV pool"), std::string::npos) << m.predicted_effect;
    if (m.change == "tensor-parallel-size") {
      tp = true;
      EXPECT_EQ(m.from, "1");
      EXPECT_GT(std::stoi(m.to), 1);
    }
  }
  EXPECT_TRUE(tp) << "70B bf16 does not fit one H100: the ledger proposes a larger TP";
  // Ledger only (no OOM line): less sure than when the log agrees.
  EXPECT_LT(f->confidence, 0.7);
}

TEST(SchedulingRules, LogAndLedgerAgreeingRaiseConfidence) {
  auto conf = [](bool with_log) {
    Case c;
    c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
    c.in.now.deployment.gpu = "A10G";
    c.in.now.deployment.settings.max_model_len = 131072;
    if (with_log) {
      c.set({{"max_len_exceeds_kv_events", 1}});
      c.in.now.events.push_back(event(core::EventKind::max_len_exceeds_kv, "max seq len (131072) ...",
                                      {{"max_model_len_tokens", 131072}}));
    }
    const LayerResult r_f = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r_f, "max_len_exceeds_kv");
    return f ? f->confidence : -1.0;
  };
  EXPECT_GT(conf(false), 0);
  EXPECT_GT(conf(true), conf(false));
}

TEST(SchedulingRules, MaxLenRemedyIsTheLargestContextThatFits) {
  Case c;
  c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.in.now.deployment.gpu = "A10G";
  c.in.now.deployment.settings.max_model_len = 131072;
  const LayerResult r_f = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r_f, "max_len_exceeds_kv");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "max-model-len");
  EXPECT_EQ(f->remedies[0].from, "131072");
  const long to = std::stol(f->remedies[0].to);
  EXPECT_GT(to, 8192);
  EXPECT_LT(to, 131072);
}

TEST(SchedulingRules, FreeMemoryBelowRequestedLowersTheFractionToWhatIsFree) {
  Case c;
  c.set({{"oom_events", 1}, {"startup_oom_events", 1}});
  c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.in.now.deployment.gpu = "H100-SXM";
  c.in.now.deployment.settings.gpu_memory_utilization = 0.95;
  c.in.now.deployment.settings.max_model_len = 8192;
  c.in.now.events.push_back(event(core::EventKind::oom,
                                  "ValueError: Free memory on device cuda:0 (60.33/79.19 GiB) on startup is less than "
                                  "desired GPU memory utilization (0.95, 75.23 GiB).",
                                  {{"free_gib", 60.33}, {"total_capacity_gib", 79.19}, {"gpu_memory_utilization", 0.95}},
                                  {{"cause", "free_memory_below_requested"}}));
  const LayerResult r_f = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r_f, "startup_oom");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "gpu-memory-utilization");
  EXPECT_EQ(f->remedies[0].from, "0.95");
  EXPECT_EQ(f->remedies[0].to, "0.75");  // floor((60.33 / 79.19 - 0.01) x 100) / 100
  EXPECT_EQ(f->remedies[0].basis, "ledger");
}

TEST(SchedulingRules, NoKvMemoryAtALowFractionRaisesTheFractionFirst) {
  Case c;
  c.set({{"oom_events", 1}, {"startup_oom_events", 1}});
  c.in.now.deployment.settings.gpu_memory_utilization = 0.3;
  c.in.now.events.push_back(event(core::EventKind::oom, "ValueError: No available memory for the cache blocks.", {},
                                  {{"cause", "no_kv_memory"}}));
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "startup_oom");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "gpu-memory-utilization");
  EXPECT_EQ(f->remedies[0].from, "0.30");
}

TEST(SchedulingRules, RequestExceedingThePoolProposesCappingTheContext) {
  Case c;
  c.set({{"running_max", 0}, {"waiting_p50", 1}, {"longest_input_tokens", 150000}, {"kv_capacity_tokens", 100000},
         {"max_model_len", 131072}});
  const LayerResult r_f = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r_f, "request_exceeds_kv_pool");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->symptom, Symptom::timeout_or_stream_break);
  EXPECT_EQ(f->remedies[0].change, "max-model-len");
  EXPECT_EQ(f->remedies[0].to, "100000");
}

TEST(SchedulingRules, PreemptionStormSizesMaxNumSeqsToThePool) {
  Case c;
  c.set({{"preemptions_per_s", 3}, {"kv_usage_max", 0.99}, {"running_max", 200}, {"input_len_mean", 1000},
         {"output_len_mean", 500}, {"kv_capacity_tokens", 100000}, {"max_num_seqs", 256}});
  const LayerResult r_f = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r_f, "preemption_storm");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "max-num-seqs");
  EXPECT_EQ(f->remedies[0].from, "256");
  EXPECT_EQ(f->remedies[0].to, "66");  // 100000 / (1000 + 500)
}

TEST(SchedulingRules, BatchCapRemedyRaisesMaxNumSeqsWithinThePool) {
  Case c;
  c.set({{"waiting_p50", 150}, {"kv_usage", 0.3}, {"running_max", 64}, {"max_num_seqs", 64},
         {"kv_capacity_tokens", 450000}, {"input_len_mean", 1500}, {"output_len_mean", 300}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "kv_pool_saturated");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "max-num-seqs");
  EXPECT_EQ(f->remedies[0].from, "64");
  EXPECT_EQ(f->remedies[0].to, "128");  // 2x, within 450000 x 0.9 / 1800 = 225 sequences
  EXPECT_NE(f->title.find("max-num-seqs"), std::string::npos) << f->title;
}

TEST(SchedulingRules, BatchTooLargeOnTheOperatorsTighterObjectiveStatesNoFalseComparison) {
  // TPOT P99 61 ms is under the default 100 ms SLO; the operator reports tpot_high against their own.
  Case c;
  c.set({{"tpot_p99_s", 0.061}, {"running", 484}, {"max_num_seqs", 512}});
  c.symptoms = {Symptom::tpot_high};
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "batch_too_large");
  ASSERT_NE(f, nullptr);
  bool cited = false;
  for (const auto& e : f->evidence)
    if (e.indicator == "tpot_p99_s") {
      cited = true;
      EXPECT_FALSE(e.threshold) << "0.061 > 0.1 would read false";
    }
  EXPECT_TRUE(cited);
}

TEST(SchedulingRules, ThresholdOverrideChangesTheVerdict) {
  Case c;
  c.set({{"waiting_p50", 8}, {"kv_usage", 0.95}});
  EXPECT_FALSE(testing::has(analyze_scheduling(c.ctx()), "kv_pool_saturated"));  // 8 < 10 by default
  ASSERT_TRUE(load_thresholds(c.in.thresholds, "sched.waiting_deep = 5\n", "t.txt").ok());
  EXPECT_TRUE(testing::has(analyze_scheduling(c.ctx()), "kv_pool_saturated"));
}

TEST(SchedulingRules, ObservationOnlyIsLessSureThanMetricsAndLogs) {
  Case a;
  a.set({{"waiting", 25}, {"kv_usage", 0.95}}, "observe waiting=25");
  Case b;
  b.set({{"waiting_p50", 25}, {"kv_usage", 0.95}}, "metrics (30 s window)");
  b.set({{"preemption_events", 12}}, "vllm.log:100");
  const LayerResult r_fa = analyze_scheduling(a.ctx());
  const Finding* fa = testing::get(r_fa, "kv_pool_saturated");
  const LayerResult r_fb = analyze_scheduling(b.ctx());
  const Finding* fb = testing::get(r_fb, "kv_pool_saturated");
  ASSERT_NE(fa, nullptr);
  ASSERT_NE(fb, nullptr);
  EXPECT_LT(fa->confidence, fb->confidence);
}

}  // namespace
}  // namespace llmtriage::diagnose

namespace llmtriage::diagnose {
namespace {

// The queue threshold names the capacity it divides by, so a reader can check it.
TEST(SchedulingRules, DeepQueueEvidenceSaysWhichConcurrencyItIsRelativeTo) {
  testing::Case c;
  c.set({{"waiting_p50", 8}, {"running", 4}, {"running_max", 4}, {"max_num_seqs", 4}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "kv_pool_saturated");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->evidence.empty());
  const EvidenceItem& w = f->evidence.front();
  EXPECT_EQ(w.indicator, "waiting_p50");
  ASSERT_TRUE(w.threshold);
  EXPECT_DOUBLE_EQ(*w.threshold, 2);  // 0.5 x 4 slots
  EXPECT_NE(w.text.find("4 running"), std::string::npos) << w.text;
  EXPECT_NE(w.text.find("slots 4"), std::string::npos) << w.text;
  EXPECT_NE(f->title.find("cap"), std::string::npos) << f->title;
}

TEST(SchedulingRules, ClearedQueueEvidenceCarriesItsRelativeThreshold) {
  testing::Case c;
  c.set({{"waiting_p50", 1}, {"running", 4}, {"running_max", 4}, {"max_num_seqs", 4}});
  const LayerResult r = analyze_scheduling(c.ctx());
  ASSERT_EQ(r.verdict.state, LayerVerdict::State::cleared);
  bool found = false;
  for (const auto& e : r.verdict.evidence)
    if (e.indicator == "waiting_p50") {
      found = true;
      ASSERT_TRUE(e.threshold);
      EXPECT_DOUBLE_EQ(*e.threshold, 2);
      EXPECT_EQ(e.op, "<");
    }
  EXPECT_TRUE(found);
}

TEST(SchedulingRules, OneCumulativePreemptionReadingIsACountNotARate) {
  // vLLM V0's running total since the engine started, read once in a log whose stats lines span
  // 110 s: 250051 preemptions happened at some time, not in those 110 s (no 2273/s).
  Case c;
  c.set({{"preemption_events", 1}, {"window_s", 110}, {"kv_usage_max", 0.99}});
  c.in.now.events.push_back(event(core::EventKind::preemption,
                                  "Sequence group 9 is preempted by PreemptionMode.RECOMPUTE mode ... "
                                  "total_num_cumulative_preemption=250051",
                                  {{"cumulative_preemptions", 250051}}));
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "preemption_storm");
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->evidence.empty());
  EXPECT_EQ(f->evidence[0].indicator, "preemptions_total");
  EXPECT_EQ(f->explanation.find("per second"), std::string::npos) << f->explanation;
}

TEST(SchedulingRules, AnEngineThatAnswersMetricsHasStartedWhateverTheLedgerPredicts) {
  // The ledger with the model's default context (131072 on an A10G) says vLLM refuses to start;
  // the engine's /metrics reports its KV pool, so it started: its settings differ from the
  // ledger's inputs, and "refuses to start" would contradict the evidence.
  Case c;
  c.in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  c.in.now.deployment.gpu = "A10G";
  c.in.now.deployment.engine = core::EngineKind::vllm;
  c.set({{"kv_capacity_tokens_metrics", 28352}, {"kv_capacity_tokens", 28352}, {"running", 0}, {"waiting_p50", 0},
         {"kv_usage", 0}});
  const LayerResult r = analyze_scheduling(c.ctx());
  EXPECT_FALSE(testing::has(r, "max_len_exceeds_kv"));
  EXPECT_FALSE(testing::has(r, "startup_oom"));
}

}  // namespace
}  // namespace llmtriage::diagnose
