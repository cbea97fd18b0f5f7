// `llmtriage bench` against `llmtriage sim serve` on loopback: exact counts and lengths end to end
// (token-id prompts, ignore_eos + min_tokens, per-chunk usage), /metrics stored with the results
// and the engine config read from it. No timing assertions.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/files.h"
#include "ingest/records.h"
#include "support/shell_run.h"

namespace {

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

std::string run(const std::string& args, int* code) {
  auto ran = llmtriage::shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " " + args + " 2>&1");
  *code = ran.code;
  return std::move(ran.out);
}

struct SimServe {
  pid_t pid = -1;
  int port = 0;
  explicit SimServe(const std::string& records = "") {
    port = free_port();
    pid = fork();
    if (pid == 0) {
      const std::string p = std::to_string(port);
      if (records.empty())
        execl(LLMTRIAGE_BINARY, LLMTRIAGE_BINARY, "sim", "serve", "--port", p.c_str(), static_cast<char*>(nullptr));
      else
        execl(LLMTRIAGE_BINARY, LLMTRIAGE_BINARY, "sim", "serve", "--port", p.c_str(), "--records", records.c_str(),
              static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100; ++i) {  // wait for /health
      int code = 0;
      auto r = run("bench --endpoint http://127.0.0.1:" + std::to_string(port) +
                       " --model x --num-requests 1 --concurrency 1 --scrape-interval 0 --request-timeout 1 --json",
                   &code);
      if (r.find("connect_refused") == std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ~SimServe() { stop(); }
  void stop() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
      pid = -1;
    }
  }
};

}  // namespace

TEST(BenchVsSimServe, ExactCountsLengthsAndMetrics) {
  SimServe s;
  const auto dir = (std::filesystem::path(::testing::TempDir()) / "bench_vs_sim").string();
  std::filesystem::remove_all(dir);
  int code = -1;
  auto out = run("bench --endpoint http://127.0.0.1:" + std::to_string(s.port) +
                     " --model meta-llama/Llama-3.1-8B-Instruct --input-len 64 --output-len 12 --num-requests 16 "
                     "--rate 20 --seed 2 --scrape-interval 0.2 --slo e2e=30s --out " + dir + " --json",
                 &code);
  ASSERT_TRUE(code == 0 || code == 1) << out;  // 1 only when this busy machine made the run client-bound
  auto j = nlohmann::json::parse(out.substr(out.find('{')), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << out;
  EXPECT_EQ(j["completed"], 16);
  EXPECT_EQ(j["failed"], 0);
  EXPECT_EQ(j["output_tokens"], 16 * 12);
  EXPECT_EQ(j["input_tokens"], 16 * 64);  // the server's usage.prompt_tokens of token-id prompts
  EXPECT_EQ(j["output_len_mismatch"], 0);
  EXPECT_EQ(j["token_count_disagreements"]["count"], 0);
  EXPECT_EQ(j["itl_ms"]["count"], 16 * 11);
  EXPECT_EQ(j["goodput"]["good"], 16);
  EXPECT_TRUE(j["config"].contains("cache.block_size"));
  auto rd = llmtriage::ingest::read_records_file(dir + "/records.jsonl");
  ASSERT_TRUE(rd.ok());
  EXPECT_EQ(rd->records.size(), 16u);
  EXPECT_EQ(rd->records_bad, 0);
  auto metrics = llmtriage::core::read_file(dir + "/metrics.jsonl");
  ASSERT_TRUE(metrics.ok());
  EXPECT_NE(metrics->find("\"phase\":\"before\""), std::string::npos);
  EXPECT_NE(metrics->find("\"phase\":\"after\""), std::string::npos);
  EXPECT_NE(metrics->find("vllm:num_requests_running"), std::string::npos);
}

// The client's records and the server's (--records) join exactly on the X-Request-Id the load
// generator sends: same ids, same token counts on both sides.
TEST(BenchVsSimServe, ClientAndServerRecordsJoinOnRequestId) {
  const auto dir = (std::filesystem::path(::testing::TempDir()) / "bench_vs_sim_join").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  SimServe s(dir + "/server.jsonl");
  int code = -1;
  auto out = run("bench --endpoint http://127.0.0.1:" + std::to_string(s.port) +
                     " --model meta-llama/Llama-3.1-8B-Instruct --input-len 16 --output-len 6 --num-requests 24 "
                     "--concurrency 6 --seed 3 --scrape-interval 0 --out " + dir + "/client --json",
                 &code);
  ASSERT_TRUE(code == 0 || code == 1) << out;
  s.stop();  // SIGTERM flushes the server's records
  auto summary = nlohmann::json::parse(out.substr(out.find('{')), nullptr, false);
  ASSERT_FALSE(summary.is_discarded()) << out;
  const std::string tag = summary["run"].value("run_tag", "");
  ASSERT_FALSE(tag.empty()) << out;
  auto client = llmtriage::ingest::read_records_file(dir + "/client/records.jsonl");
  auto server = llmtriage::ingest::read_records_file(dir + "/server.jsonl");
  ASSERT_TRUE(client.ok() && server.ok());
  EXPECT_EQ(server->records_bad, 0);
  ASSERT_EQ(client->records.size(), 24u);
  std::map<std::string, llmtriage::core::RequestRecord> by_id;
  for (const auto& r : server->records) by_id[r.id] = r;
  EXPECT_EQ(by_id.size(), 24u);  // the readiness probes asked for another model: 404, no record
  for (const auto& c : client->records) {
    SCOPED_TRACE(c.id);
    EXPECT_EQ(c.id.rfind(tag + "-", 0), 0u);
    ASSERT_EQ(by_id.count(c.id), 1u);
    const auto& r = by_id[c.id];
    EXPECT_EQ(r.status, llmtriage::core::RequestStatus::ok);
    EXPECT_EQ(r.input_tokens, c.input_tokens);
    EXPECT_EQ(r.output_tokens, c.output_tokens);
    ASSERT_TRUE(r.ttft_s && r.e2e_s && c.ttft_s);
    EXPECT_LE(*r.ttft_s, *r.e2e_s);
  }
  std::filesystem::remove_all(dir);
}
