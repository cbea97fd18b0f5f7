// A real Prometheus (Debian `prometheus`) scrapes `llmtriage sim serve` every second; PromQL
// through its HTTP API returns our running/waiting/KV-usage series and a histogram_quantile over
// our TTFT buckets. `promtool check metrics` reports nothing beyond the ':' in vLLM's names.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/prometheus_process.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

using test_support::read_file;
using test_support::url_encode;

// Runs a PromQL instant query; returns the result array (empty when none or on error).
nlohmann::json query(net::Client& c, int port, const std::string& promql) {
  auto r = get(c, "http://127.0.0.1:" + std::to_string(port) + "/api/v1/query?query=" + url_encode(promql));
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (j.is_discarded() || j.value("status", "") != "success") return nlohmann::json::array();
  return j["data"]["result"];
}

}  // namespace

TEST(Prometheus, ScrapesOurMetricsAndAnswersPromQl) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "Prometheus is not installed (Debian package `prometheus`)";
  ServeProcess server({"--served-model-name", "sim-llama", "--time-scale", "2", "--kv-cache-tokens", "200000",
                       "--max-model-len", "4096"},
                      false);
  ASSERT_TRUE(server.ok()) << server.startup_output();

  test_support::PrometheusProcess prometheus("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                                             "  - job_name: sim\n    static_configs:\n      - targets: ['127.0.0.1:" +
                                             std::to_string(server.port()) + "']\n");
  ASSERT_TRUE(prometheus.ok()) << prometheus.log();
  const int prom_port = prometheus.port();
  namespace fs = std::filesystem;
  const fs::path dir = prometheus.dir();

  // Steady traffic so rates and quantiles have something to show.
  std::atomic<bool> stop{false};
  std::thread load([&] {
    net::Client c;
    while (!stop) {
      std::vector<std::thread> batch;
      for (int i = 0; i < 4; ++i)
        batch.emplace_back([&] { stream_json(c, server.url() + "/v1/completions", R"({"prompt": "hello there", "max_tokens": 40, "stream": true})"); });
      for (auto& t : batch) t.join();
    }
  });

  net::Client c;
  nlohmann::json running, waiting, kv, p90;
  double p90_value = NAN;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    running = query(c, prom_port, R"(vllm:num_requests_running{model_name="sim-llama"})");
    waiting = query(c, prom_port, R"(vllm:num_requests_waiting{model_name="sim-llama"})");
    kv = query(c, prom_port, R"(vllm:kv_cache_usage_perc{model_name="sim-llama"})");
    p90 = query(c, prom_port, "histogram_quantile(0.9, sum by (le) (rate(vllm:time_to_first_token_seconds_bucket[5s])))");
    if (!p90.empty()) p90_value = std::stod(p90[0]["value"][1].get<std::string>());
    if (!running.empty() && !waiting.empty() && !kv.empty() && std::isfinite(p90_value) && p90_value > 0) break;
  }
  stop = true;
  load.join();
  ASSERT_EQ(running.size(), 1u) << prometheus.log();
  EXPECT_EQ(running[0]["metric"]["engine"], "0");
  EXPECT_EQ(running[0]["metric"]["job"], "sim");
  ASSERT_EQ(waiting.size(), 1u);
  ASSERT_EQ(kv.size(), 1u);
  const double usage = std::stod(kv[0]["value"][1].get<std::string>());
  EXPECT_GE(usage, 0.0);
  EXPECT_LE(usage, 1.0);
  EXPECT_TRUE(std::isfinite(p90_value) && p90_value > 0 && p90_value < 2560) << p90.dump();

  // promtool's lint: only the ':' complaint that vLLM's own names get.
  net::Client m;
  std::ofstream(dir / "metrics.txt") << get(m, server.url() + "/metrics").body;
  const std::string cmd = "promtool check metrics < '" + (dir / "metrics.txt").string() + "' > '" +
                          (dir / "promtool.out").string() + "' 2>&1";
  std::system(cmd.c_str());
  std::istringstream lines(read_file((dir / "promtool.out").string()));
  std::string line;
  int colon = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    if (line.find("':'") != std::string::npos) ++colon;
    // vLLM's own histogram is named iteration_tokens_total; promtool objects to that too.
    else if (line.find("vllm:iteration_tokens_total") != std::string::npos && line.find("_total") != std::string::npos) continue;
    else ADD_FAILURE() << "promtool: " << line;
  }
  EXPECT_GT(colon, 0);  // the linter ran and saw our vllm: names
}

}  // namespace llmtriage::serve_test
