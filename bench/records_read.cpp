// Request-record reading rate vs `wc -l` on the same file, same run, warm page cache.
// The file is llmtriage's own bench JSONL (docs/logs-and-records.md) with the fields the load
// generator writes for a non-streamed summary record (no per-chunk arrays).
// Usage: bench_records_read [RECORDS=2000000] [PATH=/tmp/llmtriage_bench_records.jsonl]
#include <fmt/format.h>

#include <sys/resource.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "ingest/records.h"

namespace {
double children_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

int main(int argc, char** argv) {
  long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 2000000;
  std::string path = argc > 2 ? argv[2] : "/tmp/llmtriage_bench_records.jsonl";
  {
    FILE* f = std::fopen(path.c_str(), "w");
    std::mt19937_64 rng(7);
    std::exponential_distribution<double> gap(50.0);
    std::lognormal_distribution<double> len(6.5, 0.8);
    std::uniform_real_distribution<double> u(0, 1);
    double t = 0;
    for (long i = 0; i < n; ++i) {
      llmtriage::core::RequestRecord r;
      r.id = fmt::format("req-{:08d}", i);
      r.arrival_s = t;
      t += gap(rng);
      r.send_s = r.arrival_s + 0.0002;
      r.input_tokens = static_cast<int64_t>(len(rng)) + 1;
      r.output_tokens = 1 + static_cast<int64_t>(u(rng) * 512);
      r.ttft_s = 0.02 + u(rng) * 0.5;
      r.e2e_s = *r.ttft_s + 0.015 * static_cast<double>(*r.output_tokens);
      r.model = "meta-llama/Llama-3.1-8B-Instruct";
      r.max_tokens = 512;
      r.temperature = 0.7;
      r.top_p = 0.95;
      if (u(rng) < 0.01) {
        r.status = llmtriage::core::RequestStatus::error;
        r.error_category = "http_503";
      }
      std::string line = llmtriage::ingest::to_bench_jsonl(r);
      line.push_back('\n');
      std::fwrite(line.data(), 1, line.size(), f);
    }
    std::fclose(f);
  }
  // Two modes: streaming (each record built, checked and handed to a callback: the reading rate)
  // and stored (all records kept in memory, as `records summary` does).
  double best_ours = 1e30, best_wc = 1e30, best_stored = 1e30, cpu_ours = 1e30, cpu_wc = 1e30,
         cpu_stored = 1e30;
  double load[3] = {0, 0, 0};
  (void)getloadavg(load, 3);
  size_t records = 0;
  for (int rep = 0; rep < 2; ++rep) {
    size_t seen = 0;
    double in_sum = 0;
    llmtriage::ingest::RecordReadOptions o;
    o.on_record = [&](llmtriage::core::RequestRecord&& r) {
      ++seen;
      in_sum += static_cast<double>(r.input_tokens.value_or(0));
    };
    double t0 = now_s();
    std::clock_t c0 = std::clock();
    auto r = llmtriage::ingest::read_records_file(path, o);
    double t1 = now_s();
    cpu_ours = std::min(cpu_ours, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    best_ours = std::min(best_ours, t1 - t0);
    records = seen;
    if (rep == 0) fmt::print("streamed {} records (sum of input tokens {:.0f})\n", seen, in_sum);
    t0 = now_s();
    c0 = std::clock();
    auto stored = llmtriage::ingest::read_records_file(path);
    cpu_stored = std::min(cpu_stored, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    t1 = now_s();
    best_stored = std::min(best_stored, t1 - t0);
    double cc0 = children_cpu_s();
    t0 = now_s();
    std::string cmd = "wc -l < '" + path + "'";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[64];
    if (std::fgets(buf, sizeof buf, p) == nullptr) buf[0] = 0;
    pclose(p);
    t1 = now_s();
    best_wc = std::min(best_wc, t1 - t0);
    cpu_wc = std::min(cpu_wc, children_cpu_s() - cc0);
  }
  FILE* f = std::fopen(path.c_str(), "r");
  std::fseek(f, 0, SEEK_END);
  double mib = static_cast<double>(std::ftell(f)) / (1 << 20);
  std::fclose(f);
  fmt::print("file: {} ({:.0f} MiB, {} records)\n", path, mib, records);
  fmt::print("ours (streaming) {:.3f} s  {:.2f} M records/s  {:.0f} MiB/s\n", best_ours, records / best_ours / 1e6, mib / best_ours);
  fmt::print("ours (stored in memory) {:.3f} s  {:.2f} M records/s\n", best_stored, records / best_stored / 1e6);
  fmt::print("wc -l {:.3f} s  {:.2f} M lines/s  {:.0f} MiB/s\n", best_wc, records / best_wc / 1e6, mib / best_wc);
  fmt::print("ratio ours/wc throughput (wall): {:.3f}\n", best_wc / best_ours);
  fmt::print("CPU seconds: ours (streaming) {:.3f} = {:.2f} M records/s per core; wc -l {:.3f}; ratio {:.3f}\n",
             cpu_ours, records / cpu_ours / 1e6, cpu_wc, cpu_wc / cpu_ours);
  fmt::print("CPU seconds: ours (stored) {:.3f} = {:.2f} M records/s per core\n", cpu_stored,
             records / cpu_stored / 1e6);
  fmt::print("load average at start: {:.2f} {:.2f} {:.2f} (other processes share the cores: read CPU seconds)\n",
             load[0], load[1], load[2]);
  std::remove(path.c_str());
  return 0;
}
