#include "support/llama_server_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "support/prometheus_process.h"  // free_port, read_file, http_get_ok

namespace llmtriage::test_support {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

std::string llama_peer_missing() {
  const std::string server = env("LLMTRIAGE_LLAMA_SERVER"), model = env("LLMTRIAGE_LLAMA_MODEL");
  if (server.empty() || model.empty()) return "LLMTRIAGE_LLAMA_SERVER / LLMTRIAGE_LLAMA_MODEL unset: no real llama.cpp engine to test against";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(server, ec)) return "LLMTRIAGE_LLAMA_SERVER=" + server + " is not a file";
  if (!std::filesystem::is_regular_file(model, ec)) return "LLMTRIAGE_LLAMA_MODEL=" + model + " is not a file";
  return "";
}

LlamaServerProcess::LlamaServerProcess(std::vector<std::string> args) {
  if (!llama_peer_missing().empty()) return;
  char tmpl[] = "/tmp/llmtriage-llama-XXXXXX";
  if (!mkdtemp(tmpl)) return;
  log_path_ = std::string(tmpl) + "/llama-server.log";
  port_ = free_port();
  std::vector<std::string> argv = {env("LLMTRIAGE_LLAMA_SERVER"), "-m", env("LLMTRIAGE_LLAMA_MODEL"), "--host",
                                   "127.0.0.1", "--port", std::to_string(port_)};
  argv.insert(argv.end(), args.begin(), args.end());
  pid_ = fork();
  if (pid_ == 0) {
    if (!std::freopen(log_path_.c_str(), "w", stdout) || !std::freopen(log_path_.c_str(), "a", stderr)) _exit(126);
    std::vector<char*> a;
    for (auto& s : argv) a.push_back(s.data());
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
  }
  if (pid_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (http_get_ok(port_, "/health")) {
      ready_ = true;
      break;
    }
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {  // exited: bad flag, port taken
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string LlamaServerProcess::log() const { return read_file(log_path_); }

// SIGTERM, then SIGKILL after 10 s: llama-server's graceful shutdown can hang on connections a
// cut-off client left half-closed (seen in CI: waitpid blocked for 15 min), and a test never waits
// on a peer forever.
void LlamaServerProcess::stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

LlamaServerProcess::~LlamaServerProcess() {
  stop();
  std::error_code ec;
  if (!log_path_.empty()) std::filesystem::remove_all(std::filesystem::path(log_path_).parent_path(), ec);
}

}  // namespace llmtriage::test_support
