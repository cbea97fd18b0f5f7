// libFuzzer target: the GGUF header reader and its mapping to the model on arbitrary bytes. Any
// crash, hang, sanitizer report, allocation beyond the input's size or broken invariant (tensor
// bytes that do not add up, a header ending past the input) is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "catalog/gguf.h"

using namespace llmtriage::catalog;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto h = parse_gguf(bytes, "fuzz.gguf");
  if (!h.ok()) {
    if (h.error().where.rfind("fuzz.gguf byte ", 0) != 0) std::abort();  // every error names its offset
    return 0;
  }
  if (h->tensors.size() != h->tensor_count || h->kvs.size() != h->kv_count) std::abort();
  if (h->header_bytes > size + h->alignment) std::abort();
  uint64_t sum = 0, by_type = 0;
  for (const auto& t : h->tensors) sum += t.bytes;
  for (const auto& t : h->by_type) by_type += t.bytes;
  if (sum != h->weight_bytes || by_type != sum) std::abort();
  auto m = model_from_gguf(*h, "fuzz.gguf", "fuzz.gguf");
  if (m.ok() && (m->num_layers <= 0 || m->num_attention_heads <= 0 || !m->file_weights)) std::abort();
  return 0;
}
