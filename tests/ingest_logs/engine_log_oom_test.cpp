// ingest::oom_phase: an out-of-memory event's phase from its traceback's frames (engine_log_oom.cpp),
// said on the event by the log reader.
#include <gtest/gtest.h>

#include <string>

#include "ingest/engine_log.h"

namespace llmtriage::ingest {
namespace {

// A vLLM V1 engine-core traceback with the given frames (innermost last), ending in a CUDA OOM.
std::string v1_traceback(const std::vector<std::pair<std::string, std::string>>& frames) {
  std::string t = "ERROR 03-01 10:00:15 [core.py:634] EngineCore encountered a fatal error.\n"
                  "ERROR 03-01 10:00:15 [core.py:634] Traceback (most recent call last):\n";
  for (const auto& [file, fn] : frames)
    t += "ERROR 03-01 10:00:15 [core.py:634]   File \"/usr/lib/python3.12/site-packages/vllm/" + file +
         "\", line 100, in " + fn + "\nERROR 03-01 10:00:15 [core.py:634]     x = y()\n";
  t += "ERROR 03-01 10:00:15 [core.py:634] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
       "GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.\n";
  return t;
}

const core::Event& the_oom(const EngineLogResult& r) {
  for (const auto& e : r.events)
    if (e.kind == core::EventKind::oom) return e;
  throw std::runtime_error("no oom event");
}

TEST(OomPhase, ARuntimeOomInsideExecuteModelIsRuntime) {
  const auto r = parse_engine_log_text(v1_traceback({{"v1/engine/core.py", "run_engine_core"},
                                                     {"v1/engine/core.py", "run_busy_loop"},
                                                     {"v1/engine/core.py", "step"},
                                                     {"v1/worker/gpu_model_runner.py", "execute_model"}}));
  EXPECT_EQ(the_oom(r).labels.at("phase"), "runtime");
  // execute_model alone (a traceback cut above the busy loop) is still a serving step.
  const auto cut = parse_engine_log_text(v1_traceback({{"v1/worker/gpu_model_runner.py", "execute_model"}}));
  EXPECT_EQ(the_oom(cut).labels.at("phase"), "runtime");
}

TEST(OomPhase, ProfilingAndModelLoadAreStartup) {
  const auto v1 = parse_engine_log_text(v1_traceback({{"v1/engine/core.py", "_initialize_kv_caches"},
                                                     {"v1/worker/gpu_worker.py", "determine_available_memory"},
                                                     {"v1/worker/gpu_model_runner.py", "profile_run"},
                                                     {"v1/worker/gpu_model_runner.py", "_dummy_sampler_run"}}));
  EXPECT_EQ(the_oom(v1).labels.at("phase"), "startup");
  // vLLM V0's profile_run calls execute_model: the startup frame decides.
  const auto v0 = parse_engine_log_text(v1_traceback({{"worker/worker.py", "determine_num_available_blocks"},
                                                     {"worker/model_runner.py", "profile_run"},
                                                     {"worker/model_runner.py", "execute_model"}}));
  EXPECT_EQ(the_oom(v0).labels.at("phase"), "startup");
  const auto load = parse_engine_log_text(v1_traceback({{"v1/worker/gpu_model_runner.py", "load_model"},
                                                       {"model_executor/model_loader/default_loader.py", "load_weights"}}));
  EXPECT_EQ(the_oom(load).labels.at("phase"), "startup");
}

TEST(OomPhase, AnOomLineWithoutFramesHasNoPhase) {
  const auto r = parse_engine_log_text(
      "ERROR 03-01 10:00:15 [core.py:634] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n");
  EXPECT_EQ(the_oom(r).labels.count("phase"), 0u);
  EXPECT_EQ(oom_phase(the_oom(r)), OomPhase::unknown);
}

}  // namespace
}  // namespace llmtriage::ingest
