// `llmtriage fleet` end to end, black box: a real Prometheus scrapes three `llmtriage sim serve`
// replicas (engine /metrics and the simulated dcgm-exporter /dcgm) every second — one healthy,
// one with a power-capped GPU, one whose share of traffic reaches it without prefix affinity —
// and the rules `llmtriage rules` emits for the same selector are loaded into it. The fleet
// report must name the throttled replica in operator/hardware and the affinity loss in
// scheduling/capacity, and leave the healthy replica alone; Prometheus must fire the matching
// alerts for those two replicas only.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/prometheus_process.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {
namespace {

std::string target(const ServeProcess& s) { return "127.0.0.1:" + std::to_string(s.port()); }

// A bench run of shared-prefix prompts: `groups` prefixes of 1500 tokens, 1600-token prompts.
// Few groups per replica is what a prefix-affine router leaves each replica; many groups, each
// seen about once, is a replica receiving prefixes scattered across the fleet.
int bench(const ServeProcess& s, int groups, int seed, std::string& out) {
  return run_binary({"bench", "--endpoint", s.url(), "--model", "m", "--dataset", "prefix", "--prefix-groups", std::to_string(groups),
                     "--prefix-len", "1500", "--input-len", "1600", "--output-len", "60", "--rate", "4", "--num-requests", "80",
                     "--seed", std::to_string(seed), "--scrape-interval", "0"},
                    out);
}

bool names(const nlohmann::json& f, const std::string& what) { return f.dump().find(what) != std::string::npos; }

TEST(FleetLive, NamesTheThrottledReplicaAndTheAffinityLossAndPrometheusAlertsAgree) {
  ASSERT_TRUE(test_support::prometheus_installed()) << "Prometheus is not installed (Debian package `prometheus`)";
  const std::vector<std::string> args = {"--served-model-name", "m", "--time-scale", "2", "--kv-cache-tokens", "60000",
                                         "--max-model-len", "8192", "--enable-prefix-caching", "--admin"};
  ServeProcess healthy(args, false), throttled(args, false), scattered(args, false);
  ASSERT_TRUE(healthy.ok() && throttled.ok() && scattered.ok()) << healthy.startup_output() << throttled.startup_output();
  net::Client c;
  ASSERT_EQ(post_json(c, throttled.url() + "/admin/fault", R"({"kind": "clock_throttle", "factor": 0.5})").status, 200);

  // The rules for the same setup, loaded into the same Prometheus.
  std::string rules;
  ASSERT_EQ(run_binary({"rules", "--engine", "vllm", "--selector", "{job=\"sim\"}", "--gpu-selector", "{job=\"dcgm\"}", "--for", "0s",
                        "--rate-window", "10s"},
                       rules),
            0)
      << rules;
  const std::string targets = "['" + target(healthy) + "', '" + target(throttled) + "', '" + target(scattered) + "']";
  test_support::PrometheusProcess prometheus(
      "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files:\n  - rules.yml\nscrape_configs:\n"
      "  - job_name: sim\n    static_configs:\n      - targets: " + targets + "\n"
      "  - job_name: dcgm\n    metrics_path: /dcgm\n    static_configs:\n      - targets: " + targets + "\n",
      {{"rules.yml", rules}});
  ASSERT_TRUE(prometheus.ok()) << prometheus.log();

  // ~20 s of traffic on each replica, at the same rate and prompt lengths. Time scale 2 keeps the
  // throttled GPU busy most of the time (the clock alert asks for utilization above hw.busy_util).
  const auto t0 = std::chrono::system_clock::now();
  std::string out_h, out_t, out_s;
  int rc_h = -1, rc_t = -1, rc_s = -1;
  std::thread bh([&] { rc_h = bench(healthy, 4, 1, out_h); });
  std::thread bt([&] { rc_t = bench(throttled, 4, 2, out_t); });
  std::thread bs([&] { rc_s = bench(scattered, 80, 3, out_s); });

  // Alerts while the load runs (and a little after): alert name -> instances.
  std::map<std::string, std::set<std::string>> firing;
  auto poll_alerts = [&] {
    auto j = nlohmann::json::parse(get(c, prometheus.url() + "/api/v1/alerts").body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") return;
    for (const auto& a : j["data"]["alerts"])
      if (a.value("state", "") == "firing") firing[a["labels"].value("alertname", "")].insert(a["labels"].value("instance", ""));
  };
  std::atomic<int> done{0};
  std::thread waiter([&] {
    bh.join();
    bt.join();
    bs.join();
    done = 1;
  });
  // Alerts are read once the 10 s rate window is full of steady load and until the load ends: the
  // runs start and stop a few hundred ms apart, and with `for: 0s` a rate over a half-empty
  // window would call that an imbalance.
  while (!done) {  // bounded: each bench run has 80 requests at 4/s
    if (std::chrono::system_clock::now() - t0 > std::chrono::seconds(12)) poll_alerts();
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  waiter.join();
  // 0, or 1 when the bench flags its own run (a loaded host: client-bound); the traffic was sent.
  ASSERT_TRUE(rc_h == 0 || rc_h == 1) << out_h;
  ASSERT_TRUE(rc_t == 0 || rc_t == 1) << out_t;
  ASSERT_TRUE(rc_s == 0 || rc_s == 1) << out_s;
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the last scrapes land
  const double elapsed = std::chrono::duration<double>(std::chrono::system_clock::now() - t0).count();
  const std::string window = std::to_string(static_cast<int>(elapsed) + 2) + "s";

  std::string out;
  const std::string page = "/tmp/llmtriage-fleet-" + std::to_string(::getpid()) + ".html";
  const int rc = run_binary({"fleet", "--prometheus", prometheus.url(), "--selector", "{job=\"sim\"}", "--gpu-selector", "{job=\"dcgm\"}",
                             "--window", window, "--step", "1s", "--json", "--html", page},
                            out);
  ASSERT_EQ(rc, 1) << out;  // findings at warning
  auto j = nlohmann::json::parse(out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["format"], "llmtriage-fleet");
  EXPECT_EQ(j["replicas"].size(), 3u) << out;
  EXPECT_LE(j["store"]["queries"].get<int>(), 4) << j["store"].dump();  // bounded: not one query per replica

  const auto& findings = j["verdict"]["findings"];
  bool throttle = false, affinity = false;
  for (const auto& f : findings) {
    if (f["id"] == "replica_gpu_throttled") {
      throttle = true;
      EXPECT_EQ(f["layer"], "operator_hardware");
      EXPECT_TRUE(names(f, target(throttled))) << f.dump(2);
      EXPECT_FALSE(names(f, target(healthy))) << f.dump(2);
    }
    if (f["id"] == "prefix_affinity_lost") {
      affinity = true;
      EXPECT_EQ(f["layer"], "scheduling_capacity");
      EXPECT_TRUE(names(f, target(scattered))) << f.dump(2);
      EXPECT_FALSE(names(f["title"], target(healthy))) << f.dump(2);
    }
  }
  EXPECT_TRUE(throttle) << findings.dump(2);
  EXPECT_TRUE(affinity) << findings.dump(2);
  for (const auto& r : j["replicas"])
    if (r["replica"] == target(healthy)) {
      EXPECT_FALSE(r["differs"].get<bool>()) << r.dump(2);
    }

  // The page of the same analysis: one row per replica, the throttled replica's clock cell an
  // outlier and the replica named by its finding, the healthy replica (named by nothing) last;
  // the embedded verdict is the one --json printed.
  {
    std::ifstream in(page);
    ASSERT_TRUE(in) << page;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string html = ss.str();
    EXPECT_NE(html.find("<svg class=\"chart fleet-grid\""), std::string::npos);
    const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
    const size_t a = html.find(open), b = html.find("</script>", a);
    ASSERT_NE(a, std::string::npos);
    const auto data = nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()), nullptr, false);
    ASSERT_TRUE(data.is_object());
    const auto& rows = data["fleet"]["rows"];
    ASSERT_EQ(rows.size(), 3u) << data["fleet"].dump();
    EXPECT_EQ(rows[2]["replica"], target(healthy)) << rows.dump();
    EXPECT_FALSE(rows[2]["differs"].get<bool>());
    bool throttled_marked = false;
    for (const auto& r : rows)
      if (r["replica"] == target(throttled)) {
        EXPECT_TRUE(names(r["findings"], "replica_gpu_throttled")) << r.dump();
        const auto& cells = r["cells"];
        const auto& clock = cells.contains("sm_clock_ratio") ? cells["sm_clock_ratio"] : cells["sm_clock_mhz"];
        throttled_marked = clock.value("outlier", false);
      }
    EXPECT_TRUE(throttled_marked) << rows.dump();
    EXPECT_EQ(data["diagnosis"]["findings"].size(), j["verdict"]["findings"].size());
    EXPECT_EQ(data["diagnosis"]["findings"][0]["id"], j["verdict"]["findings"][0]["id"]);
    std::cout << "fleet page: " << page << " (" << html.size() << " bytes)\n";
  }

  // The terminal report of the same window: the verdict first, the throttled replica among those
  // that differ, and the definitions named once (the embedded verdict does not repeat them).
  std::string text;
  ASSERT_EQ(run_binary({"fleet", "--prometheus", prometheus.url(), "--selector", "{job=\"sim\"}", "--gpu-selector",
                        "{job=\"dcgm\"}", "--window", window, "--step", "1s"},
                       text),
            1)
      << text;
  const size_t verdict = text.find("== Fleet verdict ==");
  const size_t differ = text.find("== Replicas that differ ==");
  ASSERT_NE(verdict, std::string::npos) << text;
  ASSERT_NE(differ, std::string::npos) << text;
  EXPECT_LT(verdict, differ) << text;
  EXPECT_NE(text.find("  " + target(throttled) + ":", differ), std::string::npos) << text;
  size_t defs = 0;
  for (size_t p = text.find("as defined in"); p != std::string::npos; p = text.find("as defined in", p + 1)) ++defs;
  EXPECT_EQ(defs, 1u) << text;

  // The alerts from the rules agree: the clock alert for the throttled replica, the affinity
  // alert for the scattered one, nothing for the healthy one.
  std::string seen;
  for (const auto& [name, inst] : firing)
    for (const auto& i : inst) seen += name + "@" + i + " ";
  EXPECT_TRUE(firing["LLMTriageGpuClockLow"].count(target(throttled))) << seen;
  EXPECT_TRUE(firing["LLMTriageReplicaPrefixAffinityLost"].count(target(scattered))) << seen;
  for (const auto& [name, inst] : firing) EXPECT_EQ(inst.count(target(healthy)), 0u) << name << " fired for the healthy replica";
}

TEST(FleetLive, AStoreThatIsNotThereIsAnInputErrorNamingTheUrl) {
  const int port = test_support::free_port();  // nothing listens there
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const std::string cmd = std::string(LLMTRIAGE_BINARY) + " fleet --prometheus " + url + " --window 5m --timeout 2s 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  EXPECT_EQ(WEXITSTATUS(st), 2) << out;
  EXPECT_NE(out.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << out;
}

}  // namespace
}  // namespace llmtriage::serve_test
