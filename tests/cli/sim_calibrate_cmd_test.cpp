// `llmtriage sim calibrate`, black box: records of a simulated run with a known calibration are
// fitted, the written file loads back through `sim run --calibration` and reproduces the run;
// exit codes for a clean fit (0), a fit with warnings (1) and bad input (2).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/shell_run.h"

namespace fs = std::filesystem;
using llmtriage::shell_test::run_shell;
using nlohmann::json;

namespace {

const std::string kBin = LLMTRIAGE_BINARY;
const std::string kVllmBench = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/vllm_bench.json";
const std::string kLoad = " --gpu H100 --input-len 2000 --output-len 200 --rate 3 --seed 5";

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("llmtriage_calib_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Runs `sim run` with the load above and returns its JSON summary; records go to `out_dir`.
json sim_run(const std::string& extra, int num_requests, const std::string& out_dir = "") {
  auto r = run_shell(kBin + " sim run" + kLoad + " --num-requests " + std::to_string(num_requests) + " " + extra +
                     (out_dir.empty() ? "" : " --out " + out_dir) + " --json");
  EXPECT_EQ(r.code, 0) << r.out;
  return json::parse(r.out, nullptr, false);
}

}  // namespace

TEST(SimCalibrateCmd, FitsRecordsAndTheFileReproducesTheRunInSimRun) {
  TempDir t;
  write(t / "truth.json", R"({"mbu": 0.55})");
  const json truth = sim_run("--calibration " + t / "truth.json", 200, t / "run");
  ASSERT_TRUE(fs::exists(t / "run/records.jsonl"));

  auto r = run_shell(kBin + " sim calibrate --records " + t / "run/records.jsonl" +
                     " --gpu H100 --fit mbu --max-simulations 40 --out " + t / "fit.json" + " --json");
  ASSERT_EQ(r.code, 0) << r.out;  // a clean fit: no warning
  const json rep = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(rep.is_discarded()) << r.out;
  EXPECT_NEAR(rep["fitted"][0]["fitted"].get<double>(), 0.55, 0.55 * 0.02);
  EXPECT_EQ(rep["fitted"][0]["name"], "mbu");
  EXPECT_LE(rep["simulations"].get<int>(), 40);
  EXPECT_LT(rep["objective"]["after"].get<double>(), rep["objective"]["before"].get<double>() / 10);
  EXPECT_EQ(rep["records"]["used"], 200);
  EXPECT_TRUE(rep["warnings"].empty());
  // TPOT is what bandwidth sets; TTFT at this load is prefill (mfu), within a step of the truth.
  for (const auto& m : rep["metrics"])
    EXPECT_LT(std::fabs(m["error_after"].get<double>()), m["metric"].get<std::string>().starts_with("tpot") ? 0.01 : 0.05) << m.dump();

  // The written file is a calibration `sim run` loads, and it reproduces the measured run.
  const json again = sim_run("--calibration " + t / "fit.json", 200);
  ASSERT_TRUE(again.is_object());
  for (const char* k : {"ttft_ms", "tpot_ms"})
    EXPECT_NEAR(again[k]["median"].get<double>(), truth[k]["median"].get<double>(), truth[k]["median"].get<double>() * 0.02) << k;

  // Text report: the fitted factor and the before/after table.
  auto text = run_shell(kBin + " sim calibrate --records " + t / "run/records.jsonl" + " --gpu H100 --fit mbu --max-simulations 12");
  EXPECT_NE(text.out.find("Fitted factors"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("tpot_ms.p90"), std::string::npos);
}

TEST(SimCalibrateCmd, TooFewRecordsIsAWarningExitOne) {
  TempDir t;
  sim_run("", 30, t / "run");
  auto r = run_shell(kBin + " sim calibrate --records " + t / "run/records.jsonl" + " --gpu H100 --fit mbu --max-simulations 12");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("fewer than 100"), std::string::npos) << r.out;

  // A vllm bench result replayed closed-loop at its concurrency: a fit, with both warnings.
  auto v = run_shell(kBin + " sim calibrate --records " + kVllmBench + " --concurrency 2 --gpu H100 --fit mbu "
                     "--max-simulations 12 --json");
  EXPECT_EQ(v.code, 1) << v.out;
  const json j = json::parse(v.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << v.out;
  EXPECT_NE(j["replay"].get<std::string>().find("closed-loop"), std::string::npos);
  EXPECT_TRUE(j["per_request"].empty());
}

TEST(SimCalibrateCmd, BadInputExitsTwoNamingTheProblem) {
  TempDir t;
  sim_run("", 20, t / "run");
  const std::string recs = " --records " + t / "run/records.jsonl";
  // Records with arrival times and lengths but no TTFT (a non-streaming client).
  write(t / "no_ttft.jsonl", R"({"arrival_s": 0.0, "input_tokens": 100, "output_tokens": 20, "e2e_s": 0.5})" "\n"
                             R"({"arrival_s": 0.5, "input_tokens": 120, "output_tokens": 25, "e2e_s": 0.6})" "\n");
  write(t / "empty.jsonl", "");
  struct Case { std::string args, needle; };
  const Case cases[] = {
      {recs + " --fit mbu,warp_speed", "mbu, mfu, mfu_fp8, mfu_fp4, attn_eff, layer_fixed_us"},
      {" --records " + t / "missing.jsonl", "missing.jsonl"},
      {" --records " + t / "empty.jsonl", "request record"},
      {" --records " + t / "no_ttft.jsonl", "ttft_s"},
      {recs + " --records-format nonsense", "--records-format"},
      {recs + " --max-simulations 3", "--max-simulations"},
      {recs + " --model no/such-model", "no/such-model"},
      // vllm bench results have no arrival times: refused without the benchmark's concurrency
      {" --records " + kVllmBench, "--concurrency"},
  };
  for (const auto& c : cases) {
    auto r = run_shell(kBin + " sim calibrate --gpu H100" + c.args + " 2>&1");
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.needle), std::string::npos) << c.args << "\n" << r.out;
  }
}
