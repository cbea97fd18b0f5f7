// `llmtriage diagnose --metrics-file / --gpu-file`, black box: /metrics texts saved with curl are
// readings at the files' modification times — two of them give rates — and a file with no engine
// or GPU series is named in a clear error (exit 2).
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/shell_run.h"

namespace llmtriage::shell_test {
namespace {

namespace fs = std::filesystem;

std::string scrape(double preemptions, double finished) {
  const std::string l = R"({engine="0",model_name="m"})";
  std::string s;
  s += "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running" + l + " 60\n";
  s += "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting" + l + " 45\n";
  s += "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc" + l + " 0.98\n";
  s += "# TYPE vllm:num_preemptions_total counter\nvllm:num_preemptions_total" + l + " " + std::to_string(preemptions) + "\n";
  s += "# TYPE vllm:request_success_total counter\nvllm:request_success_total{engine=\"0\",finished_reason=\"stop\",model_name=\"m\"} " +
       std::to_string(finished) + "\n";
  return s;
}

void write(const fs::path& p, const std::string& text, fs::file_time_type t) {
  std::ofstream(p) << text;
  fs::last_write_time(p, t);
}

TEST(DiagnoseFiles, TwoSavedScrapesGiveRatesAndNameTheStorm) {
  const fs::path dir = fs::temp_directory_path() / ("llmtriage-mf-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto t1 = fs::file_time_type::clock::now();
  write(dir / "a.txt", scrape(100, 1000), t1 - std::chrono::seconds(60));
  write(dir / "b.txt", scrape(400, 1300), t1);  // 300 preemptions in 60 s: 5/s, one per finished request
  const auto r = run_shell(std::string(LLMTRIAGE_BINARY) + " diagnose --metrics-file " + (dir / "a.txt").string() +
                           " --metrics-file " + (dir / "b.txt").string() + " --symptom ttft_spike --no-what-if --json");
  EXPECT_EQ(r.code, 1) << r.out;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_FALSE(j["findings"].empty()) << r.out;
  EXPECT_EQ(j["findings"][0]["id"], "preemption_storm") << j["findings"].dump(2);
  bool rate = false;
  for (const auto& e : j["findings"][0]["evidence"])
    if (e.value("indicator", "") == "preemptions_per_s") {
      rate = true;
      EXPECT_NEAR(e["value"].get<double>(), 5.0, 0.05) << e.dump();
    }
  EXPECT_TRUE(rate) << j["findings"][0].dump(2);
  fs::remove_all(dir);
}

TEST(DiagnoseFiles, AFileWithoutSeriesIsNamed) {
  const fs::path p = fs::temp_directory_path() / ("llmtriage-mf-bad-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(p) << "<html>login</html>\n";
  const auto r = run_shell(std::string(LLMTRIAGE_BINARY) + " diagnose --metrics-file " + p.string() + " 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find(p.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expected a Prometheus exposition"), std::string::npos) << r.out;
  const auto g = run_shell(std::string(LLMTRIAGE_BINARY) + " diagnose --gpu-file " + p.string() + " 2>&1");
  EXPECT_EQ(g.code, 2) << g.out;
  EXPECT_NE(g.out.find("nvidia-smi"), std::string::npos) << g.out;
  fs::remove(p);
}

}  // namespace
}  // namespace llmtriage::shell_test
