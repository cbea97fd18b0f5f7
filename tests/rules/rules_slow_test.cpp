// `llmtriage rules` black-box, against the real Prometheus tools:
//  (a) promtool check rules accepts the output (YAML and JSON) for every engine;
//  (b) promtool test rules runs the unit tests shipped in tests/data/rules/ (each alert fires on
//      its bad series and stays quiet on a healthy one) against rules generated with the options
//      written in each file's "# args:" line;
//  (c) a real Prometheus scraping `llmtriage sim serve` replicas (engine /metrics and the simulated
//      dcgm-exporter /dcgm) with the generated rules loaded: the overloaded replica's queue/KV
//      alert and the throttled replica's GPU clock alert fire in /api/v1/alerts, never for the
//      healthy sibling; of three replicas sharing a system prompt, the one that only gets
//      prompts starting differently (a router scattering the prefix) loses prefix affinity.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/prometheus_process.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {
namespace {

namespace fs = std::filesystem;
using test_support::read_file;

fs::path temp_dir(const std::string& tag) {
  const fs::path d = fs::temp_directory_path() / ("llmtriage_rules_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Runs a command line (paths are ours, in temp dirs) with stderr folded into `out`.
int run_shell(const std::string& cmd, std::string& out) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Generates a rule file with `llmtriage rules ARGS --out path`; "" on success, else the output.
std::string generate(const std::vector<std::string>& args, const fs::path& path) {
  std::vector<std::string> full = {"rules"};
  full.insert(full.end(), args.begin(), args.end());
  full.push_back("--out");
  full.push_back(path.string());
  std::string out;
  const int rc = run_binary(full, out);
  return rc == 0 && fs::exists(path) ? "" : "exit " + std::to_string(rc) + ": " + out;
}

TEST(RulesPromtool, CheckAcceptsEveryEngineInYamlAndJson) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "promtool is not installed (Debian package `prometheus`)";
  const fs::path dir = temp_dir("check");
  for (const char* engine : {"vllm", "vllm-v0", "sglang"}) {
    for (bool json : {false, true}) {
      const fs::path file = dir / (std::string(engine) + (json ? ".json" : ".yml"));
      std::vector<std::string> args = {"--engine", engine, "--selector", "{job=\"llm\",namespace=~\"prod|staging\"}"};
      if (json) args.push_back("--json");
      ASSERT_EQ(generate(args, file), "") << engine;
      std::string out;
      EXPECT_EQ(run_shell("promtool check rules '" + file.string() + "'", out), 0) << engine << " json=" << json << "\n" << out;
      EXPECT_NE(out.find("SUCCESS"), std::string::npos) << out;
    }
  }
  // A hostile selector: an escaped quote, a regex with braces, YAML-special text, and characters a
  // YAML reader refuses raw or reads as line breaks (NEL, U+2028, BOM, a C1 control).
  {
    const fs::path file = dir / "hostile.yml";
    ASSERT_EQ(generate({"--selector", "{job=\"a\\\"b: #c\",path=~\"x{2}|-\",n=\"\xc2\x85\xe2\x80\xa8\xef\xbb\xbf\xc2\x9f\"}",
                        "--replica-label", "pod"},
                       file),
              "");
    std::string out;
    EXPECT_EQ(run_shell("promtool check rules '" + file.string() + "'", out), 0) << out << read_file(file.string()).substr(0, 2000);
  }
  // Not everything passes: a broken rule file is refused (the check can fail).
  std::ofstream(dir / "broken.yml") << "groups:\n  - name: x\n    rules:\n      - alert: A\n        expr: \"sum by (\"\n";
  std::string out;
  EXPECT_NE(run_shell("promtool check rules '" + (dir / "broken.yml").string() + "'", out), 0) << out;
  fs::remove_all(dir);
}

// The "# args: ..." line of a shipped promtool test file (space-separated, no quoting).
std::vector<std::string> args_of(const std::string& text) {
  const auto at = text.find("# args:");
  if (at == std::string::npos) return {};
  std::istringstream line(text.substr(at + 7, text.find('\n', at) - at - 7));
  std::vector<std::string> args;
  for (std::string a; line >> a;) args.push_back(a);
  return args;
}

TEST(RulesPromtool, ShippedUnitTestsPass) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "promtool is not installed (Debian package `prometheus`)";
  const fs::path data = fs::path(LLMTRIAGE_TEST_DATA_DIR) / "rules";
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(data)) {
    const std::string name = entry.path().filename().string();
    const std::string suffix = "_rules_test.yml";
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    ++files;
    const fs::path dir = temp_dir(entry.path().stem().string());
    const std::string text = read_file(entry.path().string());
    const auto args = args_of(text);
    ASSERT_FALSE(args.empty()) << name << ": no '# args:' line";
    ASSERT_EQ(generate(args, dir / "rules.yml"), "") << name;
    fs::copy_file(entry.path(), dir / name);
    std::string out;
    EXPECT_EQ(run_shell("cd '" + dir.string() + "' && promtool test rules '" + name + "'", out), 0) << name << "\n" << out;
    EXPECT_NE(out.find("SUCCESS"), std::string::npos) << out;
    // The same tests against rules that wait an hour before firing must fail: the tests do
    // look at the alerts.
    std::vector<std::string> slow = args;
    for (size_t i = 0; i + 1 < slow.size(); ++i)
      if (slow[i] == "--for") slow[i + 1] = "1h";
    ASSERT_EQ(generate(slow, dir / "rules.yml"), "") << name;
    out.clear();
    EXPECT_NE(run_shell("cd '" + dir.string() + "' && promtool test rules '" + name + "'", out), 0) << name << "\n" << out;
    fs::remove_all(dir);
  }
  EXPECT_GE(files, 3u) << "expected vllm, vllm_v0 and sglang test files in " << data;
}

