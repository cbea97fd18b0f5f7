// Every /admin/fault kind `llmtriage sim serve` accepts, under load, diagnosed: the real binary on
// 127.0.0.1, a healthy `bench` run, the fault switched on, the same request set again, then
// `diagnose --bench FAULT --baseline-bench HEALTHY --json`. The first finding must be in the
// injected fault's layer (and, where the evidence can say it, name its cause). Bounded: each
// bench run is a fixed number of requests with a deadline; no timing is asserted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct FaultCase {
  const char* kind;
  std::vector<std::string> faults;   // POST /admin/fault bodies, in order
  std::vector<std::string> server;   // sim serve arguments
  std::vector<std::string> load;     // bench arguments (request set, rate)
  const char* layer;                 // expected layer of findings[0]
  std::set<std::string> causes;      // acceptable finding ids (empty: any in the layer)
};

const std::string kModel = "meta-llama/Llama-3.1-8B-Instruct";

std::vector<std::string> server_args(std::vector<std::string> extra) {
  std::vector<std::string> a = {"--model", kModel, "--gpu", "H100", "--max-model-len", "4096", "--time-scale", "1",
                                "--admin"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// 150 requests at 20/s on one request set (same seed): about 8 s of load per run.
std::vector<std::string> prefix_load() {
  return {"--dataset", "prefix", "--prefix-groups", "4", "--prefix-len", "1024", "--input-len", "1500",
          "--output-len", "200", "--num-requests", "150", "--rate", "20", "--seed", "5"};
}

const std::vector<FaultCase>& cases() {
  static const std::vector<FaultCase> c = {
      // Steps 3.3x slower: the batch doubles as requests stay longer, TPOT grows more than the batch can explain.
      {"clock_throttle", {R"({"kind":"clock_throttle","factor":0.3})"}, server_args({"--kv-cache-tokens", "200000"}),
       prefix_load(), "operator_hardware", {"step_slower_than_baseline"}},
      // The per-replica TPOT histograms of the bench scrapes: one replica, as many requests, 4x slower.
      {"slow_replica", {R"({"kind":"slow_replica","factor":4,"replica":0})"},
       server_args({"--kv-cache-tokens", "200000", "--replicas", "2", "--router", "round-robin"}), prefix_load(),
       "operator_hardware", {"replica_slower_than_peers"}},
      // Each replica holds its half of the prefixes (<= ~20 x 2048 tokens in 48000) but not all 31 of them
      // (63488): round-robin makes both cycle through every prefix and evict it. An odd group count, or
      // round-robin over 2 replicas sends group g to replica g % 2 and keeps the affinity by accident.
      {"no_affinity", {R"({"kind":"no_affinity"})"},
       server_args({"--kv-cache-tokens", "48000", "--replicas", "2", "--router", "prefix-affinity"}),
       {"--dataset", "prefix", "--prefix-groups", "31", "--prefix-len", "2048", "--input-len", "2100", "--output-len",
        "16", "--num-requests", "200", "--rate", "10", "--seed", "5"},
       "scheduling_capacity", {"prefix_cache_miss_routing"}},
      // A pool large enough that losing the shared blocks cannot fill it: the fault alone, not a storm.
      {"prefix_cache_off", {R"({"kind":"prefix_cache_off"})"}, server_args({"--kv-cache-tokens", "1000000"}),
       prefix_load(), "scheduling_capacity", {"prefix_caching_off"}},
      {"kv_pool_shrink", {R"({"kind":"kv_pool_shrink","factor":0.95})"}, server_args({"--kv-cache-tokens", "200000"}),
       prefix_load(), "scheduling_capacity", {}},
      // Other clients' traffic: the server's prompt-length histogram counts requests the records do not hold.
      {"long_prompt_burst", {R"({"kind":"long_prompt_burst","rate_rps":3,"input_len":3500,"output_len":64})"},
       server_args({"--kv-cache-tokens", "200000"}), prefix_load(), "load", {"unrecorded_traffic"}},
      {"gateway_timeout", {R"({"kind":"gateway_timeout","timeout_s":0.005})"},
       server_args({"--kv-cache-tokens", "200000"}), prefix_load(), "gateway_client", {}},
      {"client_retries",
       {R"({"kind":"gateway_timeout","timeout_s":0.005})", R"({"kind":"client_retries","max_retries":3})"},
       server_args({"--kv-cache-tokens", "200000"}), prefix_load(), "gateway_client", {}},
  };
  return c;
}

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.kind; }

class FaultDiagnosis : public ::testing::TestWithParam<FaultCase> {};

int bench(const ServeProcess& p, const std::vector<std::string>& load, const std::string& out_dir) {
  std::vector<std::string> a = {"bench", "--endpoint", p.url(), "--model", kModel, "--deadline", "120s",
                                "--request-timeout", "30s", "--scrape-interval", "1s", "--out", out_dir};
  a.insert(a.end(), load.begin(), load.end());
  std::string out;
  return run_binary(a, out);
}

}  // namespace

