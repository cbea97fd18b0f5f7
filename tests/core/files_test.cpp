#include <unistd.h>
#include "core/files.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace llmtriage::core;

TEST(Files, AtomicWriteReplacesAndLeavesNoTemp) {
  auto dir = std::filesystem::temp_directory_path() / ("llmtriage_files_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto path = (dir / "out.json").string();
  ASSERT_TRUE(write_file_atomic(path, "first").ok());
  ASSERT_TRUE(write_file_atomic(path, "second").ok());
  auto r = read_file(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "second");
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) { (void)e; ++entries; }
  EXPECT_EQ(entries, 1);
  std::filesystem::remove_all(dir);
}

TEST(Files, ErrorsNameThePath) {
  auto r = read_file("/nonexistent/llmtriage/x.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message().find("/nonexistent/llmtriage/x.json"), std::string::npos);
  auto w = write_file_atomic("/nonexistent/llmtriage/x.json", "x");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message().find("/nonexistent/llmtriage/x.json"), std::string::npos);
}

TEST(Error, MessageSaysWhereExpectedFound) {
  auto e = make_error(ErrorKind::usage, "--gpu-memory-utilization", "a fraction in (0, 1]", "1.5");
  EXPECT_EQ(e.message(), "--gpu-memory-utilization: expected a fraction in (0, 1], found 1.5");
}
