#pragma once
// The load layer from request records: arrival rate over time, length distributions (quantiles
// and a compact histogram), sampling-parameter mix, TTFT/TPOT/ITL/E2E quantiles, errors by
// category — and a baseline-vs-now comparison that names what changed and by how much with
// distribution-shift measures (two-sample Kolmogorov–Smirnov statistic, quantile ratios).
//
// Definitions (docs/metrics.md): TPOT = (e2e − ttft) / (output_tokens − 1) per request, as vLLM's
// `bench serve` computes it; requests with output_tokens ≤ 1 have no TPOT. ITL is token level
// when the source gives per-token gaps or chunk token counts, else chunk level (itl_level).
// Quantiles: core/quantile.h (linear interpolation, numpy default).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/quantile.h"

namespace llmtriage::ingest {

struct CompactHistogram {
  std::vector<double> edges;    // ascending, size = counts + 1; bins are [edge_i, edge_i+1)
  std::vector<int64_t> counts;  // the last bin includes its upper edge
};

struct Distribution {
  core::Summary stats;          // count 0 when no record had the value
  CompactHistogram histogram;
  std::vector<double> sorted;   // the values, ascending (kept for the shift tests)
};

struct RateWindow {
  double t_s = 0;       // window start, seconds since the first arrival
  double rate_rps = 0;  // arrivals in the window / window length
};

struct RecordsSummary {
  int64_t requests = 0, ok = 0, errors = 0;
  bool arrival_known = true;            // false: the source has no per-request times
  double duration_s = 0;                // last arrival − first arrival
  std::optional<double> mean_rate_rps;  // (requests − 1) / duration
  std::optional<double> interarrival_cv;  // std/mean of gaps: 1 for Poisson, 0 for a fixed rate
  double window_s = 0;
  std::vector<RateWindow> rate;
  Distribution input_tokens, output_tokens, ttft_s, tpot_s, e2e_s, itl_s, interarrival_s;
  std::string itl_level = "none";       // "token" | "chunk" | "none"
  std::map<std::string, int64_t> errors_by_category;
  // parameter -> value -> requests ("unset" when a record does not say)
  std::map<std::string, std::map<std::string, int64_t>> sampling;
  std::vector<std::string> unavailable;  // fields the source could not provide
};

struct SummaryOptions {
  double window_s = 0;                  // 0 = duration / 20, at least 1 s
  std::vector<std::string> unavailable{}; // from RecordReadResult::unavailable
  int histogram_bins = 12;
};

RecordsSummary summarize_records(const std::vector<core::RequestRecord>& records,
                                 const SummaryOptions& options = {});

// Two-sample KS statistic D = sup |F_a − F_b| over sorted samples; 0 when either is empty.
double ks_statistic(const std::vector<double>& a_sorted, const std::vector<double>& b_sorted);
// The critical D at significance alpha (asymptotic: c(α)·sqrt((n+m)/(n·m)), c = sqrt(-ln(α/2)/2)).
double ks_critical(size_t n, size_t m, double alpha = 0.01);

struct Shift {
  std::string metric;            // "input_tokens", "output_tokens", "ttft_s", "tpot_s", ...
  size_t n_base = 0, n_now = 0;
  double ks = 0, ks_critical = 0;
  std::optional<double> mean_ratio, p50_ratio, p90_ratio, p99_ratio;  // now / baseline
  double base_p50 = 0, now_p50 = 0, base_p99 = 0, now_p99 = 0;
  // KS above its 1% critical value AND at least 0.1 (a shift big enough to matter), or a
  // p50/p99 ratio outside [0.8, 1.25] with enough samples.
  bool changed = false;
};

struct RecordsComparison {
  std::vector<Shift> shifts;
  std::optional<double> rate_ratio;  // now / baseline mean arrival rate
  bool rate_changed = false;         // ratio outside [0.8, 1.25]
  double error_rate_base = 0, error_rate_now = 0;
  bool error_rate_changed = false;   // two-proportion z > 2.58 and |Δ| ≥ 1 point
  // parameter -> total variation distance between the value mixes (0..1); changed when ≥ 0.1
  std::map<std::string, double> sampling_tvd;
  std::vector<std::string> findings;  // one line each, load layer first, biggest first
  bool any_change() const { return !findings.empty(); }
};

RecordsComparison compare_summaries(const RecordsSummary& baseline, const RecordsSummary& now);

}  // namespace llmtriage::ingest
