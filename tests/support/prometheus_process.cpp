#include "support/prometheus_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace llmtriage::test_support {

int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

std::string url_encode(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      o += static_cast<char>(c);
    } else {
      char b[4];
      std::snprintf(b, sizeof b, "%%%02X", c);
      o += b;
    }
  }
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool prometheus_installed() {
  return std::system("prometheus --version > /dev/null 2>&1") == 0 && std::system("promtool --version > /dev/null 2>&1") == 0;
}

bool http_get_ok(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  bool ok = false;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    const std::string req = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size())) {
      char buf[64] = {};
      const ssize_t n = read(fd, buf, sizeof buf - 1);
      ok = n > 12 && std::string(buf, static_cast<size_t>(n)).find(" 200 ") != std::string::npos;
    }
  }
  close(fd);
  return ok;
}

PrometheusProcess::PrometheusProcess(const std::string& config_yaml,
                                     const std::vector<std::pair<std::string, std::string>>& files) {
  namespace fs = std::filesystem;
  char tmpl[] = "/tmp/llmtriage-prom-XXXXXX";
  if (!mkdtemp(tmpl)) return;
  dir_ = tmpl;
  std::ofstream(fs::path(dir_) / "prometheus.yml") << config_yaml;
  for (const auto& [name, content] : files) std::ofstream(fs::path(dir_) / name) << content;
  port_ = free_port();
  pid_ = fork();
  if (pid_ == 0) {
    const std::string log = (fs::path(dir_) / "prometheus.log").string();
    if (!std::freopen(log.c_str(), "w", stdout) || !std::freopen(log.c_str(), "a", stderr)) _exit(126);
    const std::string cfg = "--config.file=" + (fs::path(dir_) / "prometheus.yml").string();
    const std::string data = "--storage.tsdb.path=" + (fs::path(dir_) / "data").string();
    const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(port_);
    execlp("prometheus", "prometheus", cfg.c_str(), data.c_str(), listen.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (http_get_ok(port_, "/-/ready")) {
      ready_ = true;
      break;
    }
    int st = 0;
    if (waitpid(pid_, &st, WNOHANG) == pid_) {  // exited: bad config, port taken
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

std::string PrometheusProcess::log() const { return read_file(dir_ + "/prometheus.log"); }

void PrometheusProcess::stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

PrometheusProcess::~PrometheusProcess() {
  stop();
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

}  // namespace llmtriage::test_support
