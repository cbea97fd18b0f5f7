// Suspected causes from thin evidence (diagnose/suspects.h): the cause table, the symptom prior,
// clues moving it, located vs suspected, and the report's guarantees (a symptom always yields a
// ranked cause; no layer cleared without a value).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/evidence.h"
#include "diagnose/diagnose.h"
#include "diagnose/indicators.h"
#include "diagnose/suspects.h"
#include "ingest/engine_log.h"
#include "ingest/log_signatures.h"

namespace d = llmtriage::diagnose;
namespace ingest = llmtriage::ingest;

namespace {

d::Report run(d::DiagnoseInput in) {
  in.what_if = false;
  return d::diagnose(in);
}

d::DiagnoseInput with_log(const std::string& text) {
  d::DiagnoseInput in;
  auto r = ingest::parse_engine_log_text(text);
  for (auto* l : {&r.events, &r.signature_events})
    for (auto& e : *l) in.now.events.push_back(e);
  return in;
}

}  // namespace

TEST(Causes, TableParsesAndEverySignatureNamesAKnownCause) {
  const auto& causes = d::causes();
  ASSERT_GE(causes.size(), 30u);
  std::set<std::string> ids;
  std::set<d::Layer> layers;
  for (const auto& c : causes) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    layers.insert(c.layer);
    EXPECT_FALSE(c.title.empty()) << c.id;
    EXPECT_FALSE(c.confirm.empty()) << c.id << ": a suspect names the measurement that settles it";
    EXPECT_FALSE(c.prior.empty()) << c.id;
  }
  EXPECT_EQ(layers.size(), 5u);
  for (const auto& s : ingest::signatures()) {
    if (!s.cause.empty()) {
      EXPECT_TRUE(ids.count(s.cause)) << s.id << " names an unknown cause " << s.cause;
    }
  }
  // Every symptom's priors are a distribution: they sum to at most 1 (the rest is unlisted causes).
  for (auto sym : d::all_symptoms()) {
    double sum = 0;
    for (const auto& c : causes)
      if (auto it = c.prior.find(d::to_string(sym)); it != c.prior.end()) sum += it->second;
    EXPECT_GT(sum, 0.5) << d::to_string(sym);
    EXPECT_LE(sum, 1.0) << d::to_string(sym);
  }
}

TEST(Causes, BadRowsAreErrorsWithTheLine) {
  EXPECT_FALSE(d::parse_causes("{\"id\":\"x\",\"layer\":\"nowhere\"}", "c"));
  auto bad = d::parse_causes("\n{\"id\":\"x\",\"layer\":\"load\",\"prior\":{\"ttft_spike\":2}}", "c.jsonl");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("c.jsonl:2"), std::string::npos);
  EXPECT_FALSE(d::parse_causes("{\"id\":\"x\",\"layer\":\"load\",\"prior\":{\"slow\":0.1}}", "c"));
}

// With only a symptom, the checklist's row decides, labelled a guess.
TEST(Suspects, SymptomAloneGivesThePriorsLayerAsAGuess) {
  struct Row {
    d::Symptom s;
    d::Layer want;
  } rows[] = {{d::Symptom::startup_oom, d::Layer::scheduling_capacity},
              {d::Symptom::runtime_oom_or_preemption, d::Layer::scheduling_capacity},
              {d::Symptom::output_quality, d::Layer::numeric_parameter},
              {d::Symptom::timeout_or_stream_break, d::Layer::gateway_client}};
  for (const auto& r : rows) {
    d::DiagnoseInput in;
    in.symptoms = {r.s};
    auto rep = run(in);
    ASSERT_FALSE(rep.findings.empty()) << d::to_string(r.s);
    const auto& f = rep.findings.front();
    EXPECT_EQ(f.layer, r.want) << d::to_string(r.s) << " -> " << f.id;
    EXPECT_EQ(f.status, "suspected");
    EXPECT_EQ(f.severity, d::Severity::info) << "a prior alone is not a warning";
    EXPECT_LT(f.confidence, 0.6);
    EXPECT_FALSE(f.next_measurement.empty());
    for (const auto& l : rep.layers) EXPECT_NE(l.state, d::LayerVerdict::State::cleared) << "nothing was measured";
  }
}

TEST(Suspects, NoSymptomAndNoClueSaysNothing) {
  d::DiagnoseInput in;
  EXPECT_TRUE(run(in).findings.empty());
}

// An engine's own line that states the cause locates it, whatever the symptom's prior.
TEST(Suspects, DecisiveSignatureLocates) {
  auto in = with_log("decode: failed to find free space in the KV cache, retrying with smaller batch size, i = 0, n_batch = 512, ret = 1\n");
  in.symptoms = {d::Symptom::runtime_oom_or_preemption};
  auto rep = run(in);
  ASSERT_FALSE(rep.findings.empty());
  EXPECT_EQ(rep.findings.front().id, "kv_pool_exhausted");
  EXPECT_EQ(rep.findings.front().status, "located");
  EXPECT_EQ(rep.findings.front().severity, d::Severity::warning);
  EXPECT_EQ(rep.exit_code(), 1);
  // The same line against a symptom whose row does not name the cause still moves it to the top.
  in.symptoms = {d::Symptom::ttft_spike};
  EXPECT_EQ(run(in).findings.front().layer, d::Layer::scheduling_capacity);
}

TEST(Suspects, ClueAgainstLowersACause) {
  // GPU clocks at their maximum argue against throttling; below 85% of it, for.
  auto top_is_throttle = [](double clock) {
    d::DiagnoseInput in;
    in.symptoms = {d::Symptom::tpot_high};
    in.observations.now = {{"sm_clock_mhz", clock}, {"max_sm_clock_mhz", 1980}};
    auto rep = run(in);
    for (const auto& f : rep.findings)
      if (f.id == "gpu_throttled") return std::make_pair(&f == &rep.findings.front(), f.against.size());
    return std::make_pair(false, size_t{0});
  };
  EXPECT_TRUE(top_is_throttle(1100).first);
  EXPECT_FALSE(top_is_throttle(1980).first);
}

