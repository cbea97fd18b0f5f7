// GET /dcgm of the real `llmtriage sim serve` binary: under load, a replica with a clock_throttle
// fault (from its scenario file, or switched on at run time through /admin/fault) reads as
// power-capped with low clocks; a healthy one does not; `llmtriage snapshot --dcgm` stores the
// readings; a real Prometheus scraping metrics_path /dcgm returns DCGM_FI_DEV_POWER_USAGE.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "ingest/gpu_dcgm.h"
#include "support/prometheus_process.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

namespace fs = std::filesystem;

// Streams requests at the server until destroyed, so its replica is busy at scrape time.
class Load {
 public:
  explicit Load(std::string url) : url_(std::move(url)) {
    for (int k = 0; k < 2; ++k)
      threads_.emplace_back([this] {
        net::Client c;
        while (!stop_)
          stream_json(c, url_ + "/v1/completions",
                      R"({"prompt": "tell me a long story", "max_tokens": 400, "ignore_eos": true, "stream": true})");
      });
  }
  // Call after the server is stopped (a stream in flight then ends at once).
  void join() {
    stop_ = true;
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  ~Load() { join(); }

 private:
  std::string url_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// Polls /dcgm until GPU 0 reads busy (util > 0); nullopt after 30 s.
std::optional<core::GpuSample> busy_reading(const std::string& url) {
  net::Client c;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = get(c, url + "/dcgm");
    if (r.status == 200) {
      auto p = ingest::gpu_samples_from_exposition(r.body, 0);
      if (!p.gpus.empty() && p.gpus[0].util.value_or(0) > 0) return p.gpus[0];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::nullopt;
}

std::string throttle_scenario(const fs::path& dir) {
  const fs::path p = dir / "throttled.json";
  std::ofstream(p) << R"({"name": "throttled", "deployment": {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-SXM",
    "kv_cache_tokens": 200000, "max_model_len": 4096}, "engine": "vllm",
    "faults": [{"kind": "clock_throttle", "start_s": 0, "factor": 0.5}]})";
  return p.string();
}

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("llmtriage_dcgm_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(DcgmRoute, ScenarioThrottleShowsAsPowerCapUnderLoad) {
  const fs::path dir = temp_dir();
  ServeProcess server({throttle_scenario(dir), "--time-scale", "2"}, false);
  ASSERT_TRUE(server.ok()) << server.startup_output();
  net::Client c;
  auto r = get(c, server.url() + "/dcgm/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("# TYPE DCGM_FI_DEV_POWER_USAGE gauge"), std::string::npos) << r.body;
  Load load(server.url());
  auto g = busy_reading(server.url());
  server.stop();
  load.join();
  ASSERT_TRUE(g) << "no busy reading within 30 s";
  EXPECT_NEAR(*g->sm_clock_mhz / *g->max_sm_clock_mhz, 0.5, 0.01);
  EXPECT_GE(*g->power_w / *g->power_limit_w, 0.95);
  EXPECT_EQ(g->throttle_names, std::vector<std::string>{"sw_power_cap"});
  fs::remove_all(dir);
}

TEST(DcgmRoute, HealthyServerIsNotThrottledUntilAFaultIsSwitchedOn) {
  ServeProcess server({"--admin", "--kv-cache-tokens", "200000", "--max-model-len", "4096", "--time-scale", "2"}, false);
  ASSERT_TRUE(server.ok()) << server.startup_output();
  Load load(server.url());
  auto healthy = busy_reading(server.url());
  ASSERT_TRUE(healthy);
  EXPECT_DOUBLE_EQ(*healthy->sm_clock_mhz, *healthy->max_sm_clock_mhz);
  EXPECT_LT(*healthy->power_w / *healthy->power_limit_w, 0.9);
  EXPECT_TRUE(healthy->throttle_names.empty());
  net::Client c;
  ASSERT_EQ(post_json(c, server.url() + "/admin/fault", R"({"kind": "clock_throttle", "factor": 0.6})").status, 200);
  auto throttled = busy_reading(server.url());
  server.stop();
  load.join();
  ASSERT_TRUE(throttled);
  EXPECT_NEAR(*throttled->sm_clock_mhz / *throttled->max_sm_clock_mhz, 0.6, 0.01);
  EXPECT_EQ(throttled->throttle_names, std::vector<std::string>{"sw_power_cap"});
}

TEST(DcgmRoute, MultiReplicaTpServerHasOneGpuPerReplicaAndRank) {
  ServeProcess server({"--replicas", "2", "--tp", "2", "--metrics-style", "sglang"});
  ASSERT_TRUE(server.ok()) << server.startup_output();
  net::Client c;
  auto r = get(c, server.url() + "/dcgm");
  ASSERT_EQ(r.status, 200);
  auto p = ingest::gpu_samples_from_exposition(r.body, 0);
  ASSERT_EQ(p.gpus.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p.gpus[static_cast<size_t>(i)].index, i);
  EXPECT_EQ(p.malformed, 0u);
  // promtool's lint: only the camelCase label names (modelName, Hostname) that dcgm-exporter's
  // own output gets; kept for compatibility.
  if (!test_support::prometheus_installed()) return;
  const fs::path dir = temp_dir();
  std::ofstream(dir / "dcgm.txt") << r.body;
  const std::string cmd = "promtool check metrics < '" + (dir / "dcgm.txt").string() + "' > '" +
                          (dir / "promtool.out").string() + "' 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), -1);
  std::istringstream lines(test_support::read_file((dir / "promtool.out").string()));
  int complaints = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    ++complaints;
    EXPECT_NE(line.find("label names should be written in 'snake_case' not 'camelCase'"), std::string::npos) << line;
  }
  EXPECT_GT(complaints, 0);  // the lint ran and saw our labels
  fs::remove_all(dir);
}

