// Clues that read a scheduling/capacity fault off single readings, where the symptom alone would
// be blamed on the prompts or the hardware (docs/rules.md, "Suspected causes", capacity readings):
//  - a first token far slower than any GPU prefills that prompt: the request waited, it did not
//    compute (a running-request cap or a full KV pool ahead of it);
//  - the running batch's KV (running x (prompt + output)) against the pool the ledger or the
//    engine states: more than the pool holds is eviction and recompute, far less clears the pool;
//  - a KV pool at 100% while tokens barely come out: preemption churn;
//  - a batch that runs yet yields a few percent of the expected tokens: per-token request work
//    (grammars, logprobs), not a GPU left unused;
//  - TensorRT-LLM's MAX_UTILIZATION capacity scheduler, which admits beyond the pool and pauses.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "diagnose/suspect_items.h"
#include "diagnose/suspects.h"
#include "ingest/launch_text.h"

namespace llmtriage::diagnose {
namespace {

// Slowest prompt processing (tokens/s) a GPU serving engine shows on a prompt of a few hundred
// tokens or more: a 70B model in FP16 on one A100 prefills ~3-5k tokens/s, an 8B model tens of
// thousands (vLLM and TensorRT-LLM published prefill throughputs; llama.cpp on a GPU ~1-3k for 7B
// Q4). A first token at under a fifth of the slowest of those is time spent waiting.
constexpr double kPrefillFloorTokS = 1000;
constexpr double kQueueTtftMinS = 2;

}  // namespace

std::vector<Clue> capacity_clues(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& sym,
                                 const std::string& engine, const ingest::LaunchSettings& ls) {
  std::vector<Clue> out;
  auto add = [&](const char* cause, double w, EvidenceItem e) { out.push_back({cause, w, std::move(e), false}); };
  auto src = [&](const char* n) {
    const Indicator* i = ind.find(n);
    return i ? i->source : std::string("observe");
  };
  const bool slow = clue::has_sym(sym, Symptom::tpot_high) || clue::has_sym(sym, Symptom::throughput_low);
  const bool ttft = clue::has_sym(sym, Symptom::ttft_spike);
  // A GPU serving engine: named as one, or a GPU named with an engine that is not llama.cpp's family
  // (on a CPU, a few hundred prompt tokens a second is the hardware, not a queue).
  // An integrated or laptop-class GPU (an "890M", "Iris", "UHD", "iGPU", Apple silicon) prefills at
  // CPU-like speeds: a slow first token there is the hardware, not a queue.
  const bool integrated = [&] {
    std::string g;
    for (char ch : in.gpu_as_given) g += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (g.find("igpu") != std::string::npos || g.find("integrated") != std::string::npos || g.find("iris") != std::string::npos ||
        g.find("uhd") != std::string::npos || g.find("apple") != std::string::npos)
      return true;
    // Apple silicon by its chip's word ("M3 Max", "Mac M2"), not a Tesla M40's "m40".
    std::string word;
    for (size_t i = 0; i <= g.size(); ++i) {
      if (i < g.size() && std::isalnum(static_cast<unsigned char>(g[i]))) {
        word += g[i];
        continue;
      }
      if (word == "m1" || word == "m2" || word == "m3" || word == "m4" || word == "m5") return true;
      word.clear();
    }
    // AMD's integrated Radeons are named by three digits and an M ("780M", "890M").
    for (size_t i = 0; i + 3 < g.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(g[i])) && std::isdigit(static_cast<unsigned char>(g[i + 1])) &&
          std::isdigit(static_cast<unsigned char>(g[i + 2])) && g[i + 3] == 'm' && (i == 0 || !std::isdigit(static_cast<unsigned char>(g[i - 1]))) &&
          g.find("radeon") != std::string::npos)
        return true;
    return false;
  }();
  const bool cpu_family = engine == "llamacpp" || engine == "ollama";
  const bool gpu_server = !cpu_family && !integrated &&
                          (engine == "vllm" || engine == "sglang" || engine == "tgi" || engine == "trtllm" || engine == "lmdeploy" ||
                           !in.gpu_as_given.empty() || !in.now.deployment.gpu.empty());

