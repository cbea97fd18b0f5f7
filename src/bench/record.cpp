#include "bench/record.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "ingest/records.h"

namespace llmtriage::bench {

std::optional<double> BenchRecord::ttft_s() const {
  if (!send_s || chunk_s.empty()) return std::nullopt;
  return chunk_s.front() - *send_s;
}

std::optional<double> BenchRecord::tpot_s() const {
  const int64_t n = output_tokens();
  if (!send_s || chunk_s.empty() || n <= 1) return std::nullopt;
  return (chunk_s.back() - chunk_s.front()) / static_cast<double>(n - 1);
}

std::optional<double> BenchRecord::e2e_s() const {
  if (!send_s || !end_s) return std::nullopt;
  return *end_s - *send_s;
}

core::RequestRecord to_request_record(const BenchRecord& r) {
  core::RequestRecord o;
  o.id = r.id;
  o.arrival_s = r.scheduled_s;
  o.send_s = r.send_s;
  o.input_tokens = r.server_prompt_tokens.value_or(r.input_tokens);
  if (r.send_s && (!r.chunk_s.empty() || r.server_completion_tokens)) o.output_tokens = r.output_tokens();
  if (r.ok()) {
    o.ttft_s = r.ttft_s();
    o.e2e_s = r.e2e_s();
  } else {
    o.failed_after_s = r.e2e_s();
  }
  if (r.send_s)
    for (double t : r.chunk_s) o.chunk_times_s.push_back(t - *r.send_s);
  o.chunk_tokens = r.chunk_tokens;
  o.status = r.ok() ? core::RequestStatus::ok : core::RequestStatus::error;
  o.error_category = r.error_category;
  o.model = r.model;
  o.max_tokens = r.max_tokens;
  if (r.ignore_eos) o.ignore_eos = true;
  o.queue_s = r.queue_s();
  return o;
}

std::string to_jsonl_line(const BenchRecord& r) {
  std::string s = ingest::to_bench_jsonl(to_request_record(r));
  s.pop_back();  // the closing brace: numeric extras follow (the reader skips unknown numbers)
  s += fmt::format(",\"index\":{},\"dispatch_lag_s\":{},\"http_status\":{},\"warmup\":{}", r.index,
                   r.dispatch_lag_s(), r.http_status, r.warmup ? 1 : 0);
  if (r.written_s) s += fmt::format(",\"written_s\":{}", *r.written_s);
  if (r.first_byte_s) s += fmt::format(",\"first_byte_s\":{}", *r.first_byte_s);
  if (r.end_s) s += fmt::format(",\"done_s\":{}", *r.end_s);
  if (r.server_completion_tokens) s += fmt::format(",\"server_output_tokens\":{}", *r.server_completion_tokens);
  s += fmt::format(",\"client_output_tokens\":{}", r.client_tokens());
  if (r.server_prompt_s) s += fmt::format(",\"server_prompt_ms\":{}", *r.server_prompt_s * 1e3);
  if (r.server_predicted_s) s += fmt::format(",\"server_predicted_ms\":{}", *r.server_predicted_s * 1e3);
  if (r.server_cached_tokens) s += fmt::format(",\"server_cached_tokens\":{}", *r.server_cached_tokens);
  if (!r.set_id.empty() && r.set_id != std::to_string(r.index))
    s += ",\"set_id\":" + nlohmann::json(r.set_id).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  s += '}';
  return s;
}

}  // namespace llmtriage::bench