TEST(Suspects, GatewayTimeoutBelowTheLatencyIsLocated) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::timeout_or_stream_break};
  in.observations.now = {{"gateway_timeout_s", 30}, {"e2e_p99_s", 45}};
  auto rep = run(in);
  ASSERT_FALSE(rep.findings.empty());
  EXPECT_EQ(rep.findings.front().layer, d::Layer::gateway_client);
}

TEST(Suspects, LaunchTextAndNamesMoveTheRanking) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::tpot_high};
  in.launch_text = "vllm serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager";
  auto rep = run(in);
  ASSERT_FALSE(rep.findings.empty());
  EXPECT_EQ(rep.findings.front().id, "cuda_graphs_off");
  EXPECT_EQ(rep.findings.front().remedies.front().change, "remove --enforce-eager") << "the engine's own flag";

  d::DiagnoseInput off;
  off.symptoms = {d::Symptom::tpot_high};
  off.launch_text = "OLLAMA_NUM_PARALLEL=1";
  off.model_as_given = "llama3:70b";
  off.gpu_as_given = "RTX 3090";
  auto r2 = run(off);
  ASSERT_FALSE(r2.findings.empty());
  EXPECT_EQ(r2.findings.front().id, "partial_offload") << "~40 GiB of weights on a 24 GB card under Ollama";
}

// The CPU side of the llama.cpp family: an explicit thread count far above most hosts' cores, and
// a CPU deployment by design (-ngl 0 with NUMA / CPU-MoE placement), point at the host CPU, not at
// layers that failed to fit on a GPU.
TEST(Suspects, CpuThreadsAndACpuDeploymentPointAtTheHostCpu) {
  d::DiagnoseInput threads;
  threads.symptoms = {d::Symptom::tpot_high};
  threads.launch_text = "ollama runner --model /m/blob --ctx-size 8192 --batch-size 512 --threads 64 --parallel 2";
  auto r = run(threads);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "host_cpu_bound");

  d::DiagnoseInput cpu;
  cpu.symptoms = {d::Symptom::tpot_high};
  cpu.launch_text = "LLAMA_ARG_CPU_MOE=enabled LLAMA_ARG_N_GPU_LAYERS=0 LLAMA_ARG_NUMA=numactl ./llama-server -m m.gguf";
  auto r2 = run(cpu);
  ASSERT_FALSE(r2.findings.empty());
  EXPECT_EQ(r2.findings.front().id, "host_cpu_bound");
  for (const auto& f : r2.findings) {  // no GPU layer by design is not a failed fit
    if (f.id == "partial_offload") {
      EXPECT_LT(f.confidence, r2.findings.front().confidence / 4);
    }
  }

  // The same -ngl 0 without the CPU placement flags stays a placement question.
  d::DiagnoseInput zero;
  zero.symptoms = {d::Symptom::tpot_high};
  zero.launch_text = "gpu_layers: 0";
  auto r3 = run(zero);
  ASSERT_FALSE(r3.findings.empty());
  EXPECT_EQ(r3.findings.front().id, "partial_offload");
}

// Apple silicon under MLX: no CUDA graphs, no interconnect, no layer offload to rank; a
// vision-language model's requests are large (images become prompt tokens).
TEST(Suspects, AppleSiliconAndMlxRuleOutCudaCausesAndAVisionModelRaisesRequestSize) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::tpot_high};
  in.launch_text = "mlx_lm.generate --model Qwen/Qwen3.5-35B-A3B -m 200";
  in.gpu_as_given = "Apple M3 Max";
  auto r = run(in);
  for (const auto& f : r.findings) {
    EXPECT_NE(f.id, "cuda_graphs_off");
    EXPECT_NE(f.id, "interconnect_bound");
    EXPECT_NE(f.id, "partial_offload");
  }
  d::DiagnoseInput vl;
  vl.symptoms = {d::Symptom::ttft_spike};
  vl.model_as_given = "Qwen/Qwen2.5-VL-7B-Instruct";
  auto rv = run(vl);
  ASSERT_FALSE(rv.findings.empty());
  EXPECT_EQ(rv.findings.front().id, "long_prompts");
}

// Ollama placing no layer: a missing GPU, unless its own line says the compute graph for the
// context fills the memory the GPU offers (then it is the fit: a shorter context).
TEST(Suspects, OllamaZeroLayersIsAFitFailureWhenTheGraphFillsTheGpu) {
  const std::string plan =
      "time=2025-08-07T18:09:53.153Z level=INFO source=server.go:175 msg=offload library=rocm layers.requested=-1 "
      "layers.model=25 layers.offload=0 layers.split=\"\" memory.available=\"[95.8 GiB]\"\n";
  auto full = with_log(plan + "memory.weights.nonrepeating=\"1.1 GiB\" memory.graph.full=\"96.0 GiB\" memory.graph.partial=\"96.0 GiB\"\n");
  full.symptoms = {d::Symptom::tpot_high};
  auto r = run(full);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "partial_offload");
  auto small = with_log(plan + "memory.weights.nonrepeating=\"1.1 GiB\" memory.graph.full=\"2.0 GiB\"\n");
  small.symptoms = {d::Symptom::tpot_high};
  auto r2 = run(small);
  bool unused = false;
  for (const auto& f : r2.findings) unused |= f.id == "gpu_not_used";
  EXPECT_TRUE(unused) << "0 layers with room to spare: the GPU may not be in use";
  for (const auto& f : r.findings) EXPECT_NE(f.id, "gpu_not_used") << "the graph fills the GPU: a fit, not a missing GPU";
}