TEST_P(FaultDiagnosis, NamesTheInjectedFaultsLayerFirst) {
  const FaultCase& fc = GetParam();
  const fs::path dir = fs::temp_directory_path() / ("fault_diag_" + std::string(fc.kind) + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ServeProcess p(fc.server, /*defaults=*/false);
  ASSERT_TRUE(p.ok()) << p.startup_output();
  const std::string healthy = (dir / "healthy").string(), faulty = (dir / "fault").string();
  // 1 is a run the load generator itself flagged (CLIENT-BOUND on a busy host): still a run.
  const int hrc = bench(p, fc.load, healthy);
  ASSERT_TRUE((hrc == 0 || hrc == 1) && fs::exists(healthy + "/summary.json")) << "healthy bench exit " << hrc;
  net::Client c;
  for (const auto& body : fc.faults) ASSERT_EQ(post_json(c, p.url() + "/admin/fault", body).status, 200) << body;
  const int rc = bench(p, fc.load, faulty);
  // 2: nothing completed (every request cut by the gateway) -- the folder is still written.
  ASSERT_TRUE(rc >= 0 && rc <= 2 && fs::exists(faulty + "/summary.json")) << "fault bench exit " << rc;
  std::string out;
  const int drc = run_binary({"diagnose", "--bench", faulty, "--baseline-bench", healthy, "--no-what-if", "--json"}, out);
  EXPECT_EQ(drc, 1) << out.substr(0, 2000);
  auto j = json::parse(out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << out.substr(0, 2000);
  ASSERT_TRUE(j.contains("findings") && !j["findings"].empty()) << out.substr(0, 3000);
  const auto& first = j["findings"][0];
  EXPECT_EQ(first.value("layer", ""), fc.layer) << fc.kind << ": first finding " << first.value("id", "") << "\n"
                                                << out.substr(0, 4000);
  if (!fc.causes.empty())
    EXPECT_TRUE(fc.causes.count(first.value("id", ""))) << fc.kind << ": first finding " << first.value("id", "");
  p.stop();
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, FaultDiagnosis, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return std::string(info.param.kind); });

TEST(FaultDiagnosis, CoversEveryKindSimServeAccepts) {
  // The list above against the server's own: a kind added to sim serve must be added here.
  std::set<std::string> tested;
  for (const auto& c : cases()) tested.insert(c.kind);
  ServeProcess p({"--admin"});
  ASSERT_TRUE(p.ok()) << p.startup_output();
  net::Client c;
  auto r = post_json(c, p.url() + "/admin/fault", R"({"kind":"no_such_fault"})");
  EXPECT_EQ(r.status, 400);
  for (const char* k : {"clock_throttle", "slow_replica", "no_affinity", "prefix_cache_off", "kv_pool_shrink",
                        "long_prompt_burst", "client_retries", "gateway_timeout"}) {
    EXPECT_NE(r.body.find(k), std::string::npos) << k << " missing from the server's list: " << r.body;
    EXPECT_TRUE(tested.count(k)) << k;
  }
}

}  // namespace llmtriage::serve_test
