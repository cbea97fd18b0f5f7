// Log ingestion throughput vs `grep -cE` on the same file, same run, warm page cache.
// Builds a synthetic vLLM V1 log from real line formats (tests/data/logs/README.md): startup
// ledger lines, periodic stats lines, uvicorn access lines, request-received lines, preemption
// warnings, aborted requests, an OOM traceback every ~100k lines. Mix: a stats line per ~250
// lines (one per 10 s at ~25 req/s), ~50% access, ~49% request lines, 0.8% aborts, 0.2% preemptions. Our parser extracts every
// field of every kind; grep only counts lines matching the same kinds' patterns.
// Usage: bench_log_ingest [SIZE_MB=512] [PATH=/tmp/llmtriage_bench_vllm.log]
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "ingest/engine_log.h"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string stamp(long t) {
  int s = static_cast<int>(t % 60), m = static_cast<int>((t / 60) % 60), h = static_cast<int>((t / 3600) % 24);
  int d = static_cast<int>(1 + (t / 86400) % 28);
  return fmt::format("05-{:02d} {:02d}:{:02d}:{:02d}", d, h, m, s);
}

void build(const std::string& path, size_t target_bytes) {
  FILE* f = std::fopen(path.c_str(), "w");
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0, 1);
  const char* startup[] = {
      "Model loading took 16.96 GiB memory and 14.442714 seconds",
      "Memory profiling takes 52.07 seconds. Total non KV cache memory: 21.14GiB; torch peak memory increase: 1.97GiB; non-torch forward increase memory: 2.21GiB; weights memory: 16.96GiB.",
      "Available KV cache memory: 54.09 GiB", "GPU KV cache size: 708,992 tokens",
      "Maximum concurrency for 8,192 tokens per request: 86.55x",
      "CUDA graph pool memory: 1.66 GiB (actual), 1.7 GiB (estimated), difference: 0.04 GiB (2.7%)."};
  size_t bytes = 0;
  long t = 0;
  for (const char* s : startup)
    bytes += std::fprintf(f, "(EngineCore_DP0 pid=279) INFO %s [gpu_worker.py:276] %s\n", stamp(t).c_str(), s);
  long line = 0;
  while (bytes < target_bytes) {
    ++line;
    double x = u(rng);
    std::string ts = stamp(t);
    if (x < 0.004) {
      t += 10;
      bytes += std::fprintf(f,
          "(APIServer pid=3646) INFO %s [loggers.py:271] Engine 000: Avg prompt throughput: %.1f tokens/s, "
          "Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: %d reqs, GPU KV cache usage: "
          "%.1f%%, Prefix cache hit rate: %.1f%%\n",
          ts.c_str(), u(rng) * 20000, u(rng) * 2000, static_cast<int>(u(rng) * 64),
          static_cast<int>(u(rng) * 50), u(rng) * 100, u(rng) * 100);
    } else if (x < 0.50) {
      bytes += std::fprintf(f, "(APIServer pid=3646) INFO:     10.0.%d.%d:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n",
                            static_cast<int>(u(rng) * 255), static_cast<int>(u(rng) * 255), 30000 + static_cast<int>(u(rng) * 30000));
    } else if (x < 0.99) {
      bytes += std::fprintf(f, "(APIServer pid=3646) INFO %s [logger.py:41] Received request chatcmpl-%016lx: params: SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0, temperature=0.7, top_p=1.0, max_tokens=512), prompt_token_ids: None, lora_request: None.\n",
                            ts.c_str(), static_cast<unsigned long>(rng()));
    } else if (x < 0.998) {
      bytes += std::fprintf(f, "(APIServer pid=3646) INFO %s [async_llm.py:421] Aborted request chatcmpl-%016lx.\n",
                            ts.c_str(), static_cast<unsigned long>(rng()));
    } else if (x < 0.99999) {
      bytes += std::fprintf(f, "WARNING %s scheduler.py:1057] Sequence group %ld is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=%ld\n",
                            ts.c_str(), line, line / 50);
    } else {
      bytes += std::fprintf(f,
          "(EngineCore_DP0 pid=279) ERROR %s [core.py:710] Traceback (most recent call last):\n"
          "(EngineCore_DP0 pid=279) ERROR %s [core.py:710]   File \"/usr/lib/python3/dist-packages/vllm/v1/worker/gpu_model_runner.py\", line 1200, in execute_model\n"
          "(EngineCore_DP0 pid=279) ERROR %s [core.py:710]     logits = logits.to(torch.float32)\n"
          "(EngineCore_DP0 pid=279) ERROR %s [core.py:710] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 786.00 MiB. GPU 0 has a total capacity of 79.11 GiB of which 140.75 MiB is free. Of the allocated memory 68.83 GiB is allocated by PyTorch, and 331.08 MiB is reserved by PyTorch but unallocated.\n",
          ts.c_str(), ts.c_str(), ts.c_str(), ts.c_str());
    }
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  size_t mb = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
  std::string path = argc > 2 ? argv[2] : "/tmp/llmtriage_bench_vllm.log";
  build(path, mb << 20);
  // The same line kinds our parser extracts, as grep -E alternatives.
  std::string grep = "grep -cE 'Avg prompt throughput|Prefix cache hit rate: GPU|Available KV cache memory|"
                     "GPU KV cache size|Maximum concurrency for|Model loading took|Memory profiling|"
                     "CUDA graph pool memory|is preempted by|Aborted request|CUDA out of memory|Traceback|"
                     "max seq len|KV cache is needed|EngineCore encountered|non-default args|args: Namespace' '" + path + "'";
  double best_ours = 1e30, best_grep = 1e30, best_nosig = 1e30;
  llmtriage::ingest::EngineLogResult keep;
  for (int rep = 0; rep < 2; ++rep) {
    double t0 = now_s();
    auto r = llmtriage::ingest::parse_engine_log_file(path);
    double t1 = now_s();
    best_ours = std::min(best_ours, t1 - t0);
    if (rep == 0) keep = std::move(r).value();
    // The same parse without the signature table (data/diagnose/signatures.jsonl): its cost.
    llmtriage::ingest::LogParseOptions nosig;
    nosig.signatures = false;
    t0 = now_s();
    (void)llmtriage::ingest::parse_engine_log_file(path, nosig);
    t1 = now_s();
    best_nosig = std::min(best_nosig, t1 - t0);
    t0 = now_s();
    FILE* p = popen(grep.c_str(), "r");
    char buf[64] = {0};
    if (std::fgets(buf, sizeof buf, p) == nullptr) buf[0] = 0;
    pclose(p);
    t1 = now_s();
    best_grep = std::min(best_grep, t1 - t0);
    if (rep == 0) fmt::print("grep matched lines: {}", buf);
  }
  double size_mb = static_cast<double>(mb);
  fmt::print("file: {} ({} MiB, {} lines)\n", path, mb, keep.lines_total);
  fmt::print("ours: {} samples, {} events, {} parsed, {} other, {} unknown lines\n", keep.timeline.size(),
             keep.events.size(), keep.lines_parsed, keep.lines_other, keep.lines_unknown);
  fmt::print("ours  {:.3f} s  {:.0f} MiB/s ({} signature events)\n", best_ours, size_mb / best_ours,
             keep.signature_events.size());
  fmt::print("ours without signatures  {:.3f} s  {:.0f} MiB/s (signature scan costs {:.0f}%)\n", best_nosig,
             size_mb / best_nosig, 100.0 * (best_ours / best_nosig - 1));
  fmt::print("grep  {:.3f} s  {:.0f} MiB/s\n", best_grep, size_mb / best_grep);
  fmt::print("ratio ours/grep throughput: {:.2f} (target >= 0.5)\n", best_grep / best_ours);
  if (!(argc > 3 && std::string(argv[3]) == "keep")) std::remove(path.c_str());  // "keep": bench/diagnose_log_split.sh reuses it
  return 0;
}
