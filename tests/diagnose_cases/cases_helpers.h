#pragma once
// The diagnosis case corpus on disk (tests/data/diagnose/cases/<case>/case.json), shared by the
// in-process runner (cases_test.cpp) and the CLI runners (cases_cli_slow_test.cpp,
// incidents_cli_slow_test.cpp).
#include <filesystem>
#include <string>
#include <vector>

namespace case_corpus {

const std::filesystem::path& cases_root();
// Every folder with a case.json, sorted by name.
std::vector<std::string> case_names();
std::string read_text(const std::filesystem::path& p);
// Single-quotes a word for /bin/sh (the CLI runners' command lines).
std::string sh_quote(const std::string& s);

}  // namespace case_corpus
