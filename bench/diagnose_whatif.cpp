// What a remedy prediction costs: diagnose() on the same evidence with simulator what-ifs off and
// on, same run, and one what-if (baseline + one changed run) on its own. The brief's bound: a few
// hundred simulated requests and < 0.5 s CPU per what-if. CPU time (getrusage), not wall time: the
// build machines are shared.
// Usage: bench_diagnose_whatif [REPEATS=5]
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "diagnose/diagnose.h"
#include "diagnose/indicators.h"
#include "diagnose/whatif.h"

namespace {

using namespace llmtriage;

double cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// CPU seconds per call: calls repeated until at least 0.3 s of CPU accumulates (the kernel's CPU
// accounting can be tick-grained), median of `repeats` such batches.
double median_cpu(int repeats, const std::function<void()>& fn) {
  std::vector<double> v;
  for (int i = 0; i < repeats; ++i) {
    const double t0 = cpu_s();
    long calls = 0;
    do {
      fn();
      ++calls;
    } while (cpu_s() - t0 < 0.3);
    v.push_back((cpu_s() - t0) / static_cast<double>(calls));
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The long-prefill case: vLLM V0, chunked prefill off, 400-token prompts and 1% at 24k tokens,
// 4 req/s, 2000 records (P99 TTFT 6 s observed, queue empty).
diagnose::DiagnoseInput long_prefill() {
  diagnose::DiagnoseInput in;
  auto& d = in.now.deployment;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  d.engine = core::EngineKind::vllm_v0;
  d.settings.enable_chunked_prefill = false;
  d.settings.max_model_len = 32768;
  for (int i = 0; i < 2000; ++i) {
    core::RequestRecord r;
    r.id = "r" + std::to_string(i);
    r.arrival_s = i * 0.25;
    r.input_tokens = i % 100 == 37 ? 24000 : 400;
    r.output_tokens = 150;
    r.ttft_s = i % 50 == 38 ? 6.0 : 0.05;  // 2% stuck behind a long prefill: P99 6 s
    r.e2e_s = *r.ttft_s + 150 * 0.012;
    in.now.requests.push_back(r);
  }
  in.observations.now["waiting"] = 0;
  return in;
}

// The saturated case from dashboard readings: 8B on one H100, 12 req/s of 3000 + 400 tokens.
diagnose::DiagnoseInput saturated() {
  diagnose::DiagnoseInput in;
  in.now.deployment.model = "meta-llama/Llama-3.1-8B-Instruct";
  in.now.deployment.gpu = "H100-SXM";
  in.now.deployment.engine = core::EngineKind::vllm;
  in.now.deployment.settings.max_model_len = 16384;
  for (auto [k, v] : std::vector<std::pair<const char*, double>>{{"waiting", 40}, {"kv_usage", 0.97}, {"running", 90},
                                                                  {"request_rate", 12}, {"input_len_mean", 3000},
                                                                  {"output_len_mean", 400}, {"ttft_p99_s", 9}})
    in.observations.now[k] = v;
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  fmt::print("{:<14} {:>14} {:>14} {:>8} {:>10} {:>14}\n", "case", "no what-if ms", "what-ifs ms", "ratio", "what-ifs",
             "per what-if ms");
  for (auto& [name, make] : std::vector<std::pair<std::string, std::function<diagnose::DiagnoseInput()>>>{
           {"long-prefill", long_prefill}, {"saturated", saturated}}) {
    diagnose::DiagnoseInput in = make();
    in.what_if = false;
    const double off = median_cpu(repeats, [&] { (void)diagnose::diagnose(in); });
    in.what_if = true;
    size_t sims = 0;
    const double on = median_cpu(repeats, [&] {
      auto r = diagnose::diagnose(in);
      sims = 0;
      for (const auto& f : r.findings)
        for (const auto& m : f.remedies) sims += m.basis == "sim";
    });
    // Each simulated remedy is one changed run; the baseline run is shared.
    const double per = sims ? (on - off) / static_cast<double>(sims + 1) : 0;
    fmt::print("{:<14} {:>14.1f} {:>14.1f} {:>8.1f} {:>10} {:>14.1f}\n", name, off * 1e3, on * 1e3,
               off > 0 ? on / off : 0.0, sims, per * 1e3);
  }
  // One what-if alone: baseline + chunked prefill on, 500 requests each (the cap; the records hold 2000).
  diagnose::DiagnoseInput in = long_prefill();
  const diagnose::Indicators ind = diagnose::build_indicators(in);
  const double base = median_cpu(repeats, [&] { (void)diagnose::whatif_setup(in, ind); });
  const double one = median_cpu(repeats, [&] {
    auto w = diagnose::whatif_setup(in, ind);
    if (w.ok()) (void)diagnose::predict_changed(*w, [](sim::Scenario& s) {
      s.chunked_prefill = true;
      s.max_num_batched_tokens = 2048;
    });
  });
  fmt::print("one what-if (baseline + 1 change, 500 requests each: the records hold 2000): {:.2f} ms CPU (baseline run alone {:.2f} ms)\n",
             one * 1e3, base * 1e3);
  return 0;
}