// Open requests that keep a replica busy: `n` long non-streamed completions at once.
class Burst {
 public:
  Burst(const std::string& url, int n, int prompt_tokens, int max_tokens) {
    const std::string prompt(static_cast<size_t>(prompt_tokens) * 4, 'a');  // 4 bytes per stand-in token
    for (int i = 0; i < n; ++i) {
      net::Request r;
      r.method = net::Method::post;
      r.url = url + "/v1/completions";
      r.body = nlohmann::json{{"prompt", prompt + std::to_string(i)}, {"max_tokens", max_tokens}, {"ignore_eos", true}}.dump();
      net::Timeouts t;
      t.first_byte = std::chrono::minutes(10);
      t.idle = std::chrono::minutes(10);
      r.timeouts = t;
      net::StreamHandlers h;
      h.on_done = [](const net::Outcome&) {};
      client_.start(std::move(r), std::move(h));
    }
  }

 private:
  net::Client client_;
};

// Streams requests one after another until destroyed: a busy replica with a short queue.
class Trickle {
 public:
  explicit Trickle(std::string url) : url_(std::move(url)) {
    thread_ = std::thread([this] {
      net::Client c;
      while (!stop_)
        stream_json(c, url_ + "/v1/completions", R"({"prompt": "tell me a story", "max_tokens": 300, "ignore_eos": true, "stream": true})");
    });
  }
  void join() {  // after the server stopped: the stream in flight ends at once
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  ~Trickle() { join(); }

 private:
  std::string url_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(RulesLive, PrometheusFiresTheOverloadedAndThrottledReplicasAlertsOnly) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "Prometheus is not installed (Debian package `prometheus`)";
  // overloaded: a KV pool of 6000 tokens and 60 requests of 1000 + 1000 tokens at once (it holds
  // about 3); real time, so the queue lasts minutes. healthy and throttled (the test default
  // deployment): one stream at a time.
  ServeProcess overloaded({"--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100", "--kv-cache-tokens", "6000",
                           "--max-model-len", "4096", "--time-scale", "1"},
                          false);
  ServeProcess healthy({});
  ServeProcess throttled({"--admin"});
  ASSERT_TRUE(overloaded.ok()) << overloaded.startup_output();
  ASSERT_TRUE(healthy.ok()) << healthy.startup_output();
  ASSERT_TRUE(throttled.ok()) << throttled.startup_output();
  net::Client c;
  ASSERT_EQ(post_json(c, throttled.url() + "/admin/fault", R"({"kind": "clock_throttle", "factor": 0.5})").status, 200);

  const fs::path dir = temp_dir("live");
  // The three replicas get unequal load on purpose (a burst, a full-speed stream, a half-speed
  // stream), so their finished-request rates differ by 2x or more and LLMTriageReplicaLoadImbalance
  // would rightly fire for whichever sits away from the median. This test is about the per-replica
  // alerts: the fleet-relative ones are switched off by asking for 4 replicas (RulesLive.Prefix...
  // covers them).
  std::ofstream((dir / "thresholds").string()) << "fleet.min_replicas = 4\n";
  ASSERT_EQ(generate({"--engine", "vllm", "--selector", "{job=\"vllm\"}", "--gpu-selector", "{job=\"dcgm\"}", "--for", "0s",
                      "--rate-window", "10s", "--thresholds", (dir / "thresholds").string()},
                     dir / "rules.yml"),
            "");
  auto target = [](const ServeProcess& s) { return "127.0.0.1:" + std::to_string(s.port()); };
  const std::string targets = "['" + target(overloaded) + "', '" + target(healthy) + "', '" + target(throttled) + "']";
  test_support::PrometheusProcess prometheus(
      "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - rules.yml\nscrape_configs:\n"
      "  - job_name: vllm\n    static_configs:\n      - targets: " + targets + "\n"
      "  - job_name: dcgm\n    metrics_path: /dcgm\n    static_configs:\n      - targets: " + targets + "\n",
      {{"rules.yml", read_file((dir / "rules.yml").string())}});
  ASSERT_TRUE(prometheus.ok()) << prometheus.log();

  Burst burst(overloaded.url(), 60, 1000, 1000);
  Trickle light(healthy.url()), hot(throttled.url());
  // alert name -> instances it fires for.
  std::map<std::string, std::set<std::string>> firing;
  auto has = [&](const std::string& alert, const ServeProcess& s) { return firing[alert].count(target(s)) > 0; };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    auto r = get(c, prometheus.url() + "/api/v1/alerts");
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") continue;
    for (const auto& a : j["data"]["alerts"])
      if (a.value("state", "") == "firing")
        firing[a["labels"].value("alertname", "")].insert(a["labels"].value("instance", ""));
    const bool queue = has("LLMTriageQueueDeep", overloaded) || has("LLMTriageKvCacheNearFull", overloaded);
    if (queue && has("LLMTriageGpuClockLow", throttled)) break;
  }
  overloaded.stop();
  healthy.stop();
  throttled.stop();
  light.join();
  hot.join();
  std::string seen;
  for (const auto& [name, inst] : firing)
    for (const auto& i : inst) seen += name + "@" + i + " ";
  std::cout << "overloaded " << target(overloaded) << ", healthy " << target(healthy) << ", throttled " << target(throttled)
            << "; fired: " << seen << "\n";
  EXPECT_TRUE(has("LLMTriageQueueDeep", overloaded) || has("LLMTriageKvCacheNearFull", overloaded)) << seen;
  EXPECT_TRUE(has("LLMTriageGpuClockLow", throttled)) << seen;
  // The healthy sibling never fired anything: not the queue, not the GPU.
  for (const auto& [name, inst] : firing) EXPECT_EQ(inst.count(target(healthy)), 0u) << name << " fired for the healthy replica";
  EXPECT_FALSE(has("LLMTriageGpuClockLow", overloaded)) << seen;
  EXPECT_FALSE(has("LLMTriageQueueDeep", throttled)) << seen;
  fs::remove_all(dir);
}

