#include "bench/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace llmtriage::bench {
namespace {

// The self-check thresholds (issue 8): a generator that lags its schedule by more than 1 ms at
// p99, or delivers a rate 1% off its schedule, is measuring itself.
constexpr double kLagP99LimitS = 1e-3;
constexpr double kRateTolerance = 0.01;
// ... and a lag only distorts what it is large against: below this share of the median TTFT (the
// smallest latency the run reports per request) it moves the percentiles less than run-to-run
// noise, so 1.4 ms of lag under a 2.6 s TTFT does not make the run the client's measurement.
constexpr double kLagShareOfTtft = 0.05;

bool cut_by_run_end(const BenchRecord& r) {
  return r.error_category == "interrupted" || r.error_category == "deadline";
}

}  // namespace

bool meets_slo(const Slo& slo, std::optional<double> ttft, std::optional<double> tpot, std::optional<double> e2e) {
  if (slo.ttft_s && (!ttft || *ttft > *slo.ttft_s)) return false;
  if (slo.tpot_s && tpot && *tpot > *slo.tpot_s) return false;
  if (slo.e2e_s && (!e2e || *e2e > *slo.e2e_s)) return false;
  return true;
}

RunSummary summarize_run(const std::vector<BenchRecord>& records, const SummaryOptions& o) {
  RunSummary s;
  s.slo = o.slo;
  s.target_rate = o.target_rate;
  s.schedule_rate = o.schedule_rate;
  s.deadline_hit = o.deadline_hit;
  std::vector<double> ttft, tpot, itl_tok, itl_chunk, e2e, queue, lag, sends, scheduled, outside;
  double first_send = std::numeric_limits<double>::infinity(), last_end = -first_send;
  int64_t good_tokens = 0;
  for (const auto& r : records) {
    ++s.total;
    if (r.warmup) {
      ++s.warmup;
      continue;
    }
    ++s.measured;
    if (!r.send_s) {
      ++s.not_sent;
      ++s.errors_by_category[r.error_category.empty() ? "not_sent" : r.error_category];
      continue;
    }
    if (!r.ok() && cut_by_run_end(r)) {
      ++s.cut;
      continue;
    }
    sends.push_back(*r.send_s);
    scheduled.push_back(r.scheduled_s);
    lag.push_back(r.dispatch_lag_s());
    queue.push_back(r.queue_s());
    first_send = std::min(first_send, *r.send_s);
    if (!r.ok()) {
      ++s.failed;
      ++s.errors_by_category[r.error_category.empty() ? "error" : r.error_category];
      continue;
    }
    ++s.completed;
    last_end = std::max(last_end, *r.end_s);
    const int64_t nout = r.output_tokens();
    s.output_tokens += nout;
    s.input_tokens += r.server_prompt_tokens.value_or(r.input_tokens);
    auto t1 = r.ttft_s(), tp = r.tpot_s(), e = r.e2e_s();
    if (t1) ttft.push_back(*t1);
    if (tp) tpot.push_back(*tp);
    if (e) e2e.push_back(*e);
    if (auto o2 = r.ttft_outside_server_s()) outside.push_back(*o2);
    // Token level needs per-chunk counts: exact from per-chunk usage, or one per chunk when the
    // chunk count equals the server's total.
    const bool per_chunk_known = r.chunk_tokens_exact || !r.server_completion_tokens ||
                                 *r.server_completion_tokens == r.client_tokens();
    for (size_t i = 1; i < r.chunk_s.size(); ++i) {
      const double gap = r.chunk_s[i] - r.chunk_s[i - 1];
      itl_chunk.push_back(gap);
      if (per_chunk_known && r.chunk_tokens[i] > 0)
        for (int k = 0; k < r.chunk_tokens[i]; ++k) itl_tok.push_back(gap / r.chunk_tokens[i]);
    }
    if (!per_chunk_known) {
      ++s.itl_token_unavailable;
      ++s.token_disagreements;
      if (s.token_disagreement_ids.size() < 5) s.token_disagreement_ids.push_back(r.id);
    }
    if (r.ignore_eos && nout != r.max_tokens) ++s.output_len_mismatch;
    if (meets_slo(o.slo, t1, tp, e)) {
      ++s.goodput.good;
      good_tokens += nout + r.server_prompt_tokens.value_or(r.input_tokens);
    }
  }
  s.ttft_s = core::summarize(ttft);
  s.tpot_s = core::summarize(tpot);
  s.itl_token_s = core::summarize(itl_tok);
  s.itl_chunk_s = core::summarize(itl_chunk);
  s.e2e_s = core::summarize(e2e);
  s.ttft_outside_server_s = core::summarize(outside);
  s.queue_s = core::summarize(queue);
  s.dispatch_lag_s = core::summarize(lag);
  if (s.completed > 0 && last_end > first_send) {
    s.duration_s = last_end - first_send;
    s.request_throughput = s.completed / s.duration_s;
    s.output_throughput = s.output_tokens / s.duration_s;
    s.total_throughput = (s.input_tokens + s.output_tokens) / s.duration_s;
    s.goodput.request_rate = s.goodput.good / s.duration_s;
    s.goodput.token_rate = good_tokens / s.duration_s;
  }
  const int64_t attempted = s.completed + s.failed;
  if (attempted > 0) s.goodput.attainment_pct = 100.0 * s.goodput.good / attempted;
  std::sort(sends.begin(), sends.end());
  std::sort(scheduled.begin(), scheduled.end());
  if (sends.size() >= 2 && sends.back() > sends.front())
    s.realized_rate = static_cast<double>(sends.size() - 1) / (sends.back() - sends.front());
  // The measured part of the schedule: what the client was asked to deliver.
  if (o.open_loop && scheduled.size() >= 2 && scheduled.back() > scheduled.front())
    s.schedule_rate = static_cast<double>(scheduled.size() - 1) / (scheduled.back() - scheduled.front());

  // Did the server die mid-run? Every request sent after the last completion failed to connect
  // or was reset (not a few scattered errors), and at least one request completed before.
  {
    double last_ok_send = -1;
    for (const auto& r : records)
      if (!r.warmup && r.ok() && r.send_s) last_ok_send = std::max(last_ok_send, *r.send_s);
    std::optional<double> first_lost;
    int64_t lost = 0, later = 0;
    for (const auto& r : records) {
      if (r.warmup || !r.send_s || *r.send_s <= last_ok_send || cut_by_run_end(r)) continue;
      ++later;
      const std::string& c = r.error_category;
      if (c == "connect_refused" || c == "reset" || c == "connection_reset" || c == "incomplete_stream") {
        ++lost;
        first_lost = first_lost ? std::min(*first_lost, *r.send_s) : *r.send_s;
      }
    }
    if (last_ok_send >= 0 && lost >= 2 && lost == later) {
      s.server_lost_at_s = first_lost;
      s.failed_after_loss = lost;
    }
  }

  // Is the server the bottleneck? Then a missed rate is its doing, not ours.
  if (o.max_concurrency && s.queue_s.count > 0 && s.queue_s.max > kLagP99LimitS)
    s.saturation_reasons.push_back(fmt::format("requests waited for a --max-concurrency {} slot (client queue max {:.1f} ms)",
                                               *o.max_concurrency, s.queue_s.max * 1e3));
  for (const char* c : {"http_429", "http_503"})
    if (auto it = s.errors_by_category.find(c); it != s.errors_by_category.end())
      s.saturation_reasons.push_back(fmt::format("the server shed load ({} × {})", it->second, c));
  if (o.server_waiting && *o.server_waiting) s.saturation_reasons.push_back("the server's /metrics showed requests waiting");
  s.server_saturated = !s.saturation_reasons.empty();

  // A lag counts when it exceeds both 1 ms and 5% of the median TTFT (without a TTFT: 1 ms).
  const double lag_limit = std::max(kLagP99LimitS, s.ttft_s.count ? kLagShareOfTtft * s.ttft_s.p50 : 0.0);
  const std::string limit_text = lag_limit > kLagP99LimitS
                                     ? fmt::format("{:.3g} ms (5% of TTFT p50 {:.4g} ms)", lag_limit * 1e3, s.ttft_s.p50 * 1e3)
                                     : std::string("1 ms");
  if (s.dispatch_lag_s.count > 0 && s.dispatch_lag_s.p99 > lag_limit)
    s.client_bound_reasons.push_back(fmt::format("dispatch lag p99 {:.3f} ms > {}", s.dispatch_lag_s.p99 * 1e3, limit_text));
  if (o.loop_lag_p99_s && *o.loop_lag_p99_s > lag_limit)
    s.client_bound_reasons.push_back(fmt::format("event loop fell behind: heartbeat lateness p99 {:.3f} ms > {}",
                                                 *o.loop_lag_p99_s * 1e3, limit_text));
  if (o.open_loop && s.schedule_rate > 0 && s.realized_rate > 0 && !s.server_saturated &&
      std::fabs(s.realized_rate / s.schedule_rate - 1) > kRateTolerance)
    s.client_bound_reasons.push_back(fmt::format("realized rate {:.4g} req/s misses the schedule's {:.4g} by {:.2f}% (> 1%) "
                                                 "while the server was not saturated",
                                                 s.realized_rate, s.schedule_rate,
                                                 100 * std::fabs(s.realized_rate / s.schedule_rate - 1)));
  s.client_bound = !s.client_bound_reasons.empty();
  return s;
}

}  // namespace llmtriage::bench
