// The phase of an out-of-memory event (engine_log.h oom_phase): startup (the engine never served)
// or runtime (while serving), from the traceback's frames and the line's phrases.
#include <string_view>

#include "ingest/engine_log.h"

namespace llmtriage::ingest {
namespace {

// Frames only the serving loop runs: the busy loop starts after the engine core is built
// (vllm/v1/engine/core.py run_engine_core: EngineCoreProc(...) then run_busy_loop) and the
// data-parallel idle step (execute_dummy_batch).
constexpr std::string_view kServingLoop[] = {"run_busy_loop", "_process_engine_step", "execute_dummy_batch",
                                             "step_with_batch_queue"};

// Frames and phrases of startup: memory profiling (vllm/v1/worker/gpu_worker.py
// determine_available_memory -> gpu_model_runner.py profile_run -> _dummy_run, _dummy_sampler_run;
// V0 vllm/worker/worker.py determine_num_available_blocks), KV-cache allocation
// (initialize_kv_cache, _initialize_kv_caches), CUDA-graph capture (capture_model), model load
// (load_model, load_weights), warm-up (TGI warmup, compile_or_warm_up_model).
constexpr std::string_view kStartup[] = {
    "determine_available_memory", "determine_num_available_blocks", "profile_run", "_dummy_sampler_run",
    "_dummy_pooler_run", "initialize_kv_cache", "_initialize_kv_caches", "capture_model", "load_model",
    "load_weights", "compile_or_warm_up_model", "warmup", "Warmup", "warming up"};

// Frames and phrases of a model step that, without a startup frame, ran while serving (V1
// gpu_model_runner.py execute_model / sample_tokens, the engine core's step; TGI's batch spans).
constexpr std::string_view kStep[] = {"execute_model", "sample_tokens", ", in step\n", "batch{", "batch_size=",
                                      "prefill{", "decode{", "generate{", "step_with_batch", "generate_token"};

template <size_t N>
bool any_in(std::string_view text, const std::string_view (&words)[N]) {
  for (auto w : words)
    if (text.find(w) != std::string_view::npos) return true;
  return false;
}

}  // namespace

const char* to_string(OomPhase p) {
  switch (p) {
    case OomPhase::startup: return "startup";
    case OomPhase::runtime: return "runtime";
    case OomPhase::unknown: return "unknown";
  }
  return "unknown";
}

OomPhase oom_phase(const core::Event& e) {
  if (auto ph = e.labels.find("phase"); ph != e.labels.end()) {
    if (ph->second == "startup") return OomPhase::startup;
    if (ph->second == "runtime") return OomPhase::runtime;
  }
  if (auto cause = e.labels.find("cause");
      cause != e.labels.end() && (cause->second == "no_kv_memory" || cause->second == "free_memory_below_requested"))
    return OomPhase::startup;
  const auto tb = e.labels.find("traceback");
  const std::string_view trace = tb == e.labels.end() ? std::string_view() : std::string_view(tb->second);
  for (std::string_view text : {trace, std::string_view(e.text)})
    if (any_in(text, kServingLoop)) return OomPhase::runtime;
  for (std::string_view text : {trace, std::string_view(e.text)})
    if (any_in(text, kStartup)) return OomPhase::startup;
  for (std::string_view text : {trace, std::string_view(e.text)})
    if (any_in(text, kStep)) return OomPhase::runtime;
  return OomPhase::unknown;
}

}  // namespace llmtriage::ingest
