#pragma once
// The engine thread of `sim serve`: owns the OnlineEngine, maps the wall clock to virtual time
// (v = (now - start) x time_scale), turns accepted HTTP requests into simulated requests,
// streams each token when the simulated step that produced it ends, keeps the /metrics
// histograms and writes the periodic vLLM log lines. Every other thread talks to it through
// post(): jobs run on the engine thread in order.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/server.h"
#include "serve/metrics.h"
#include "serve/openai.h"
#include "serve/records_writer.h"
#include "sim/online.h"
#include "sim/stats.h"

namespace llmtriage::serve {

using LogFn = std::function<void(const std::string& line)>;  // thread-safe sink

struct LoopOptions {
  double time_scale = 1.0;
  MetricsStyle metrics_style = MetricsStyle::vllm;
  std::string served_model_name;
  CacheInfo cache;
  double log_interval_s = 10.0;  // virtual seconds between stats lines (VLLM_LOG_STATS_INTERVAL)
  std::shared_ptr<RecordsWriter> records;  // --records: one record per request (null: none)
};

// What the HTTP layer knew of a request beyond its body.
struct Arrival {
  std::string client_id;  // usable X-Request-Id ("" = none): the record's id, and the response
                          // id after "cmpl-" / "chatcmpl-" as vLLM builds it
  std::chrono::steady_clock::time_point received{};  // whole request received (unset: now)
};

struct Choice;
struct Stream;

// The fields of a fault that matter for its kind (GET /admin/fault, the admin log line).
nlohmann::json fault_fields(const sim::Fault& f);

class EngineLoop {
 public:
  EngineLoop(const sim::SimConfig& cfg, LoopOptions opt, LogFn log);
  ~EngineLoop();  // stop()
  void start();
  void stop();

  void post(std::function<void()> job);
  // Engine thread only (inside a posted job):
  double virtual_now() const;
  // Accepts a validated request and starts streaming/answering it on `w`.
  void submit(GenRequest req, std::shared_ptr<net::ResponseWriter> w, Arrival a = {});
  std::string render_metrics();
  nlohmann::json fault_json() const;
  sim::OnlineEngine& engine() { return engine_; }
  nlohmann::json stats_json();

  // Any thread: requests accepted but not yet scheduled (HTTP inbox + engine waiting queues).
  int64_t queued() const { return queued_.load(std::memory_order_relaxed) + waiting_.load(std::memory_order_relaxed); }
  void note_incoming() { queued_.fetch_add(1, std::memory_order_relaxed); }
  const sim::SimConfig& config() const { return engine_.config(); }

 private:
  void run();
  void on_step(const sim::StepReport& s);
  void emit(Stream& st, Choice& c, int32_t upto, double t);
  void finish_choice(Stream& st, Choice& c, const std::string& reason);
  void complete(Stream& st);
  void abort_stream(const std::shared_ptr<Stream>& st);
  void drop_choices(Stream& st, double v);
  void gateway_cut(const std::shared_ptr<Stream>& st, double v);
  void ghost_step(const sim::StepReport& s);
  void observe_done(ReplicaMetrics& m, const sim::SimRequest& r);
  void log_stats(double v);
  double wall_to_virtual(std::chrono::steady_clock::time_point t) const;
  std::chrono::steady_clock::time_point virtual_to_wall(double v) const;

  sim::OnlineEngine engine_;
  LoopOptions opt_;
  LogFn log_;
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::unique_ptr<ReplicaMetrics>> metrics_;
  std::unordered_map<int32_t, std::pair<std::shared_ptr<Stream>, int>> by_req_;
  uint64_t next_id_ = 1;
  double next_log_v_ = 0;
  struct LogMark {
    uint64_t prompt = 0, gen = 0, preempt = 0, q = 0, h = 0;
  };
  std::vector<LogMark> marks_;
  sim::LogHistogram lag_ms_;
  double lag_max_ms_ = 0;
  uint64_t steps_ = 0, aborted_ = 0, live_streams_ = 0, completed_ = 0, gateway_timeouts_ = 0;
  // Requests with no HTTP client (long_prompt_burst, client_retries): tokens seen so far and the
  // last token's time, so their TTFT/ITL land in /metrics as a real engine's would.
  struct Ghost {
    int32_t sent = 0;
    double last_v = -1;
  };
  std::unordered_map<int32_t, Ghost> ghosts_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> inbox_;
  bool stop_ = false;
  std::thread thread_;
  std::atomic<int64_t> queued_{0}, waiting_{0};
};

}  // namespace llmtriage::serve
