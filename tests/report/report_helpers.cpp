#include "report/report_helpers.h"

#include <gtest/gtest.h>

namespace llmtriage::report_test {

size_t pos(const std::string& s, const std::string& what) {
  size_t p = s.find(what);
  EXPECT_NE(p, std::string::npos) << "missing: " << what << "\n" << s;
  return p;
}

}  // namespace llmtriage::report_test