// The GPU holding far less than the weights the model's name states: the rest is offloaded.
TEST(Suspects, GpuMemoryBelowTheWeightsIsOffload) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::tpot_high};
  in.model_as_given = "GPT OSS 120b";  // ~59 GiB in MXFP4
  in.observations.now["gpu_mem_used_gib"] = 14;
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "partial_offload");
  // Sharded over four GPUs, each holding a quarter by design: the reading says nothing of offload.
  in.launch_text = "vllm serve openai/gpt-oss-120b --tensor-parallel-size 4";
  for (const auto& f : run(in).findings)
    for (const auto& e : f.evidence) EXPECT_NE(e.indicator, "gpu_mem_used_gib") << f.id;
}

// Ollama with a throughput complaint and no parallelism setting: its default queues requests.
TEST(Suspects, OllamaWithoutParallelSettingAndLowThroughputSuspectsTheRunningCap) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::throughput_low};
  in.launch_text = "Environment=\"OLLAMA_HOST=0.0.0.0\"";
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "running_cap_queueing");
  in.launch_text = "Environment=\"OLLAMA_HOST=0.0.0.0\" \"OLLAMA_NUM_PARALLEL=4\"";
  for (const auto& f : run(in).findings) {
    if (f.id != "running_cap_queueing") continue;
    for (const auto& e : f.evidence) EXPECT_NE(e.indicator, "parallel_slots") << "a parallel setting was given";
  }
}

// No symptom: only causes the evidence names are ranked, so a prior-only cause of a heavier layer
// never hides them (it did: a large Ollama context gave no finding at all).
TEST(Suspects, WithoutASymptomTheEvidencesCausesAreListed) {
  d::DiagnoseInput in;
  in.launch_text = "OLLAMA_CONTEXT_LENGTH=131072";
  in.model_as_given = "gpt-oss";
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().layer, d::Layer::scheduling_capacity);
  for (const auto& f : r.findings) EXPECT_FALSE(f.evidence.empty()) << f.id << ": listed with no evidence";
}

// Capacity settings read off a pasted launch line or reading, each naming its scheduling cause.
TEST(Suspects, SmallCapsPoolsAndBudgetsNameTheirSchedulingCause) {
  struct Row {
    const char* why;
    std::vector<d::Symptom> symptoms;
    const char* launch;
    std::map<std::string, double> observe;
    std::string model, gpu;
    const char* want;
  } rows[] = {
      {"a running cap of one with a TTFT spike", {d::Symptom::ttft_spike}, "--max-num-seqs 1", {}, "", "", "running_cap_queueing"},
      {"one Ollama slot and a queue of one, no symptom", {}, "OLLAMA_NUM_PARALLEL=1, set OLLAMA_MAX_QUEUE=1", {}, "", "",
       "running_cap_queueing"},
      {"one request running while throughput is low", {d::Symptom::throughput_low}, "", {{"running", 1}}, "", "",
       "running_cap_queueing"},
      {"a 3 GiB KV pool set explicitly", {d::Symptom::tpot_high}, "--kv-cache-memory 3221225472", {{"output_tokens_per_s", 4}},
       "", "", "kv_pool_exhausted"},
      {"a 512-token budget against 130k prompts (an em dash for --)", {d::Symptom::ttft_spike},
       "\xE2\x80\x94max-num-batched-tokens=512", {{"input_len_p99", 130000}}, "", "", "batching_ineffective"},
      {"vLLM told to keep 16 GiB of weights on the host", {d::Symptom::tpot_high},
       "vllm serve /GLM-4.5-FP8 --tensor-parallel-size 8 --cpu-offload-gb 16", {{"output_tokens_per_s", 6.4}}, "", "",
       "partial_offload"},
      {"a 3B model that fits a 6 GB card at 2 tokens/s", {d::Symptom::tpot_high}, "", {{"output_tokens_per_s", 2}},
       "ministral-3:3b", "RTX 4050 6GB", "gpu_not_used"},
      {"QServe's batch of 4 with low throughput (an environment variable)", {d::Symptom::throughput_low},
       "export GLOBAL_BATCH_SIZE=4 NUM_GPU_PAGE_BLOCKS=100; python qserve_benchmark.py --benchmarking",
       {{"output_tokens_per_s", 60}, {"expected_output_tokens_per_s", 280}}, "", "", "running_cap_queueing"},
      {"a kit's MAX_NUM_SEQS=2 read as --max-num-seqs", {d::Symptom::ttft_spike}, "MAX_MODEL_LEN=32768 MAX_NUM_SEQS=2", {}, "", "",
       "running_cap_queueing"},
      {"about 4 requests decoding at once (40.8 tok/s x 92 ms) with low throughput", {d::Symptom::throughput_low}, "",
       {{"output_tokens_per_s", 40.8}, {"tpot_p50_s", 0.092}}, "", "", "running_cap_queueing"},
      {"SGLang's cap split over 8 DP-attention ranks: 15 running of 16 per rank, one waiting", {d::Symptom::throughput_low},
       "--enable-dp-attention --data-parallel-size 8 --max-running-requests 128", {{"running", 15}, {"waiting", 1}}, "GLM-5-FP8", "",
       "running_cap_queueing"},
      {"Open WebUI's num_gpu 2 on two 3090s: two layers on the GPU, not two GPUs", {d::Symptom::tpot_high}, "num_gpu 2", {}, "",
       "2x RTX 3090", "partial_offload"},
      {"a recipe's --max-num-seqs 4 with the batch at 4 and low throughput (no queue reading)", {d::Symptom::throughput_low},
       "--max-num-seqs 4", {{"running", 4}}, "", "GB10", "running_cap_queueing"},
      {"Xinference's model actor in front of sglang", {d::Symptom::throughput_low},
       "xinference launch --model-name llama-3-instruct --model-format pytorch --model-engine sglang",
       {{"output_tokens_per_s", 84.66}, {"expected_output_tokens_per_s", 611.48}}, "", "", "batching_ineffective"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.why);
    d::DiagnoseInput in;
    in.symptoms = row.symptoms;
    in.launch_text = row.launch;
    in.model_as_given = row.model;
    in.gpu_as_given = row.gpu;
    for (const auto& [k, v] : row.observe) in.observations.now[k] = v;
    auto r = run(in);
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings.front().id, row.want);
  }
}

