// The built binary against the scripted peer: `bench` (JSON keys, --out files read back by the
// request-record reader, seed reproducibility of the request-set hash, the API key never printed),
// `ab` on two of its result folders, `capacity` on a tiny search.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "bench/export.h"
#include "core/files.h"
#include "fake_openai.h"
#include "ingest/records.h"
#include "support/shell_run.h"

using namespace llmtriage;

namespace {
using Fake = llmtriage::bench::testing::FakeOpenAi;

using Ran = shell_test::ShellRun;

Ran run(const std::string& args) { return shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " " + args + " 2>&1"); }

std::string tmpdir(const std::string& name) {
  auto d = std::filesystem::path(::testing::TempDir()) / ("bench_cli_" + name);
  std::filesystem::remove_all(d);
  return d.string();
}
}  // namespace

TEST(BenchCli, JsonSummaryAndResultFolder) {
  Fake srv;
  const auto dir = tmpdir("run1");
  const auto key = tmpdir("key");
  ASSERT_TRUE(core::write_file_atomic(key, "sk-very-secret-123\n").ok());
  auto r = run("bench --endpoint " + srv.base_url() + " --model ok --input-len 16 --output-len 4 --num-requests 12 "
               "--rate 200 --seed 3 --warmup 2 --slo ttft=5s,tpot=1s --scrape-interval 0.05 --api-key-file " + key +
               " --config max_num_seqs=256 --out " + dir + " --json");
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.out;  // 1 only if this busy machine made the run client-bound
  EXPECT_EQ(r.out.find("sk-very-secret"), std::string::npos);
  auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const char* k : {"completed", "failed", "request_set_hash", "target_rate", "realized_rate", "client_bound", "ttft_ms",
                        "tpot_ms", "itl_ms", "e2e_ms", "output_throughput", "goodput"})
    EXPECT_TRUE(j.contains(k)) << k;
  for (const char* k : {"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"})
    for (const char* s : {"mean", "median", "p90", "p99"}) EXPECT_TRUE(j[k].contains(s)) << k << "." << s;
  EXPECT_EQ(j["completed"], 10);
  EXPECT_EQ(j["warmup"], 2);
  EXPECT_EQ(j["output_tokens"], 40);
  EXPECT_EQ(j["goodput"]["good"], 10);
  EXPECT_EQ(j["target_rate"], 200);
  EXPECT_EQ(j["config"]["max_num_seqs"], "256");
  for (const char* f : {"summary.json", "records.jsonl", "metrics.jsonl", "report.txt", "requests.jsonl"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  // The raw records are the shared schema: the request-record reader takes every line.
  auto rd = ingest::read_records_file(dir + "/records.jsonl");
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ(rd->format, ingest::RecordFormat::llmtriage);
  EXPECT_EQ(rd->records.size(), 12u);
  EXPECT_EQ(rd->records_bad, 0);
  EXPECT_TRUE(rd->issues.empty()) << rd->issues[0].kind << " " << rd->issues[0].detail;
  EXPECT_TRUE(rd->records[5].ttft_s.has_value());
  EXPECT_EQ(rd->records[5].chunk_times_s.size(), 4u);
  // Nothing secret in what was written.
  for (const char* f : {"summary.json", "records.jsonl", "metrics.jsonl", "report.txt"})
    EXPECT_EQ(core::read_file(dir + "/" + f)->find("sk-very-secret"), std::string::npos) << f;
  EXPECT_EQ(srv.seen().front().authorization, "Bearer sk-very-secret-123");

  // Same seed, same hash; --requests replays the frozen set with the same hash.
  auto again = run("bench --endpoint " + srv.base_url() + " --model ok --input-len 16 --output-len 4 --num-requests 12 "
                   "--rate 200 --seed 3 --scrape-interval 0 --json");
  auto j2 = nlohmann::json::parse(again.out.substr(again.out.find('{')), nullptr, false);
  EXPECT_EQ(j2["request_set_hash"], j["request_set_hash"]);
  EXPECT_EQ(j2["schedule_hash"], j["schedule_hash"]);
  auto frozen = run("bench --endpoint " + srv.base_url() + " --model ok --requests " + dir +
                    "/requests.jsonl --rate 200 --scrape-interval 0 --json");
  auto j3 = nlohmann::json::parse(frozen.out.substr(frozen.out.find('{')), nullptr, false);
  EXPECT_EQ(j3["request_set_hash"], j["request_set_hash"]);
  auto other = run("bench --endpoint " + srv.base_url() + " --model ok --input-len 16 --output-len 4 --num-requests 12 "
                   "--rate 200 --seed 4 --scrape-interval 0 --json");
  auto j4 = nlohmann::json::parse(other.out.substr(other.out.find('{')), nullptr, false);
  EXPECT_NE(j4["request_set_hash"], j["request_set_hash"]);
}

TEST(BenchCli, UsageErrorsAndFailures) {
  auto r = run("bench --endpoint ftp://x --model m");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("--endpoint"), std::string::npos);
  r = run("bench --endpoint http://127.0.0.1:1 --model m --rate 1 --concurrency 2");
  EXPECT_EQ(r.code, 2);
  Fake srv;
  r = run("bench --endpoint " + srv.base_url() + " --model 503 --num-requests 3 --concurrency 1 --scrape-interval 0");
  EXPECT_EQ(r.code, 2) << r.out;  // nothing completed
  EXPECT_NE(r.out.find("http_503"), std::string::npos) << r.out;
  // With --json the failed run is one document: the summary, and the error's fields beside it.
  r = shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " bench --endpoint " + srv.base_url() +
                            " --model 503 --num-requests 3 --concurrency 1 --scrape-interval 0 --json 2>/dev/null");
  EXPECT_EQ(r.code, 2);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["exit_code"], 2);
  EXPECT_EQ(j["failed"], 3);
  EXPECT_NE(j["detail"].get<std::string>().find("http_503"), std::string::npos) << r.out;
  // A server that answers nothing before --deadline: a partial run (every request cut), not an
  // error; one document, exit 1, and a line that says nothing completed in time.
  r = shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " bench --endpoint " + srv.base_url() +
                            " --model stall --num-requests 6 --concurrency 2 --scrape-interval 0 --deadline 1 --json 2>&1 1>/dev/null");
  EXPECT_NE(r.out.find("no request completed within the deadline"), std::string::npos) << r.out;
  r = shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " bench --endpoint " + srv.base_url() +
                            " --model stall --num-requests 6 --concurrency 2 --scrape-interval 0 --deadline 1 --json 2>/dev/null");
  EXPECT_EQ(r.code, 1) << r.out;
  j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["partial"].get<bool>());
  EXPECT_EQ(j["completed"], 0);
  EXPECT_EQ(j["failed"], 0);
  EXPECT_FALSE(j.contains("error"));
}

