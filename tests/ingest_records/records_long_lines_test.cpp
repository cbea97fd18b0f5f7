// Large files through LineReader as read_records_file uses it (reads of one 4 MiB chunk at a time,
// a 16 MiB line cap): a 10 MB record is read whole, a 20 MB line is counted too_long and skipped
// without holding it, and line numbers stay right across chunk boundaries.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "ingest/records.h"

using namespace llmtriage;

namespace {
std::string record(int i, size_t pad = 0) {
  return fmt::format(R"({{"schema":"llmtriage.request.v1","id":"r{}","arrival_s":{},"input_tokens":{},"prompt":"{}"}})",
                     i, i * 0.5, 100 + i, std::string(pad, 'x'));
}
}  // namespace

TEST(RecordsLongLines, TenMegabyteRecordReadTwentyMegabyteLineSkipped) {
  auto path = std::filesystem::path(testing::TempDir()) / "g3_long_lines.jsonl";
  {
    std::ofstream f(path, std::ios::binary);
    int i = 0;
    // Enough short lines that chunk boundaries fall inside lines (~110 bytes each, > 4 MiB).
    for (; i < 50000; ++i) f << record(i) << '\n';
    f << record(i++, 10'000'000) << '\n';      // line 50001: under the cap
    f << record(i++, 20'000'000) << "\r\n";    // line 50002: over it
    for (int k = 0; k < 3; ++k) f << record(i++) << '\n';
    f << R"({"schema":"llmtriage.request.v1","arrival_s":9)";  // truncated last line 50006
  }
  auto r = ingest::read_records_file(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lines_total, 50006);
  ASSERT_EQ(r->records.size(), 50004u);
  EXPECT_EQ(r->records[50000].id, "r50000");
  EXPECT_EQ(*r->records[50000].input_tokens, 50100);
  EXPECT_EQ(r->records[50001].id, "r50002");
  EXPECT_EQ(r->records.back().id, "r50004");
  EXPECT_EQ(r->bad_input["too_long"], 1);
  EXPECT_EQ(r->bad_input["truncated_last_line"], 1);
  ASSERT_EQ(r->issues.size(), 2u);
  EXPECT_EQ(r->issues[0].line, 50002);
  EXPECT_EQ(r->issues[0].kind, "too_long");
  EXPECT_EQ(r->issues[1].line, 50006);
  for (size_t k = 0; k < r->records.size(); k += 997)
    ASSERT_EQ(r->records[k].arrival_s, static_cast<double>(k < 50001 ? k : k + 1) * 0.5) << k;
}