// A refusal for rate is the load, and no timeout cut the requests it refused.
TEST(Suspects, ARateLimitRefusalIsTheLoadNotATimeout) {
  auto in = with_log("429 Too Many Requests\n");
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "request_rate_above_capacity");
  for (const auto& f : r.findings) EXPECT_NE(f.id, "gateway_timeout");
}

// A cause the evidence names leads over a layer whose causes only the symptom's priors back:
// a rate-limit refusal under a timeout complaint is the load, however the gateway's priors add up.
// The engine's family alone is not such evidence: with only it, the priors' layer leads.
TEST(Suspects, AnEvidencedCauseLeadsOverALayerOfPriorsAlone) {
  auto in = with_log("429 Too Many Requests\n");
  in.symptoms = {d::Symptom::timeout_or_stream_break};
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "request_rate_above_capacity");
  d::DiagnoseInput family;
  family.launch_text = "ollama serve";
  family.model_as_given = "gemma3:4b";
  family.gpu_as_given = "RTX 4090";
  family.symptoms = {d::Symptom::tpot_high};
  auto g = run(family);
  ASSERT_FALSE(g.findings.empty());
  EXPECT_EQ(g.findings.front().layer, d::Layer::operator_hardware) << g.findings.front().id;
}

// A gateway's own budget (LiteLLM's per-team limit, nginx's limit_req) refusing before the engine.
TEST(Suspects, AGatewaysOwnLimitIsTheGatewayNotTheLoad) {
  for (const char* line :
       {"429: LiteLLM Rate Limit Handler for rate limit type = team. Crossed TPM / RPM / Max Parallel Request Limit. current rpm: 1, rpm limit: 15, current tpm: 12260, tpm limit: 5000",
        "2025/10/21 10:30:45 [error] 1234#1234: *5678 limiting requests, excess: 20.500 by zone \"llm\", client: 10.0.0.4, server: api, request: \"POST /v1/chat/completions HTTP/1.1\""}) {
    auto r = run(with_log(std::string(line) + "\n"));
    ASSERT_FALSE(r.findings.empty()) << line;
    EXPECT_EQ(r.findings.front().id, "gateway_rate_limit") << line;
    EXPECT_EQ(r.findings.front().layer, d::Layer::gateway_client);
  }
}

// A route the server does not serve (Go's "404 page not found"): the client's URL; a model placed
// on a GPU another model holds (Xinference): the memory left to it.
TEST(Suspects, AMissingRouteIsTheClientAndAnOccupiedGpuIsTheMemoryBudget) {
  auto r = run(with_log("openai.NotFoundError: 404 page not found\n"));
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "client_api_mismatch");
  auto x = run(with_log("GPU index 0 has been occupied with a vLLM model: qwen2.5-instruct-0, therefore cannot allocate GPU memory for a new model.\n"));
  ASSERT_FALSE(x.findings.empty());
  EXPECT_EQ(x.findings.front().id, "memory_budget_too_small");
}

// A kernel's bounds assert whose bound the configured context exceeds is the context past the
// model's positions; with the context inside the bound it stays a kernel fault.
TEST(Suspects, AnIndexAssertBelowTheConfiguredContextIsTheContextSetting) {
  const std::string log = "Assertion `index out of bounds: 0 <= tmp16 < 40960` failed.\nRuntimeError: CUDA error: device-side assert triggered\n";
  auto past = with_log(log);
  past.launch_text = "vllm serve Qwen/Qwen3-32B --max-model-len 131072";
  auto r = run(past);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "context_beyond_model");
  EXPECT_EQ(r.findings.front().layer, d::Layer::numeric_parameter);
  auto inside = with_log(log);
  inside.launch_text = "vllm serve Qwen/Qwen3-32B --max-model-len 32768";
  for (const auto& f : run(inside).findings) EXPECT_NE(f.id, "context_beyond_model");
}

// An SM clock under 1 GHz with no maximum given is held down (every current GPU boosts past it
// under load); a load generator sending its prompts a few at a time holds the rest in the client.
TEST(Suspects, ALowClockIsThrottlingAndABenchmarksOwnGateIsTheClient) {
  d::DiagnoseInput clk;
  clk.observations.now = {{"sm_clock_mhz", 628}};
  clk.symptoms = {d::Symptom::throughput_low};
  auto r = run(clk);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_throttled");
  d::DiagnoseInput fast;
  fast.observations.now = {{"sm_clock_mhz", 1755}};
  fast.symptoms = {d::Symptom::throughput_low};
  for (const auto& f : run(fast).findings) {
    if (f.id == "gpu_throttled") {
      EXPECT_TRUE(f.evidence.empty()) << "1755 MHz is a boost clock";
    }
  }
  d::DiagnoseInput bench;
  bench.launch_text = "vllm bench serve --num-prompts 200 --max-concurrency 4";
  bench.symptoms = {d::Symptom::throughput_low};
  bool client = false;
  for (const auto& f : run(bench).findings) client |= f.id == "client_concurrency_limit" && !f.evidence.empty();
  EXPECT_TRUE(client);
}

