// GGUF header reader. Layout (ggml docs/gguf.md; ggml/src/gguf.cpp gguf_init_from_file_impl):
//   "GGUF" | u32 version | u64 n_tensors | u64 n_kv
//   n_kv x { string key | u32 gguf_type | value }            string = u64 length + bytes
//   n_tensors x { string name | u32 n_dims | n_dims x u64 ne | u32 ggml_type | u64 offset }
//   padding to general.alignment (default 32) | tensor data
// Every read checks the bytes left first; counts and lengths are checked against limits before
// anything is reserved, so a corrupt file gives an error with its byte offset.
#include "catalog/gguf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>

namespace llmtriage::catalog {
namespace {

constexpr uint64_t kGgufMaxTensors = uint64_t{1} << 20;  // the largest models hold ~10^5
constexpr uint64_t kGgufMaxKvs = uint64_t{1} << 20;
constexpr uint64_t kGgufMaxKeyBytes = 65535;             // docs/gguf.md: keys at most 2^16-1 bytes
constexpr uint64_t kGgufMaxStringBytes = uint64_t{64} << 20;
constexpr uint32_t kGgmlMaxDims = 4;                     // GGML_MAX_DIMS

// ggml/src/ggml.c type_traits[] (blck_size, type_size), block structs in ggml/src/ggml-common.h
// (QK4_0 = QK8_0 = 32, QK_K = 256). Ids 4, 5, 31-33 and 36-38 were removed from ggml.
struct GgmlTypeRow {
  uint32_t id;
  GgmlTypeTraits t;
};
constexpr GgmlTypeRow kGgmlTypes[] = {
    {0, {"f32", 1, 4}},        {1, {"f16", 1, 2}},        {2, {"q4_0", 32, 18}},     {3, {"q4_1", 32, 20}},
    {6, {"q5_0", 32, 22}},     {7, {"q5_1", 32, 24}},     {8, {"q8_0", 32, 34}},     {9, {"q8_1", 32, 36}},
    {10, {"q2_K", 256, 84}},   {11, {"q3_K", 256, 110}},  {12, {"q4_K", 256, 144}},  {13, {"q5_K", 256, 176}},
    {14, {"q6_K", 256, 210}},  {15, {"q8_K", 256, 292}},  {16, {"iq2_xxs", 256, 66}}, {17, {"iq2_xs", 256, 74}},
    {18, {"iq3_xxs", 256, 98}}, {19, {"iq1_s", 256, 50}}, {20, {"iq4_nl", 32, 18}},  {21, {"iq3_s", 256, 110}},
    {22, {"iq2_s", 256, 82}},  {23, {"iq4_xs", 256, 136}}, {24, {"i8", 1, 1}},       {25, {"i16", 1, 2}},
    {26, {"i32", 1, 4}},       {27, {"i64", 1, 8}},       {28, {"f64", 1, 8}},       {29, {"iq1_m", 256, 56}},
    {30, {"bf16", 1, 2}},      {34, {"tq1_0", 256, 54}},  {35, {"tq2_0", 256, 66}},  {39, {"mxfp4", 32, 17}},
};

// include/llama.h enum llama_ftype (LLAMA_FTYPE_MOSTLY_*), in llama-quantize's spelling.
struct FtypeRow {
  uint32_t id;
  const char* name;
};
constexpr FtypeRow kLlamaFtypes[] = {
    {0, "F32"},      {1, "F16"},      {2, "Q4_0"},     {3, "Q4_1"},     {7, "Q8_0"},     {8, "Q5_0"},
    {9, "Q5_1"},     {10, "Q2_K"},    {11, "Q3_K_S"},  {12, "Q3_K_M"},  {13, "Q3_K_L"},  {14, "Q4_K_S"},
    {15, "Q4_K_M"},  {16, "Q5_K_S"},  {17, "Q5_K_M"},  {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"},
    {21, "Q2_K_S"},  {22, "IQ3_XS"},  {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"},  {26, "IQ3_S"},
    {27, "IQ3_M"},   {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"},  {31, "IQ1_M"},   {32, "BF16"},
    {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4_MOE"},
};

// Fixed sizes of the scalar gguf types (0 = not a scalar).
uint64_t gguf_scalar_size(GgufType t) {
  switch (t) {
    case GgufType::u8:
    case GgufType::i8:
    case GgufType::boolean: return 1;
    case GgufType::u16:
    case GgufType::i16: return 2;
    case GgufType::u32:
    case GgufType::i32:
    case GgufType::f32: return 4;
    case GgufType::u64:
    case GgufType::i64:
    case GgufType::f64: return 8;
    case GgufType::string:
    case GgufType::array: return 0;
  }
  return 0;
}

// A bounds-checked little-endian reader over the buffer. The first failure is kept; later reads
// return zeros, so the parser can check once per record.
class GgufCursor {
 public:
  GgufCursor(std::string_view d, const std::string& where) : d_(d), where_(where) {}
  uint64_t pos() const { return pos_; }
  uint64_t left() const { return d_.size() - pos_; }
  bool failed() const { return err_.has_value(); }
  const core::Error& error() const { return *err_; }

  void fail(uint64_t at, const std::string& expected, const std::string& found) {
    if (!err_) err_ = core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where_, at), expected, found);
  }
  // Truncation: the found text starts with "end of data" (read_gguf_file reads more on it).
  bool need(uint64_t n, const char* what) {
    if (failed()) return false;
    if (n > left()) {
      fail(pos_, fmt::format("{} ({} bytes)", what, n), fmt::format("end of data at byte {}", d_.size()));
      return false;
    }
    return true;
  }
  template <typename T>
  T get(const char* what) {
    T v{};
    if (!need(sizeof(T), what)) return v;
    std::memcpy(&v, d_.data() + pos_, sizeof(T));  // GGUF is little-endian, as every host we build on
    pos_ += sizeof(T);
    return v;
  }
  void skip(uint64_t n, const char* what) {
    if (need(n, what)) pos_ += n;
  }
  std::string string(const char* what, uint64_t max_len) {
    const uint64_t at = pos_;
    const uint64_t n = get<uint64_t>(what);
    if (failed()) return {};
    if (n > max_len) {
      fail(at, fmt::format("{}: a length of at most {} bytes", what, max_len), fmt::format("length {}", n));
      return {};
    }
    if (!need(n, what)) return {};
    std::string s(d_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // Skips a string without copying it (array payloads).
  void skip_string(const char* what) {
    const uint64_t at = pos_;
    const uint64_t n = get<uint64_t>(what);
    if (failed()) return;
    if (n > kGgufMaxStringBytes) {
      fail(at, fmt::format("{}: a length of at most {} bytes", what, kGgufMaxStringBytes), fmt::format("length {}", n));
      return;
    }
    skip(n, what);
  }

 private:
  std::string_view d_;
  const std::string& where_;
  uint64_t pos_ = 0;
  std::optional<core::Error> err_;
};

bool gguf_known_type(uint32_t t) { return t <= static_cast<uint32_t>(GgufType::f64); }

void gguf_read_value(GgufCursor& c, GgufType t, GgufValue& v, const std::string& key) {
  const std::string what = "value of " + key;
  switch (t) {
    case GgufType::u8: v.u = c.get<uint8_t>(what.c_str()); break;
    case GgufType::i8: v.i = c.get<int8_t>(what.c_str()); break;
    case GgufType::u16: v.u = c.get<uint16_t>(what.c_str()); break;
    case GgufType::i16: v.i = c.get<int16_t>(what.c_str()); break;
    case GgufType::u32: v.u = c.get<uint32_t>(what.c_str()); break;
    case GgufType::i32: v.i = c.get<int32_t>(what.c_str()); break;
    case GgufType::u64: v.u = c.get<uint64_t>(what.c_str()); break;
    case GgufType::i64: v.i = c.get<int64_t>(what.c_str()); break;
    case GgufType::f32: v.f = c.get<float>(what.c_str()); break;
    case GgufType::f64: v.f = c.get<double>(what.c_str()); break;
    case GgufType::boolean: {
      const uint64_t at = c.pos();
      uint8_t b = c.get<uint8_t>(what.c_str());
      if (!c.failed() && b > 1) c.fail(at, what + ": a bool (0 or 1)", std::to_string(b));
      v.u = b;
      break;
    }
    case GgufType::string: v.s = c.string(what.c_str(), kGgufMaxStringBytes); break;
    case GgufType::array: {
      const uint64_t at = c.pos();
      const uint32_t et = c.get<uint32_t>("array element type");
      const uint64_t n = c.get<uint64_t>("array length");
      if (c.failed()) return;
      if (!gguf_known_type(et) || et == static_cast<uint32_t>(GgufType::array)) {
        c.fail(at, "an array element type (0-8 or 10-12; nested arrays are not GGUF)", std::to_string(et));
        return;
      }
      v.array_type = static_cast<GgufType>(et);
      v.array_len = n;
      if (v.array_type == GgufType::string) {
        // Each element is at least its 8-byte length: a count beyond that cannot be real.
        if (n > kGgufMaxHeaderBytes / 8) {
          c.fail(at + 4, fmt::format("array of {}: at most {} strings", key, kGgufMaxHeaderBytes / 8), std::to_string(n));
          return;
        }
        for (uint64_t k = 0; k < n && !c.failed(); ++k) c.skip_string("array string");
      } else {
        const uint64_t sz = gguf_scalar_size(v.array_type);
        if (n > kGgufMaxHeaderBytes / sz) {
          c.fail(at + 4, fmt::format("array of {}: at most {} elements", key, kGgufMaxHeaderBytes / sz), std::to_string(n));
          return;
        }
        c.skip(n * sz, "array payload");
      }
      break;
    }
  }
}

uint64_t pad_to(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

}  // namespace

const char* to_string(GgufType t) {
  switch (t) {
    case GgufType::u8: return "u8";
    case GgufType::i8: return "i8";
    case GgufType::u16: return "u16";
    case GgufType::i16: return "i16";
    case GgufType::u32: return "u32";
    case GgufType::i32: return "i32";
    case GgufType::f32: return "f32";
    case GgufType::boolean: return "bool";
    case GgufType::string: return "str";
    case GgufType::array: return "arr";
    case GgufType::u64: return "u64";
    case GgufType::i64: return "i64";
    case GgufType::f64: return "f64";
  }
  return "?";
}

bool GgufValue::is_integer() const {
  switch (type) {
    case GgufType::u8:
    case GgufType::i8:
    case GgufType::u16:
    case GgufType::i16:
    case GgufType::u32:
    case GgufType::i32:
    case GgufType::u64:
    case GgufType::i64: return true;
    case GgufType::f32:
    case GgufType::boolean:
    case GgufType::string:
    case GgufType::array:
    case GgufType::f64: return false;
  }
  return false;
}

std::optional<int64_t> GgufValue::as_int() const {
  if (!is_integer()) return std::nullopt;
  if (type == GgufType::i8 || type == GgufType::i16 || type == GgufType::i32 || type == GgufType::i64) return i;
  if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return static_cast<int64_t>(u);
}

const GgufValue* GgufHeader::find(std::string_view key) const {
  for (const auto& kv : kvs)
    if (kv.key == key) return &kv.value;
  return nullptr;
}

std::optional<int64_t> GgufHeader::get_int(std::string_view key) const {
  const GgufValue* v = find(key);
  return v ? v->as_int() : std::nullopt;
}

std::optional<std::string> GgufHeader::get_string(std::string_view key) const {
  const GgufValue* v = find(key);
  if (!v || v->type != GgufType::string) return std::nullopt;
  return v->s;
}

std::optional<GgmlTypeTraits> ggml_type_traits(uint32_t ggml_type) {
  for (const auto& r : kGgmlTypes)
    if (r.id == ggml_type) return r.t;
  return std::nullopt;
}

std::optional<uint32_t> ggml_type_from_name(std::string_view name) {
  for (const auto& r : kGgmlTypes) {
    std::string_view n = r.t.name;
    if (n.size() != name.size()) continue;
    bool eq = true;
    for (size_t k = 0; k < n.size() && eq; ++k)
      eq = std::tolower(static_cast<unsigned char>(n[k])) == std::tolower(static_cast<unsigned char>(name[k]));
    if (eq) return r.id;
  }
  return std::nullopt;
}

std::string llama_ftype_name(uint32_t ftype) {
  for (const auto& r : kLlamaFtypes)
    if (r.id == ftype) return r.name;
  return "";
}

core::Result<GgufHeader> parse_gguf(std::string_view bytes, const std::string& where) {
  GgufCursor c(bytes, where);
  GgufHeader h;
  if (!c.need(4, "the magic \"GGUF\"")) return c.error();
  if (bytes.substr(0, 4) != "GGUF") {
    std::string found;
    for (char ch : bytes.substr(0, 4))
      found += std::isprint(static_cast<unsigned char>(ch)) ? std::string(1, ch) : fmt::format("\\x{:02x}", static_cast<unsigned char>(ch));
    return core::make_error(core::ErrorKind::input, where + " byte 0", "the magic \"GGUF\" (a GGUF model file)",
                            "\"" + found + "\"");
  }
  c.skip(4, "magic");
  h.version = c.get<uint32_t>("the version");
  if (c.failed()) return c.error();
  if (h.version == 1)
    return core::make_error(core::ErrorKind::input, where + " byte 4", "GGUF version 2 or 3", "version 1",
                            "GGUF v1 (2023, 32-bit counts) is not read; convert the file with a current llama.cpp.");
  if (h.version != 2 && h.version != 3)
    return core::make_error(core::ErrorKind::input, where + " byte 4", "GGUF version 2 or 3 (little-endian)",
                            fmt::format("version {} (0x{:08x}{})", h.version, h.version,
                                        (h.version & 0xffff) == 0 ? ", a big-endian file?" : ""));
  h.tensor_count = c.get<uint64_t>("the tensor count");
  h.kv_count = c.get<uint64_t>("the metadata key/value count");
  if (c.failed()) return c.error();
  if (h.tensor_count > kGgufMaxTensors)
    return core::make_error(core::ErrorKind::input, where + " byte 8", fmt::format("a tensor count of at most {}", kGgufMaxTensors),
                            std::to_string(h.tensor_count));
  if (h.kv_count > kGgufMaxKvs)
    return core::make_error(core::ErrorKind::input, where + " byte 16", fmt::format("a key/value count of at most {}", kGgufMaxKvs),
                            std::to_string(h.kv_count));

  std::set<std::string> keys;
  for (uint64_t k = 0; k < h.kv_count; ++k) {
    const uint64_t at = c.pos();
    GgufKv kv;
    kv.key = c.string("a metadata key", kGgufMaxKeyBytes);
    const uint64_t type_at = c.pos();
    const uint32_t t = c.get<uint32_t>("a value type");
    if (c.failed()) return c.error();
    if (!keys.insert(kv.key).second)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, at), "unique metadata keys",
                              "'" + kv.key + "' twice");
    if (!gguf_known_type(t))
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, type_at),
                              "a gguf value type (0-12) for " + kv.key, std::to_string(t));
    kv.value.type = static_cast<GgufType>(t);
    gguf_read_value(c, kv.value.type, kv.value, kv.key);
    if (c.failed()) return c.error();
    if (kv.key == "general.alignment") {
      auto a = kv.value.as_int();
      if (kv.value.type != GgufType::u32 || !a || *a == 0 || (*a & (*a - 1)) != 0)
        return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, at),
                                "general.alignment: a u32 power of two", to_string(kv.value.type) + std::string(" ") +
                                                                            std::to_string(a.value_or(-1)));
      h.alignment = static_cast<uint32_t>(*a);
    }
    h.kvs.push_back(std::move(kv));
  }

