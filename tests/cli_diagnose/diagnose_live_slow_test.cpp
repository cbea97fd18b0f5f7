// `llmtriage diagnose --endpoint`, end to end on loopback: the real `llmtriage sim serve` binary
// (a free port, its URL read from stdout) under load from the real `llmtriage bench` binary, then
// the real `llmtriage diagnose` binary scraping it live. Checks what an on-call engineer relies
// on: the located cause of a saturated KV pool, the snapshot kept on disk and readable, the log
// read beside the metrics, and a dead endpoint reported without losing the rest.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "collect/snapshot.h"
#include "net/fetch.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kModel = "meta-llama/Llama-3.1-8B-Instruct";

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("llmtriage_diag_live_" + std::to_string(::getpid()) + "_" + name);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A child running the llmtriage binary; stdout to a pipe (read_url) or a file; killed at the end.
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& out_file = {}) {
    int p[2] = {-1, -1};
    if (out_file.empty() && pipe(p) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      if (out_file.empty()) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
      } else {
        int fd = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        close(fd);
      }
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 2);
      std::vector<std::string> copy = args;
      std::string bin = LLMTRIAGE_BINARY;
      std::vector<char*> argv{bin.data()};
      for (auto& a : copy) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(bin.c_str(), argv.data());
      _exit(127);
    }
    if (out_file.empty()) {
      close(p[1]);
      fd_ = p[0];
    }
  }
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGTERM);
      wait();
    }
    if (fd_ >= 0) close(fd_);
  }
  // "listening on URL" from sim serve's stdout; "" after 60 s.
  std::string read_url() {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd pfd{fd_, POLLIN, 0};
      if (poll(&pfd, 1, 200) <= 0) continue;
      char buf[512];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
      const auto at = out.find("listening on ");
      if (at != std::string::npos && out.find('\n', at) != std::string::npos)
        return out.substr(at + 13, out.find('\n', at) - at - 13);
    }
    return "";
  }
  int wait() {
    int st = 0;
    if (pid_ <= 0 || reaped_) return -1;
    waitpid(pid_, &st, 0);
    reaped_ = true;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }

 private:
  int pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
};

struct Diagnosis {
  int code = -1;
  json j;
  std::string out;
};

Diagnosis diagnose(const std::vector<std::string>& args) {
  static int n = 0;
  const fs::path out = temp_path("diag" + std::to_string(n++) + ".json");
  std::vector<std::string> full = {"diagnose"};
  full.insert(full.end(), args.begin(), args.end());
  Child c(full, out);
  Diagnosis d;
  d.code = c.wait();
  d.out = slurp(out);
  d.j = json::parse(d.out, nullptr, false);
  fs::remove(out);
  return d;
}

// Polls /metrics (bounded) until the server reports a deep queue (20 waiting), so that the
// whole diagnosis window sees it.
bool wait_for_queue(const std::string& url) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    llmtriage::net::Request req;
    req.url = url + "/metrics";
    auto r = llmtriage::net::fetch(req);
    if (r) {
      std::istringstream in(r->body);
      std::string line;
      while (std::getline(in, line))
        if (line.rfind("vllm:num_requests_waiting{", 0) == 0 && std::stod(line.substr(line.rfind(' ') + 1)) >= 20)
          return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

const json* input_of(const json& j, const std::string& kind) {
  for (const auto& i : j["inputs"])
    if (i["kind"] == kind) return &i;
  return nullptr;
}

}  // namespace