TEST(BenchCli, AbRefusesDifferentSetsAndComparesEqualOnes) {
  Fake srv;
  const auto a = tmpdir("ab_a"), b = tmpdir("ab_b"), c = tmpdir("ab_c");
  const std::string common = "bench --endpoint " + srv.base_url() + " --model ok --input-len 8 --output-len 3 "
                             "--num-requests 40 --concurrency 4 --scrape-interval 0 ";
  ASSERT_LE(run(common + "--seed 1 --config max_num_seqs=256 --out " + a).code, 1);
  ASSERT_LE(run(common + "--seed 1 --config max_num_seqs=128 --out " + b).code, 1);
  ASSERT_LE(run(common + "--seed 2 --out " + c).code, 1);
  auto diff = run("ab " + a + " " + c + " --json");
  EXPECT_EQ(diff.code, 1);
  auto jd = nlohmann::json::parse(diff.out.substr(diff.out.find('{')), nullptr, false);
  EXPECT_FALSE(jd["verdict_given"].get<bool>());
  auto same = run("ab " + a + " " + b + " --json --seed 1");
  auto js = nlohmann::json::parse(same.out.substr(same.out.find('{')), nullptr, false);
  ASSERT_FALSE(js.is_discarded()) << same.out;
  EXPECT_TRUE(js["verdict_given"].get<bool>()) << same.out;
  EXPECT_EQ(js["config_diff"].size(), 1u);
  EXPECT_EQ(js["metrics"].size(), 8u);  // latencies, throughput and output_tokens_mean
}

TEST(BenchCli, CapacityFindsAConcurrency) {
  Fake srv;
  // Every request meets a generous SLO: the search doubles from 1 and stops at --max-points.
  auto r = run("capacity --endpoint " + srv.base_url() + " --model ok --input-len 8 --output-len 2 --num-requests 8 "
               "--by concurrency --start 1 --trials 1 --max-points 3 --slo e2e=10s --scrape-interval 0 --json");
  auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["curve"].size(), 3u);
  EXPECT_EQ(j["capacity"], 4);
  auto noslo = run("capacity --endpoint " + srv.base_url() + " --model ok");
  EXPECT_EQ(noslo.code, 2);
}