// With no running reading, Little's law (output tokens/s x seconds per token) counts the requests
// decoding at once: one, against --max-num-seqs 1, is the cap binding, ahead of eager mode.
TEST(Suspects, LittlesLawAtTheCapIsTheCapBinding) {
  d::DiagnoseInput in;
  in.launch_text = "vllm serve m --max-num-seqs 1 --enforce-eager";
  in.observations.now = {{"output_tokens_per_s", 5.5}, {"tpot_p50_s", 0.182}};
  in.symptoms = {d::Symptom::throughput_low};
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "running_cap_queueing");
  // Four streams' worth against a cap of one is not the cap binding (the reading is not at it).
  in.observations.now = {{"output_tokens_per_s", 22}, {"tpot_p50_s", 0.182}};
  bool binding = false;
  for (const auto& f : run(in).findings)
    for (const auto& e : f.evidence) binding |= e.indicator == "running";
  EXPECT_FALSE(binding);
}

// A bare model name is the base model in most families, but not where the maker ships the chat
// model under the bare name and the base as "-Base" (Qwen3, gpt-oss, DeepSeek-R1 / V3, phi-4).
TEST(Suspects, ABareNameIsABaseModelOnlyWhereTheFamilySaysSo) {
  auto base_clue = [](const std::string& model) {
    d::DiagnoseInput in;
    in.model_as_given = model;
    in.symptoms = {d::Symptom::output_quality};
    for (const auto& f : run(in).findings)
      for (const auto& e : f.evidence)
        if (e.text.find("a base model") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(base_clue("Qwen/Qwen2.5-7B"));
  EXPECT_TRUE(base_clue("Qwen/Qwen3-8B-Base"));
  EXPECT_FALSE(base_clue("Qwen/Qwen3-8B"));
  EXPECT_FALSE(base_clue("openai/gpt-oss-20b"));
}

// finish_reason "length" where the inputs set a response budget: the budget is what the answer
// reached (a reasoning model thinking it away returns empty content), not the template.
TEST(Suspects, ALengthStopUnderAConfiguredBudgetIsTheBudget) {
  auto in = with_log("WARNING summarizer: summarize_empty_response model=gpt-5-mini finish_reason=length\n");
  in.launch_text = "SUMMARIZE_MAX_TOKENS=2048";
  in.symptoms = {d::Symptom::output_quality};
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "output_cut_by_max_tokens");
  bool setting = false;
  for (const auto& e : r.findings.front().evidence) setting |= e.indicator == "max_tokens_setting";
  EXPECT_TRUE(setting);
}

// vLLM's own JIT monitor naming a kernel compiled inside a request: the first-use compile, not the
// request's size; Ray Serve's health-check timeout is a timeout on the path.
TEST(Suspects, EnginesOwnJitWarningAndRaysHealthCheckNameTheirCause) {
  auto jit = with_log("(Worker_TP0 pid=57) WARNING 06-21 07:54:39 [jit_monitor.py:103] Triton kernel JIT compilation during "
                      "inference: _selective_scan_update_kernel. This causes a latency spike; consider extending warmup to "
                      "cover this shape/config.\n");
  jit.symptoms = {d::Symptom::ttft_spike};
  auto r = run(jit);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "jit_compile_first_request");
  auto ray = with_log("Didn't receive health check response for replica Replica(id='rut1591v', deployment='vLLM', app='App') "
                      "after 10.0s, marking it unhealthy.\n");
  ray.symptoms = {d::Symptom::timeout_or_stream_break};
  auto g = run(ray);
  ASSERT_FALSE(g.findings.empty());
  EXPECT_EQ(g.findings.front().id, "gateway_timeout");
}

// Lines that name their cause with no symptom given (the twenty-ninth to thirty-first sets): a
// batch smaller than one input, a multimodal item over the step's budget, a route the server does
// not serve, a request body the server rejects, a client parsing a stream as one JSON, a grammar
// the request carries that cannot be built.
TEST(Suspects, RefusalLinesNameTheirLayerWithoutASymptom) {
  struct Row {
    const char* line;
    const char* cause;
  } rows[] = {
      {"input (2793 tokens) is too large to process (current batch size: 2048)", "physical_batch_below_input"},
      {"Chunked MM input disabled but max_tokens_per_mm_item (2496) is larger", "physical_batch_below_input"},
      {"The decoder prompt contains a(n) image item with length 6042, which exceeds the pre-allocated encoder cache size 4800.",
       "physical_batch_below_input"},
      {"INFO:     10.0.0.2:51234 - \"GET /get_load HTTP/1.1\" 404 Not Found", "client_api_mismatch"},
      {"'msg': 'Value error, Stream options can only be defined when `stream=True`.'", "client_api_mismatch"},
      {"SyntaxError: Unexpected non-whitespace character after JSON at position 156 (line 2 column 1)", "client_api_mismatch"},
      {"HTTP 400: {\"code\":400,\"message\":\"Failed to initialize samplers: failed to parse grammar\"}", "expensive_request_features"},
      {"send_error: task 2 | error = context shift is disabled", "parallel_slots_multiply_context"},
      // ... and the thirty-second to thirty-fourth sets.
      {"The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 8.0, please rebuild.",
       "gpu_arch_unsupported"},
      {"Triton Error [CUDA]: device kernel image is invalid", "gpu_arch_unsupported"},
      {"CUDA error: CUBLAS_STATUS_EXECUTION_FAILED", "kernel_hang_or_fault"},
      {"CUDA error: CUBLAS_STATUS_NOT_INITIALIZED", "memory_budget_too_small"},
      {"INFO:     127.0.0.1:46686 - \"GET /v1/chat/completions HTTP/1.1\" 401 Unauthorized", "client_api_mismatch"},
      {"HTTP 500: {\"error\":\"the input length exceeds the context length\"}", "long_prompts"},
      {"Failed to buffer the request body: length limit exceeded", "long_prompts"},
  };
  for (const auto& row : rows) {
    auto r = run(with_log(std::string(row.line) + "\n"));
    ASSERT_FALSE(r.findings.empty()) << row.line;
    EXPECT_EQ(r.findings.front().id, row.cause) << row.line;
  }
}