TEST(DiagnoseLive, SaturatedKvPoolIsLocatedAndTheSnapshotKept) {
  const fs::path log = temp_path("serve.log");
  // A KV pool of 30k tokens against 3000-token prompts at 40 req/s: the queue must grow.
  Child serve({"sim", "serve", "--port", "0", "--model", kModel, "--gpu", "H100", "--kv-cache-tokens", "30000",
               "--time-scale", "5", "--log-file", log.string()});
  const std::string url = serve.read_url();
  ASSERT_FALSE(url.empty());
  Child load({"bench", "--endpoint", url, "--model", kModel, "--dataset", "random", "--input-len", "3000",
              "--output-len", "128", "--num-requests", "400", "--rate", "40", "--deadline", "40"},
             temp_path("bench.out"));
  ASSERT_TRUE(wait_for_queue(url)) << "the load never built a queue";

  const fs::path snap = temp_path("kept.json");
  Diagnosis d = diagnose({"--endpoint", url, "--window", "3s", "--interval", "1s", "--no-local-gpu", "--keep-snapshot",
                          snap.string(), "--log", log.string(), "--model", kModel, "--gpu", "H100-SXM", "--json"});
  ASSERT_FALSE(d.j.is_discarded()) << d.out;
  EXPECT_EQ(d.code, 1) << d.out;
  ASSERT_FALSE(d.j["findings"].empty()) << d.out;
  // The pool is too small: requests queue for blocks, and the engine preempts to make room. Which
  // of the two the rules rank first depends on how the window falls (KV usage swings as
  // preemptions free blocks); both locate the fault in the scheduling/capacity layer.
  const json& top = d.j["findings"][0];
  EXPECT_EQ(top["layer"], "scheduling_capacity") << d.j["findings"].dump(1);
  EXPECT_TRUE(top["id"] == "kv_pool_saturated" || top["id"] == "preemption_storm") << d.j["findings"].dump(1);
  EXPECT_NE(top["severity"], "info");
  // Live and severe: the first remedy keeps the snapshot it names.
  ASSERT_FALSE(top["remedies"].empty());
  EXPECT_EQ(top["remedies"][0]["change"], "capture before restart");
  EXPECT_NE(top["remedies"][0]["to"].get<std::string>().find(snap.string()), std::string::npos);

  EXPECT_EQ(d.j["snapshot_path"], fs::absolute(snap).string());
  auto kept = llmtriage::collect::read_snapshot(snap.string());
  ASSERT_TRUE(kept.ok()) << kept.error().message();
  size_t ok = 0;
  for (const auto& s : kept->scrapes) ok += s.ok;
  EXPECT_EQ(ok, 4u);
  const json* ep = input_of(d.j, "endpoint");
  ASSERT_TRUE(ep);
  EXPECT_TRUE((*ep)["ok"].get<bool>());
  EXPECT_EQ((*ep)["note"], "4 of 4 scrape(s) ok over 3 s");
  const json* lg = input_of(d.j, "log");
  ASSERT_TRUE(lg);
  EXPECT_TRUE((*lg)["ok"].get<bool>()) << (*lg)["note"];
  fs::remove(snap);
  fs::remove(log);
  fs::remove(temp_path("bench.out"));
}

TEST(DiagnoseLive, DeadEndpointIsReportedAndTheRestIsDiagnosed) {
  // A port that was free a moment ago: nothing listens there.
  std::string url;
  {
    Child serve({"sim", "serve", "--port", "0", "--model", kModel, "--gpu", "H100"});
    url = serve.read_url();
  }
  ASSERT_FALSE(url.empty());
  const fs::path snap = temp_path("dead.json");
  Diagnosis d = diagnose({"--endpoint", url, "--window", "1s", "--interval", "1s", "--no-local-gpu", "--keep-snapshot",
                          snap.string(), "--observe", "waiting=30", "--observe", "kv_usage=0.97", "--observe",
                          "running=20", "--symptom", "ttft_spike", "--json"});
  ASSERT_FALSE(d.j.is_discarded()) << d.out;
  const json* ep = input_of(d.j, "endpoint");
  ASSERT_TRUE(ep);
  EXPECT_FALSE((*ep)["ok"].get<bool>());
  EXPECT_NE((*ep)["note"].get<std::string>().find("no scrape succeeded"), std::string::npos);
  // The readings still locate the cause; the failed capture is kept for the record.
  ASSERT_FALSE(d.j["findings"].empty());
  EXPECT_EQ(d.j["findings"][0]["layer"], "scheduling_capacity");
  EXPECT_EQ(d.code, 1);
  EXPECT_TRUE(fs::exists(snap));
  fs::remove(snap);

  // Nothing else given: no evidence at all is an input error (2), and the snapshot is still kept.
  d = diagnose({"--endpoint", url, "--window", "0s", "--no-local-gpu", "--keep-snapshot", snap.string()});
  EXPECT_EQ(d.code, 2);
  EXPECT_TRUE(d.out.empty());
  EXPECT_TRUE(fs::exists(snap));
  fs::remove(snap);
}
