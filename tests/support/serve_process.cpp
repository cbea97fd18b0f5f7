#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>

#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

std::vector<std::string> default_args() {
  // A small, fast deployment: 8B on H100, fixed KV pool, fast virtual clock.
  return {"--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100", "--kv-cache-tokens", "200000",
          "--max-model-len", "4096", "--time-scale", "20"};
}

int spawn(const std::vector<std::string>& args, int& out_fd) {
  int p[2];
  if (pipe(p) != 0) return -1;
  const int pid = fork();
  if (pid == 0) {
    dup2(p[1], 1);
    close(p[0]);
    close(p[1]);
    std::vector<char*> argv;
    std::string bin = LLMTRIAGE_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  close(p[1]);
  out_fd = p[0];
  return pid;
}

}  // namespace

ServeProcess::ServeProcess(std::vector<std::string> args, bool defaults) {
  char tmpl[] = "/tmp/llmtriage-serve-log-XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd >= 0) close(fd);
  log_path_ = tmpl;
  std::vector<std::string> full = {"sim", "serve", "--port", "0", "--log-file", log_path_};
  if (defaults)
    for (auto& a : default_args()) full.push_back(a);
  for (auto& a : args) full.push_back(a);
  pid_ = spawn(full, out_fd_);
  if (pid_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{out_fd_, POLLIN, 0};
    if (poll(&pfd, 1, 200) <= 0) continue;
    char buf[512];
    const ssize_t n = read(out_fd_, buf, sizeof buf);
    if (n <= 0) break;
    out_.append(buf, static_cast<size_t>(n));
    const auto at = out_.find("listening on ");
    if (at != std::string::npos && out_.find('\n', at) != std::string::npos) {
      url_ = out_.substr(at + 13, out_.find('\n', at) - at - 13);
      port_ = std::stoi(url_.substr(url_.rfind(':') + 1));
      break;
    }
  }
}

ServeProcess::~ServeProcess() {
  stop();
  if (!log_path_.empty()) unlink(log_path_.c_str());
}

std::string ServeProcess::log() const {
  std::ifstream f(log_path_);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

int ServeProcess::stop() {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  if (out_fd_ >= 0) close(out_fd_);
  out_fd_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_binary(const std::vector<std::string>& args, std::string& out) {
  int fd = -1;
  const int pid = spawn(args, fd);
  if (pid < 0) return -1;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fd);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

net::Response post_json(net::Client& c, const std::string& url, const std::string& body) {
  net::Request r;
  r.method = net::Method::post;
  r.url = url;
  r.body = body;
  auto res = c.fetch(r);
  if (!res.ok()) return net::Response{};
  return *res;
}

net::Response get(net::Client& c, const std::string& url) {
  net::Request r;
  r.url = url;
  auto res = c.fetch(r);
  if (!res.ok()) return net::Response{};
  return *res;
}

Streamed stream_json(net::Client& c, const std::string& url, const std::string& body) {
  net::Request r;
  r.method = net::Method::post;
  r.url = url;
  r.body = body;
  auto out = std::make_shared<Streamed>();
  std::promise<void> done;
  net::StreamHandlers h;
  h.on_head = [out](const net::ResponseHead& head) { out->status = head.status; };
  h.on_event = [out](const net::SseEvent& e, net::SteadyClock::time_point) { out->data.push_back(std::string(e.data)); };
  h.on_done = [out, &done](const net::Outcome& o) {
    out->failure = o.failure;
    out->body = o.body;  // an error status's document (the client does not parse it as SSE)
    if (!out->status) out->status = o.status;
    done.set_value();
  };
  c.start(r, h);
  done.get_future().wait();
  return *out;
}

}  // namespace llmtriage::serve_test