  // Tensor infos: at least 8 (name length) + 4 + 8 + 4 + 8 bytes each.
  h.tensors.reserve(std::min<uint64_t>(h.tensor_count, c.left() / 32));
  std::set<std::string> names;
  std::map<uint32_t, GgufTypeTotal> totals;
  for (uint64_t k = 0; k < h.tensor_count; ++k) {
    const uint64_t at = c.pos();
    GgufTensor t;
    t.name = c.string("a tensor name", kGgufMaxKeyBytes);
    const uint64_t dims_at = c.pos();
    const uint32_t n_dims = c.get<uint32_t>("n_dims");
    if (c.failed()) return c.error();
    if (n_dims == 0 || n_dims > kGgmlMaxDims)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, dims_at),
                              fmt::format("n_dims of tensor '{}' in 1..{}", t.name, kGgmlMaxDims), std::to_string(n_dims));
    uint64_t elements = 1;
    for (uint32_t d = 0; d < n_dims; ++d) {
      const uint64_t ne_at = c.pos();
      uint64_t ne = c.get<uint64_t>("a tensor dimension");
      if (c.failed()) return c.error();
      if (ne > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ||
          (ne != 0 && elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / ne))
        return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, ne_at),
                                fmt::format("dimensions of tensor '{}' whose product fits in 63 bits", t.name),
                                std::to_string(ne));
      elements *= ne;
      t.dims.push_back(ne);
    }
    const uint64_t type_at = c.pos();
    t.ggml_type = c.get<uint32_t>("a ggml type");
    t.offset = c.get<uint64_t>("a tensor data offset");
    if (c.failed()) return c.error();
    auto tr = ggml_type_traits(t.ggml_type);
    if (!tr)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, type_at),
                              fmt::format("a ggml type this reader knows for tensor '{}'", t.name),
                              std::to_string(t.ggml_type));
    if (t.dims[0] % static_cast<uint64_t>(tr->block_size) != 0)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, dims_at),
                              fmt::format("ne[0] of tensor '{}' a multiple of the {} block size {}", t.name, tr->name,
                                          tr->block_size),
                              std::to_string(t.dims[0]));
    if (t.offset % h.alignment != 0)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, type_at + 4),
                              fmt::format("the data offset of tensor '{}' a multiple of the alignment {}", t.name, h.alignment),
                              std::to_string(t.offset));
    if (!names.insert(t.name).second)
      return core::make_error(core::ErrorKind::input, fmt::format("{} byte {}", where, at), "unique tensor names",
                              "'" + t.name + "' twice");
    t.bytes = elements / static_cast<uint64_t>(tr->block_size) * static_cast<uint64_t>(tr->type_size);
    h.weight_bytes += t.bytes;
    GgufTypeTotal& tot = totals[t.ggml_type];
    tot.ggml_type = t.ggml_type;
    tot.name = tr->name;
    tot.tensors += 1;
    tot.elements += elements;
    tot.bytes += t.bytes;
    h.tensors.push_back(std::move(t));
  }
  h.header_bytes = pad_to(c.pos(), h.alignment);
  for (auto& [id, tot] : totals) h.by_type.push_back(tot);
  return h;
}

