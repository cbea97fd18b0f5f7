#pragma once
// `sim serve`: the simulated engine behind an OpenAI-compatible HTTP API, as vLLM's OpenAI
// server exposes it (routes, request fields, error shapes, /metrics names). docs/serve.md.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "serve/loop.h"
#include "sim/simulation.h"

namespace llmtriage::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;
  int threads = 1;              // HTTP event loops (the engine runs on its own thread)
  LoopOptions loop;
  bool admin = false;           // POST /admin/fault (loopback clients only)
  int64_t max_waiting = 0;      // > 0: shed new requests while this many wait
  int shed_status = 503;        // 503 or 429
  size_t max_body_bytes = 4u << 20;
  bool access_log = true;       // uvicorn-style lines through the log sink
  std::string engine_version = "0.11.0";  // the vLLM release whose API and metrics are imitated
};

class SimServer {
 public:
  SimServer(const sim::SimConfig& cfg, ServeOptions opt, LogFn log);
  ~SimServer();
  core::Status start();
  uint16_t port() const;
  std::string base_url() const;
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True for 127.0.0.0/8 and ::1 peers ("127.0.0.1:5000", "[::1]:5000").
bool is_loopback_peer(const std::string& remote);

}  // namespace llmtriage::serve
