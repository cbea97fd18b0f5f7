// `snapshot show`: latencies and windows in a readable unit, text from the server escaped.
#include "collect/snapshot_render.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(SnapshotRender, LatenciesAndWindowsReadInAReadableUnit) {
  collect::Snapshot s;
  s.mode = "live";
  s.endpoint = "http://127.0.0.1:8000/metrics";
  s.window_s = 120;
  s.interval_s = 5;
  collect::WindowStats w;
  w.model_name = "m";
  w.scrapes = 25;
  w.window_s = 120;
  w.ttft_s.count = 40;
  w.ttft_s.p50 = 0.0009;
  w.ttft_s.p90 = 3.5;
  w.ttft_s.p99 = 16.89;
  w.ttft_s.mean = 0.688;
  s.window.push_back(w);
  const std::string t = collect::render_snapshot_text(s);
  EXPECT_NE(t.find("window 2 min every 5 s"), std::string::npos) << t;
  EXPECT_NE(t.find("over 2 min"), std::string::npos) << t;
  EXPECT_NE(t.find("TTFT   p50    0.9 ms  p90     3.5 s  p99    16.9 s  mean    688 ms"), std::string::npos) << t;
  EXPECT_EQ(t.find("3500 ms"), std::string::npos) << t;
}

TEST(SnapshotRender, TextFromTheServerIsEscaped) {
  collect::Snapshot s;
  s.mode = "live";
  s.models.push_back({"evil\x1b[2Jmodel", "", "vllm", std::nullopt});
  s.engine_version = "0.11\xff";
  s.failures.push_back({0, "version", "http://h/version", "HTTP 500: \x1b]0;title\x07"});
  const std::string t = collect::render_snapshot_text(s);
  EXPECT_EQ(t.find('\x1b'), std::string::npos) << t;
  EXPECT_NE(t.find("model: evil\\x1b[2Jmodel"), std::string::npos) << t;
  EXPECT_NE(t.find("0.11\\xff"), std::string::npos) << t;
  EXPECT_NE(t.find("HTTP 500: \\x1b]0;title\\x07"), std::string::npos) << t;
}
