// Simulator fidelity vs published serving results: prints the tables recorded in
// docs/accuracy.md ("## Simulator"): the fit set (the constants were fitted on it) and the
// held-out set (never used for fitting), each with its medians. Run from the repo root:
//   build/bench/bench_sim_fidelity [FIT.jsonl] [HELDOUT.jsonl] [calibration.json]
// defaults: tests/data/sim/published_cases.jsonl, tests/data/sim/published_heldout.jsonl.
// An empty argument ("") skips that set.
#include <cstdio>
#include <string>

#include "core/files.h"
#include "sim/fidelity.h"

using namespace llmtriage::sim;

namespace {

int print_set(const char* title, const std::string& path, const Calibration* cal) {
  auto rs = run_cases(path, cal);
  if (!rs.ok()) { std::fprintf(stderr, "%s\n", rs.error().message().c_str()); return 2; }
  std::printf("## %s (%s, %zu cases)\n\n", title, path.c_str(), rs->size());
  std::printf("| case | engine preset | metric | reported | simulated | error |\n|---|---|---|---|---|---|\n");
  for (const auto& r : *rs) {
    if (!r.error.empty()) { std::printf("| %s | %s | (did not run: %s) | | | |\n", r.id.c_str(), r.engine.c_str(), r.error.c_str()); continue; }
    for (const auto& m : r.metrics)
      std::printf("| %s | %s | %s | %.2f | %.2f | %+.1f%% |\n", r.id.c_str(), r.engine.c_str(), m.metric.c_str(), m.reported,
                  m.simulated, 100 * m.rel_error());
  }
  std::printf("\n");
  for (const char* f : {"throughput", "tpot", "ttft", "e2e"}) {
    size_t n = 0;
    for (const auto& r : *rs)
      for (const auto& m : r.metrics) n += metric_family(m.metric) == f;
    std::printf("%s: median |error| %-10s %5.1f%%  (%zu metrics)\n", title, f, 100 * median_abs_error(*rs, f), n);
  }
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string fit = argc > 1 ? argv[1] : "tests/data/sim/published_cases.jsonl";
  const std::string held = argc > 2 ? argv[2] : "tests/data/sim/published_heldout.jsonl";
  Calibration cal;
  const Calibration* pcal = nullptr;
  if (argc > 3) {
    auto t = llmtriage::core::read_file(argv[3]);
    if (!t.ok()) { std::fprintf(stderr, "%s\n", t.error().message().c_str()); return 2; }
    auto c = Calibration::from_json_text(*t, argv[3]);
    if (!c.ok()) { std::fprintf(stderr, "%s\n", c.error().message().c_str()); return 2; }
    cal = *c;
    pcal = &cal;
  }
  if (!fit.empty())
    if (int rc = print_set("fit set", fit, pcal); rc != 0) return rc;
  if (!held.empty())
    if (int rc = print_set("held-out set", held, pcal); rc != 0) return rc;
  return 0;
}
