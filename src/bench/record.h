#pragma once
// One request as the load generator saw it (the raw stage). Times are seconds from the run's
// start on the steady clock. Converted to the shared request-record schema ("llmtriage.request.v1",
// ingest/records.h) for the raw JSONL, with a few numeric extras the reader ignores.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"

namespace llmtriage::bench {

struct BenchRecord {
  std::string id;                  // "<run tag>-<index>", sent as X-Request-Id
  std::string set_id;              // the request set's id for it (RequestSpec::id)
  int64_t index = 0;
  bool warmup = false;             // excluded from every statistic
  double scheduled_s = 0;          // the schedule's instant (closed loop: when a slot freed)
  double released_s = 0;           // when it could go: max(scheduled, a free --max-concurrency slot)
  std::optional<double> send_s;    // when the client started it (unset: never sent)
  std::optional<double> written_s;     // request fully written to the socket (send_s -> written_s:
                                       // the client's own dispatch time)
  std::optional<double> first_byte_s;  // first response byte
  std::vector<double> chunk_s;     // arrival of each chunk that carried output tokens
  std::vector<int32_t> chunk_tokens;   // tokens in each such chunk
  bool chunk_tokens_exact = false; // from the server's per-chunk usage, not one-per-chunk
  std::optional<double> end_s;     // last byte (incl. [DONE]) or the failure
  int http_status = 0;
  std::string error_category;      // "" = completed; else "http_503", "reset", "timeout_idle", ...
  std::string error_detail;        // one line, no secrets
  int64_t input_tokens = 0;        // what the request set says was sent
  int64_t max_tokens = 0;
  bool ignore_eos = false;
  std::optional<int64_t> server_prompt_tokens;      // usage.prompt_tokens
  std::optional<int64_t> server_completion_tokens;  // usage.completion_tokens
  // The server's own clock for this request (llama.cpp "timings"), to check ours against.
  std::optional<double> server_prompt_s, server_predicted_s;
  std::optional<int64_t> server_cached_tokens;
  std::string model;

  bool ok() const { return error_category.empty() && send_s && end_s; }
  int64_t client_tokens() const {
    int64_t n = 0;
    for (auto k : chunk_tokens) n += k;
    return n;
  }
  // n_out (docs/metrics.md): the server's usage when it reported one, else the client's count.
  int64_t output_tokens() const { return server_completion_tokens.value_or(client_tokens()); }
  std::optional<double> ttft_s() const;
  std::optional<double> tpot_s() const;  // undefined when n_out <= 1
  std::optional<double> e2e_s() const;
  // Client TTFT minus the server's prompt time: the queue for a slot, HTTP, tokenization and the
  // network -- everything the client waited for that was not prompt evaluation.
  std::optional<double> ttft_outside_server_s() const {
    auto t = ttft_s();
    if (!t || !server_prompt_s) return std::nullopt;
    return *t - *server_prompt_s;
  }
  double dispatch_lag_s() const { return send_s ? *send_s - released_s : 0; }
  double queue_s() const { return std::max(0.0, released_s - scheduled_s); }
};

// To the shared schema (times relative to the run start, chunk times relative to send).
core::RequestRecord to_request_record(const BenchRecord& r);
// One JSONL line: to_bench_jsonl of the above plus numeric extras (dispatch_lag_s, http_status,
// first_byte_s, done_s, server/client token counts, warmup).
std::string to_jsonl_line(const BenchRecord& r);

}  // namespace llmtriage::bench
