// Simulator fidelity vs published serving results: prints the table recorded in
// docs/accuracy.md ("## Simulator"). Run from the repo root:
//   build/bench/bench_sim_fidelity [tests/data/sim/published_cases.jsonl] [calibration.json]
#include <cstdio>
#include <string>

#include "core/files.h"
#include "sim/fidelity.h"

using namespace llmtriage::sim;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "tests/data/sim/published_cases.jsonl";
  Calibration cal;
  const Calibration* pcal = nullptr;
  if (argc > 2) {
    auto t = llmtriage::core::read_file(argv[2]);
    if (!t.ok()) { std::fprintf(stderr, "%s\n", t.error().message().c_str()); return 2; }
    auto c = Calibration::from_json_text(*t, argv[2]);
    if (!c.ok()) { std::fprintf(stderr, "%s\n", c.error().message().c_str()); return 2; }
    cal = *c;
    pcal = &cal;
  }
  auto rs = run_cases(path, pcal);
  if (!rs.ok()) { std::fprintf(stderr, "%s\n", rs.error().message().c_str()); return 2; }
  std::printf("| case | engine preset | metric | reported | simulated | error |\n|---|---|---|---|---|---|\n");
  for (const auto& r : *rs) {
    if (!r.error.empty()) { std::printf("| %s | %s | (did not run: %s) | | | |\n", r.id.c_str(), r.engine.c_str(), r.error.c_str()); continue; }
    for (const auto& m : r.metrics)
      std::printf("| %s | %s | %s | %.2f | %.2f | %+.1f%% |\n", r.id.c_str(), r.engine.c_str(), m.metric.c_str(), m.reported,
                  m.simulated, 100 * m.rel_error());
  }
  for (const char* f : {"throughput", "tpot", "ttft", "e2e"})
    std::printf("median |error| %-10s %.1f%%\n", f, 100 * median_abs_error(*rs, f));
  return 0;
}
