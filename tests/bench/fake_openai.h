#pragma once
// A scripted OpenAI-compatible peer on net's server for the load generator's loopback tests. The
// request's "model" picks the behaviour: "ok" streams max_tokens one-token chunks (with per-chunk
// usage unless "ok-nousage"), "ok-multi" streams 3 tokens per chunk, "ok-llamacpp" streams as
// llama-server does (no per-chunk usage; a last chunk with choices, usage and "timings"), "429"/"503" refuse, "reset"
// cuts the stream after two chunks, "malformed" sends a chunk that is not JSON, "stall" sends one
// chunk and then nothing.
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/server.h"

namespace llmtriage::bench::testing {

struct SeenRequest {
  std::string model;
  size_t prompt_ids = 0;
  int64_t max_tokens = 0, min_tokens = 0;
  bool ignore_eos = false;
  std::string authorization;
  std::string request_id;  // X-Request-Id
};

class FakeOpenAi {
 public:
  explicit FakeOpenAi(int token_gap_ms = 1);
  ~FakeOpenAi();
  std::string base_url() const { return server_.base_url(); }
  std::vector<SeenRequest> seen() const;
  int metrics_scrapes() const { return scrapes_.load(); }

 private:
  net::Server server_;
  mutable std::mutex mu_;
  std::vector<SeenRequest> seen_;
  std::vector<std::shared_ptr<net::ResponseWriter>> held_;  // stalled streams, kept open
  std::atomic<int> scrapes_{0};
  int gap_ms_;
};

}  // namespace llmtriage::bench::testing
