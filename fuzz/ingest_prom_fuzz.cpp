// libFuzzer target: the Prometheus text parser, the engine adapters and the DCGM reader on
// arbitrary bytes, lenient and strict. Any crash, hang, sanitizer report or broken invariant
// (views outside the input or the parser's buffer) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ingest/gpu_dcgm.h"
#include "ingest/metrics_engine.h"
#include "ingest/metrics_quantile.h"
#include "ingest/prom_parser.h"

using namespace llmtriage::ingest;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool strict : {false, true}) {
    PromOptions opt;
    opt.strict = strict;
    opt.openmetrics = size % 2 == 0;
    PromParser p(text, opt);
    size_t entries = 0;
    for (PromEntry e; (e = p.next()) != PromEntry::end;) {
      if (++entries > size + 2) std::abort();  // at most one entry per line
      if (e == PromEntry::series) {
        if (p.name().empty()) std::abort();
        for (const auto& l : p.labels())
          if (l.name.empty()) std::abort();
        (void)p.value();
        (void)p.timestamp_s();
      }
    }
    if (p.malformed_count() < p.errors().size()) std::abort();
    (void)p.malformed_summary();
    (void)p.first_error();
  }
  auto r = adapt_engine_metrics(text, 0, {});
  if (r.ok()) {
    for (const auto& s : r->samples) {
      for (double q : {0.0, 0.5, 0.99, 1.0}) (void)histogram_quantile(q, s.ttft_s);
      (void)histogram_delta(s.ttft_s, s.ttft_s);
    }
  }
  (void)gpu_samples_from_exposition(text, 0);
  return 0;
}
