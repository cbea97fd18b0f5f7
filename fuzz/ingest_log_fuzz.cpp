// libFuzzer target: any bytes through the engine log parser (all engines' matchers, traceback
// grouping, timestamps). Must never crash, hang or trip a sanitizer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/engine_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  llmtriage::ingest::LogParseOptions o;
  o.max_line_bytes = 4096;
  o.max_traceback_bytes = 1024;
  auto r = llmtriage::ingest::parse_engine_log_text(text, o);
  (void)llmtriage::ingest::describe(r);
  (void)llmtriage::ingest::merged_startup_fields(r);
  return 0;
}