  // The first token against the prompt's prefill.
  const char* tname = ind.get("ttft_p50_s") ? "ttft_p50_s" : "ttft_p99_s";
  if (auto t = ind.get(tname), len = ind.get("input_len_mean"); t && len && gpu_server && (ttft || slow) && *t >= kQueueTtftMinS &&
                                                                   *len > 0 && *len / *t < kPrefillFloorTokS) {
    auto e = clue::reading(tname, *t, "s", src(tname),
                  fmt::format("{:.0f} prompt tokens in {:.1f} s to the first token: {:.0f} tokens/s, far below any GPU's "
                              "prefill: the request waited",
                              *len, *t, *len / *t),
                  *len / kPrefillFloorTokS, ">");
    add("running_cap_queueing", 1.5, e);
    add("kv_pool_exhausted", 0.5, e);
    add("long_prompts", -1.0, e);
  }

  // The running batch's KV against the pool.
  const char* pool_name = ind.get("kv_capacity_tokens") ? "kv_capacity_tokens" : "ledger_kv_tokens";
  if (auto pool = ind.get(pool_name), run = ind.get("running"), a = ind.get("input_len_mean"), b = ind.get("output_len_mean");
      pool && *pool > 0 && run && *run >= 2 && a && b) {
    const double need = *run * (*a + *b);
    auto e = clue::reading("running_kv_need_tokens", need, "tokens", src("running"),
                  fmt::format("{:.0f} running x ({:.0f} + {:.0f}) tokens against the pool of {:.0f} ({})", *run, *a, *b, *pool,
                              src(pool_name)),
                  *pool, ">");
    if (need > *pool) add("kv_pool_exhausted", 2.0, e);
    else if (need < 0.5 * *pool) add("kv_pool_exhausted", -1.0, e);
  }

  // A full pool while tokens barely come out.
  // (A pool filled by the running requests is an engine serving at its capacity: the slowness is
  // the churn, more than a device left unused.)
  if (auto kv = ind.get("kv_usage"); kv && *kv >= 0.98 && slow) {
    auto e = clue::reading("kv_usage", *kv, "fraction", src("kv_usage"), "the KV pool is full while generation crawls: preemption and recompute",
                  0.98, ">=");
    add("kv_pool_exhausted", 2.5, e);  // a full pool forces preemption: the reading states the mechanism
    add("gpu_not_used", -0.7, e);
  }

  // A batch that runs but yields a few percent of what this deployment makes.
  if (auto o = ind.get("output_tokens_per_s"), x = ind.get("expected_output_tokens_per_s"), r = ind.get("running");
      o && x && *x > 0 && r && *r >= 32 && *o < 0.1 * *x) {
    auto e = clue::reading("output_tokens_per_s", *o, "tokens/s", src("output_tokens_per_s"),
                  fmt::format("{:.0f} sequences running yield {:.1f} tokens/s against the expected {:.0f}: each token costs "
                              "request-side work",
                              *r, *o, *x),
                  0.1 * *x, "<");
    add("expensive_request_features", 1.5, e);
    add("gpu_not_used", -1.0, e);
  }

  // TensorRT-LLM's capacity scheduler policy.
  const std::string policy_key = "capacity-scheduler-policy";
  for (const auto& [k, v] : ls.values) {
    if (k.size() < policy_key.size() || k.compare(k.size() - policy_key.size(), policy_key.size(), policy_key) != 0) continue;
    std::string up = v;
    for (auto& ch : up) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (up.find("MAX_UTILIZATION") != std::string::npos && (slow || ttft || clue::has_sym(sym, Symptom::runtime_oom_or_preemption)))
      add("kv_pool_exhausted", 1.5,
          clue::reading("capacity_scheduler_policy", 0, "", "--engine-args",
               "MAX_UTILIZATION admits requests beyond what the KV pool holds and pauses them when it runs out"));
  }
  return out;
}

}  // namespace llmtriage::diagnose
