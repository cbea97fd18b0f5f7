// Bad bytes in a log are counted per kind with their line numbers, never fatal; gzip is read
// directly; timestamps without dates still give a monotone timeline.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <string>

#include "ingest/engine_log.h"
#include "ingest/line_reader.h"

using namespace llmtriage;

namespace {
const std::string kStats =
    "INFO 01-09 09:53:39 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation "
    "throughput: 18.5 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache "
    "usage: 20.0%, CPU KV cache usage: 0.0%.\n";

std::string temp_path(const char* suffix) {
  char tmpl[] = "/tmp/llmtriage_logs_XXXXXX";
  int fd = mkstemp(tmpl);
  close(fd);
  std::string p = std::string(tmpl) + suffix;
  std::rename(tmpl, p.c_str());
  return p;
}
}  // namespace

TEST(BadInput, EachKindIsCountedWithItsLineNumber) {
  std::string text = kStats;                                     // 1
  text += std::string("garbage\0\x01\x02 binary\n", 18);         // 2
  text += "INFO 01-09 09:53:40 x.py:1] caf\xc3\x28 invalid utf8\n"; // 3
  text += std::string(3 << 20, 'x') + "\n";                      // 4: 3 MB line
  text += "INFO 01-09 09:53:41 metrics.py:351] Avg prompt throughput: \"12\" tokens/s\n";  // 5
  text += kStats;                                                // 6
  text += "INFO 01-09 09:53:44 metrics.py:351] Avg prompt throughput: 1.0 tok";  // 7 truncated
  auto r = ingest::parse_engine_log_text(text, {.max_line_bytes = 1 << 20});
  EXPECT_EQ(r.lines_total, 7);
  EXPECT_EQ(r.bad_input["binary"], 1);
  EXPECT_EQ(r.bad_input["invalid_utf8"], 1);
  EXPECT_EQ(r.bad_input["too_long"], 1);
  EXPECT_EQ(r.bad_input["truncated_last_line"], 1);
  EXPECT_EQ(r.lines_malformed, 2);  // lines 5 and 7: a stats line whose numbers do not parse
  EXPECT_EQ(r.timeline.size(), 2u);
  ASSERT_GE(r.issues.size(), 5u);
  EXPECT_EQ(r.issues[0].line, 2);
  EXPECT_EQ(r.issues[0].kind, "binary");
  EXPECT_EQ(r.issues[1].line, 3);
  EXPECT_EQ(r.issues[2].line, 4);
  EXPECT_EQ(r.issues[2].kind, "too_long");
  EXPECT_EQ(r.issues[3].line, 5);
  EXPECT_EQ(r.issues[3].kind, "malformed");
  EXPECT_NE(ingest::describe(r).find("line 2: binary"), std::string::npos) << ingest::describe(r);
}

TEST(BadInput, LongLineInAFileIsSkippedWithoutBufferingIt) {
  std::string path = temp_path(".log");
  FILE* f = std::fopen(path.c_str(), "w");
  std::string big(10 << 20, 'y');  // a 10 MB line between two good ones
  std::fputs(kStats.c_str(), f);
  std::fputs(big.c_str(), f);
  std::fputs("\n", f);
  std::fputs(kStats.c_str(), f);
  std::fclose(f);
  auto r = ingest::parse_engine_log_file(path, {.max_line_bytes = 4096});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lines_total, 3);
  EXPECT_EQ(r->bad_input["too_long"], 1);
  EXPECT_EQ(r->timeline.size(), 2u);
  std::remove(path.c_str());
}

TEST(BadInput, GzipIsReadDirectlyAndATruncatedStreamIsReported) {
  std::string path = temp_path(".log.gz");
  gzFile gz = gzopen(path.c_str(), "wb");
  for (int i = 0; i < 1000; ++i) gzputs(gz, kStats.c_str());
  gzclose(gz);
  auto r = ingest::parse_engine_log_file(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->timeline.size(), 1000u);
  EXPECT_FALSE(r->read_error.has_value());
  // Cut the file in half: the lines before the damage are kept and the damage is reported.
  FILE* f = std::fopen(path.c_str(), "rb");
  std::string bytes(1 << 16, '\0');
  bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
  std::fclose(f);
  f = std::fopen(path.c_str(), "wb");
  std::fwrite(bytes.data(), 1, bytes.size() / 2, f);
  std::fclose(f);
  auto cut = ingest::parse_engine_log_file(path);
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut->read_error.has_value());
  EXPECT_LT(cut->timeline.size(), 1000u);
  std::remove(path.c_str());
}

