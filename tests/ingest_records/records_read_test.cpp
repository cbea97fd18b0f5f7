// Each record source -> core::RequestRecord with exactly the fields it provides; bad lines are
// counted per kind with line numbers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "ingest/records.h"

using namespace llmtriage;
using ingest::RecordFormat;

namespace {
ingest::RecordReadResult read(const std::string& name, ingest::RecordReadOptions o = {}) {
  auto r = ingest::read_records_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/" + name, o);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : ingest::RecordReadResult{};
}
bool unavailable(const ingest::RecordReadResult& r, const std::string& f) {
  return std::find(r.unavailable.begin(), r.unavailable.end(), f) != r.unavailable.end();
}
}  // namespace

TEST(RecordsRead, OwnJsonlWithEveryKindOfBadLine) {
  auto r = read("bench.jsonl");
  EXPECT_EQ(r.format, RecordFormat::llmtriage);
  ASSERT_EQ(r.records.size(), 7u);  // 6 good + the one with numbers as strings
  const auto& a = r.records[1];
  EXPECT_EQ(a.id, "r1");
  EXPECT_DOUBLE_EQ(a.arrival_s, 0.5);
  EXPECT_EQ(*a.input_tokens, 200);
  EXPECT_EQ(*a.output_tokens, 11);
  EXPECT_EQ(a.chunk_times_s.size(), 11u);
  EXPECT_EQ(*a.max_tokens, 11);
  EXPECT_EQ(*a.ignore_eos, true);
  const auto& s = r.records[6];
  EXPECT_DOUBLE_EQ(s.arrival_s, 3.5);
  EXPECT_EQ(*s.input_tokens, 700);
  EXPECT_EQ(s.status, core::RequestStatus::error);
  EXPECT_EQ(s.error_category, "http_503");
  EXPECT_EQ(r.records_skipped, 1);  // the run header
  EXPECT_EQ(r.bad_input["number_as_string"], 2);
  EXPECT_EQ(r.bad_input["missing_field"], 1);
  EXPECT_EQ(r.bad_input["invalid_json"], 1);
  EXPECT_EQ(r.bad_input["truncated_last_line"], 1);
  EXPECT_EQ(r.records_bad, 3);
  bool saw_missing_at_9 = false;
  for (const auto& i : r.issues) saw_missing_at_9 |= i.line == 9 && i.kind == "missing_field";
  EXPECT_TRUE(saw_missing_at_9);
  EXPECT_FALSE(unavailable(r, "ttft_s"));
  EXPECT_TRUE(unavailable(r, "queue_s"));
}

TEST(RecordsRead, VllmBenchArraysDeriveE2EAndChunkTimes) {
  auto r = read("vllm_bench.json");
  EXPECT_EQ(r.format, RecordFormat::vllm_bench);
  ASSERT_EQ(r.records.size(), 4u);
  const auto& b = r.records[1];
  EXPECT_EQ(*b.input_tokens, 200);
  EXPECT_EQ(*b.output_tokens, 4);
  EXPECT_DOUBLE_EQ(*b.ttft_s, 0.2);
  EXPECT_NEAR(*b.e2e_s, 0.26, 1e-12);
  ASSERT_EQ(b.chunk_times_s.size(), 4u);
  EXPECT_NEAR(b.chunk_times_s.back(), 0.26, 1e-12);
  EXPECT_EQ(b.model, "meta-llama/Llama-3.1-8B-Instruct");
  const auto& f = r.records[3];
  EXPECT_EQ(f.status, core::RequestStatus::error);
  EXPECT_EQ(f.error_category, "timeout");
  EXPECT_FALSE(f.ttft_s.has_value());  // 0.0 in the file is not a measurement
  // vLLM's file has no per-request time or sampling parameters.
  EXPECT_TRUE(unavailable(r, "arrival_s"));
  EXPECT_TRUE(unavailable(r, "max_tokens"));
  EXPECT_TRUE(unavailable(r, "temperature"));
}

TEST(RecordsRead, SglangRunsPerLine) {
  auto r = read("sglang_bench.jsonl");
  EXPECT_EQ(r.format, RecordFormat::sglang_bench);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.records[2].id, "run1-0");
  EXPECT_NEAR(*r.records[0].e2e_s, 0.05, 1e-12);
}

