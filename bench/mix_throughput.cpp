// benchmark_mix_mismatch accuracy: the closed form of src/diagnose/mix_throughput.h vs the event
// simulation at saturation on the same deployment, per length mix (docs/accuracy.md, "Benchmark-mix share").
// Usage: bench_mix_throughput (no arguments).
#include <fmt/format.h>

#include <chrono>

#include "diagnose/mix_throughput.h"
#include "sim/scenario.h"
using namespace llmtriage;
int main() {
  core::Deployment d;
  d.model = "meta-llama/Llama-3.1-8B-Instruct";
  d.gpu = "H100-SXM";
  d.settings.max_model_len = 32768;
  struct Mix { double in, out; } mixes[] = {{512, 512}, {6000, 150}, {650, 6}, {200, 800}, {2000, 1000}, {1500, 300}};
  double r512 = 0, s512 = 0;
  for (auto m : mixes) {
    auto t0 = std::chrono::steady_clock::now();
    auto cf = diagnose::mix_throughput(d, m.in, m.out);
    auto t1 = std::chrono::steady_clock::now();
    sim::Scenario s;
    s.deployment.model = d.model; s.deployment.gpu = d.gpu; s.deployment.max_model_len = 32768;
    s.engine = "vllm";
    auto& w = s.config.workload;
    w.arrival = sim::ArrivalKind::closed_loop; w.concurrency = 256; w.num_requests = 1024;
    w.input = sim::LengthDist::fixed_len((int64_t)m.in); w.output = sim::LengthDist::fixed_len((int64_t)m.out); w.seed = 1;
    s.config.keep_samples = false; s.config.keep_log = false; s.config.keep_token_times = 0;
    (void)sim::resolve(s);
    auto run = sim::run_simulation(s.config);
    auto t2 = std::chrono::steady_clock::now();
    double sim_tps = run.ok() ? run->summary.output_throughput : -1;
    if (m.in == 512 && m.out == 512) { r512 = cf->output_tokens_per_s; s512 = sim_tps; }
    fmt::print("in {:5.0f} out {:5.0f}: closed form {:8.0f} tok/s ({:.1f} us)  sim {:8.0f} tok/s ({:.2f} s)  cf/sim {:.2f}  ratio-to-512/512 cf {:.3f} sim {:.3f}\n",
               m.in, m.out, cf->output_tokens_per_s, std::chrono::duration<double, std::micro>(t1 - t0).count(), sim_tps,
               std::chrono::duration<double>(t2 - t1).count(), cf->output_tokens_per_s / sim_tps,
               r512 ? cf->output_tokens_per_s / r512 : 0.0, s512 ? sim_tps / s512 : 0.0);
  }
}
