// Snapshots built from saved expositions: window rates and percentiles from two scrapes, the
// JSON round trip (versioned, self-describing), evidence conversion and the human rendering.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "collect/capture.h"
#include "collect/snapshot.h"
#include "collect/snapshot_render.h"
#include "core/files.h"

using namespace llmtriage;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("llmtriage_collect_" + std::to_string(::getpid()) + "_" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string write(const fs::path& p, const std::string& text, double mtime) {
  std::ofstream(p) << text;
  struct timespec ts[2];
  ts[0].tv_sec = ts[1].tv_sec = static_cast<time_t>(mtime);
  ts[0].tv_nsec = ts[1].tv_nsec = 0;
  utimensat(AT_FDCWD, p.c_str(), ts, 0);
  return p.string();
}

// A vLLM V1 exposition with the given counters and TTFT buckets (le 0.1, 1, +Inf).
std::string vllm(double prompt, double gen, double pre, double q, double h, double b01, double b1, double inf,
                 double waiting) {
  char buf[2048];
  std::snprintf(buf, sizeof buf,
                "# TYPE vllm:num_requests_running gauge\n"
                "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 8\n"
                "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.5\n"
                "vllm:prompt_tokens_total{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:num_preemptions_total{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:prefix_cache_queries_total{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:prefix_cache_hits_total{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"0.1\",model_name=\"m\"} %g\n"
                "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"1.0\",model_name=\"m\"} %g\n"
                "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} %g\n"
                "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"m\"} %g\n"
                "vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"m\"} 1\n",
                waiting, prompt, gen, pre, q, h, b01, b1, inf, inf);
  return buf;
}

}  // namespace

TEST(SnapshotFromFiles, WindowRatesAndPercentilesFromTwoScrapes) {
  TempDir d;
  auto a = write(d.path / "a.prom", vllm(1000, 5000, 2, 1000, 100, 100, 100, 100, 1), 1000);
  auto b = write(d.path / "b.prom", vllm(3000, 9000, 4, 3000, 1100, 100, 150, 200, 40), 1010);
  collect::CaptureOptions opt;
  opt.engine_args = "--model m --api-key sk-abcdefghijklmnop";
  auto s = collect::snapshot_from_files({a, b}, opt);
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->engine, core::EngineKind::vllm);
  ASSERT_EQ(s->scrapes.size(), 2u);
  EXPECT_DOUBLE_EQ(s->scrapes[1].t_s - s->scrapes[0].t_s, 10);
  ASSERT_EQ(s->window.size(), 1u);
  const auto& w = s->window[0];
  EXPECT_EQ(w.model_name, "m");
  EXPECT_EQ(w.engine_index, "0");
  EXPECT_DOUBLE_EQ(*w.prompt_tok_s, 200);
  EXPECT_DOUBLE_EQ(*w.generation_tok_s, 400);
  EXPECT_DOUBLE_EQ(*w.preemptions_per_s, 0.2);
  EXPECT_DOUBLE_EQ(*w.prefix_cache_hit_rate, 0.5);  // (1100-100)/(3000-1000)
  EXPECT_EQ(w.waiting, 40);
  EXPECT_EQ(w.waiting_max, 40);
  // Window: 100 new TTFTs, 50 in (0.1, 1], 50 above 1 s -> p50 = 1.0 (top of the bucket).
  EXPECT_DOUBLE_EQ(w.ttft_s.count, 100);
  EXPECT_FALSE(w.ttft_s.since_start);
  EXPECT_DOUBLE_EQ(*w.ttft_s.p50, 1.0);
  EXPECT_DOUBLE_EQ(*w.ttft_s.p90, 1.0);  // in +Inf: the highest finite bound
  EXPECT_EQ(s->engine_args, "--model m --api-key <redacted>");
  EXPECT_EQ(s->gpu_source, "none");
}