TEST(DcgmRoute, SnapshotStoresTheReadings) {
  const fs::path dir = temp_dir();
  ServeProcess server({});
  ASSERT_TRUE(server.ok()) << server.startup_output();
  const std::string out_file = (dir / "snap.json").string();
  std::string out;
  const int rc = run_binary({"snapshot", "--endpoint", server.url(), "--dcgm", server.url() + "/dcgm", "--window", "0",
                             "--no-local-gpu", "--out", out_file},
                            out);
  EXPECT_EQ(rc, 0) << out;
  auto j = nlohmann::json::parse(test_support::read_file(out_file), nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  ASSERT_TRUE(j.contains("gpu")) << j.dump().substr(0, 2000);
  const auto& s = j["gpu"]["samples"];
  ASSERT_EQ(s.size(), 1u) << j["gpu"].dump();
  EXPECT_EQ(s[0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_DOUBLE_EQ(s[0]["power_limit_w"].get<double>(), 700);
  EXPECT_DOUBLE_EQ(s[0]["max_sm_clock_mhz"].get<double>(), 1980);
  EXPECT_EQ(s[0]["throttle_names"], nlohmann::json::array({"gpu_idle"}));  // no load: idle
  fs::remove_all(dir);
}

// The whole chain: `llmtriage diagnose --endpoint --dcgm` on a loaded throttled server names the
// power throttle from the /dcgm readings; on a healthy one it does not.
TEST(DcgmRoute, LiveDiagnoseNamesTheThrottleFromDcgmReadings) {
  const fs::path dir = temp_dir();
  auto diagnose = [&](ServeProcess& server) {
    Load load(server.url());
    std::this_thread::sleep_for(std::chrono::seconds(1));
    std::string out;
    run_binary({"diagnose", "--endpoint", server.url(), "--dcgm", server.url() + "/dcgm", "--window", "5s", "--interval",
                "1s", "--no-local-gpu", "--symptom", "tpot_high", "--no-what-if", "--keep-snapshot",
                (dir / "snap.json").string(), "--json"},
               out);
    server.stop();
    load.join();
    auto j = nlohmann::json::parse(out, nullptr, false);
    EXPECT_TRUE(j.is_object() && j.contains("findings")) << out.substr(0, 2000);  // a report, so no finding means none
    std::vector<std::string> ids;
    if (j.is_object() && j.contains("findings"))
      for (const auto& f : j["findings"]) ids.push_back(f.value("id", ""));
    return ids;
  };
  ServeProcess throttled({throttle_scenario(dir), "--time-scale", "2", "--no-access-log"}, false);
  ASSERT_TRUE(throttled.ok()) << throttled.startup_output();
  const auto t_ids = diagnose(throttled);
  ASSERT_FALSE(t_ids.empty());
  EXPECT_EQ(t_ids[0], "gpu_power_throttled");
  ServeProcess healthy({"--kv-cache-tokens", "200000", "--max-model-len", "4096", "--time-scale", "2", "--no-access-log"}, false);
  ASSERT_TRUE(healthy.ok()) << healthy.startup_output();
  const auto h_ids = diagnose(healthy);
  EXPECT_EQ(std::count(h_ids.begin(), h_ids.end(), "gpu_power_throttled"), 0);
  fs::remove_all(dir);
}

TEST(DcgmRoute, PrometheusScrapesTheDcgmPath) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "Prometheus is not installed (Debian package `prometheus`)";
  const fs::path dir = temp_dir();
  ServeProcess server({throttle_scenario(dir), "--time-scale", "2"}, false);
  ASSERT_TRUE(server.ok()) << server.startup_output();
  const std::string instance = "127.0.0.1:" + std::to_string(server.port());
  test_support::PrometheusProcess prometheus(
      "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: dcgm\n    metrics_path: /dcgm\n"
      "    static_configs:\n      - targets: ['" + instance + "']\n");
  ASSERT_TRUE(prometheus.ok()) << prometheus.log();
  Load load(server.url());
  net::Client c;
  auto query = [&](const std::string& promql) {
    auto r = get(c, prometheus.url() + "/api/v1/query?query=" + test_support::url_encode(promql));
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") return nlohmann::json::array();
    return j["data"]["result"];
  };
  nlohmann::json power, capped;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  while (std::chrono::steady_clock::now() < deadline && (power.empty() || capped.empty())) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    power = query("DCGM_FI_DEV_POWER_USAGE{instance=\"" + instance + "\"}");
    // Same label sets on both sides: the ratio a fleet rule would compute, throttled under load.
    capped = query("min_over_time((DCGM_FI_DEV_SM_CLOCK / DCGM_FI_DEV_MAX_SM_CLOCK)[30s:1s]) < 0.55 and "
                   "max_over_time(DCGM_FI_DEV_CLOCK_THROTTLE_REASONS[30s]) == 4");
  }
  server.stop();
  load.join();
  ASSERT_EQ(power.size(), 1u) << prometheus.log();
  EXPECT_EQ(power[0]["metric"]["modelName"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(power[0]["metric"]["gpu"], "0");
  EXPECT_GT(std::stod(power[0]["value"][1].get<std::string>()), 0);
  EXPECT_EQ(capped.size(), 1u);
  fs::remove_all(dir);
}

}  // namespace llmtriage::serve_test