bool looks_like_gguf(const std::string& path) {
  if (path.size() >= 5) {
    std::string ext = path.substr(path.size() - 5);
    for (auto& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (ext == ".gguf") return true;
  }
  std::ifstream f(path, std::ios::binary);
  char magic[4] = {};
  return f.read(magic, 4) && std::memcmp(magic, "GGUF", 4) == 0;
}

core::Result<GgufHeader> read_gguf_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f)
    return core::make_error(core::ErrorKind::not_found, path, "a readable GGUF file", "no such file (or not readable)");
  const uint64_t size = static_cast<uint64_t>(f.tellg());
  uint64_t want = std::min<uint64_t>(size, uint64_t{4} << 20);
  std::string buf;
  for (;;) {
    buf.resize(want);
    f.seekg(0);
    if (!f.read(buf.data(), static_cast<std::streamsize>(want)))
      return core::make_error(core::ErrorKind::input, path, fmt::format("{} readable bytes", want), "a read error");
    auto h = parse_gguf(buf, path);
    if (h.ok()) return h;
    const bool cut = h.error().found.rfind("end of data", 0) == 0;
    if (!cut || want >= size) {
      core::Error e = std::move(h).error();
      if (cut) e.detail = fmt::format("The file ends after {} bytes, inside its header: a partial download?", size);
      return e;
    }
    if (want >= kGgufMaxHeaderBytes)
      return core::make_error(core::ErrorKind::input, path,
                              fmt::format("a GGUF header (metadata and tensor infos) within {} MiB", kGgufMaxHeaderBytes >> 20),
                              "a header that goes on past it");
    want = std::min({size, want * 2, kGgufMaxHeaderBytes});
  }
}

}  // namespace llmtriage::catalog
