// The case corpus (tests/data/diagnose/cases/) through the binary, the way an operator runs it:
// `llmtriage diagnose --log engine.log --records ... --observe-file observe.txt --json`. The fast
// runner (cases_test.cpp) builds the Evidence itself; this one checks that the CLI's own input
// gathering reaches the same top finding. Saved /metrics expositions and GPU readings go in as
// `--metrics-file` / `--gpu-file`, whose time is the file's modification time: the runner copies
// them to a temp folder stamped `scrape_interval_s` apart, as an operator's saved scrapes would be.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "diagnose_cases/cases_helpers.h"
#include "support/shell_run.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using case_corpus::case_names;
using case_corpus::cases_root;
using case_corpus::read_text;
using case_corpus::sh_quote;

std::vector<fs::path> files_with_prefix(const fs::path& dir, const std::string& prefix, const std::string& ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (e.is_regular_file() && n.starts_with(prefix) && n.ends_with(ext)) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct CliRun {
  int status = -1;
  std::string out;
};

CliRun run(const std::string& args) {
  // stderr goes to a per-process file so stdout stays one JSON document.
  std::string err = (fs::temp_directory_path() / ("llmtriage-cases-" + std::to_string(::getpid()) + ".err")).string();
  std::string cmd = std::string(LLMTRIAGE_BINARY) + " diagnose " + args + " 2>" + sh_quote(err);
  const auto ran = llmtriage::shell_test::run_shell(cmd);
  CliRun r;
  r.status = ran.code;
  r.out = ran.out;
  std::string e = read_text(err);
  fs::remove(err);
  if (!e.empty()) r.out += "\n[stderr]\n" + e;
  return r;
}

class CaseCli : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(CaseCli, TopFinding) {
  const fs::path dir = cases_root() / GetParam();
  json m = json::parse(read_text(dir / "case.json"));
  std::string args = "--json --no-what-if";
  // Saved readings: each kind in name order, stamped scrape_interval_s apart (ending a minute ago).
  const fs::path stamped = fs::temp_directory_path() / ("llmtriage-cases-" + std::to_string(::getpid()) + "-" + GetParam());
  fs::remove_all(stamped);
  const double interval = m.value("scrape_interval_s", 15.0);
  for (const auto& [kind, flag] : {std::pair{"metrics", "--metrics-file"}, {"dcgm", "--metrics-file"}, {"nvidia_smi", "--gpu-file"}}) {
    const auto files = files_with_prefix(dir, kind, "");
    for (size_t i = 0; i < files.size(); ++i) {
      fs::create_directories(stamped);
      const fs::path copy = stamped / files[i].filename();
      fs::copy_file(files[i], copy, fs::copy_options::overwrite_existing);
      const auto back = std::chrono::duration_cast<fs::file_time_type::duration>(
          std::chrono::duration<double>(60 + interval * static_cast<double>(files.size() - 1 - i)));
      fs::last_write_time(copy, fs::file_time_type::clock::now() - back);
      args += std::string(" ") + flag + " " + sh_quote(copy.string());
    }
  }
  for (const auto& p : files_with_prefix(dir, "engine", ".log")) args += " --log " + sh_quote(p.string());
  for (const auto& p : files_with_prefix(dir, "records", "")) args += " --records " + sh_quote(p.string());
  if (fs::exists(dir / "engine_args.txt")) {
    std::string a = read_text(dir / "engine_args.txt");
    while (!a.empty() && (a.back() == '\n' || a.back() == '\r')) a.pop_back();
    args += " --engine-args " + sh_quote(a);
  }
  if (fs::exists(dir / "outputs.txt")) args += " --outputs " + sh_quote((dir / "outputs.txt").string());
  if (fs::exists(dir / "observe.txt")) args += " --observe-file " + sh_quote((dir / "observe.txt").string());
  if (fs::is_directory(dir / "baseline")) {
    for (const auto& p : files_with_prefix(dir / "baseline", "engine", ".log")) args += " --baseline-log " + sh_quote(p.string());
    for (const auto& p : files_with_prefix(dir / "baseline", "records", "")) args += " --baseline-records " + sh_quote(p.string());
  }
  if (!m.value("model", "").empty()) args += " --model " + sh_quote(m["model"].get<std::string>());
  if (!m.value("gpu", "").empty()) args += " --gpu " + sh_quote(m["gpu"].get<std::string>());
  if (m.contains("symptom") && !m["symptom"].is_null()) args += " --symptom " + m["symptom"].get<std::string>();

  CliRun r = run(args);
  fs::remove_all(stamped);
  ASSERT_TRUE(r.status == 0 || r.status == 1) << "exit " << r.status << " for: llmtriage diagnose " << args << "\n" << r.out;
  std::string doc = r.out.substr(0, r.out.find("\n[stderr]\n"));
  json d = json::parse(doc, nullptr, false);
  ASSERT_FALSE(d.is_discarded()) << "not JSON: " << r.out;
  ASSERT_EQ(d.value("format", ""), "llmtriage-diagnosis");
  const json& x = m["expect"];
  std::string said;
  for (const auto& f : d["findings"])
    said += "  " + f.value("id", "") + " [" + f.value("layer", "") + " / " + f.value("symptom", "") + " / " +
            f.value("severity", "") + "]\n";
  if (x["id"].is_null()) {
    EXPECT_EQ(d.value("exit_code", -1), 0) << said;
    EXPECT_EQ(r.status, 0) << said;
    return;
  }
  ASSERT_FALSE(d["findings"].empty()) << "expected " << x["id"] << "; llmtriage diagnose " << args;
  const json& top = d["findings"][0];
  EXPECT_EQ(top.value("id", ""), x.value("id", "")) << said << "llmtriage diagnose " << args;
  EXPECT_EQ(top.value("layer", ""), x.value("layer", "")) << said;
  EXPECT_EQ(top.value("symptom", ""), x.value("symptom", "")) << said;
  EXPECT_EQ(r.status, d.value("exit_code", -1));
}

INSTANTIATE_TEST_SUITE_P(Corpus, CaseCli, ::testing::ValuesIn(case_names()), [](const auto& info) {
  std::string s = info.param;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
});