// A slow first token on an integrated GPU is its prefill speed, not a queue.
TEST(Suspects, AnIntegratedGpusSlowFirstTokenIsNotAQueue) {
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::ttft_spike};
  in.gpu_as_given = "Radeon 890M iGPU";
  in.observations.now = {{"input_len_mean", 7397}, {"ttft_p50_s", 21.3}};
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_NE(r.findings.front().id, "running_cap_queueing");
  in.gpu_as_given = "H100";  // the same numbers on a datacenter GPU: the request waited
  auto r2 = run(in);
  ASSERT_FALSE(r2.findings.empty());
  EXPECT_EQ(r2.findings.front().id, "running_cap_queueing");
}

// Ollama's GPU discovery that found only its Vulkan library: the vendor runtime did not load.
TEST(Suspects, OllamaFindingOnlyVulkanIsTheGpuBackendNotTheScheduler) {
  auto in = with_log(
      "time=2026-06-02T13:52:53.784+03:00 level=TRACE source=runner.go:167 msg=\"supported GPU library combinations before "
      "filtering\" supported=\"map[Vulkan:map[/usr/local/lib/ollama/vulkan:map[0:0 1:1]]]\"\n");
  in.symptoms = {d::Symptom::tpot_high};
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_not_used");
  // CUDA listed first (Go sorts the keys): the vendor runtime is there, no clue.
  auto cuda = with_log(
      "time=2026-06-02T13:52:53.784+03:00 level=TRACE source=runner.go:167 msg=\"supported GPU library combinations before "
      "filtering\" supported=\"map[CUDA:map[/usr/local/lib/ollama/cuda_v13:map[0:0]] Vulkan:map[/usr/local/lib/ollama/vulkan:map[0:0]]]\"\n");
  cuda.symptoms = {d::Symptom::tpot_high};
  for (const auto& f : run(cuda).findings) EXPECT_NE(f.id, "gpu_not_used");
}

// Ollama's discovery with no loadable GPU library at all: the CPU serves.
TEST(Suspects, OllamaWithNoCompatibleGpuLibraryRunsOnTheCpu) {
  auto in = with_log("time=2025-03-18T11:15:57.784+09:00 level=DEBUG source=server.go:259 msg=\"compatible gpu libraries\" compatible=[]\n");
  in.symptoms = {d::Symptom::tpot_high};
  in.observations.now["output_tokens_per_s"] = 4;
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_not_used");
  // A library listed: no clue from this line.
  auto cuda = with_log("time=2025-03-18T11:15:57.784+09:00 level=DEBUG source=server.go:259 msg=\"compatible gpu libraries\" compatible=[cuda_v12]\n");
  cuda.symptoms = {d::Symptom::tpot_high};
  for (const auto& f : run(cuda).findings)
    for (const auto& e : f.evidence) EXPECT_EQ(e.indicator.find("ollama_no_compatible_gpu_library"), std::string::npos);
}

// A native crash of the engine process with no symptom: a fault below the engine's settings; and
// Ollama's CUDA library finding no device: the CPU serves.
TEST(Suspects, ASegfaultIsAFaultAndOllamaWithNoNvidiaDeviceRunsOnTheCpu) {
  auto crash = with_log("[2026-06-15 19:57:33 TP5] Init torch distributed begin.\n"
                        "[2026-06-15 19:57:34 TP0] sglang is using nccl==2.28.9\n"
                        "Fatal Python error: Fatal Python error: Segmentation faultSegmentation fault\n");
  auto r = run(crash);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "kernel_hang_or_fault");
  auto none = with_log("time=2025-08-29T12:00:56.249+02:00 level=INFO source=gpu.go:604 msg=\"no nvidia devices detected by library "
                       "/usr/lib64/libcuda.so.575.64.05\"\n");
  auto g = run(none);
  ASSERT_FALSE(g.findings.empty());
  EXPECT_EQ(g.findings.front().id, "gpu_not_used");
  // LMDeploy out of tokens for the session: the context it gives a session is below the request.
  auto lm = with_log("2024-08-27 01:34:56,928 - lmdeploy - ERROR - Truncate max_new_tokens to 128\n"
                     "2024-08-27 01:34:56,929 - lmdeploy - ERROR - run out of tokens. session_id=0.\n");
  auto l = run(lm);
  ASSERT_FALSE(l.findings.empty());
  EXPECT_EQ(l.findings.front().id, "kv_pool_below_one_request");
}

// Ollama's runner with only CPU backends loaded (its plan offloaded every layer to CUDA), and a
// compute graph as large as the GPU: the first is a GPU not used, the second layers pushed off it.
TEST(Suspects, OllamaBackendsAndComputeGraphReadTheirLayer) {
  auto cpu_only = with_log("time=2025-05-21T17:49:23.905+08:00 level=INFO source=ggml.go:104 msg=system CPU.0.LLAMAFILE=1 compiler=cgo(gcc)\n");
  auto r = run(cpu_only);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_not_used");
  auto cuda = with_log("time=2025-05-21T17:49:23.905+08:00 level=INFO source=ggml.go:104 msg=system CPU.0.LLAMAFILE=1 "
                       "CUDA.0.ARCHS=500,600,700 CUDA.0.USE_GRAPHS=1 compiler=cgo(gcc)\n");
  for (const auto& f : run(cuda).findings) EXPECT_NE(f.id, "gpu_not_used");
  auto graph = with_log("time=2026-02-18T19:17:14.971Z level=INFO source=device.go:262 msg=\"compute graph\" device=CUDA0 size=\"32.0 GiB\"\n");
  graph.gpu_as_given = "6x NVIDIA GPUs with 24 GB each";
  auto g = run(graph);
  ASSERT_FALSE(g.findings.empty());
  EXPECT_EQ(g.findings.front().id, "partial_offload");
  graph.gpu_as_given = "H200";  // 141 GB: a 32 GiB graph fits
  for (const auto& f : run(graph).findings) EXPECT_NE(f.id, "partial_offload");
}

