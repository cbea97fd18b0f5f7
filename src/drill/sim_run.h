#pragma once
// One run of the drill over HTTP: `sim serve`'s server in this process on 127.0.0.1 (a free port),
// the scenario's traffic sent by the bench runner, /metrics scraped by the runner during the run,
// the engine's log captured. Everything comes back in virtual seconds (wall x time scale), the
// simulator's clock, so the diagnosis reads the same units as an offline run. docs/drill.md.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/ab.h"
#include "bench/export.h"
#include "bench/request_set.h"
#include "bench/runner.h"
#include "bench/summary.h"
#include "collect/snapshot.h"
#include "core/result.h"
#include "drill/sim_case.h"
#include "sim/scenario.h"

namespace llmtriage::drill {

// The scenario's traffic as a bench request set: the workload's requests with the seed, the
// long_prompt_burst fault's extra requests, and the client retries the offline simulation of the
// scenario predicted (the traffic IS the fault there), each at its virtual arrival time.
struct DrillLoad {
  bench::RequestSet set;
  std::optional<std::vector<double>> arrivals_s;  // open loop: virtual seconds, one per request
  int64_t concurrency = 0;                        // closed loop
  int64_t retries = 0;                            // requests that are retries of earlier ones
  int64_t bursts = 0;                             // requests from the long_prompt_burst fault
};
core::Result<DrillLoad> build_load(const sim::Scenario& s, const sim::SimResult& offline);

struct HttpRun {
  std::string base_url;
  double time_scale = 1;
  bench::RunResult run;       // raw records (wall seconds)
  bench::RunSummary summary;  // wall seconds
  bench::RunMeta meta;
  RunData data;               // virtual seconds: what the diagnosis reads
  collect::Snapshot snapshot; // the run's /metrics scrapes as a snapshot (virtual times)
  // Did the host keep up? sim serve's engine-clock lag (GET /sim/stats, p99) and the client's
  // lag (p99 of dispatch lag and of its event loop's lateness), both in virtual seconds:
  // latencies include up to that much host delay.
  std::optional<double> engine_lag_p99_s;
  double dispatch_lag_p99_s = 0;
  bool faithful() const { return engine_lag_p99_s.value_or(0) <= kMaxLagS && dispatch_lag_p99_s <= kMaxLagS; }
  static constexpr double kMaxLagS = 1.0;
};

// The time scale a run of `virtual_s` virtual seconds is played at, so it takes about
// `target_wall_s`, unless the client could not keep up with the streamed tokens: the client
// receives one SSE chunk per output token, so at scale S it handles S x the offline output rate per
// wall second. kStreamBudget is what a 2-core host kept up with (a drill of 2347 streams at 5.5 x
// 2140 tok/s = 11.8k chunks/s: lag under 1 s virtual; at 22 x: 6 s); a slower host is caught by the
// drill's lag check, which halves the scale and runs again. In [1, 1000].
struct TimeScale {
  double scale = 1;
  std::string why;
};
// `flag` names the option that set target_wall_s, in the explanation.
TimeScale choose_time_scale(double virtual_s, double offline_output_tok_s, double target_wall_s, const std::string& flag = "--target-wall");

// Where each run's server listens, so a person can watch it live (`llmtriage top --endpoint URL`):
// a fixed 127.0.0.1 port (0: a free one, different per run), and a call with the server's base URL
// and what runs ("run A", "step 2") once it listens and before the load starts.
struct ServeAt {
  uint16_t port = 0;
  std::function<void(const std::string& base_url, const std::string& what)> on_serving;
  const std::atomic<bool>* stop = nullptr;  // set: the load ends now (kept as a cut-off run), the server stops
};

// Serves the scenario and sends the load. Fails when the server cannot start or bind.
// `deadline_wall_s` bounds the load (what is left is cancelled; the records so far are kept).
core::Result<HttpRun> run_over_http(const sim::Scenario& s, const DrillLoad& load, double time_scale,
                                    double deadline_wall_s, const ServeAt& at = {}, const std::string& what = "run");

// The run as one side of an A/B (virtual seconds), configured as `config`.
bench::RunSample run_sample(const HttpRun& r, const std::string& label, const std::map<std::string, std::string>& config);

}  // namespace llmtriage::drill
