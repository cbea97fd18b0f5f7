// Black-box: the built binary's `records summary` on real files — exit codes, the comparison
// naming what changed, JSON output, errors naming the file. (Label slow: runs the binary.)
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

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
