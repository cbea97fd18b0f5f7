#pragma once
// `sim serve --records FILE`: one `llmtriage.request.v1` JSONL line per finished, aborted or
// (at shutdown) unfinished request, the schema `records summary` reads (ingest/records.h).
// The engine thread fills a ServedRecord and lets go of it; the HTTP loop stamps when the first
// token's and the last bytes were handed to the socket; a background thread formats and appends
// the lines. The engine loop pays one allocation, two posts and a mutex per request, no I/O.
//
// Clocks (docs/serve.md, "Request records"): durations are steady-clock wall time, never virtual
// time; `arrival_s` is that instant on the Unix clock; `sim_ttft_s` is the simulator's own
// (virtual-time) TTFT, written only when --time-scale != 1, where the two differ.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"

namespace llmtriage::serve {

using SteadyTime = std::chrono::steady_clock::time_point;

struct ServedRecord {
  std::string id;           // the client's X-Request-Id, else the response id
  std::string response_id;  // "cmpl-..." / "chatcmpl-..." as the body says
  // Steady-clock instants; a default-constructed one is unset.
  SteadyTime received{};            // whole request received by the HTTP layer
  SteadyTime first_token_engine{};  // the engine thread queued the first token's bytes
  SteadyTime first_token_socket{};  // the HTTP loop handed them to the socket (streaming only)
  SteadyTime end_engine{};          // the engine thread finished the response / saw the abort
  SteadyTime end_socket{};          // the HTTP loop handed the last bytes to the socket
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  // "" = answered; "client_closed" (the client went away), "http_504", ...; a request still
  // running when the server stopped keeps "server_stopped".
  std::string error_category = "server_stopped";
  std::string finish_reason;  // first choice's: "length", "stop" ("" when not finished)
  std::string model;
  std::optional<int64_t> max_tokens;
  int n = 1;
  double temperature = 1, top_p = 1;
  bool ignore_eos = false;
  bool stream = false;
  std::optional<double> sim_ttft_s;  // virtual seconds (written when time_scale != 1)
  double time_scale = 1;
};

class RecordsWriter {
 public:
  // Opens `path` for appending (created if missing); the error names --records.
  static core::Result<std::shared_ptr<RecordsWriter>> open(const std::string& path);
  ~RecordsWriter();  // close()
  RecordsWriter(const RecordsWriter&) = delete;
  RecordsWriter& operator=(const RecordsWriter&) = delete;

  // Any thread; cheap (a move under a mutex). Records pushed after close() are written at once.
  void push(ServedRecord r);
  // Writes everything queued, stops the thread, closes the file. Idempotent.
  void close();
  uint64_t written() const;
  uint64_t write_errors() const;

  // The JSONL line (no newline) for a record; `unix_at`/`steady_at` is one instant on both clocks.
  static std::string to_line(const ServedRecord& r, double unix_at, SteadyTime steady_at);

 private:
  RecordsWriter(std::FILE* f, std::string path);
  void run();
  bool write_batch(const std::vector<ServedRecord>& batch);  // formats and appends
  void count(bool ok, size_t n);                             // under mu_

  std::FILE* f_ = nullptr;
  std::string path_;
  double unix0_ = 0;
  SteadyTime steady0_{};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<ServedRecord> queue_;
  bool stop_ = false;
  uint64_t written_ = 0, errors_ = 0;
  std::thread thread_;
};

// Shared by the engine thread and the HTTP loop's stamp jobs; when the last holder lets go (the
// stream ended and every posted stamp ran or was dropped) the record goes to the writer.
struct PendingRecord {
  explicit PendingRecord(std::shared_ptr<RecordsWriter> w) : out(std::move(w)) {}
  ~PendingRecord() {
    if (out) out->push(std::move(rec));
  }
  PendingRecord(const PendingRecord&) = delete;
  PendingRecord& operator=(const PendingRecord&) = delete;
  std::shared_ptr<RecordsWriter> out;
  ServedRecord rec;
};

// The X-Request-Id value if it can be an id: 1..256 printable ASCII bytes; else "".
std::string usable_request_id(const std::string* header);

}  // namespace llmtriage::serve
