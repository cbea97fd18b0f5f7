// `llmtriage report` and `diagnose --html`, black-box: the real binary on a saved bench folder
// (tests/data/diagnose_cli/bench_run) and the diagnosis it yields; the page it writes carries
// the diagnosis, the bench's records and its server scrapes; unreadable inputs exit 2 naming them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

const std::string kBench = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/diagnose_cli/bench_run";

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ReportCli : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("llmtriage-report-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = "cd '" + dir_.string() + "' && '" + std::string(LLMTRIAGE_BINARY) + "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }

  static nlohmann::json embedded(const std::string& html) {
    const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
    const size_t a = html.find(open), b = html.find("</script>", a);
    if (a == std::string::npos || b == std::string::npos) return nullptr;
    return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
  }

  fs::path dir_;
};

// `ab --html`: the same bench folder as A and B (a verdict of no change), both drawn as CDFs.
TEST_F(ReportCli, AbWritesBothRunsAsOnePage) {
  const Outcome r = run("ab '" + kBench + "' '" + kBench + "' --html ab.html");
  ASSERT_NE(r.code, 2) << r.err << r.out;
  const std::string html = slurp(dir_ / "ab.html");
  ASSERT_FALSE(html.empty()) << r.err;
  EXPECT_NE(r.err.find("HTML report written to ab.html"), std::string::npos) << r.err;
  const nlohmann::json j = embedded(html);
  ASSERT_TRUE(j.is_object());
  EXPECT_NE(j.dump().find("bench_run"), std::string::npos);  // the runs name their folder
  EXPECT_NE(html.find("llmtriage ab: "), std::string::npos);
  // A folder that is not a bench result is an input error naming it, and no page is written.
  const Outcome bad = run("ab '" + kBench + "' /nonexistent/run --html bad.html");
  EXPECT_EQ(bad.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "bad.html"));
  // A side that names no folder at all is a usage error, not an A/B of 0 trials.
  const Outcome none = run("ab , '" + kBench + "' --html none.html");
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.err.find("A: expected a `bench --out` folder"), std::string::npos) << none.err;
  EXPECT_FALSE(fs::exists(dir_ / "none.html"));
  // A page that cannot be written: the comparison is still printed, with --json as one document
  // carrying the error, and the exit is 2.
  const Outcome unwritable = run("ab '" + kBench + "' '" + kBench + "' --html /nonexistent/dir/ab.html --json");
  EXPECT_EQ(unwritable.code, 2);
  const auto doc = nlohmann::json::parse(unwritable.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << unwritable.out;
  EXPECT_TRUE(doc.contains("error")) << unwritable.out;
  EXPECT_NE(doc["error"].get<std::string>().find("/nonexistent/dir/ab.html"), std::string::npos) << unwritable.out;
  EXPECT_EQ(doc["exit_code"], 2);
  EXPECT_EQ(doc.size() > 6, true) << unwritable.out;  // the comparison's own keys are there too
  // The same for diagnose --html: the diagnosis and the error in one document.
  const Outcome dg = run("diagnose --bench '" + kBench + "' --html /nonexistent/dir/d.html --json");
  EXPECT_EQ(dg.code, 2);
  const auto ddoc = nlohmann::json::parse(dg.out, nullptr, false);
  ASSERT_FALSE(ddoc.is_discarded()) << dg.out;
  EXPECT_TRUE(ddoc.contains("findings")) << dg.out;
  EXPECT_TRUE(ddoc.contains("error")) << dg.out;
}

TEST_F(ReportCli, FromADiagnosisAndItsBenchFolder) {
  const Outcome d = run("diagnose --bench '" + kBench + "' --json");
  ASSERT_NE(d.code, 2) << d.err;
  { std::ofstream(dir_ / "diag.json") << d.out; }
  const Outcome r = run("report diag.json '" + kBench + "' --html out.html");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote out.html"), std::string::npos) << r.out;
  const nlohmann::json data = embedded(slurp(dir_ / "out.html"));
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["diagnosis"], nlohmann::json::parse(d.out)) << "the diagnosis is embedded as diagnose --json wrote it";
  EXPECT_EQ(data["layers"].size(), 5u);
  ASSERT_EQ(data["latency"]["runs"].size(), 1u);
  EXPECT_EQ(data["latency"]["runs"][0]["label"], "bench_run");
  EXPECT_EQ(data["latency"]["runs"][0]["requests"], 6);
  EXPECT_FALSE(data["timeline"].is_null()) << "the bench folder's server scrapes are the timeline";
}

