#pragma once
// A golden-file check for tests that guard a drawing or a screen: `text` must equal the file at
// `path`; LLMTRIAGE_UPDATE_GOLDEN=1 rewrites the file instead (look at the difference before
// committing it). Header-only: it uses GoogleTest's macros, which the support library does not link.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace golden {

inline void expect_file(const std::string& path, const std::string& text, const std::string& what) {
  if (const char* u = std::getenv("LLMTRIAGE_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path) << text;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path << " missing: run with LLMTRIAGE_UPDATE_GOLDEN=1";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(text, want.str()) << what << " changed: look at it, then LLMTRIAGE_UPDATE_GOLDEN=1";
}

}  // namespace golden
