#pragma once
// Starts the real llama.cpp `llama-server` (the test peer) on 127.0.0.1 with a free port and stops
// it with SIGTERM. Its paths come from LLMTRIAGE_LLAMA_SERVER and LLMTRIAGE_LLAMA_MODEL only;
// tests call peer_missing() first and skip with its one-line reason when it is not empty.
#include <string>
#include <vector>

namespace llmtriage::test_support {

// "" when both variables name existing files; else why the real-engine tests skip.
std::string llama_peer_missing();

class LlamaServerProcess {
 public:
  // Extra llama-server arguments after `-m MODEL --host 127.0.0.1 --port P` (e.g. -np 4 -c 8192
  // --metrics). Waits (up to 60 s) until GET /health answers 200.
  explicit LlamaServerProcess(std::vector<std::string> args);
  ~LlamaServerProcess();
  LlamaServerProcess(const LlamaServerProcess&) = delete;
  LlamaServerProcess& operator=(const LlamaServerProcess&) = delete;

  bool ok() const { return ready_; }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string log() const;  // its stdout+stderr so far
  void stop();

 private:
  int pid_ = -1;
  int port_ = 0;
  bool ready_ = false;
  std::string log_path_;
};

}  // namespace llmtriage::test_support
