#pragma once
// GGUF files (llama.cpp, Ollama): the header, the metadata key/values and the tensor infos, read
// without loading a single weight. Format: ggml's docs/gguf.md (magic "GGUF", version, tensor
// count, KV count, KVs, tensor infos, aligned tensor data). Version 2 and 3 are read (v1 used
// 32-bit counts and is long gone); little-endian only.
//
// What the reader allocates is bounded by the bytes it was given, never by a count in the file:
// a corrupt length or count is an error naming the byte offset, not a gigabyte allocation.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/model.h"
#include "core/result.h"

namespace llmtriage::catalog {

// gguf_type (ggml/include/gguf.h): the value type of one metadata entry.
enum class GgufType : uint32_t {
  u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7,
  string = 8, array = 9, u64 = 10, i64 = 11, f64 = 12,
};
const char* to_string(GgufType t);

// One metadata value. Scalars keep their value; arrays keep only their element type and length
// (their payload is skipped: a 150k-token vocabulary costs nothing to keep).
struct GgufValue {
  GgufType type = GgufType::u8;
  uint64_t u = 0;       // unsigned integers and bool
  int64_t i = 0;        // signed integers
  double f = 0;         // f32 / f64
  std::string s;        // string
  GgufType array_type = GgufType::u8;
  uint64_t array_len = 0;

  bool is_integer() const;
  // The value as an integer when it is one (signed or unsigned, in range), else nullopt.
  std::optional<int64_t> as_int() const;
};

struct GgufKv {
  std::string key;
  GgufValue value;
};

struct GgufTensor {
  std::string name;             // "blk.0.attn_q.weight"
  std::vector<uint64_t> dims;   // ne[0..n_dims)
  uint32_t ggml_type = 0;       // enum ggml_type
  uint64_t offset = 0;          // from the start of the tensor data, as stored
  uint64_t bytes = 0;           // ggml_nbytes for a contiguous tensor: ne0/block x type_size x rows
};

// Weight bytes of one ggml type over the file's tensors.
struct GgufTypeTotal {
  uint32_t ggml_type = 0;
  std::string name;  // "f16", "q4_K" (ggml_type_name spelling)
  int64_t tensors = 0;
  uint64_t elements = 0;
  uint64_t bytes = 0;
};

struct GgufHeader {
  uint32_t version = 0;
  uint64_t tensor_count = 0;
  uint64_t kv_count = 0;
  std::vector<GgufKv> kvs;
  std::vector<GgufTensor> tensors;
  uint32_t alignment = 32;        // general.alignment, default GGUF_DEFAULT_ALIGNMENT
  uint64_t header_bytes = 0;      // where the tensor data starts (after padding to alignment)
  uint64_t weight_bytes = 0;      // sum of the tensors' bytes
  std::vector<GgufTypeTotal> by_type;  // ascending ggml type

  const GgufValue* find(std::string_view key) const;
  std::optional<int64_t> get_int(std::string_view key) const;
  std::optional<std::string> get_string(std::string_view key) const;
};

// ggml's type traits (ggml/src/ggml.c type_traits[]: blck_size, type_size). nullopt for a type
// id this reader does not know (removed or newer than it).
struct GgmlTypeTraits {
  const char* name;     // ggml_type_name spelling: "f32", "q4_0", "q4_K", "iq2_xxs", ...
  int64_t block_size;   // elements per block
  int64_t type_size;    // bytes per block
};
std::optional<GgmlTypeTraits> ggml_type_traits(uint32_t ggml_type);
// Looks a type up by its ggml name ("q8_0", "f16", "bf16"; case-insensitive).
std::optional<uint32_t> ggml_type_from_name(std::string_view name);

// llama_ftype (include/llama.h) -> its name as llama.cpp prints "file type" ("Q4_K - Medium" is
// printed; we give the quantize spelling "Q4_K_M"). "" for an unknown value.
std::string llama_ftype_name(uint32_t ftype);

// Parses a buffer holding the start of a GGUF file (at least header + metadata + tensor infos).
// `where` names the file in errors. A buffer cut short gives an error whose `found` says
// "end of data at byte N"; read_gguf_file uses that to read more.
core::Result<GgufHeader> parse_gguf(std::string_view bytes, const std::string& where);

// Reads a GGUF file's header from disk: the first 4 MiB, more (doubling) only while the header
// goes on, at most kGgufMaxHeaderBytes.
inline constexpr uint64_t kGgufMaxHeaderBytes = uint64_t{512} << 20;
core::Result<GgufHeader> read_gguf_file(const std::string& path);

// True when the path ends in .gguf (any case) or the file starts with the GGUF magic.
bool looks_like_gguf(const std::string& path);

// The model as the catalog describes it, from the metadata ({arch}.block_count, head counts,
// embedding/feed-forward/context lengths, key/value lengths, experts, vocabulary, file type)
// and the weights as stored (per layer, from the tensor infos). Errors name the missing key.
core::Result<ModelArch> model_from_gguf(const GgufHeader& h, const std::string& id, const std::string& where);

}  // namespace llmtriage::catalog
