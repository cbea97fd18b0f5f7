// Black-box: the built binary's `records summary` on real files — exit codes, the comparison
// naming what changed, JSON output, errors naming the file. (Label slow: runs the binary.)
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/text_escape.h"
#include "support/shell_run.h"

namespace {
struct Out {
  int code;
  std::string text;
};
Out run(const std::string& args) {
  std::string cmd = std::string(LLMTRIAGE_BINARY) + " records summary " + args + " 2>&1";
  auto ran = llmtriage::shell_test::run_shell(cmd);
  return {ran.code, std::move(ran.out)};
}
const std::string kData = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/";
}  // namespace

TEST(RecordsCli, SummaryOfOneFileIsHealthy) {
  auto r = run(kData + "vllm_bench.json");
  EXPECT_EQ(r.code, 0) << r.text;
  EXPECT_NE(r.text.find("4 requests, 3 ok, 1 errors"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("not provided   arrival_s"), std::string::npos) << r.text;
}

TEST(RecordsCli, BaselineComparisonNamesTheChangeAndExits1) {
  auto r = run(kData + "aiperf_profile_export.jsonl --baseline " + kData + "bench.jsonl --json");
  EXPECT_EQ(r.code, 1) << r.text;
  auto j = nlohmann::json::parse(r.text);
  EXPECT_EQ(j["summary"]["format"], "aiperf");
  EXPECT_EQ(j["baseline"]["input"]["bad"], 3);
  ASSERT_FALSE(j["comparison"]["findings"].empty());
  EXPECT_NE(j["comparison"]["findings"][0].get<std::string>().find("itl_s shifted"), std::string::npos);
}

TEST(RecordsCli, BadInputsAreExit2WithWhere) {
  auto missing = run("/nonexistent/x.jsonl");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.text.find("/nonexistent/x.jsonl"), std::string::npos);
  auto strict = run(kData + "bench.jsonl --strict");
  EXPECT_EQ(strict.code, 2);
  EXPECT_NE(strict.text.find("bench.jsonl:9: expected well-formed records (--strict), found missing_field arrival_s"), std::string::npos) << strict.text;
  auto fmt = run(kData + "bench.jsonl --format parquet");
  EXPECT_EQ(fmt.code, 2);
  EXPECT_NE(fmt.text.find("--format"), std::string::npos);
  auto cols = run(kData + "generic.csv --columns arrival_s");
  EXPECT_EQ(cols.code, 2);
  EXPECT_NE(cols.text.find("--columns"), std::string::npos);
}

// `records summary` on a binary file: exit 2 with a message naming what was expected, and not one
// raw control or invalid byte on the terminal; input quoted back from a text file is escaped too.
TEST(RecordsCli, BinaryFileIsRefusedAndInputIsNeverEchoedRaw) {
  const std::string dir = ::testing::TempDir();
  const std::string garbage = dir + "/llmtriage_garbage.log";
  std::string bytes;
  unsigned x = 11;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>((x >> 16) & 0xff));
  }
  std::ofstream(garbage, std::ios::binary) << bytes;
  // Valid UTF-8 (the histogram's block characters are), no control byte but newlines.
  auto printable = [](const std::string& s) {
    return s.find('\x1b') == std::string::npos && s.find('\t') == std::string::npos &&
           s.find('\r') == std::string::npos && llmtriage::core::non_text_share(s) == 0;
  };
  auto r = run(garbage);
  EXPECT_EQ(r.code, 2) << r.text;
  EXPECT_NE(r.text.find("expected request records (JSONL, JSON, CSV, or an nginx/Envoy access log"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("found binary data"), std::string::npos) << r.text;
  EXPECT_TRUE(printable(r.text)) << r.text;
  const std::string odd = dir + "/llmtriage_odd.jsonl";
  std::ofstream(odd, std::ios::binary) << "{\"arrival_s\": 0, \"input_tokens\": 5, \"ttft_s\": 16.89}\n"
                                       << "not json \x1b[2J\xff\n{\"arrival_s\": 1, \"input_tokens\": 6, \"ttft_s\": 0.2}\n";
  auto t = run(odd);
  EXPECT_TRUE(printable(t.text)) << t.text;
  EXPECT_NE(t.text.find("line 2: invalid_json"), std::string::npos) << t.text;
  // Latencies in a readable unit, never "1.689e+04 ms".
  EXPECT_NE(t.text.find("16.9 s"), std::string::npos) << t.text;
  EXPECT_EQ(t.text.find("e+0"), std::string::npos) << t.text;
}
