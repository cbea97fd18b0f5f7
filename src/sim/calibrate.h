#pragma once
// `sim calibrate`: fit a few physical cost-model factors (mbu, mfu, layer_fixed_us, ...) so that
// the simulator, replaying the measured requests of a real run, reproduces their latencies.
//
// Replay: each usable record (status ok, prompt and output token counts) becomes one request at
// its send time (arrival time when no send time), with its own lengths (trace replay); sources
// without arrival times replay closed-loop at a concurrency the caller gives, lengths drawn from
// the records (then requests cannot be matched one to one, only distributions are compared).
//
// Objective (minimised): the mean over TTFT and TPOT, at the quantiles p10, p25, p50, p75, p90,
// of ln(simulated / measured)^2. Why this one: a log-ratio is a relative error, symmetric (2x
// too slow costs what 2x too fast costs) and unit-free, so TTFT (seconds) and TPOT (ms) weigh
// alike; quantiles of the whole run, not request by request, because a real run has per-request
// noise the simulator does not model (client, network, tokenizer) and near saturation a small
// change in step time moves which request waits, while the distribution stays put; five
// quantiles rather than two so the shape (short vs long prompts, small vs large batches) pins
// factors that a single median cannot separate (a fixed per-layer cost vs bandwidth). p99 is
// left out: too few requests decide it. E2E is reported, not fitted (it is TTFT + TPOT x tokens).
//
// Search: Nelder-Mead in log space of the factors, each kept inside its physical bounds
// (projected), deterministic, at most `max_simulations` simulations, one restart from the best
// point; then each factor is moved by +-10% to tell how firmly the records determine it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evidence.h"
#include "core/result.h"
#include "sim/simulation.h"

namespace llmtriage::sim {

// A factor `sim calibrate` can fit, with its physical bounds (inclusive).
struct FitParamInfo {
  std::string name;   // Calibration field name ("mbu")
  double lo = 0, hi = 0;
  std::string why;    // the bound's reason, shown in --help and in bound warnings
};
const std::vector<FitParamInfo>& fit_params();
// "mbu,mfu,layer_fixed_us" -> names, checked against fit_params(); error lists the valid names.
core::Result<std::vector<std::string>> parse_fit_list(const std::string& csv);

struct CalibrateOptions {
  std::vector<std::string> fit = {"mbu", "mfu", "layer_fixed_us"};
  int max_simulations = 150;    // the search's budget, sensitivity probes included
  // False when the records' source has no arrival times: replay closed-loop at `concurrency`.
  bool arrivals_known = true;
  int64_t concurrency = 0;
  std::string source_format{};  // named in errors about missing fields ("vllm_bench")
  size_t min_records = 100;     // fewer usable records -> a warning (p90 from < 10 requests)
  // Called after each simulation: simulations run, budget, best objective so far.
  std::function<void(int, int, double)> on_progress{};
  // The starting calibration file's JSON object, if any: the written file keeps its keys (also
  // ones this code does not name) with the fitted values on top.
  nlohmann::json start_json = nlohmann::json::object();
};

struct FittedParam {
  std::string name;
  double start = 0, value = 0, lo = 0, hi = 0;
  bool at_bound = false;
  // Objective rise when the factor alone moves by +-10% from the fit (mean of the two); tiny
  // means the records hardly constrain it.
  double sensitivity = 0;
};

// One latency figure of the run: measured vs simulated before and after the fit (ms).
struct MetricCompare {
  std::string metric;   // "ttft_ms.p50"
  double measured = 0, before = 0, after = 0;
  double err_before() const { return measured > 0 ? (before - measured) / measured : 0; }
  double err_after() const { return measured > 0 ? (after - measured) / measured : 0; }
};

// Per-request median |relative error| (trace replay only: requests matched by position).
struct PerRequestError {
  std::string metric;   // "ttft", "tpot", "e2e"
  size_t matched = 0;
  double before = 0, after = 0;
};

struct CalibrateResult {
  Calibration start, fitted;
  std::vector<FittedParam> params;
  double objective_before = 0, objective_after = 0;
  std::vector<MetricCompare> metrics;         // ttft/tpot/e2e p50 and p90
  std::vector<PerRequestError> per_request;   // empty in closed-loop replay
  int simulations = 0;
  size_t records_total = 0, records_used = 0, records_with_ttft = 0, records_with_tpot = 0;
  std::string replay;                         // "trace replay of 300 requests over 60.2 s" / closed loop
  std::vector<std::string> warnings;
  nlohmann::json start_json = nlohmann::json::object();  // CalibrateOptions::start_json

  // The calibration file: every constant of `fitted` (loadable by Calibration::from_json_text and
  // `sim run --calibration`), preset-dependent CPU keys only when set.
  nlohmann::json calibration_json() const;
  // The whole report (fitted values, errors before/after, simulations, warnings).
  nlohmann::json to_json() const;
};

// Fits opt.fit on `base` (deployment, engine, scheduler, pool and starting calibration resolved;
// its workload is replaced by the replay). Errors: no records, no usable record (names the fields
// missing and the source format), no measured TTFT or TPOT, unknown fit name, no arrival times
// without a concurrency, the starting configuration failing to simulate.
core::Result<CalibrateResult> calibrate(const std::vector<core::RequestRecord>& records, const SimConfig& base,
                                        const CalibrateOptions& opt);

}  // namespace llmtriage::sim
