#pragma once
// Raw records -> the run's summary (the second stage; exporters in export.h are the third).
// Definitions: docs/metrics.md. Failed requests are excluded from latency statistics and counted
// by category; warm-up requests are excluded from everything but the warm-up count.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/record.h"
#include "core/quantile.h"
#include "core/result.h"
#include "core/slo.h"

namespace llmtriage::bench {

// --slo: the one SLO grammar (core/slo.h: ttft=500ms == ttft_p99_s=0.5). Unset = not checked.
using Slo = core::Slo;
using core::parse_slo;
// One request against the SLO (TPOT is not checked for n_out <= 1: it is undefined there).
bool meets_slo(const Slo& slo, std::optional<double> ttft_s, std::optional<double> tpot_s,
               std::optional<double> e2e_s);

struct SummaryOptions {
  Slo slo;
  double target_rate = 0;          // nominal --rate (0 = closed loop or burst)
  double schedule_rate = 0;        // what the schedule itself realizes (schedule_rate())
  bool open_loop = false;
  std::optional<int64_t> max_concurrency;
  std::optional<double> loop_lag_p99_s;  // event-loop heartbeat lateness (runner)
  std::optional<bool> server_waiting;    // /metrics showed requests waiting in the server
  bool deadline_hit = false;
};

struct Goodput {
  int64_t good = 0;
  double attainment_pct = 0;  // good / completed (failed count as not good, so / measured)
  double request_rate = 0;    // good requests / duration
  double token_rate = 0;      // their input + output tokens / duration
};

struct RunSummary {
  // cut: in flight when the run itself ended (Ctrl-C, --deadline): neither a success nor a
  // failure; with not_sent, left out of every rate and share (the run is partial).
  int64_t total = 0, warmup = 0, measured = 0, completed = 0, failed = 0, not_sent = 0, cut = 0;
  std::map<std::string, int64_t> errors_by_category;
  core::Summary ttft_s, tpot_s, itl_token_s, itl_chunk_s, e2e_s, queue_s, dispatch_lag_s;
  // Against the server's own clock (llama.cpp timings): client TTFT - server prompt time per
  // request (slot queue + HTTP + network + client), and how many requests carried timings.
  core::Summary ttft_outside_server_s;
  int64_t itl_token_unavailable = 0;  // completed requests whose per-chunk token counts are unknown
  double duration_s = 0;              // last completion - first send (measured requests)
  double request_throughput = 0, output_throughput = 0, total_throughput = 0;  // per second
  int64_t input_tokens = 0, output_tokens = 0;
  double target_rate = 0, schedule_rate = 0, realized_rate = 0;
  Goodput goodput;
  Slo slo;
  int64_t token_disagreements = 0;    // server usage != client count (chunks assumed 1 token)
  std::vector<std::string> token_disagreement_ids;  // first few
  int64_t output_len_mismatch = 0;    // pinned output length not delivered
  bool server_saturated = false;
  std::vector<std::string> saturation_reasons;
  bool client_bound = false;
  std::vector<std::string> client_bound_reasons;  // each names the measurement and the threshold
  bool deadline_hit = false;
  // The server stopped answering mid-run: after the last completed request every later one failed
  // to connect or was reset. Those failures are the server's (counted as failed); the run is partial.
  std::optional<double> server_lost_at_s;  // send time of the first of those failures (run seconds)
  int64_t failed_after_loss = 0;
};

RunSummary summarize_run(const std::vector<BenchRecord>& records, const SummaryOptions& o);

}  // namespace llmtriage::bench