TEST_F(ReportCli, DiagnoseHtmlWritesThePageBesideItsOutput) {
  const Outcome d = run("diagnose --bench '" + kBench + "' --html page.html");
  ASSERT_NE(d.code, 2) << d.err;
  EXPECT_NE(d.out.find("Inputs"), std::string::npos) << "the terminal report is still printed";
  EXPECT_NE(d.err.find("HTML report written to page.html"), std::string::npos) << d.err;
  const nlohmann::json data = embedded(slurp(dir_ / "page.html"));
  ASSERT_TRUE(data.is_object());
  EXPECT_EQ(data["diagnosis"]["format"], "llmtriage-diagnosis");
  EXPECT_EQ(data["latency"]["runs"][0]["label"], "now");
  EXPECT_DOUBLE_EQ(data["latency"]["slo"]["ttft_s"].get<double>(), 2.0);  // the diagnosis' default SLO
}

// diagnose --html puts each request on the scrapes' clock: a bench folder's records are seconds
// from its run's start (summary.json run.start_unix_s); without that start, no dots, and a note.
TEST_F(ReportCli, DiagnoseHtmlDrawsEachRequestOnTheScrapesClock) {
  fs::copy(kBench, dir_ / "run", fs::copy_options::recursive);
  auto summary = nlohmann::json::parse(slurp(dir_ / "run" / "summary.json"));
  summary["run"]["start_unix_s"] = 1764700000.5;  // metrics.jsonl: t_s -0.5 at unix 1764700000
  { std::ofstream(dir_ / "run" / "summary.json") << summary.dump(2); }
  const Outcome d = run("diagnose --bench run --html page.html");
  ASSERT_NE(d.code, 2) << d.err;
  const nlohmann::json data = embedded(slurp(dir_ / "page.html"));
  ASSERT_TRUE(data.is_object());
  // Six requests sent 0 to 2.5 s after the start; the scrapes span -0.5 to 2 s: four fall inside.
  EXPECT_EQ(data["timeline"]["requests_drawn"], 4) << data["timeline"].dump();
  for (const auto& n : data["notes"]) EXPECT_EQ(n.get<std::string>().find("no per-request dots"), std::string::npos) << n;

  const Outcome old = run("diagnose --bench '" + kBench + "' --html old.html");
  ASSERT_NE(old.code, 2) << old.err;
  const nlohmann::json o = embedded(slurp(dir_ / "old.html"));
  bool said = false;
  for (const auto& n : o["notes"]) said |= n.get<std::string>().find("no per-request dots on the timeline: the request records' times are relative") == 0;
  EXPECT_TRUE(said) << o["notes"].dump();
  EXPECT_EQ(o["timeline"]["requests_drawn"], 0);
}

TEST_F(ReportCli, TwoDiagnosesDrawTheLastAndSaySo) {
  const Outcome d = run("diagnose --bench '" + kBench + "' --json");
  ASSERT_NE(d.code, 2) << d.err;
  { std::ofstream(dir_ / "a.json") << d.out; }
  { std::ofstream(dir_ / "b.json") << d.out; }
  const Outcome r = run("report a.json b.json --html out.html");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json data = embedded(slurp(dir_ / "out.html"));
  ASSERT_TRUE(data.is_object());
  bool said = false;
  for (const auto& n : data["notes"]) said |= n.get<std::string>() == "several diagnoses given: the page shows the last, b.json";
  EXPECT_TRUE(said) << data["notes"].dump();
}

TEST_F(ReportCli, InputsThatCannotBeReadExitTwoNamingThem) {
  Outcome r = run("report missing.json --html out.html");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  { std::ofstream(dir_ / "notes.txt") << "not json\n"; }
  r = run("report notes.txt --html out.html");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("notes.txt: expected a bench folder"), std::string::npos) << r.err;
  { std::ofstream(dir_ / "other.json") << R"({"format": "something-else"})"; }
  r = run("report other.json --html out.html");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("format something-else"), std::string::npos) << r.err;
  r = run("report '" + kBench + "'");
  EXPECT_EQ(r.code, 2) << "--html is required";
  EXPECT_FALSE(fs::exists(dir_ / "out.html"));
}

}  // namespace