TEST(RecordsRead, AiperfUnitsWarmupAndErrors) {
  auto r = read("aiperf_profile_export.jsonl");
  EXPECT_EQ(r.format, RecordFormat::aiperf);
  ASSERT_EQ(r.records.size(), 3u);  // warmup skipped
  EXPECT_EQ(r.records_skipped, 1);
  EXPECT_DOUBLE_EQ(r.records[0].arrival_s, 0.0);
  EXPECT_NEAR(r.records[1].arrival_s, 0.5, 1e-9);
  EXPECT_DOUBLE_EQ(*r.records[0].ttft_s, 0.02);
  EXPECT_DOUBLE_EQ(*r.records[0].e2e_s, 0.11);
  EXPECT_EQ(*r.records[1].input_tokens, 200);
  EXPECT_EQ(r.records[0].chunk_times_s.size(), 10u);
  EXPECT_EQ(r.records[2].error_category, "http_503");
}

TEST(RecordsRead, GenaiPerfTimestampsAndPayloadSampling) {
  auto r = read("genai_perf_profile_export.json");
  EXPECT_EQ(r.format, RecordFormat::genai_perf);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_NEAR(*r.records[0].ttft_s, 0.05, 1e-9);
  EXPECT_NEAR(*r.records[0].e2e_s, 0.09, 1e-9);
  EXPECT_EQ(*r.records[0].max_tokens, 16);
  EXPECT_DOUBLE_EQ(*r.records[0].temperature, 0.7);
  EXPECT_EQ(r.records[1].status, core::RequestStatus::error);
  EXPECT_TRUE(unavailable(r, "input_tokens"));  // needs the tokenizer
}

TEST(RecordsRead, NginxAndEnvoyAccessLogs) {
  auto n = read("nginx_access.jsonl");
  EXPECT_EQ(n.format, RecordFormat::nginx);
  ASSERT_EQ(n.records.size(), 3u);
  // arrival = msec − request_time, made relative to the earliest (n2 arrived 60 s before it ended)
  EXPECT_DOUBLE_EQ(n.records[1].arrival_s, 0.0);
  EXPECT_DOUBLE_EQ(n.records[0].arrival_s, 1700000000.0 - (1700000002.0 - 60));
  EXPECT_DOUBLE_EQ(*n.records[1].e2e_s, 60.0);
  EXPECT_EQ(n.records[1].error_category, "http_504");
  EXPECT_EQ(n.records[2].error_category, "client_closed_499");
  EXPECT_EQ(n.bad_input["upstream_retries"], 1);
  EXPECT_TRUE(unavailable(n, "ttft_s"));
  EXPECT_TRUE(unavailable(n, "input_tokens"));
  auto e = read("envoy_access.jsonl");
  EXPECT_EQ(e.format, RecordFormat::envoy);
  ASSERT_EQ(e.records.size(), 3u);
  EXPECT_DOUBLE_EQ(e.records[1].arrival_s, 1.0);
  EXPECT_DOUBLE_EQ(*e.records[0].e2e_s, 1.234);
  EXPECT_EQ(e.records[1].error_category, "timeout_upstream");
  EXPECT_EQ(e.records[2].error_category, "client_closed");
}

TEST(RecordsRead, GenericCsvWithColumnMap) {
  auto map = ingest::parse_column_map(
      "id=req, arrival_s=ts_ms*0.001, input_tokens=prompt_len, output_tokens=gen_len, "
      "ttft_s=ttft_ms*0.001, e2e_s=latency_ms*0.001, status=code");
  ASSERT_TRUE(map.ok());
  auto r = read("generic.csv", {.columns = *map});
  EXPECT_EQ(r.format, RecordFormat::csv);
  ASSERT_EQ(r.records.size(), 3u);
  EXPECT_DOUBLE_EQ(r.records[1].arrival_s, 0.25);
  EXPECT_EQ(*r.records[1].output_tokens, 64);  // quoted number
  EXPECT_DOUBLE_EQ(*r.records[0].e2e_s, 0.9);
  EXPECT_EQ(r.records[2].error_category, "http_503");
  EXPECT_EQ(r.records_bad, 1);  // row d lacks a cell
}

