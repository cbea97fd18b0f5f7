#pragma once
// Runs a request set against an OpenAI-compatible endpoint on net's event loop and returns the
// raw records (the first stage). Open loop: each request goes at its precomputed instant
// (schedule.h) from a timer on the client's loop, optionally capped by max_concurrency (time
// waiting for a slot is client queue time, separate from dispatch lag). Closed loop: `concurrency`
// requests in flight, a finished one starts the next. A global deadline cancels what is left;
// the records of everything sent are returned either way.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/openai.h"
#include "bench/record.h"
#include "bench/request_set.h"
#include "core/quantile.h"
#include "net/failure.h"
#include "net/http.h"

namespace llmtriage::bench {

struct Scrape {
  double t_s = 0;        // seconds from the run start (negative: before it)
  double unix_s = 0;
  std::string phase;     // "before", "during", "after"
  std::string text;      // the exposition ("" when the scrape failed)
  std::string error;     // why it failed
};

struct RunProgress {
  int64_t sent = 0, done = 0, failed = 0, total = 0;
  size_t in_flight = 0;
  double elapsed_s = 0;
};

struct RunnerOptions {
  std::string base_url;  // "http://127.0.0.1:8000" (the API path is appended)
  BodyOptions body;
  std::string api_key;   // sent as a bearer token; never logged
  // Every request carries `X-Request-Id: <run_tag>-<index>` (vLLM takes it as its request id, sim
  // serve --records writes it), and the records keep that id, so client and server records join
  // exactly. "" = a fresh tag per run (12 hex digits from the clock and the pid).
  std::string run_tag;
  // Open loop when `schedule` is set (one offset per request); closed loop otherwise.
  std::optional<std::vector<double>> schedule;
  int64_t concurrency = 1;                  // closed loop
  std::optional<int64_t> max_concurrency;   // open-loop cap
  int64_t warmup = 0;                       // the first N requests are marked warm-up
  double deadline_s = 0;                    // 0 = none; else the whole run (incl. scrapes)
  net::Timeouts timeouts;
  int client_threads = 1;
  double start_delay_s = 0.05;              // schedule starts this long after setup
  // /metrics: "" = base_url + "/metrics"; scrape_interval_s <= 0 disables scraping.
  std::string metrics_url;
  double scrape_interval_s = 5;
  std::function<void(const RunProgress&)> on_progress;  // called from the main thread, ~10/s
  const std::atomic<bool>* stop = nullptr;  // set (e.g. by SIGINT): end like the deadline, keep results
};

struct RunResult {
  std::vector<BenchRecord> records;  // one per request, in request-set order
  std::vector<Scrape> scrapes;
  core::Summary loop_lag_s;          // heartbeat timer lateness on the dispatch loop
  bool deadline_hit = false;
  bool interrupted = false;  // ended by RunnerOptions::stop
  double wall_s = 0;
  double start_unix_s = 0;
  std::string run_tag;               // the X-Request-Id prefix this run used
  uint64_t connections_opened = 0;
  std::optional<bool> server_waiting;  // a during-run scrape showed waiting requests
};

RunResult run_load(const RequestSet& set, const RunnerOptions& o);

// Error category of a transport failure, as the records name it: "reset", "timeout_idle", ...
// (cancelled -> "cancelled"; the runner names deadline cancellations "deadline").
std::string failure_category(net::Failure f);

}  // namespace llmtriage::bench
