// `top --record` / `top --replay` files: every scrape written as it comes (raw exposition, parsed
// samples, /slots, GPUs, failures) and read back whole; a line cut short by a crash is counted,
// or an error with --strict; a file that is not a recording says what it is; the API key never
// reaches the file.
#include "collect/live_record.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/files.h"
#include "ingest/metrics_engine.h"

using namespace llmtriage;
using namespace llmtriage::collect;

namespace {

const std::string kExposition =
    "# TYPE vllm:num_requests_running gauge\n"
    "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 7\n"
    "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 3\n"
    "# TYPE vllm:generation_tokens_total counter\n"
    "vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} 1200\n";

LiveScrape scrape_at(double t) {
  LiveScrape s;
  s.metrics.t_s = t;
  s.metrics.source = "http://h/metrics";
  s.metrics.ok = true;
  s.metrics.raw = kExposition;
  auto a = ingest::adapt_engine_metrics(kExposition, t, {});
  EXPECT_TRUE(a);
  s.metrics.engine_samples = a->samples;
  s.engine = a->engine;
  s.engine_detected_by = a->detected_by;
  core::GpuSample g;
  g.t_s = t;
  g.index = 0;
  g.sm_clock_mhz = 1410;
  s.gpus.push_back(g);
  s.gpu_source = "dcgm";
  return s;
}

struct TempFile {
  std::string path = (std::filesystem::temp_directory_path() / ("llmtriage-rec-" + std::to_string(::getpid()) + ".jsonl")).string();
  ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST(TopRecording, EveryScrapeIsReadBackWhole) {
  TempFile f;
  Snapshot base;
  base.endpoint = "http://h:8000/metrics";
  base.engine = core::EngineKind::vllm;
  {
    auto r = TopRecorder::open(f.path, base, "");
    ASSERT_TRUE(r) << r.error().message();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*r)->add(scrape_at(1000 + i)).ok());
    LiveScrape failed;
    failed.metrics.t_s = 1003;
    failed.metrics.source = "http://h/metrics";
    failed.metrics.error = "timed out after 1 s";
    ASSERT_TRUE((*r)->add(failed).ok());
  }
  auto rec = read_top_recording(f.path);
  ASSERT_TRUE(rec) << rec.error().message();
  EXPECT_EQ(rec->base.endpoint, "http://h:8000/metrics");
  ASSERT_EQ(rec->scrapes.size(), 4u);
  EXPECT_EQ(rec->malformed, 0u);
  const LiveScrape& s = rec->scrapes[1];
  EXPECT_DOUBLE_EQ(s.metrics.t_s, 1001);
  EXPECT_TRUE(s.metrics.ok);
  EXPECT_EQ(s.metrics.raw, kExposition);
  ASSERT_EQ(s.metrics.engine_samples.size(), 1u);
  EXPECT_EQ(s.metrics.engine_samples[0].running, 7);
  EXPECT_EQ(s.engine, core::EngineKind::vllm);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].sm_clock_mhz, 1410);
  EXPECT_EQ(s.gpu_source, "dcgm");
  EXPECT_FALSE(rec->scrapes[3].metrics.ok);
  EXPECT_EQ(rec->scrapes[3].metrics.error, "timed out after 1 s");
}

TEST(TopRecording, ALineCutShortIsCountedOrAnErrorWhenStrict) {
  TempFile f;
  {
    auto r = TopRecorder::open(f.path, Snapshot{}, "");
    ASSERT_TRUE(r);
    ASSERT_TRUE((*r)->add(scrape_at(1000)).ok());
  }
  std::ofstream(f.path, std::ios::app) << "{\"scrape\": {\"format\": \"llmtriage-snap";  // the crash
  auto rec = read_top_recording(f.path);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->scrapes.size(), 1u);
  EXPECT_EQ(rec->malformed, 1u);
  ASSERT_FALSE(rec->errors.empty());
  EXPECT_NE(rec->errors[0].find(f.path + ":3: not JSON"), std::string::npos) << rec->errors[0];
  auto strict = read_top_recording(f.path, true);
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.error().message().find(":3"), std::string::npos) << strict.error().message();
}

TEST(TopRecording, AFileThatIsNotARecordingSaysWhatItIs) {
  TempFile f;
  std::ofstream(f.path) << "{\"format\": \"llmtriage-snapshot\", \"version\": 1}\n";
  auto rec = read_top_recording(f.path);
  ASSERT_FALSE(rec);
  EXPECT_NE(rec.error().message().find("format llmtriage-snapshot"), std::string::npos) << rec.error().message();
  EXPECT_FALSE(read_top_recording(f.path + ".missing"));
}

TEST(TopRecording, TheApiKeyNeverReachesTheFile) {
  TempFile f;
  Snapshot base;
  base.endpoint = "http://h/metrics?token=sk-secret-123";
  {
    auto r = TopRecorder::open(f.path, base, "sk-secret-123");
    ASSERT_TRUE(r);
    LiveScrape s = scrape_at(1000);
    s.metrics.error = "401 for key sk-secret-123";
    ASSERT_TRUE((*r)->add(s).ok());
  }
  auto text = core::read_file(f.path);
  ASSERT_TRUE(text);
  EXPECT_EQ(text->find("sk-secret-123"), std::string::npos);
  EXPECT_NE(text->find("<redacted>"), std::string::npos);
}

// Played back: in order; paced, the replay clock runs `speed` times faster from the first scrape
// and stops at the last; unpaced, it is the time of the last scrape handed over.
TEST(TopRecording, APlayerHandsTheScrapesOverOnTheRecordedClock) {
  TopRecording rec;
  for (int i = 0; i < 3; ++i) rec.scrapes.push_back(scrape_at(1000 + 10 * i));
  core::ManualClock clock(50);
  RecordingPlayer paced(rec, 5, true, clock);
  EXPECT_DOUBLE_EQ(paced.now(), 1000);
  clock.advance(3);                       // 3 s at 5x: 15 recorded seconds
  EXPECT_DOUBLE_EQ(paced.now(), 1015);
  EXPECT_DOUBLE_EQ(paced.take(nullptr).metrics.t_s, 1000);  // due at once
  EXPECT_DOUBLE_EQ(paced.take(nullptr).metrics.t_s, 1010);  // due 2 s in: already passed
  std::atomic<bool> stop{true};
  EXPECT_DOUBLE_EQ(paced.take(&stop).metrics.t_s, 1020);    // due at 4 s: a stop ends the wait
  clock.advance(100);
  EXPECT_DOUBLE_EQ(paced.now(), 1020);    // held at the last scrape: nothing goes stale after it

  RecordingPlayer at_once(rec, 1, false, clock);
  EXPECT_DOUBLE_EQ(at_once.now(), 1000);
  at_once.take(nullptr);
  at_once.take(nullptr);
  EXPECT_DOUBLE_EQ(at_once.now(), 1010);
  EXPECT_EQ(at_once.size(), 3u);
}