TEST(BadInput, MissingFileIsAnErrorNamingThePath) {
  auto r = ingest::parse_engine_log_file("/nonexistent/vllm.log");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("/nonexistent/vllm.log"), std::string::npos);
}

TEST(Timestamps, TimeOfDayOnlyRollsOverMidnightAndStaysMonotone) {
  // llama.cpp-style lines with a journald time only; the clock passes midnight.
  std::string text =
      "Dec 31 23:59:50 h llama-server[1]: slot update_slots: id  0 | task 0 | input truncated, n_ctx = 10, n_keep = 0, n_left = 10, n_prompt_tokens = 20\n"
      "Jan 01 00:00:10 h llama-server[1]: slot update_slots: id  0 | task 1 | input truncated, n_ctx = 10, n_keep = 0, n_left = 10, n_prompt_tokens = 30\n";
  auto r = ingest::parse_engine_log_text(text);
  ASSERT_EQ(r.events.size(), 2u);
  EXPECT_EQ(r.time_base, "relative");
  EXPECT_DOUBLE_EQ(*r.events[0].t_s, 0.0);
  EXPECT_DOUBLE_EQ(*r.events[1].t_s, 20.0);
}

TEST(Timestamps, GivenYearMakesUnixTime) {
  auto r = ingest::parse_engine_log_text(kStats, {.year = 2025});
  ASSERT_EQ(r.timeline.size(), 1u);
  EXPECT_EQ(r.time_base, "unix");
  EXPECT_DOUBLE_EQ(r.timeline[0].t_s, 1736416419.0);  // 2025-01-09T09:53:39Z
  EXPECT_TRUE(r.time_zone_assumed_utc);
}

TEST(Secrets, ApiKeysInArgsLinesAreRedacted) {
  auto r = ingest::parse_engine_log_text(
      "INFO 01-09 09:53:00 api_server.py:713] args: Namespace(host=None, port=8000, "
      "api_key='sk-very-secret', model='m')\n"
      "(APIServer pid=1) INFO 08-01 10:00:00 [utils.py:326] non-default args: {'model': 'x', "
      "'api_key': ['tok123']}\n");
  ASSERT_EQ(r.events.size(), 2u);
  for (const auto& e : r.events) {
    EXPECT_EQ(e.kind, core::EventKind::engine_args);
    EXPECT_EQ(e.labels.at("args").find("sk-very-secret"), std::string::npos) << e.labels.at("args");
    EXPECT_EQ(e.labels.at("args").find("tok123"), std::string::npos) << e.labels.at("args");
    EXPECT_EQ(e.text.find("sk-very-secret"), std::string::npos);
  }
  EXPECT_NE(r.events[0].labels.at("args").find("model='m'"), std::string::npos);
}

TEST(VllmStats, AggregatedDataParallelLineIsOneSampleWithoutEngineIndex) {
  auto r = ingest::parse_engine_log_text(
      "(APIServer pid=1) INFO 05-19 10:13:11 [loggers.py:271] 2 Engines Aggregated: Avg prompt "
      "throughput: 10.0 tokens/s, Avg generation throughput: 20.0 tokens/s, Running: 3 reqs, "
      "Waiting: 4 reqs, Preemptions: 2, GPU KV cache usage: 50.0%, Prefix cache hit rate: 25.0%\n");
  ASSERT_EQ(r.timeline.size(), 1u);
  EXPECT_EQ(r.timeline[0].engine_index, "");
  EXPECT_DOUBLE_EQ(*r.timeline[0].waiting, 4);
  EXPECT_DOUBLE_EQ(*r.timeline[0].preemptions_total, 2);
  EXPECT_DOUBLE_EQ(*r.timeline[0].prefix_cache_hit_rate, 0.25);
}
