// libFuzzer target: any bytes as a diagnosis JSON document (docs/diagnose-json.md) read back with
// report_from_json, then rendered by every renderer. Must never crash, hang or trip a sanitizer,
// and a document it accepts must survive a round trip unchanged (to_json . from_json is stable).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "report/diagnose_json.h"
#include "report/diagnose_markdown.h"
#include "report/diagnose_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  auto r = llmtriage::report::report_from_json(j, "fuzz");
  if (!r.ok()) return 0;
  llmtriage::report::TextOptions o;
  o.color = o.headings = size % 2 == 0;
  o.width = 20 + size % 100;
  (void)llmtriage::report::render_text(*r, o);
  (void)llmtriage::report::render_markdown(*r);
  const nlohmann::json once = llmtriage::report::to_json(*r);
  auto again = llmtriage::report::report_from_json(once, "fuzz round trip");
  if (!again.ok() || llmtriage::report::to_json(*again) != once) std::abort();
  return 0;
}