TEST(BenchCli, CapacityAgainstNothingListeningEndsWithExit2AndSaysWhy) {
  // Halved the load 1 -> 0.5 -> 0.25 ... for hours, silently. Now: the first trial that completes
  // nothing ends the search.
  auto r = run("capacity --endpoint http://127.0.0.1:1 --model m --num-requests 5 --slo ttft=1s --scrape-interval 0");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("http://127.0.0.1:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("none of 5 completed at load 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("refused"), std::string::npos) << r.out;
  auto j = run("capacity --endpoint http://127.0.0.1:1 --model m --num-requests 5 --slo ttft=1s --scrape-interval 0 --json");
  EXPECT_EQ(j.code, 2);
  auto e = nlohmann::json::parse(j.out.substr(j.out.find('{')), nullptr, false);
  ASSERT_TRUE(e.is_object()) << j.out;
  EXPECT_EQ(e["exit_code"], 2);
}

TEST(BenchCli, CapacityNeverTriesMoreConcurrencyThanTheRequestsAndPrintsEveryTrial) {
  Fake srv;
  auto r = run("capacity --endpoint " + srv.base_url() + " --model ok --input-len 8 --output-len 2 --num-requests 6 "
               "--by concurrency --start 1 --trials 1 --max-points 8 --slo e2e=10s --scrape-interval 0 --json");
  auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const auto& p : j["curve"]) EXPECT_LE(p["load"].get<double>(), 6) << r.out;
  EXPECT_EQ(j["capacity"], 6);
  EXPECT_TRUE(j["at_max_load"].get<bool>());
  EXPECT_NE(j["notes"].dump().find("the most 6 requests per trial can exercise"), std::string::npos) << j["notes"];
  // stderr is not a terminal here: one line per trial, with an ETA.
  EXPECT_NE(r.out.find("capacity: load 1 concurrent requests, trial 1/1: attainment 100.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ETA <= "), std::string::npos) << r.out;
}

TEST(BenchCli, CapacitySaysWhenTheSloIsOutOfReachAndFailOnSloExits1) {
  Fake srv(5);  // 5 ms between tokens: TPOT ~5 ms at any load
  const std::string common = "--endpoint " + srv.base_url() + " --model ok --input-len 8 --output-len 4 --num-requests 3 "
                             "--scrape-interval 0 ";
  auto r = run("capacity " + common + "--by rate --start 1 --trials 1 --slo tpot=1ms");
  // An answer, not a failure, unless --fail-on-slo. A trial the host could not drive on time is
  // flagged CLIENT-BOUND and exits 1 by design (a loaded CI host): then the exit says that instead.
  if (r.out.find("CLIENT-BOUND") == std::string::npos) {
    EXPECT_EQ(r.code, 0) << r.out;
  } else {
    EXPECT_EQ(r.code, 1) << r.out;
  }
  EXPECT_NE(r.out.find("out of reach: TPOT floor"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("> SLO 1 ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("requests barely overlap"), std::string::npos) << r.out;
  auto f = run("capacity " + common + "--by rate --start 1 --trials 1 --slo tpot=1ms --fail-on-slo");
  EXPECT_EQ(f.code, 1) << f.out;
  auto b = run("bench " + common + "--concurrency 1 --slo tpot_p99_s=0.001 --fail-on-slo");
  EXPECT_EQ(b.code, 1) << b.out;
  EXPECT_NE(b.out.find("SLO not met: goodput attainment 0.0% < 99%"), std::string::npos) << b.out;
  EXPECT_EQ(run("bench " + common + "--concurrency 1 --fail-on-slo").code, 2);  // nothing to judge by
}

TEST(BenchCli, CapacityBudgetEndsTheSearchAndSaysSo) {
  Fake srv;
  // 40 requests at 1 req/s would take 40 s per trial; the whole search has 2 s.
  auto r = run("capacity --endpoint " + srv.base_url() + " --model ok --input-len 8 --output-len 2 --num-requests 40 "
               "--by rate --start 1 --trials 3 --slo e2e=10s --scrape-interval 0 --budget 2s --json");
  EXPECT_EQ(r.code, 1) << r.out;  // a partial answer
  auto j = nlohmann::json::parse(r.out.substr(r.out.find('{')), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_NE(j["stopped"].get<std::string>().find("the budget of 2s is spent (--budget)"), std::string::npos) << r.out;
  // The first trial's --deadline (1h) was cut to the budget: the few requests that ran before the
  // cut are no measurement of the load (their realised rate and goodput read low), so the trial is
  // no point of the curve, and the reason says which trial was cut.
  EXPECT_EQ(j["curve"].size(), 0u) << r.out;
  EXPECT_NE(j["stopped"].get<std::string>().find("during a trial at load 1 ("), std::string::npos) << r.out;
  EXPECT_NE(j["stopped"].get<std::string>().find("that trial is left out"), std::string::npos) << r.out;
}
