// Simulator speed: simulated seconds per wall second, single thread, Llama-3.1-8B on one H100 at
// saturation (>= 256 running sequences), and peak memory of a one-million-request run.
//   build/bench/bench_sim_speed [num_requests_for_memory_run]
#include <sys/resource.h>

#include <cstdio>
#include <ctime>
#include <cstdlib>

#include "sim/scenario.h"

using namespace llmtriage::sim;

static Scenario make(int64_t n, double rate, int64_t concurrency) {
  Scenario s;
  s.engine = "vllm";
  s.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  s.deployment.gpu = "H100-SXM";
  s.deployment.max_model_len = 8192;
  auto& w = s.config.workload;
  w.num_requests = n;
  w.input = LengthDist::fixed_len(512);
  w.output = LengthDist::fixed_len(256);
  w.seed = 1;
  if (concurrency > 0) { w.arrival = ArrivalKind::closed_loop; w.concurrency = concurrency; }
  else { w.arrival = ArrivalKind::poisson; w.rate_rps = rate; }
  if (!resolve(s).ok()) std::abort();
  return s;
}

int main(int argc, char** argv) {
  // 1. Saturation: closed loop with more users than max_num_seqs (256): the batch stays full.
  auto sat = make(40000, 0, 320);
  sat.config.keep_token_times = 0;
  const std::clock_t c0 = std::clock();
  auto r = run_simulation(sat.config);
  const double cpu_s = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  if (!r.ok()) { std::fprintf(stderr, "%s\n", r.error().message().c_str()); return 2; }
  const auto& s = r->summary;
  std::printf("saturation: %llu requests, running mean %.1f (max %.0f), %llu steps, simulated %.1f s in %.3f s wall "
              "-> %.0fx real time (%.2f us/step)\n",
              static_cast<unsigned long long>(s.completed), s.running_mean, s.running_max,
              static_cast<unsigned long long>(s.steps), s.sim_seconds, s.wall_seconds, s.sim_seconds / s.wall_seconds,
              1e6 * s.wall_seconds / static_cast<double>(s.steps));
  // On a shared host wall time includes waiting for a core; CPU time is what the run costs.
  std::printf("saturation (CPU time): %.3f s -> %.0fx simulated seconds per CPU second\n", cpu_s, s.sim_seconds / cpu_s);
  // 2. One million requests in one run (Poisson just below saturation), records kept.
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000000;
  auto big = make(n, 30, 0);
  big.config.keep_token_times = 0;
  auto b = run_simulation(big.config);
  if (!b.ok()) { std::fprintf(stderr, "%s\n", b.error().message().c_str()); return 2; }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("million: %llu requests completed, %zu records, simulated %.0f s in %.2f s wall (%.0fx), peak RSS %.2f GiB\n",
              static_cast<unsigned long long>(b->summary.completed), b->records.size(), b->summary.sim_seconds,
              b->summary.wall_seconds, b->summary.sim_seconds / b->summary.wall_seconds,
              static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0));
  return 0;
}