TEST(SnapshotFromFiles, JsonRoundTripIsVersionedAndKeepsEverything) {
  TempDir d;
  auto a = write(d.path / "a.prom", vllm(1000, 5000, 2, 1000, 100, 100, 100, 100, 1), 1000);
  auto g = write(d.path / "dcgm.prom",
                 core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/synthetic_dcgm_full.prom").value(), 1001);
  auto b = write(d.path / "b.prom", vllm(3000, 9000, 4, 3000, 1100, 100, 150, 200, 40), 1010);
  auto s = collect::snapshot_from_files({a, g, b}, {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->gpu_source, "dcgm");
  EXPECT_EQ(s->gpu_samples.size(), 2u);
  auto out = (d.path / "snap.json").string();
  ASSERT_TRUE(collect::write_snapshot(out, *s).ok());
  auto j = nlohmann::json::parse(core::read_file(out).value());
  EXPECT_EQ(j["format"], "llmtriage-snapshot");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["scrapes"][0]["raw"], core::read_file(a).value());  // the evidence itself is kept
  EXPECT_EQ(j["scrapes"][0]["engine_samples"][0]["histograms"]["ttft_s"]["le"][2], "+Inf");
  auto back = collect::read_snapshot(out);
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->scrapes.size(), 3u);
  EXPECT_EQ(back->engine, core::EngineKind::vllm);
  ASSERT_EQ(back->window.size(), 1u);
  EXPECT_DOUBLE_EQ(*back->window[0].prompt_tok_s, 200);
  EXPECT_TRUE(std::isinf(back->scrapes[0].engine_samples[0].ttft_s.upper_bounds.back()));
  EXPECT_EQ(back->gpus.size(), 2u);
  EXPECT_EQ(back->gpus[1].throttle_names_seen, (std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"}));

  auto ev = collect::snapshot_to_evidence(*back, out);
  EXPECT_EQ(ev.engine_samples.size(), 2u);
  EXPECT_EQ(ev.gpu_samples.size(), 2u);
  EXPECT_EQ(ev.deployment.engine, core::EngineKind::vllm);
  EXPECT_EQ(ev.deployment.num_gpus, 2);
  ASSERT_FALSE(ev.inputs.empty());
  EXPECT_EQ(ev.inputs[0].kind, "snapshot");

  std::string text = collect::render_snapshot_text(*back);
  EXPECT_NE(text.find("Layer 2 - scheduling / capacity"), std::string::npos) << text;
  EXPECT_NE(text.find("waiting 40 (max 40)"), std::string::npos) << text;
  EXPECT_NE(text.find("prefix-cache hit rate 50.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 1 NVIDIA H100 80GB HBM3: power 700 / 700 W"), std::string::npos) << text;
  EXPECT_NE(text.find("sw_power_cap, sw_thermal_slowdown"), std::string::npos) << text;
}

TEST(SnapshotFromFiles, ErrorsNameTheFile) {
  auto s = collect::snapshot_from_files({"/nonexistent/m.prom"}, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message().find("/nonexistent/m.prom"), std::string::npos);
  TempDir d;
  auto bad = write(d.path / "bad.prom", "vllm:num_requests_running{ 1\n", 1);
  collect::CaptureOptions strict;
  strict.strict = true;
  auto r = collect::snapshot_from_files({bad}, strict);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, bad + ":1");
  auto lenient = collect::snapshot_from_files({bad}, {});
  ASSERT_TRUE(lenient.ok());
  EXPECT_EQ(lenient->scrapes[0].malformed, 1u);
}

TEST(SnapshotFromFiles, EqualModificationTimesKeepTheGivenOrderOneSecondApart) {
  TempDir d;
  auto a = write(d.path / "a.prom", vllm(1000, 5000, 2, 1000, 100, 100, 100, 100, 1), 500);
  auto b = write(d.path / "b.prom", vllm(1100, 5000, 2, 1000, 100, 100, 100, 100, 1), 500);
  auto s = collect::snapshot_from_files({a, b}, {});
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->scrapes[1].t_s - s->scrapes[0].t_s, 1);
  ASSERT_FALSE(s->failures.empty());
  EXPECT_EQ(s->failures[0].what, "time");
}