// Answers as long as the max_tokens the client sets ran into the budget (a reasoning model spends it
// thinking): the output-cut cause rises and the reasoning parser is argued against.
TEST(Suspects, AnswersAsLongAsTheirMaxTokensAreCutByTheBudget) {
  auto confidence = [](const d::Report& r, const std::string& id) {
    for (const auto& f : r.findings)
      if (f.id == id) return f.confidence;
    return 0.0;
  };
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::output_quality};
  in.model_as_given = "gpt-oss-120b";
  in.observations.now["output_len_mean"] = 100;
  const double without = confidence(run(in), "output_cut_by_max_tokens");
  in.launch_text = "max_completion_tokens=100";
  const double with = confidence(run(in), "output_cut_by_max_tokens");
  EXPECT_GT(with, 2 * without);
  EXPECT_GT(with, 0.15);
  in.launch_text = "max_completion_tokens=4096";  // far from the answers' length: no clue
  EXPECT_LT(confidence(run(in), "output_cut_by_max_tokens"), with);
}

// SGLang refusing a prompt as longer than it admits: far below the configured context, the pool
// was sized small (scheduling); at the configured context, the prompt is too long (load).
TEST(Suspects, ARefusedPromptAgainstTheConfiguredContextNamesThePoolOrThePrompt) {
  auto in = with_log("Input length (3034 tokens) exceeds the maximum allowed length (1735 tokens)\n");
  in.launch_text = "--mem-fraction-static 0.8 --context-length 65536";
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "kv_pool_below_one_request");
  auto at_ctx = with_log("Input length (3034 tokens) exceeds the maximum allowed length (2040 tokens)\n");
  at_ctx.launch_text = "--context-length 2048";
  for (const auto& f : run(at_ctx).findings) EXPECT_NE(f.id, "kv_pool_below_one_request");
}

// Ollama disabling GPU support on a CPU without AVX; a slow Python tokenizer under a large batch.
TEST(Suspects, OllamaWithoutAvxAndASlowTokenizerAreTheHost) {
  auto avx = with_log("level=WARN source=gpu.go:177 msg=\"CPU does not have AVX or AVX2, disabling GPU support.\"\n");
  auto r = run(avx);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "gpu_not_used");
  auto tok = with_log("UserWarning: Using a slow tokenizer. This might cause a significant slowdown. Consider using a fast tokenizer instead.\n");
  tok.symptoms = {d::Symptom::tpot_high};
  bool host = false;
  for (const auto& f : run(tok).findings) host |= f.id == "host_cpu_bound";
  EXPECT_TRUE(host);
  // At hundreds running, the per-sequence detokenising is a second clue for the host.
  tok.observations.now = {{"running", 1024}};
  size_t host_clues = 0;
  for (const auto& f : run(tok).findings)
    if (f.id == "host_cpu_bound") host_clues = f.evidence.size();
  EXPECT_EQ(host_clues, 2u);
}

// LM Studio refusing a prompt longer than the context the model was loaded with: the request's size.
TEST(Suspects, LmStudioContextOverflowIsThePromptAgainstTheContext) {
  auto in = with_log("Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context "
                     "length of only 32768 tokens, which is not enough. Try to load the model with a larger context length, or "
                     "provide a shorter input. Error Data: n/a, Additional Data: n/a\n");
  auto r = run(in);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "max_tokens_exceeds_context");
}

// vLLM's KV pool holding one to two max-length requests (cache_config_info or the startup line):
// long-context clients wait for KV while one or two run.
TEST(Suspects, AKvPoolOfUnderTwoMaxLengthRequestsIsTheQueue) {
  for (const char* line : {"`cache_config_info`: `kv_cache_size_tokens=1,526,178`, `kv_cache_max_concurrency=1.53`",
                           "INFO 05-01 10:00:00 [kv_cache_utils.py:634] Maximum concurrency for 1,000,000 tokens per request: 1.53x"}) {
    SCOPED_TRACE(line);
    auto in = with_log(std::string(line) + "\n");
    in.symptoms = {d::Symptom::ttft_spike};
    in.observations.now["running"] = 2;
    in.observations.now["waiting"] = 1;
    auto r = run(in);
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings.front().id, "kv_pool_exhausted");
  }
  // Eight requests of max-model-len fit: the line is no clue for the pool.
  auto roomy = with_log("`cache_config_info`: `kv_cache_size_tokens=1,048,576`, `kv_cache_max_concurrency=8.00`\n");
  roomy.symptoms = {d::Symptom::ttft_spike};
  for (const auto& f : run(roomy).findings) EXPECT_NE(f.id, "kv_pool_exhausted");
}

// The prefix-cache hit rate on long prompts: half hit is a prefix that changes partway (the
// content: load); none at all is the cache never seeing the conversation (routing) or off.
TEST(Suspects, APrefixCacheHitRateOnLongPromptsNamesTheCacheMiss) {
  d::DiagnoseInput part;
  part.observations.now["prefix_cache_hit_rate"] = 0.53;
  part.observations.now["input_len_mean"] = 13040;
  auto r = run(part);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "prompt_cache_unused");
  d::DiagnoseInput none = part;
  none.symptoms = {d::Symptom::ttft_spike};
  none.observations.now["prefix_cache_hit_rate"] = 0.0;
  bool routing = false;
  for (const auto& f : run(none).findings) routing |= f.id == "routing_affinity_lost";
  EXPECT_TRUE(routing);
  // No length given: only a hit rate of zero speaks.
  d::DiagnoseInput zero;
  zero.observations.now["prefix_cache_hit_rate"] = 0.0;
  auto z = run(zero);
  ASSERT_FALSE(z.findings.empty());
  EXPECT_EQ(z.findings.front().id, "prompt_cache_unused");
  d::DiagnoseInput half;
  half.observations.now["prefix_cache_hit_rate"] = 0.5;
  for (const auto& f : run(half).findings) EXPECT_NE(f.id, "prompt_cache_unused");
  // Short prompts: a low hit rate says nothing.
  d::DiagnoseInput shortp = part;
  shortp.observations.now["input_len_mean"] = 300;
  for (const auto& f : run(shortp).findings) EXPECT_NE(f.id, "prompt_cache_unused");
}

