#pragma once
// Assertions the renderer tests share.
#include <cstddef>
#include <string>

namespace llmtriage::report_test {

// Where `what` first stands in the rendered `s`; a test failure showing the whole text if absent
// (npos is then returned, so order checks after it fail too).
size_t pos(const std::string& s, const std::string& what);

}  // namespace llmtriage::report_test