TEST(RecordsRead, ColumnMapErrorsNameTheItem) {
  auto bad = ingest::parse_column_map("arrival_s=ts,latency=foo");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("latency"), std::string::npos);
  auto bad2 = ingest::parse_column_map("ttft_s=x*abc");
  ASSERT_FALSE(bad2.ok());
}

TEST(RecordsRead, BinaryGarbageAndLongLinesNeverCrash) {
  std::string text = "{\"arrival_s\": 0, \"input_tokens\": 5}\n";
  text += std::string("\x00\x01\x02\xff\xfe", 5) + "\n";
  text += "{\"arrival_s\": 1, \"model\": \"caf\xc3\x28\"}\n";
  text += "{\"arrival_s\": 2, \"x\": \"" + std::string(1 << 20, 'a') + "\"}\n";
  text += "{\"arrival_s\": 3}\n";
  auto r = ingest::read_records_text(text, {.max_line_bytes = 1 << 16});
  EXPECT_EQ(r.format, RecordFormat::llmtriage);
  EXPECT_EQ(r.records.size(), 3u);
  EXPECT_EQ(r.bad_input["binary"], 1);
  EXPECT_EQ(r.bad_input["invalid_utf8"], 1);
  EXPECT_EQ(r.bad_input["too_long"], 1);
}

// A binary file (/dev/urandom, a model file) is refused up front with what was expected, not read
// as thousands of bad lines whose excerpts would then be echoed to the terminal.
TEST(RecordsRead, BinaryFileIsRefusedNamingWhatWasExpected) {
  const auto dir = std::filesystem::temp_directory_path() / ("llmtriage_records_bin_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string bytes;
  unsigned x = 7;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>((x >> 16) & 0xff));
  }
  const std::string garbage = (dir / "garbage.log").string();
  std::ofstream(garbage, std::ios::binary) << bytes;
  auto r = ingest::read_records_file(garbage);
  ASSERT_FALSE(r.ok());
  const std::string m = r.error().message();
  EXPECT_EQ(m.rfind(garbage + ": expected request records (JSONL, JSON, CSV, or an nginx/Envoy access log", 0), 0u) << m;
  EXPECT_NE(m.find("found binary data ("), std::string::npos) << m;
  EXPECT_EQ(m.find('\xff'), std::string::npos) << m;
  // A text file with one torn line (a stray NUL) is still read: that line is counted as bad.
  const std::string torn = (dir / "torn.jsonl").string();
  std::ofstream(torn, std::ios::binary) << "{\"arrival_s\": 0, \"input_tokens\": 5}\n" << std::string("\0\0", 2)
                                        << "\n{\"arrival_s\": 1, \"input_tokens\": 6}\n";
  auto t = ingest::read_records_file(torn);
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->records.size(), 2u);
  std::filesystem::remove_all(dir);
}

TEST(RecordsRead, BenchJsonlRoundTrips) {
  core::RequestRecord r;
  r.id = "q\"1";
  r.arrival_s = 1.5;
  r.input_tokens = 10;
  r.ttft_s = 0.25;
  r.chunk_times_s = {0.25, 0.5};
  r.chunk_tokens = {1, 2};
  r.status = core::RequestStatus::error;
  r.error_category = "timeout_ttfb";
  r.temperature = 0.7;
  r.ignore_eos = false;
  auto back = ingest::read_records_text(ingest::to_bench_jsonl(r) + "\n");
  ASSERT_EQ(back.records.size(), 1u);
  const auto& b = back.records[0];
  EXPECT_EQ(b.id, "q\"1");
  EXPECT_DOUBLE_EQ(b.arrival_s, 1.5);
  EXPECT_EQ(*b.input_tokens, 10);
  EXPECT_EQ(b.chunk_tokens, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(b.error_category, "timeout_ttfb");
  EXPECT_EQ(*b.ignore_eos, false);
  EXPECT_FALSE(b.output_tokens.has_value());
}