TEST(SnapshotJson, RejectsOtherFilesAndNewerVersions) {
  auto r = collect::snapshot_from_json(nlohmann::json{{"a", 1}}, "x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "x.json");
  auto v = collect::snapshot_from_json(nlohmann::json{{"format", "llmtriage-snapshot"}, {"version", 99}}, "y.json");
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message().find("99"), std::string::npos);
}

TEST(SnapshotJson, CounterResetInsideTheWindowIsCountedNotNegative) {
  collect::Snapshot s;
  auto sample = [](double t, double prompt) {
    core::EngineSample e;
    e.t_s = t;
    e.model_name = "m";
    e.prompt_tokens_total = prompt;
    return e;
  };
  for (auto [t, v] : {std::pair{0.0, 100.0}, {5.0, 200.0}, {10.0, 50.0}}) {
    collect::ScrapeRecord r;
    r.ok = true;
    r.t_s = t;
    r.engine_samples.push_back(sample(t, v));
    s.scrapes.push_back(r);
  }
  collect::compute_window_stats(s);
  ASSERT_EQ(s.window.size(), 1u);
  EXPECT_DOUBLE_EQ(*s.window[0].prompt_tok_s, 15);  // (100 + 50) / 10
  EXPECT_EQ(s.window[0].counter_resets, 1);
}

TEST(SnapshotFromFiles, EngineArgsAreRedactedThenParsedIntoSettings) {
  TempDir d;
  auto a = write(d.path / "a.prom", vllm(1000, 5000, 2, 1000, 100, 100, 100, 100, 1), 1000);
  collect::CaptureOptions opt;
  opt.engine_args = "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 "
                    "--gpu-memory-utilization 0.85 --api-key sk-abcdefghijklmnop";
  auto s = collect::snapshot_from_files({a}, opt);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->engine, core::EngineKind::vllm);  // the metrics decide the generation
  ASSERT_TRUE(s->engine_settings);
  EXPECT_EQ(s->engine_settings->max_model_len, 8192);
  EXPECT_EQ(s->engine_settings->gpu_memory_utilization, 0.85);
  auto out = (d.path / "s.json").string();
  ASSERT_TRUE(collect::write_snapshot(out, *s).ok());
  std::string text = core::read_file(out).value();
  EXPECT_EQ(text.find("sk-abcdefghijklmnop"), std::string::npos);
  auto back = collect::read_snapshot(out);
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(back->engine_settings);
  EXPECT_EQ(back->engine_settings->max_model_len, 8192);
  auto ev = collect::snapshot_to_evidence(*back);
  EXPECT_EQ(ev.deployment.settings.max_model_len, 8192);
  EXPECT_EQ(ev.deployment.model, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_NE(collect::render_snapshot_text(*back).find("max-model-len 8192"), std::string::npos);
}

namespace llmtriage::collect {
namespace {

TEST(SnapshotEvidence, TheServersOwnMaxModelLenIsTheDeploymentsNotTheModelDefault) {
  // `vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192`: /v1/models says 8192. The
  // ledger judges the deployment's settings; without this it used the model's 131072 and called a
  // serving engine max_model_len_exceeds_kv.
  Snapshot s;
  s.engine = core::EngineKind::vllm;
  ModelInfo m;
  m.id = "llama-prod";
  m.root = "meta-llama/Llama-3.1-8B-Instruct";
  m.owned_by = "vllm";
  m.max_model_len = 8192;
  s.models.push_back(m);
  auto ev = snapshot_to_evidence(s);
  ASSERT_TRUE(ev.deployment.settings.max_model_len);
  EXPECT_EQ(*ev.deployment.settings.max_model_len, 8192);
  // Settings the snapshot states (the engine's own arguments) are kept.
  core::EngineSettings given;
  given.max_model_len = 4096;
  s.engine_settings = given;
  EXPECT_EQ(*snapshot_to_evidence(s).deployment.settings.max_model_len, 4096);
}

}  // namespace
}  // namespace llmtriage::collect
