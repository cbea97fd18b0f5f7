// libFuzzer target: any bytes through the record readers. The first byte picks the format (so
// every reader is reached, not only the one auto-detection prefers), the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/records.h"
#include "ingest/records_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using F = llmtriage::ingest::RecordFormat;
  static const F formats[] = {F::auto_detect, F::llmtriage, F::vllm_bench, F::sglang_bench, F::aiperf,
                              F::genai_perf, F::nginx, F::envoy, F::csv, F::jsonl};
  llmtriage::ingest::RecordReadOptions o;
  o.format = formats[data[0] % 10];
  o.max_line_bytes = 8192;
  if (data[0] & 0x80) {
    auto m = llmtriage::ingest::parse_column_map("arrival_s=a*0.001,ttft_s=b.c,status=s,input_tokens=i");
    if (m.ok()) o.columns = *m;
  }
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto r = llmtriage::ingest::read_records_text(text, o);
  auto s = llmtriage::ingest::summarize_records(r.records, {.unavailable = r.unavailable});
  (void)llmtriage::ingest::compare_summaries(s, s);
  for (const auto& rec : r.records) (void)llmtriage::ingest::to_bench_jsonl(rec);
  return 0;
}
