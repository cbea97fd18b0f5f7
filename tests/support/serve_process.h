#pragma once
// Starts the real `llmtriage sim serve` binary on 127.0.0.1 with a free port (--port 0, URL read
// from its stdout) and stops it with SIGTERM. Black-box: tests talk to it over HTTP only.
#include <string>
#include <vector>

#include "net/client.h"
#include "net/http.h"

namespace llmtriage::serve_test {

class ServeProcess {
 public:
  // Extra args after `sim serve`. A default small, fast deployment is prepended unless
  // `defaults` is false. Waits (up to 60 s) for the URL line.
  explicit ServeProcess(std::vector<std::string> args, bool defaults = true);
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  bool ok() const { return !url_.empty(); }
  const std::string& url() const { return url_; }
  int port() const { return port_; }
  const std::string& log_path() const { return log_path_; }
  std::string log() const;  // the log file so far
  int stop();               // SIGTERM, wait; the exit status (or -1)
  std::string startup_output() const { return out_; }

 private:
  int pid_ = -1;
  int out_fd_ = -1;
  std::string url_, out_, log_path_;
  int port_ = 0;
};

// Runs the binary to completion; returns the exit status, stdout in `out`.
int run_binary(const std::vector<std::string>& args, std::string& out);

net::Response post_json(net::Client& c, const std::string& url, const std::string& body);
net::Response get(net::Client& c, const std::string& url);

// A streamed request: every SSE data payload in order, plus the outcome.
struct Streamed {
  int status = 0;
  std::vector<std::string> data;
  net::Failure failure = net::Failure::none;
  std::string body;  // non-SSE responses
};
Streamed stream_json(net::Client& c, const std::string& url, const std::string& body);

}  // namespace llmtriage::serve_test