// Several running under the server's cap and none waiting in it, while first tokens are slow: the
// queue is before the server (a client's or proxy's connection limit), not its cap.
TEST(Suspects, RunningBelowTheCapPointsBeforeTheServer) {
  auto evidence_for = [](const d::Report& r, const std::string& id) {
    for (const auto& f : r.findings)
      if (f.id == id) return true;
    return false;
  };
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::ttft_spike};
  in.launch_text = "llama-server -m m.gguf --ctx-size 81920 --parallel 8";
  in.observations.now["running"] = 6;
  EXPECT_TRUE(evidence_for(run(in), "client_concurrency_limit"));
  // Every slot busy: the server's own queue, not the client's.
  in.observations.now["running"] = 8;
  EXPECT_FALSE(evidence_for(run(in), "client_concurrency_limit"));
  // The same 128-request cap without DP attention: 15 running is far below it, not binding.
  {
    d::DiagnoseInput dp;
    dp.symptoms = {d::Symptom::throughput_low};
    dp.launch_text = "--data-parallel-size 8 --max-running-requests 128";
    dp.observations.now["running"] = 15;
    dp.observations.now["waiting"] = 1;
    for (const auto& f : run(dp).findings)
      for (const auto& e : f.evidence) EXPECT_EQ(e.text.find("per data-parallel rank"), std::string::npos);
  }
  // The client set to send 128 at once, 100 reach the server: held between the two (and 100 is
  // httpx's and aiohttp's default pool).
  {
    d::DiagnoseInput cl;
    cl.symptoms = {d::Symptom::throughput_low};
    cl.launch_text = "concurrent_requests: 128";
    cl.observations.now["running"] = 100;
    auto r = run(cl);
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings.front().id, "client_concurrency_limit");
    cl.observations.now["running"] = 120;  // at 94% of what the client sends: no gap to explain
    EXPECT_FALSE(evidence_for(run(cl), "client_concurrency_limit"));
    // TGI's --max-concurrent-requests is the server's admission limit: running under it says nothing
    // about a client.
    d::DiagnoseInput tgi;
    tgi.symptoms = {d::Symptom::ttft_spike};
    tgi.launch_text = "text-generation-launcher --model-id m --max-concurrent-requests 128";
    tgi.observations.now["running"] = 20;
    EXPECT_FALSE(evidence_for(run(tgi), "client_concurrency_limit"));
  }
  // Requests waiting inside the server: not before it.
  in.observations.now["running"] = 6;
  in.observations.now["waiting"] = 3;
  EXPECT_FALSE(evidence_for(run(in), "client_concurrency_limit"));
}

// Capacity read off single readings (suspect_capacity.cpp), each against the symptom's prior.
TEST(Suspects, CapacityReadingsMoveTheRankingToScheduling) {
  // 512 prompt tokens and 11 s to the first token on a GPU: waiting, not prefilling.
  d::DiagnoseInput q;
  q.symptoms = {d::Symptom::throughput_low};
  q.gpu_as_given = "A800";
  q.observations.now = {{"ttft_p50_s", 11.12}, {"input_len_mean", 512}, {"output_len_mean", 256}};
  auto r = run(q);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().layer, d::Layer::scheduling_capacity) << r.findings.front().id;
  // The same first token on a CPU server of llama.cpp's family is its prefill speed: no queue clue.
  q.launch_text = "llama-server -m m.gguf -t 8";
  q.gpu_as_given.clear();
  bool queue_clue = false;
  for (const auto& f : run(q).findings)
    for (const auto& e : f.evidence) queue_clue = queue_clue || e.text.find("the request waited") != std::string::npos;
  EXPECT_FALSE(queue_clue);

  // A full KV pool while tokens crawl: preemption churn.
  d::DiagnoseInput kv;
  kv.symptoms = {d::Symptom::throughput_low};
  kv.observations.now = {{"output_tokens_per_s", 1.5}, {"expected_output_tokens_per_s", 100}, {"kv_usage", 1.0}};
  r = run(kv);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().id, "kv_pool_exhausted");

  // 80 sequences running and a few percent of the expected tokens: per-token request work.
  d::DiagnoseInput feat;
  feat.symptoms = {d::Symptom::throughput_low};
  feat.observations.now = {{"output_tokens_per_s", 3}, {"expected_output_tokens_per_s", 60}, {"running", 80}};
  r = run(feat);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().layer, d::Layer::load) << r.findings.front().id;
}

// The bundled tables load: a broken row would otherwise silently switch the reasoning off (the
// report then says so under Missing evidence).
TEST(Causes, BundledTablesHaveNoProblem) {
  EXPECT_EQ(d::cause_table_problem(), "");
  EXPECT_EQ(ingest::signature_table_problem(), "");
  d::DiagnoseInput in;
  in.symptoms = {d::Symptom::ttft_spike};
  in.what_if = false;
  for (const auto& m : d::diagnose(in).missing) EXPECT_EQ(m.find("could not be read"), std::string::npos) << m;
}

TEST(Causes, AMissingTableIsSaidNotSilent) {
  // Run in a child so the bundled tables of this process stay loaded.
  const std::string cmd = std::string("LLMTRIAGE_DATA_DIR=/nonexistent ") + LLMTRIAGE_BINARY +
                          " diagnose --symptom ttft_spike --no-what-if --json 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  EXPECT_NE(out.find("suspected causes not ranked: the cause table could not be read"), std::string::npos) << out;
}
