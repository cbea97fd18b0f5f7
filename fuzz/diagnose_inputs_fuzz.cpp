// libFuzzer target: arbitrary bytes as the operator's inputs to a diagnosis — each line an
// --observe reading, the whole text a --thresholds file and the pasted --engine-args, the first
// line a --slo spec, every line a sampled output — then the whole traversal (indicators,
// symptoms, every analyzer, triangulation, ranking). Must never crash, hang, trip a sanitizer, or leave a confidence/explains outside [0, 1].
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "diagnose/diagnose.h"

using namespace llmtriage::diagnose;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  DiagnoseInput in;
  (void)load_thresholds(in.thresholds, std::string(text), "fuzz");
  size_t pos = 0;
  bool first = true;
  while (pos < text.size() && in.now.outputs.size() < 64) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string line(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (first) (void)parse_slo(in.slo, line);
    first = false;
    (void)add_observation(in.observations, line, "fuzz");
    in.now.outputs.push_back(line);
  }
  in.launch_text = std::string(text);
  in.live = size % 2 == 1;
  const Report r = diagnose(in);
  for (const auto& f : r.findings) {
    if (!(f.confidence >= 0 && f.confidence <= 1)) std::abort();
    if (f.explains && !(*f.explains >= 0 && *f.explains <= 1)) std::abort();
  }
  if (r.layers.size() != all_layers().size()) std::abort();
  return 0;
}
