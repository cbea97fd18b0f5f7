#include "diagnose_cases/cases_helpers.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace case_corpus {

const fs::path& cases_root() {
  static const fs::path root = fs::path(LLMTRIAGE_TEST_DATA_DIR) / "diagnose" / "cases";
  return root;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cases_root(), ec))
    if (e.is_directory() && fs::exists(e.path() / "case.json")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace case_corpus
