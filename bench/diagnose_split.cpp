// Offline diagnosis time split: reading the inputs (request records from JSONL) vs the analysis
// (diagnose(): indicators, every layer analyzer, triangulation, ranking) on the same data, same run.
// The analysis should be a small fraction of the reading (issue 9, "Speed").
// Usage: bench_diagnose_split [RECORDS=1000000] [PATH=/tmp/llmtriage_bench_diagnose.jsonl]
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "diagnose/diagnose.h"
#include "ingest/records.h"

namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

int main(int argc, char** argv) {
  using namespace llmtriage;
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000000;
  const std::string path = argc > 2 ? argv[2] : "/tmp/llmtriage_bench_diagnose.jsonl";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::mt19937_64 rng(11);
    std::exponential_distribution<double> gap(50.0);
    std::lognormal_distribution<double> len(6.5, 0.8);
    std::uniform_real_distribution<double> u(0, 1);
    double t = 0;
    for (long i = 0; i < n; ++i) {
      core::RequestRecord r;
      r.id = fmt::format("req-{:08d}", i);
      r.arrival_s = t;
      t += gap(rng);
      r.input_tokens = static_cast<int64_t>(len(rng)) + 1;
      r.output_tokens = 1 + static_cast<int64_t>(u(rng) * 512);
      r.ttft_s = 0.02 + u(rng) * 0.5;
      r.e2e_s = *r.ttft_s + 0.015 * static_cast<double>(*r.output_tokens);
      r.max_tokens = 512;
      r.temperature = 0.7;
      if (u(rng) < 0.01) {
        r.status = core::RequestStatus::error;
        r.error_category = u(rng) < 0.5 ? "timeout_first_byte" : "reset";
        r.e2e_s = 30.0;
      }
      std::string line = ingest::to_bench_jsonl(r);
      line.push_back('\n');
      std::fwrite(line.data(), 1, line.size(), f);
    }
    std::fclose(f);
  }
  double best_read = 1e30, best_analysis = 1e30;
  size_t findings = 0, records = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = now_s();
    auto rr = ingest::read_records_file(path);
    const double t1 = now_s();
    if (!rr.ok()) {
      fmt::print(stderr, "{}\n", rr.error().message());
      return 2;
    }
    diagnose::DiagnoseInput in;
    records = rr->records.size();
    in.now.requests = std::move(rr->records);
    const double t2 = now_s();
    const auto report = diagnose::diagnose(in);
    const double t3 = now_s();
    findings = report.findings.size();
    best_read = std::min(best_read, t1 - t0);
    best_analysis = std::min(best_analysis, t3 - t2);
  }
  std::remove(path.c_str());
  fmt::print("records {}  read {:.3f} s  analysis {:.3f} s  analysis/read {:.3f}  ({} findings)\n", records, best_read,
             best_analysis, best_analysis / best_read, findings);
  return 0;
}
