// The clues of the suspected-causes reasoning (suspects.h): every piece of thin evidence turned
// into a weight for or against a cause. Weights are natural-log likelihood ratios: 3 ~ the
// evidence is 20x likelier under the cause (an engine's own line stating it), 2 ~ 7x (a flag or a
// reading that produces the symptom by itself), 1 ~ 3x (consistent, not specific), 0.5 weak.
// Each rule's rationale is in docs/rules.md ("Suspected causes"), in the order below.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <set>

#include "catalog/name_guess.h"
#include "ingest/launch_text.h"
#include "diagnose/output_checks.h"
#include "diagnose/rule_util.h"
#include "diagnose/suspect_engine.h"
#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"
#include "ingest/log_signatures.h"

namespace llmtriage::diagnose {
namespace {

using clue::Clues;
using clue::lower;
using clue::engine_clues;
using clue::engine_of;
using clue::has_sym;
using clue::llamacpp_family;
using clue::quote;
using clue::reading;

// ---- log signatures and the log's other events ----

void signature_clues(const DiagnoseInput& in, Clues& c) {
  std::set<std::string> seen;
  for (const auto& e : in.now.events) {
    auto it = e.labels.find("signature");
    if (it == e.labels.end()) continue;
    if (!seen.insert(it->second).second) continue;
    const ingest::Signature* sig = ingest::find_signature(it->second);
    if (!sig || sig->cause.empty() || sig->weight == 0) continue;
    EvidenceItem item = quote("log_signature " + sig->id, e.text.substr(0, 300), e.source);
    item.text = sig->meaning + ": \"" + e.text.substr(0, 240) + "\"";
    // A refusal for rate (429, a provider's rate limit) is an answer, not a cut: where the
    // requests failed on it, a timeout somewhere on the path is not what stopped them.
    if (sig->cause == "request_rate_above_capacity") {
      c.add("gateway_timeout", -1.0, item);
      c.add("client_timeout", -0.5, item);
    }
    c.add(sig->cause, sig->weight, std::move(item), sig->weight >= 3.0);
  }
  // Events the engine parsers recognised (ingest/engine_log.h), when no signature named them.
  for (const auto& e : in.now.events) {
    if (e.labels.count("signature")) continue;
    const std::string text = e.text.substr(0, 240);
    switch (e.kind) {
      case core::EventKind::max_len_exceeds_kv: c.add("kv_pool_below_one_request", 3.0, quote("max_len_exceeds_kv", text, e.source), true); break;
      case core::EventKind::context_truncated: c.add("context_truncation", 3.0, quote("context_truncated", text, e.source), true); break;
      case core::EventKind::kv_cache_full: c.add("kv_pool_exhausted", 2.5, quote("kv_cache_full", text, e.source)); break;
      case core::EventKind::preemption: c.add("kv_pool_exhausted", 2.0, quote("preemption", text, e.source)); break;
      case core::EventKind::oom: {
        auto cause = e.labels.count("cause") ? e.labels.at("cause") : std::string();
        if (cause == "prefill_oom") c.add("activation_headroom", 2.5, quote("oom", text, e.source));
        else if (cause == "free_memory_below_requested" || cause == "no_kv_memory") c.add("memory_budget_too_small", 2.5, quote("oom", text, e.source));
        else {
          c.add("memory_budget_too_small", 1.0, quote("oom", text, e.source));
          c.add("kv_pool_exhausted", 0.7, quote("oom", text, e.source));
          c.add("activation_headroom", 0.7, quote("oom", text, e.source));
        }
        break;
      }
      case core::EventKind::engine_dead: c.add("kernel_hang_or_fault", 0.5, quote("engine_dead", text, e.source)); break;
      default: break;
    }
  }
}

// ---- launch settings ----

void launch_clues(const ingest::LaunchSettings& ls, const std::string& engine, const catalog::ModelNameGuess& mg,
                  const catalog::GpuNameGuess& gg, const std::vector<Symptom>& sym, const Indicators& ind, Clues& c) {
  const std::string src = "--engine-args";
  const bool slow = has_sym(sym, Symptom::tpot_high) || has_sym(sym, Symptom::throughput_low);
  const bool quality = has_sym(sym, Symptom::output_quality);
  const bool startup = has_sym(sym, Symptom::startup_oom);
  const bool runtime_oom = has_sym(sym, Symptom::runtime_oom_or_preemption);
  auto flag = [&](const std::string& k, const std::string& v) { return v.empty() ? "--" + k : "--" + k + " " + v; };

  // CUDA graphs off.
  std::optional<std::string> eager;
  if (ls.has("enforce-eager")) eager = "--enforce-eager";
  if (ls.has("disable-cuda-graph")) eager = "--disable-cuda-graph";
  if (auto o = ls.text({"compilation-config"}); o && (*o == "0" || o->find("\"level\": 0") != std::string::npos)) eager = "-O " + *o;
  if (eager) c.add("cuda_graphs_off", slow ? 2.5 : 0.8, quote("cuda_graphs", *eager + " (CUDA graphs off)", src));
  if (auto o = ls.text({"compilation-config"}); o && o->find("full_cuda_graph") != std::string::npos)
    c.add("kernel_hang_or_fault", has_sym(sym, Symptom::timeout_or_stream_break) ? 1.5 : 0.5,
          quote("full_cuda_graph", "-O " + *o + " (full CUDA graphs: decode replays one graph per batch size)", src));

  // A CPU deployment by design: no layer on the GPU, and the launch tunes the CPU path (NUMA
  // placement, MoE experts kept on the CPU). Slowness there is the CPU compute path's (threads,
  // NUMA, the build), not layers that failed to fit.
  const auto ngl0 = ls.number({"n-gpu-layers", "gpu-layers", "num-gpu"});
  const bool cpu_by_design = ngl0 && *ngl0 == 0 && (ls.has("numa") || ls.has("cpu-moe") || ls.has("n-cpu-moe"));
  if (cpu_by_design && slow) {
    auto item = quote("cpu_deployment", "-ngl 0 with CPU placement flags (--numa / --cpu-moe): the model runs on the CPU by design", src);
    c.add("host_cpu_bound", 2.0, item);
    c.add("partial_offload", -1.5, item);
  }
  // Compute threads of the llama.cpp family. llama.cpp's default is the physical cores; its thread
  // pool meets at a barrier every step, so one thread on an oversubscribed or shared core stalls
  // every token. An explicit count of 32 or more is above most hosts' (or containers') cores.
  if (auto t = ls.number({"threads", "num-thread"}); t && slow && llamacpp_family(engine) && *t >= 32)
    c.add("host_cpu_bound", 1.5, reading("engine_threads", *t, "threads", src,
                                        "compute threads set explicitly, more than most hosts' or containers' cores"));
  // GPU offload settings of the llama.cpp family.
  if (auto ngl = ngl0; ngl && !cpu_by_design) {
    auto item = reading("n_gpu_layers", *ngl, "layers", src, "layers placed on the GPU by the launch settings");
    if (*ngl >= 0 && *ngl < 20) c.add("partial_offload", 2.5, item);
    else if (*ngl >= 0 && *ngl < 60 && mg.params_b && *mg.params_b >= 30) c.add("partial_offload", 2.0, item);
    else if (*ngl >= 99 || *ngl < 0) c.add("partial_offload", -1.0, item);
  }
  // Parallel slots.
  // (OLLAMA_PARALLEL is how people often write Ollama's OLLAMA_NUM_PARALLEL.)
  if (auto np = ls.number({"OLLAMA_NUM_PARALLEL", "OLLAMA_PARALLEL", "NUM_PARALLEL", "parallel"})) {
    auto item = reading("parallel_slots", *np, "slots", src, "parallel slots (each holds its own context)");
    if (*np >= 2) c.add("parallel_slots_multiply_context", *np >= 8 ? 2.0 : 1.5, item);
    // A quality complaint on slots: llama.cpp-family servers give each slot context / slots
    // (unless unified), so a prompt that fits the configured context is cut in its slot.
    if (*np >= 2 && quality && llamacpp_family(engine)) c.add("parallel_slots_multiply_context", 1.0, item);
    if (*np >= 16 && slow) c.add("partial_offload", 1.0, item);
  } else if (engine == "llamacpp" && ls.has("ctx-size") && !ls.has("parallel") && (runtime_oom || has_sym(sym, Symptom::timeout_or_stream_break))) {
    c.add("parallel_slots_multiply_context", 1.0,
          quote("parallel_slots", "-c given without -np: llama-server's default slots share that context", src));
  }
  // The running-request cap and the concurrency in front of it: suspect_queue.cpp.
  for (auto& q : queue_clues(ls, ind, sym)) c.out.push_back(std::move(q));
  // Outputs as long as the max_tokens the launch or the client sets (any key ending in
  // max-tokens / max-completion-tokens / max-new-tokens, an app's SUMMARIZE_MAX_TOKENS too): every
  // answer ran into the budget. With a reasoning model the thinking spends it, so the content
  // comes back empty or cut, which reads as a quality fault but is the request's budget.
  if (auto o = ind.get("output_len_mean"); o && *o > 0) {
    for (const auto& [k, v] : ls.values) {
      if (!clue::max_tokens_key(lower(k))) continue;
      auto mt = ls.number({k.c_str()});
      if (mt && *mt > 0 && std::fabs(*o - *mt) <= 0.02 * *mt) {
        auto item = reading("output_len_mean", *o, "tokens", "observe",
                            fmt::format("every answer as long as {} = {}: cut at the budget", k, num(*mt)), *mt, "==");
        c.add("output_cut_by_max_tokens", 2.5, item);
        c.add("reasoning_parser_mismatch", -1.0, item);  // an empty content is the budget spent, not the parser
        break;
      }
    }
  }
  // An explicit KV pool size (vLLM --kv-cache-memory, bytes): a few GiB holds few long sequences.
  if (auto kvb = ls.number({"kv-cache-memory", "kv-cache-memory-bytes"}); kvb && *kvb > 0 && *kvb < 16.0 * (1ull << 30) &&
      (slow || has_sym(sym, Symptom::ttft_spike) || runtime_oom || sym.empty()))
    c.add("kv_pool_exhausted", 2.0, reading("kv_cache_memory_gib", *kvb / (1ull << 30), "GiB", src,
                                            "KV pool size set explicitly: a few GiB holds few long sequences"));
  // A per-step token budget far below the prompts (vLLM --max-num-batched-tokens with chunked
  // prefill): a prompt takes prompt / budget steps to prefill, each shared with the running batch.
  if (auto mnbt = ls.number({"max-num-batched-tokens", "chunked-prefill-size", "max-num-tokens"}); mnbt && *mnbt > 0) {
    auto in = ind.get("input_len_p99");
    if (!in) in = ind.get("input_len_mean");
    if (in && *in >= 20 * *mnbt && (has_sym(sym, Symptom::ttft_spike) || sym.empty())) {
      auto item = reading("max_num_batched_tokens", *mnbt, "tokens", src,
                          fmt::format("a {:.0f}-token prompt needs {:.0f} steps of this budget to prefill", *in, std::ceil(*in / *mnbt)));
      c.add("batching_ineffective", 2.5, item);
      c.add("long_prompts", -0.5, item);  // the budget, not the length, sets the steps it takes
    }
  }
  // Ollama serves OLLAMA_NUM_PARALLEL requests of a model at once (1 on older releases and on tight
  // memory; the rest wait in its queue): with a throughput or first-token complaint and no
  // setting given, requests answered one after another are a first suspect.
  if (engine == "ollama" && has_sym(sym, Symptom::throughput_low) &&
      !ls.has("OLLAMA_NUM_PARALLEL") && !ls.has("OLLAMA_PARALLEL") && !ls.has("NUM_PARALLEL") && !ls.has("parallel"))
    c.add("running_cap_queueing", 1.0, quote("parallel_slots", "Ollama with no OLLAMA_NUM_PARALLEL given: its default may serve one request at a time", src));
  // Context size.
  if (auto ctx = ls.number({"num-ctx", "OLLAMA_CONTEXT_LENGTH", "ctx-size", "max-model-len", "context-length", "max-seq-len",
                           "max-total-tokens", "max-input-len"})) {
    auto item = reading("context_tokens", *ctx, "tokens", src, "context length the server runs with");
    auto in_len = ind.get("input_len_mean");
    if (in_len && *in_len > *ctx) {
      if (llamacpp_family(engine)) c.add("context_truncation", 2.5, item);
      else c.add("long_prompts", 1.0, item);
    }
    if (*ctx >= 131072 && startup) c.add("kv_pool_below_one_request", 1.0, item);
    if (*ctx >= 32768 && llamacpp_family(engine) && (startup || slow || sym.empty())) {
      c.add("parallel_slots_multiply_context", 0.7, item);
      if (slow || sym.empty()) c.add("partial_offload", 0.7, item);
    }
    if (quality && *ctx <= 4096 && llamacpp_family(engine)) c.add("context_truncation", 0.7, item);
  }
  // Memory fraction.
  if (auto u = ls.number({"gpu-memory-utilization", "mem-fraction-static", "cuda-memory-fraction", "kv-cache-free-gpu-mem-fraction"})) {
    auto item = reading("memory_fraction", *u, "fraction", src, "share of GPU memory the engine takes");
    if (*u >= 0.94 && runtime_oom) c.add("activation_headroom", 1.2, item);
    if (startup) c.add("memory_budget_too_small", 0.5, item);
  }
  if (auto n = ls.number({"max-num-seqs", "max-running-requests", "max-batch-size"}); n && runtime_oom && *n >= 256)
    c.add("kv_pool_exhausted", 0.7, reading("max_num_seqs", *n, "sequences", src, "running-sequence cap"));
  if (auto steps = ls.number({"num-scheduler-steps"}); steps && *steps >= 8 && runtime_oom)
    c.add("activation_headroom", 1.2, reading("num_scheduler_steps", *steps, "steps", src, "multi-step scheduling keeps per-step buffers for every running sequence"));
  if (auto e = ls.number({"cache-max-entry-count"})) {
    auto item = reading("cache_max_entry_count", *e, "", src, "LMDeploy's KV cache share (or entry count)");
    if (runtime_oom) c.add("kv_pool_exhausted", 1.0, item);
    if (startup) c.add("memory_budget_too_small", 0.7, item);
  }
  if (ls.has("max-queued-requests") && has_sym(sym, Symptom::timeout_or_stream_break))
    c.add("running_cap_queueing", 1.5, quote("max_queued_requests", flag("max-queued-requests", *ls.get("max-queued-requests")) +
                                                                    " (requests beyond the queue limit are rejected)", src));
  if (ls.has("max-running-requests") && ls.has("context-length") && has_sym(sym, Symptom::ttft_spike))
    c.add("running_cap_queueing", 0.7, quote("max_running_requests", "a running-request cap with a long context: the engine may lower the cap to fit the KV pool", src));
  // KV cache and weight quantization.
  if (auto kv = ls.text({"kv-cache-dtype", "cache-type-k", "OLLAMA_KV_CACHE_TYPE"}); kv && lower(*kv) != "auto" && lower(*kv) != "f16" && lower(*kv) != "bf16") {
    if (quality) c.add("quantization_quality", 2.0, quote("kv_cache_dtype", flag("kv-cache-dtype", *kv), src));
  }
  if (auto q = ls.text({"quantization", "quantize"})) {
    const std::string lq = lower(*q);
    const bool legacy = (lq == "awq" || lq == "gptq") ;
    if (legacy && slow) c.add("slow_kernel_path", 2.0, quote("quantization", flag("quantization", *q) + " (pins the legacy kernel; Marlin is the fast path)", src));
    if (quality) c.add("quantization_quality", 0.7, quote("quantization", flag("quantization", *q), src));
  }
  if (auto d = ls.text({"dtype"}); d && (lower(*d) == "float16" || lower(*d) == "half" || lower(*d) == "fp16") && quality)
    c.add("dtype_overflow", 2.0, quote("dtype", flag("dtype", *d), src));
  // Tensor parallelism against the model's size and the interconnect.
  if (auto tp = ls.number({"tensor-parallel-size", "num-shard", "world-size", "tp-size"}); tp && *tp >= 2) {
    auto item = reading("tensor_parallel_size", *tp, "GPUs", src, "tensor-parallel shards");
    if (mg.weights_gib && gg.memory_gib && *mg.weights_gib < 0.35 * *gg.memory_gib && slow)
      c.add("interconnect_bound", 2.0, reading("tensor_parallel_size", *tp, "GPUs", src,
                                                fmt::format("a {:.0f} GiB model fits one {:.0f} GiB GPU, split over {}", *mg.weights_gib,
                                                            *gg.memory_gib, num(*tp))));
    else if (mg.params_b && *mg.params_b <= 14 && *tp >= 4 && slow)
      c.add("interconnect_bound", 2.0, item);
    else if (slow) c.add("interconnect_bound", 0.7, item);
    else if (sym.empty()) c.add("interconnect_bound", 0.5, item);
    if (gg.recognized() && gg.model.find("RTX") != std::string::npos) c.add("interconnect_bound", 0.7, item);
  }
  for (const char* k : {"NCCL_P2P_DISABLE", "disable-custom-all-reduce"})
    if (ls.has(k)) c.add("interconnect_bound", 1.0, quote("p2p", std::string(k) + " (no peer-to-peer all-reduce)", src));
  // Weights offloaded to host memory by a GPU engine (vLLM --cpu-offload-gb): every step streams
  // them over PCIe. Placement, like llama.cpp's layer split: the scheduling layer's.
  if (auto gb = ls.number({"cpu-offload-gb", "cpu-offload"}); gb && *gb > 0) {
    auto item = reading("cpu_offload_gib", *gb, "GiB", src, "weights kept in host memory and copied to the GPU every step");
    // The engine's "GPU engines never offload" (-1.5) does not hold when the flag says it does.
    c.add("partial_offload", (slow ? 2.5 : 1.0) + (llamacpp_family(engine) ? 0.0 : 1.5), item);
  }
  // Sampling work per token asked of the server: repetition penalties walk the recent tokens and
  // grammars/JSON schemas mask the vocabulary at every step (llama.cpp samples on the CPU).
  if (slow) {
    for (const char* k : {"repeat-penalty", "presence-penalty", "frequency-penalty", "repetition-penalty"})
      if (auto pen = ls.number({k}); pen && ((std::string(k) == "repeat-penalty" || std::string(k) == "repetition-penalty") ? *pen != 1 : *pen != 0)) {
        c.add("expensive_request_features", 1.5, reading(std::string(k), *pen, "", src, "a sampling penalty applied at every token"));
        break;
      }
    for (const char* k : {"grammar", "grammar-file", "json-schema", "json-schema-file", "guided-decoding-backend", "structured-outputs-config"})
      if (ls.has(k)) {
        c.add("expensive_request_features", 1.5, quote("grammar", flag(k, *ls.get(k)) + " (constrained decoding: a vocabulary mask per token)", src));
        break;
      }
  }
  // Request-side features set on the server.
  if (auto lp = ls.number({"max-logprobs"}); lp && *lp >= 50)
    c.add("expensive_request_features", 2.0, reading("max_logprobs", *lp, "tokens", src, "log-probabilities over this many tokens allowed per step"));
  if (ls.has("reasoning-parser") && quality)
    c.add("reasoning_parser_mismatch", 2.0, quote("reasoning_parser", flag("reasoning-parser", *ls.get("reasoning-parser")), src));
  if (ls.has("speculative-config") || ls.has("speculative-model")) {
    auto item = quote("speculative_decoding", "speculative decoding on (a drafter with its own kernels)", src);
    if (has_sym(sym, Symptom::ttft_spike)) c.add("jit_compile_first_request", 1.2, item);
    if (slow) c.add("slow_kernel_path", 0.7, item);
  }
  if (auto v = ls.number({"max-tokens", "VLLM_MAX_TOKENS", "num-predict", "n-predict"}); v && *v >= 2048) {
    auto ctx = ls.number({"max-model-len", "context-length", "num-ctx", "ctx-size"});
    auto in_len = ind.get("input_len_mean");
    if ((ctx && *v >= 0.5 * *ctx) || (!ctx && in_len)) c.add("max_tokens_exceeds_context", 1.5, reading("max_tokens", *v, "tokens", src, "max_tokens the client asks for"));
  }
  // Templates: a Modelfile without TEMPLATE, a chat-template name that the model does not use.
  if (ls.has("modelfile-from") && !ls.has("modelfile-template")) {
    const std::string from = lower(*ls.get("modelfile-from"));
    if (from.find(".gguf") != std::string::npos || from.find('/') != std::string::npos) {
      auto item = quote("modelfile", "Modelfile FROM " + *ls.get("modelfile-from") + " with no TEMPLATE (no chat template, no stop tokens)", src);
      if (quality) {
        c.add("chat_template_mismatch", 2.0, item);
        c.add("stop_tokens_missing", 1.2, item);
      }
    }
  }
  for (const auto& p : ls.programs)
    if (p == "deploy" && quality) c.add("chat_template_mismatch", 1.0, quote("chat_template", "the model was converted with a named chat template", src));
  if (ls.has("model-name") && engine == "lmdeploy") c.add("chat_template_mismatch", 0.7, quote("model_name", "--model-name picks LMDeploy's chat template", src));
  if (ls.has("chat-template") && quality) c.add("chat_template_mismatch", 1.0, quote("chat_template", flag("chat-template", *ls.get("chat-template")), src));
  if (ls.has("CUDA_VISIBLE_DEVICES") && gg.mixed) c.add("memory_budget_too_small", 1.0, quote("gpus", "layers split over unequal GPUs", src));
  // A reverse-proxy config pasted as the launch settings: the proxy is in the request path, and
  // without `proxy_buffering off` nginx holds server-sent events back (TTFT and stream breaks).
  if (ls.unparsed.end() != std::find(ls.unparsed.begin(), ls.unparsed.end(), "proxy_pass") ||
      std::find(ls.unparsed.begin(), ls.unparsed.end(), "proxy_pass;") != ls.unparsed.end()) {
    bool unbuffered = false;
    for (size_t i = 0; i + 1 < ls.unparsed.size(); ++i)
      unbuffered |= ls.unparsed[i] == "proxy_buffering" && lower(ls.unparsed[i + 1]).rfind("off", 0) == 0;
    if (!unbuffered && (has_sym(sym, Symptom::ttft_spike) || has_sym(sym, Symptom::timeout_or_stream_break) || sym.empty()))
      c.add("proxy_streaming_config", 2.0, quote("proxy_config", "a reverse proxy (proxy_pass) without proxy_buffering off", src));
  }
  if (auto c2 = ls.text({"enable-chunked-prefill"}); c2 && (lower(*c2) == "false" || *c2 == "0") && has_sym(sym, Symptom::ttft_spike))
    c.add("long_prompts", 0.5, quote("chunked_prefill", "--enable-chunked-prefill=False", src));
}

// ---- model and GPU as named ----

void hardware_clues(const DiagnoseInput& in, const Indicators& ind, const ingest::LaunchSettings& ls,
                    const catalog::ModelNameGuess& mg, const catalog::GpuNameGuess& gg, const std::string& engine,
                    const std::vector<Symptom>& sym, Clues& c) {
  const bool slow = has_sym(sym, Symptom::tpot_high) || has_sym(sym, Symptom::throughput_low);
  // The GPU holds less than the weights the name states: the rest of the model is somewhere else
  // (the CPU, on engines that offload). Only with a weight estimate well above the reading, and on
  // one GPU: a reading per GPU of a model sharded over several holds a share of it by design.
  const bool one_gpu = gg.count <= 1 && ls.number({"tensor-parallel-size", "num-shard", "world-size", "tp-size"}).value_or(1) <= 1;
  if (auto used = ind.get("gpu_mem_used_gib");
      used && *used >= 0.5 && mg.weights_gib && *mg.weights_gib > 1.5 * *used && slow && one_gpu) {
    auto item = reading("gpu_mem_used_gib", *used, "GiB", "observe",
                        fmt::format("the GPU holds {:.0f} GiB, less than the ~{:.0f} GiB of weights ({})", *used, *mg.weights_gib,
                                    in.model_as_given.empty() ? "the model's name" : in.model_as_given));
    c.add("partial_offload", 2.0, item);
    c.add("gpu_not_used", -0.5, item);
  }
  if (mg.weights_gib && gg.memory_gib) {
    const double vram = *gg.memory_gib * std::max(1, gg.count);
    auto item = reading("weights_gib/gpu_memory_gib", *mg.weights_gib / vram, "fraction", "--model/--gpu names",
                        fmt::format("~{:.0f} GiB of weights ({}) on {:.0f} GiB of GPU memory ({})", *mg.weights_gib,
                                    in.model_as_given, vram, in.gpu_as_given));
    if (*mg.weights_gib > 0.92 * vram) {
      if (llamacpp_family(engine) && slow) c.add("partial_offload", 2.5, item);
      else if (has_sym(sym, Symptom::startup_oom) || has_sym(sym, Symptom::runtime_oom_or_preemption)) c.add("memory_budget_too_small", 1.5, item);
      else if (slow) c.add("partial_offload", 1.0, item);
    } else if (*mg.weights_gib < 0.5 * vram && llamacpp_family(engine)) {
      c.add("partial_offload", -0.7, item);
      // It fits with room to spare, yet decodes at CPU speed: the GPU is not the device in use.
      if (auto tps = ind.get("output_tokens_per_s"); tps && *tps < 5 && slow) {
        c.add("gpu_not_used", 1.5, reading("output_tokens_per_s", *tps, "tok/s", "observe",
                                           fmt::format("~{:.0f} GiB of weights fit {:.0f} GiB of GPU memory, yet {:.1f} tokens/s: CPU speed",
                                                       *mg.weights_gib, vram, *tps)));
        c.add("partial_offload", -0.8, item);
      }
    }
  } else if (mg.weights_gib && *mg.weights_gib >= 30 && llamacpp_family(engine) && slow && gg.as_given.empty()) {
    c.add("partial_offload", 0.7, reading("weights_gib", *mg.weights_gib, "GiB", "--model name",
                                          "a large model on a llama.cpp-family server: more than most single GPUs hold"));
  }
  // Apple silicon: Metal, not CUDA (no CUDA graphs), one package (no shards across an interconnect).
  if (gg.vendor == "Apple") {
    auto item = quote("gpu_vendor", in.gpu_as_given + " (Apple silicon: Metal, unified memory)", "--gpu");
    c.add("cuda_graphs_off", -1.5, item);
    c.add("interconnect_bound", -1.0, item);
    // One memory for CPU and GPU: a model that fits runs on Metal whole (llama.cpp offloads every
    // layer there by default); a split is a setting, not a fit.
    c.add("partial_offload", -1.0, item);
  }
  // bf16 matters to engines that run the checkpoint's dtype; llama.cpp-family servers compute in
  // their own (fp16/quantized) formats on Pascal and Turing alike.
  if (!gg.as_given.empty() && gg.recognized() && gg.compute_capability && !gg.bf16_supported && !llamacpp_family(engine)) {
    auto item = reading("compute_capability", *gg.compute_capability, "", "--gpu " + gg.as_given,
                        "no native bfloat16 below compute capability 8.0", 8.0, "<");
    if (has_sym(sym, Symptom::output_quality)) c.add("dtype_overflow", 1.5, item);
    else c.add("gpu_arch_unsupported", 1.0, item);
  }
  if (!mg.quant.empty() && has_sym(sym, Symptom::output_quality))
    c.add("quantization_quality", 0.5, quote("quantization", "quantized checkpoint (" + mg.quant + ")", "--model name"));
  // A vision-language model: each image becomes hundreds to thousands of prompt tokens (tiles at
  // native resolution, cross-attention states), a request size no prompt length in the client
  // shows; with a latency complaint the requests' own size is a first suspect.
  if (!in.model_as_given.empty() && (has_sym(sym, Symptom::ttft_spike) || slow)) {
    const std::string m = lower(in.model_as_given);
    bool vl = false;
    for (const char* w : {"-vl", "_vl", "vision", "llava", "idefics", "internvl", "pixtral", "minicpm-v", "-vlm", "qvq"})
      vl |= m.find(w) != std::string::npos;
    if (vl) c.add("long_prompts", 1.0, quote("vision_model", in.model_as_given + " (a vision-language model: images expand into many prompt tokens)", "--model name"));
  }
  if (has_sym(sym, Symptom::output_quality) && !in.model_as_given.empty()) {
    const std::string m = lower(in.model_as_given);
    // Families whose bare name is the chat-tuned model and whose base says "-Base" (Qwen3 and later,
    // DeepSeek-V3/R1, their distills, QwQ, gpt-oss, phi-4: the makers' model cards).
    bool chat_by_default = false;
    if (m.find("base") == std::string::npos)
      for (const char* f : {"qwen3", "qwq", "gpt-oss", "deepseek-r1", "deepseek-v3", "r1-distill", "phi-4"})
        chat_by_default |= m.find(f) != std::string::npos;
    const bool tuned = m.find("instruct") != std::string::npos || m.find("chat") != std::string::npos ||
                       m.find("-it") != std::string::npos || m.find(":") != std::string::npos || m.find("dolphin") != std::string::npos ||
                       chat_by_default;
    if (!tuned && !mg.family.empty() && mg.params_b)
      c.add("chat_template_mismatch", 1.0, quote("model", in.model_as_given + ": a base model (no instruct/chat in the name)", "--model name"));
    if (m.find("fine-tune") != std::string::npos || m.find("finetune") != std::string::npos || m.find("gguf") != std::string::npos) {
      c.add("stop_tokens_missing", 0.7, quote("model", in.model_as_given + ": an imported or fine-tuned model (template and stops come with the import)", "--model name"));
      c.add("chat_template_mismatch", 0.5, quote("model", in.model_as_given, "--model name"));
    }
  }
}

// ---- sampled outputs ----

void output_clues(const DiagnoseInput& in, Clues& c) {
  size_t n = 0, markers = 0, same_char = 0, garbled = 0, looping = 0, reasoning_only = 0;
  std::string first_marker, example;
  for (const auto& t : in.now.outputs) {
    ++n;
    auto m = template_marker(t);
    if (!m.empty()) {
      ++markers;
      if (first_marker.empty()) first_marker = std::string(m);
    }
    // A run of one punctuation character ('!!!!', '????'): what NaN/inf logits sample.
    size_t run = 1, best = 1;
    for (size_t i = 1; i < t.size(); ++i) {
      run = (t[i] == t[i - 1] && std::ispunct(static_cast<unsigned char>(t[i]))) ? run + 1 : 1;
      best = std::max(best, run);
    }
    if (best >= 4) ++same_char;
    if (is_garbled(t)) ++garbled;
    if (repeated_ngram_fraction(t) >= 0.5) ++looping;
    const std::string l = lower(t);
    if (l.find("reasoning_content") != std::string::npos) ++reasoning_only;
    if (l.find("\"content\": null") != std::string::npos || l.find("\"content\":null") != std::string::npos) ++reasoning_only;
    for (const char* turn : {"human:", "\nuser:", "<|user|>", "<|system|>", "<|im_start|>user"})
      if (l.find(turn) != std::string::npos) {
        ++markers;
        if (first_marker.empty()) first_marker = turn;
      }
    if (example.empty()) example = t.substr(0, 120);
  }
  if (n == 0) return;
  const std::string src = "--outputs";
  if (markers) {
    auto item = reading("template_markers_in_outputs", static_cast<double>(markers), "outputs", src, "first: " + first_marker);
    c.add("stop_tokens_missing", 2.0, item);
    c.add("chat_template_mismatch", 1.0, item);
  }
  if (same_char) {
    auto item = reading("same_char_runs", static_cast<double>(same_char), "outputs", src, "runs of one character (\"" + example.substr(0, 40) + "\")");
    c.add("dtype_overflow", 2.5, item);
    c.add("quantization_quality", 1.0, item);
  }
  if (garbled && !same_char) {
    auto item = reading("garbled_outputs", static_cast<double>(garbled), "outputs", src);
    c.add("quantization_quality", 1.2, item);
    c.add("dtype_overflow", 0.7, item);
    c.add("engine_version_regression", 0.7, item);
  }
  if (looping) {
    auto item = reading("looping_outputs", static_cast<double>(looping), "outputs", src);
    c.add("sampling_defaults", 0.7, item);
    c.add("chat_template_mismatch", 0.7, item);
  }
  if (reasoning_only) c.add("reasoning_parser_mismatch", 2.5, reading("answer_in_reasoning", static_cast<double>(reasoning_only), "outputs", src, "content empty, the answer in reasoning_content"));
  if (!markers && !same_char && !garbled && !looping && !reasoning_only) {
    // Run-on answers that continue past the question.
    for (const auto& t : in.now.outputs)
      if (t.size() > 60) {
        c.add("stop_tokens_missing", 0.5, quote("outputs", "a long answer that runs on: \"" + t.substr(0, 80) + "\"", src));
        break;
      }
  }
}

// Signatures in the sampled outputs (an SDK's error text, finish_reason, a JSON body).
void output_signature_clues(const DiagnoseInput& in, Clues& c) {
  std::set<std::string> seen;
  for (const auto& t : in.now.outputs)
    for (auto& h : ingest::bundled_signature_index().match(t)) {
      if (h.sig->cause.empty() || h.sig->weight == 0 || !seen.insert(h.sig->id).second) continue;
      c.add(h.sig->cause, h.sig->weight * 0.8, quote("output_signature " + h.sig->id, h.sig->meaning + ": \"" + t.substr(0, 160) + "\"", "--outputs"));
    }
}

}  // namespace

ClueSet gather_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms) {
  Clues c;
  // The pasted launch settings, and any server command line the log printed (the log's first).
  std::string launch = in.launch_text;
  for (const auto& e : in.now.events)
    if (auto it = e.labels.find("launch"); e.kind == core::EventKind::engine_args && it != e.labels.end())
      launch = it->second + "\n" + launch;
  const ingest::LaunchSettings ls = ingest::read_launch_text(launch);
  std::string model_name = in.model_as_given;
  if (model_name.empty()) {
    if (auto m = ls.text({"model", "model-path", "model-id", "modelfile-from"})) model_name = *m;
    else if (in.now.deployment.settings.model) model_name = *in.now.deployment.settings.model;
  }
  const catalog::ModelNameGuess mg = catalog::guess_model_from_name(model_name);
  const catalog::GpuNameGuess gg = catalog::guess_gpu_from_name(in.gpu_as_given);
  const std::string engine = engine_of(in, ls, mg);
  engine_clues(engine, symptoms, c);
  signature_clues(in, c);
  for (auto& f : signature_field_clues(in, ind, symptoms, ls)) c.out.push_back(std::move(f));
  launch_clues(ls, engine, mg, gg, symptoms, ind, c);
  for (auto& r : reading_clues(ind, symptoms, engine)) c.out.push_back(std::move(r));
  hardware_clues(in, ind, ls, mg, gg, engine, symptoms, c);
  output_clues(in, c);
  output_signature_clues(in, c);
  for (auto& r : reservation_clues(in, ind, symptoms)) c.out.push_back(std::move(r));
  for (auto& r : capacity_clues(in, ind, symptoms, engine, ls)) c.out.push_back(std::move(r));
  return {std::move(c.out), engine};
}

}  // namespace llmtriage::diagnose
