#pragma once
// Starts a real Prometheus (Debian package `prometheus`) on 127.0.0.1 with a free port, a temp
// data dir and the given config (scrape_configs, rule_files...), and stops it with SIGTERM.
// Tests reach it over its HTTP API only.
#include <string>
#include <utility>
#include <vector>

namespace llmtriage::test_support {

// A free TCP port on 127.0.0.1 (bound, read, closed: racy in principle, fine on a test host).
int free_port();
// Percent-encodes a query parameter value (PromQL, selectors).
std::string url_encode(const std::string& s);
// Whole file as a string ("" when missing).
std::string read_file(const std::string& path);
// A blocking `GET path HTTP/1.0` to 127.0.0.1:port over a plain socket: true when it answers
// 200 (the helpers must not depend on src/net). Readiness probes of the peers tests start.
bool http_get_ok(int port, const std::string& path);
// Whether `prometheus` and `promtool` are on PATH.
bool prometheus_installed();

class PrometheusProcess {
 public:
  // `config_yaml` is written to <dir>/prometheus.yml; `files` (name, content) are written next to
  // it (rule files). Waits (up to 60 s) until /-/ready answers.
  explicit PrometheusProcess(const std::string& config_yaml,
                             const std::vector<std::pair<std::string, std::string>>& files = {});
  ~PrometheusProcess();
  PrometheusProcess(const PrometheusProcess&) = delete;
  PrometheusProcess& operator=(const PrometheusProcess&) = delete;

  bool ok() const { return ready_; }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::string& dir() const { return dir_; }
  std::string log() const;  // its stdout+stderr so far
  void stop();

 private:
  int pid_ = -1;
  int port_ = 0;
  bool ready_ = false;
  std::string dir_;
};

}  // namespace llmtriage::test_support