// Completions one after another until destroyed. `shared` prompts start with the same 1000
// tokens (a system prompt the prefix cache keeps); otherwise every prompt starts differently.
class PromptLoop {
 public:
  PromptLoop(std::string url, bool shared) : url_(std::move(url)) {
    thread_ = std::thread([this, shared] {
      net::Client c;
      const std::string system(4000, 's');  // 1000 stand-in tokens
      for (int i = 0; !stop_; ++i) {
        const std::string id = std::to_string(i) + "-" + std::to_string(::getpid());
        const std::string prompt = shared ? system + " question " + id : id + " " + system;
        post_json(c, url_ + "/v1/completions", nlohmann::json{{"prompt", prompt}, {"max_tokens", 4}}.dump());
      }
    });
  }
  void join() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  ~PromptLoop() { join(); }

 private:
  std::string url_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(RulesLive, PrefixAffinityLostOnTheReplicaTheRouterScattersTo) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "Prometheus is not installed (Debian package `prometheus`)";
  // Three replicas of one job with prefix caching: two get the shared system prompt (an affine
  // router), the third only prompts that start differently (what a router scattering a shared
  // prefix leaves a replica with: its cache never hits).
  ServeProcess a({"--enable-prefix-caching"}), b({"--enable-prefix-caching"}), scattered({"--enable-prefix-caching"});
  ASSERT_TRUE(a.ok() && b.ok() && scattered.ok()) << a.startup_output() << scattered.startup_output();
  const fs::path dir = temp_dir("affinity");
  ASSERT_EQ(generate({"--engine", "vllm", "--selector", "{job=\"vllm\"}", "--for", "0s", "--rate-window", "10s"}, dir / "rules.yml"),
            "");
  auto target = [](const ServeProcess& s) { return "127.0.0.1:" + std::to_string(s.port()); };
  test_support::PrometheusProcess prometheus(
      "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - rules.yml\nscrape_configs:\n"
      "  - job_name: vllm\n    static_configs:\n      - targets: ['" + target(a) + "', '" + target(b) + "', '" +
          target(scattered) + "']\n",
      {{"rules.yml", read_file((dir / "rules.yml").string())}});
  ASSERT_TRUE(prometheus.ok()) << prometheus.log();
  PromptLoop la(a.url(), true), lb(b.url(), true), ls(scattered.url(), false);
  net::Client c;
  std::set<std::string> lost;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && !lost.count(target(scattered))) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    auto j = nlohmann::json::parse(get(c, prometheus.url() + "/api/v1/alerts").body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") continue;
    for (const auto& al : j["data"]["alerts"])
      if (al.value("state", "") == "firing" && al["labels"].value("alertname", "") == "LLMTriageReplicaPrefixAffinityLost")
        lost.insert(al["labels"].value("instance", ""));
  }
  // The recorded ratios, for the failure message.
  auto r = get(c, prometheus.url() + "/api/v1/query?query=" + test_support::url_encode("llmtriage:prefix_cache_hit_ratio:rate10s"));
  a.stop();
  b.stop();
  scattered.stop();
  la.join();
  lb.join();
  ls.join();
  EXPECT_EQ(lost, std::set<std::string>{target(scattered)}) << r.body;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace llmtriage::serve_test
