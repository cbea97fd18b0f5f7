// Prometheus text parsing throughput: llmtriage's PromParser against the Python reference parser
// (prometheus_client.parser.text_string_to_metric_families, Debian python3-prometheus-client) on
// the same large exposition, in the same run; plus allocations per sample in steady state
// (counted by the replaced global operator new below) and the engine adapter's throughput.
//
// The input repeats the real captures in tests/data/metrics with a distinct `replica` label per
// copy, up to --mb megabytes (default 32); Python parses the same text (--python-mb to cut it).
// Usage: bench_prom_parse [--mb N] [--python-mb N] [--python PATH]
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "core/files.h"
#include "ingest/metrics_engine.h"
#include "ingest/prom_parser.h"

static std::atomic<uint64_t> g_allocs{0};
void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using Clock = std::chrono::steady_clock;
using llmtriage::ingest::PromEntry;
using llmtriage::ingest::PromParser;

// Adds replica="<i>" to every series line of `src` (and keeps comments once per copy).
void append_copy(std::string& out, const std::string& src, int i) {
  size_t pos = 0;
  const std::string lab = "replica=\"" + std::to_string(i) + "\"";
  while (pos < src.size()) {
    size_t nl = src.find('\n', pos);
    if (nl == std::string::npos) nl = src.size();
    std::string_view line(src.data() + pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    if (line[0] == '#') {
      out.append(line);
      out += '\n';
      continue;
    }
    size_t brace = line.find('{');
    size_t space = line.find(' ');
    if (brace != std::string_view::npos && brace < space) {
      out.append(line.substr(0, brace + 1));
      out += lab;
      out += line[brace + 1] == '}' ? "" : ",";
      out.append(line.substr(brace + 1));
    } else {
      out.append(line.substr(0, space));
      out += "{" + lab + "}";
      out.append(line.substr(space));
    }
    out += '\n';
  }
}

struct Parsed {
  size_t series = 0;
  double checksum = 0;
};

Parsed parse_all(std::string_view text) {
  Parsed r;
  PromParser p(text);
  for (PromEntry e; (e = p.next()) != PromEntry::end;) {
    if (e != PromEntry::series) continue;
    ++r.series;
    r.checksum += p.value() + static_cast<double>(p.labels().size());
  }
  return r;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

int main(int argc, char** argv) {
  double mb = 32, python_mb = -1;  // python: the same input unless told otherwise
  std::string python = "/usr/bin/python3";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mb")) mb = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--python-mb")) python_mb = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--python")) python = argv[i + 1];
  }
  const std::string dir = std::string(LLMTRIAGE_DATA_DIR) + "/../tests/data/metrics/";
  // The captures the Python parser accepts too (the DCGM README sample has '...' elisions).
  const char* files[] = {"01_sglang_docs_production_metrics.prom", "02_vllm_v0_aibrix_runtime_doc.prom",
                         "04_vllm_v0.10.0_prodstack_issue617_excerpt.prom",
                         "07_trtllm_triton_backend_readme.prom", "09_llamacpp_pr13196_comment_excerpt.prom",
                         "synthetic_vllm_v1_0.11_two_models_dp2.prom"};
  std::string unit;
  for (const char* f : files) {
    auto t = llmtriage::core::read_file(dir + f);
    if (!t) {
      std::fprintf(stderr, "bench_prom_parse: %s\n", t.error().message().c_str());
      return 2;
    }
    unit += *t;
    if (unit.back() != '\n') unit += '\n';
  }
  if (python_mb < 0) python_mb = mb;
  std::string big;
  big.reserve(static_cast<size_t>(mb * 1e6) + unit.size() * 2);
  int copies = 0;
  for (; big.size() < mb * 1e6; ++copies) append_copy(big, unit, copies);
  const double size_mb = big.size() / 1e6;

  // Ours: best of 5 full passes (the first also warms the parser's buffers up).
  Parsed ours;
  double best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = Clock::now();
    ours = parse_all(big);
    best = std::min(best, seconds_since(t0));
  }
  const double ours_mbps = size_mb / best;

  // Allocations in steady state: one parser over the whole text; count from the 1000th series on
  // (the label list and unescape buffer have reached their size by then).
  uint64_t allocs_steady = 0;
  size_t steady_series = 0;
  {
    PromParser p(big);
    size_t n = 0;
    uint64_t start = 0;
    for (PromEntry e; (e = p.next()) != PromEntry::end;) {
      if (e != PromEntry::series) continue;
      if (++n == 1000) start = g_allocs.load();
    }
    allocs_steady = g_allocs.load() - start;
    steady_series = n - 1000;
  }

  // The engine adapter on one copy-set of the same input (what a snapshot does per scrape).
  auto ta = Clock::now();
  auto adapted = llmtriage::ingest::adapt_engine_metrics(big, 0, {});
  const double adapt_s = seconds_since(ta);

  // Python reference on a prefix of the same text (it is much slower), same run.
  std::string py_text = big.substr(0, std::min(big.size(), static_cast<size_t>(python_mb * 1e6)));
  py_text = py_text.substr(0, py_text.rfind('\n') + 1);
  const std::string tmp = "/tmp/llmtriage_bench_prom_" + std::to_string(::getpid()) + ".prom";
  if (FILE* f = std::fopen(tmp.c_str(), "w")) {
    std::fwrite(py_text.data(), 1, py_text.size(), f);
    std::fclose(f);
  }
  std::string cmd = python +
                    " -c 'import sys,time\n"
                    "from prometheus_client.parser import text_string_to_metric_families\n"
                    "s=open(sys.argv[1]).read()\n"
                    "t=time.perf_counter(); n=0\n"
                    "for fam in text_string_to_metric_families(s): n+=len(fam.samples)\n"
                    "print(n, time.perf_counter()-t)' " + tmp + " 2>&1";
  double py_s = -1;
  size_t py_series = 0;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512] = {0};
    std::string out;
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    int rc = pclose(p);
    if (rc != 0 || std::sscanf(out.c_str(), "%zu %lf", &py_series, &py_s) != 2) {
      std::fprintf(stderr, "bench_prom_parse: python reference failed: %s\n", out.c_str());
      py_s = -1;
    }
  }
  std::remove(tmp.c_str());
  // Ours on exactly the Python input too, for a like-for-like series count check.
  Parsed ours_py = parse_all(py_text);

  std::printf("prom_parse: input %.1f MB, %zu series (6 captures x %d copies with distinct labels)\n",
              size_mb, ours.series, copies);
  std::printf("  llmtriage PromParser:        %8.1f MB/s  (%.3f s, best of 5)\n", ours_mbps, best);
  std::printf("  allocations per sample:      %8.4f  (%llu allocations over %zu series in steady state)\n",
              steady_series ? static_cast<double>(allocs_steady) / steady_series : 0.0,
              static_cast<unsigned long long>(allocs_steady), steady_series);
  if (adapted.ok())
    std::printf("  engine adapter (parse + map): %7.1f MB/s  (%zu samples)\n", size_mb / adapt_s, adapted->samples.size());
  if (py_s > 0) {
    const double py_mbps = py_text.size() / 1e6 / py_s;
    std::printf("  python prometheus_client:    %8.2f MB/s  (%.1f MB, %zu samples, %.2f s)\n", py_mbps,
                py_text.size() / 1e6, py_series, py_s);
    std::printf("  ratio llmtriage / python:    %8.1fx  (target >= 30x)  [series on that input: ours %zu]\n",
                ours_mbps / py_mbps, ours_py.series);
    return ours_mbps / py_mbps >= 30 ? 0 : 1;
  }
  std::printf("  python reference unavailable: no ratio\n");
  return 1;
}
