// The GGUF header reader: files built byte by byte here (valid v3, cut at every part, corrupt
// counts and lengths), and the real test model when LLMTRIAGE_LLAMA_MODEL names one.
#include <unistd.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "catalog/gguf.h"
#include "catalog/model.h"

namespace llmtriage::catalog {
namespace {

// Writes GGUF bytes (little-endian, as the format and our hosts are).
class GgufBytes {
 public:
  template <typename T>
  GgufBytes& raw(T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    s_.append(b, sizeof(T));
    return *this;
  }
  GgufBytes& str(const std::string& x) {
    raw<uint64_t>(x.size());
    s_ += x;
    return *this;
  }
  GgufBytes& header(uint32_t version, uint64_t tensors, uint64_t kvs) {
    s_ += "GGUF";
    return raw<uint32_t>(version).raw<uint64_t>(tensors).raw<uint64_t>(kvs);
  }
  GgufBytes& kv_u32(const std::string& k, uint32_t v) { return str(k).raw<uint32_t>(4).raw<uint32_t>(v); }
  GgufBytes& kv_str(const std::string& k, const std::string& v) { return str(k).raw<uint32_t>(8).str(v); }
  GgufBytes& kv_f32(const std::string& k, float v) { return str(k).raw<uint32_t>(6).raw<float>(v); }
  GgufBytes& kv_bool(const std::string& k, bool v) { return str(k).raw<uint32_t>(7).raw<uint8_t>(v ? 1 : 0); }
  GgufBytes& kv_str_array(const std::string& k, const std::vector<std::string>& xs) {
    str(k).raw<uint32_t>(9).raw<uint32_t>(8).raw<uint64_t>(xs.size());
    for (const auto& x : xs) str(x);
    return *this;
  }
  GgufBytes& kv_i32_array(const std::string& k, const std::vector<int32_t>& xs) {
    str(k).raw<uint32_t>(9).raw<uint32_t>(5).raw<uint64_t>(xs.size());
    for (auto x : xs) raw<int32_t>(x);
    return *this;
  }
  GgufBytes& tensor(const std::string& name, std::vector<uint64_t> dims, uint32_t type, uint64_t offset) {
    str(name).raw<uint32_t>(static_cast<uint32_t>(dims.size()));
    for (auto d : dims) raw<uint64_t>(d);
    return raw<uint32_t>(type).raw<uint64_t>(offset);
  }
  const std::string& bytes() const { return s_; }
  size_t size() const { return s_.size(); }

 private:
  std::string s_;
};

// A small llama-shaped model: 2 layers, 64 wide, 4 heads, 2 KV heads, a 5-token vocabulary.
GgufBytes tiny_model(size_t* kv_end = nullptr) {
  GgufBytes b;
  b.header(3, 5, 11)
      .kv_str("general.architecture", "llama")
      .kv_str("general.name", "unit")
      .kv_u32("general.file_type", 15)  // Q4_K_M
      .kv_u32("llama.block_count", 2)
      .kv_u32("llama.embedding_length", 64)
      .kv_u32("llama.feed_forward_length", 256)
      .kv_u32("llama.attention.head_count", 4)
      .kv_u32("llama.attention.head_count_kv", 2)
      .kv_u32("llama.context_length", 2048)
      .kv_f32("llama.rope.freq_base", 10000.0f)
      .kv_str_array("tokenizer.ggml.tokens", {"<s>", "</s>", "a", "b", "c"});
  if (kv_end) *kv_end = b.size();
  b.tensor("token_embd.weight", {64, 5}, 8, 0)          // q8_0: 64/32 x 34 x 5 = 340 B
      .tensor("blk.0.attn_q.weight", {256, 64}, 12, 352)  // q4_K: 256/256 x 144 x 64 = 9216 B
      .tensor("blk.1.attn_q.weight", {256, 64}, 12, 9568)
      .tensor("output_norm.weight", {64}, 0, 18784)       // f32: 256 B
      .tensor("output.weight", {64, 5}, 1, 19040);        // f16: 640 B
  return b;
}

TEST(Gguf, ReadsAValidV3File) {
  size_t kv_end = 0;
  GgufBytes b = tiny_model(&kv_end);
  auto h = parse_gguf(b.bytes(), "unit.gguf");
  ASSERT_TRUE(h.ok()) << h.error().message();
  EXPECT_EQ(h->version, 3u);
  EXPECT_EQ(h->kvs.size(), 11u);
  EXPECT_EQ(h->get_string("general.architecture"), "llama");
  EXPECT_EQ(h->get_int("llama.block_count"), 2);
  const GgufValue* tok = h->find("tokenizer.ggml.tokens");
  ASSERT_NE(tok, nullptr);
  EXPECT_EQ(tok->type, GgufType::array);
  EXPECT_EQ(tok->array_type, GgufType::string);
  EXPECT_EQ(tok->array_len, 5u);
  EXPECT_FLOAT_EQ(static_cast<float>(h->find("llama.rope.freq_base")->f), 10000.0f);
  ASSERT_EQ(h->tensors.size(), 5u);
  EXPECT_EQ(h->tensors[1].name, "blk.0.attn_q.weight");
  EXPECT_EQ(h->tensors[1].bytes, 9216u);
  EXPECT_EQ(h->weight_bytes, 340u + 2 * 9216u + 256u + 640u);
  EXPECT_EQ(h->header_bytes % 32, 0u);
  EXPECT_GE(h->header_bytes, b.size());
  ASSERT_EQ(h->by_type.size(), 4u);  // f32, f16, q8_0, q4_K in type order
  EXPECT_EQ(h->by_type[3].name, "q4_K");
  EXPECT_EQ(h->by_type[3].tensors, 2);
}

TEST(Gguf, MapsTheMetadataToTheModel) {
  auto h = parse_gguf(tiny_model().bytes(), "unit.gguf");
  ASSERT_TRUE(h.ok());
  auto m = model_from_gguf(*h, "unit.gguf", "unit.gguf");
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ(m->model_type, "llama");
  EXPECT_EQ(m->num_layers, 2);
  EXPECT_EQ(m->hidden_size, 64);
  EXPECT_EQ(m->num_attention_heads, 4);
  EXPECT_EQ(m->num_kv_heads, 2);
  EXPECT_EQ(m->head_dim, 16);    // no key_length: embedding / heads
  EXPECT_EQ(m->v_head_dim, 16);
  EXPECT_EQ(m->intermediate_size, 256);
  EXPECT_EQ(m->max_position_embeddings, 2048);
  EXPECT_EQ(m->vocab_size, 5);   // no llama.vocab_size: the token list's length
  EXPECT_FALSE(m->tie_word_embeddings);
  ASSERT_TRUE(m->file_weights);
  EXPECT_EQ(m->file_weights->file_type, "Q4_K_M");
  EXPECT_EQ(m->file_weights->input_bytes, 340);
  EXPECT_EQ(m->file_weights->output_bytes, 256 + 640);
  EXPECT_EQ(m->file_weights->layer_bytes, (std::vector<int64_t>{9216, 9216}));
  EXPECT_EQ(m->quant.method, "gguf Q4_K_M");
  EXPECT_EQ(m->torch_dtype, "float16");
}

TEST(Gguf, TypeTraitsAndFileTypes) {
  // ggml/src/ggml.c type_traits: (block size, bytes per block).
  struct Row { const char* name; int64_t blck, size; };
  for (const Row& r : {Row{"f32", 1, 4}, Row{"f16", 1, 2}, Row{"bf16", 1, 2}, Row{"q4_0", 32, 18}, Row{"q4_1", 32, 20},
                       Row{"q5_0", 32, 22}, Row{"q5_1", 32, 24}, Row{"q8_0", 32, 34}, Row{"q2_K", 256, 84},
                       Row{"q3_K", 256, 110}, Row{"q4_K", 256, 144}, Row{"q5_K", 256, 176}, Row{"q6_K", 256, 210},
                       Row{"iq4_nl", 32, 18}, Row{"iq4_xs", 256, 136}}) {
    auto id = ggml_type_from_name(r.name);
    ASSERT_TRUE(id) << r.name;
    auto t = ggml_type_traits(*id);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->block_size, r.blck) << r.name;
    EXPECT_EQ(t->type_size, r.size) << r.name;
  }
  EXPECT_FALSE(ggml_type_traits(4));  // Q4_2, removed from ggml
  EXPECT_EQ(llama_ftype_name(0), "F32");
  EXPECT_EQ(llama_ftype_name(1), "F16");
  EXPECT_EQ(llama_ftype_name(7), "Q8_0");
  EXPECT_EQ(llama_ftype_name(12), "Q3_K_M");
  EXPECT_EQ(llama_ftype_name(15), "Q4_K_M");
  EXPECT_EQ(llama_ftype_name(18), "Q6_K");
  EXPECT_EQ(llama_ftype_name(32), "BF16");
  EXPECT_EQ(llama_ftype_name(5), "");
}

// Every cut of the file before the end of its tensor infos is an "end of data" error at the
// byte where the cut falls, never a crash or a partial header.
TEST(Gguf, TruncatedAtAnyOffsetSaysWhere) {
  GgufBytes b = tiny_model();
  for (size_t cut = 0; cut < b.size(); ++cut) {
    auto h = parse_gguf(std::string_view(b.bytes()).substr(0, cut), "cut.gguf");
    ASSERT_FALSE(h.ok()) << "cut at " << cut;
    EXPECT_EQ(h.error().found, "end of data at byte " + std::to_string(cut)) << h.error().message();
    EXPECT_EQ(h.error().where.rfind("cut.gguf byte ", 0), 0u) << h.error().where;
  }
}

struct BadCase {
  const char* name;
  std::string bytes;
  const char* where;     // "x.gguf byte N"
  const char* expected;  // substring of expected
  const char* found;
};

std::vector<BadCase> bad_cases() {
  std::vector<BadCase> v;
  {
    GgufBytes b;
    b.raw<uint32_t>(0x464c457f).raw<uint32_t>(3);
    v.push_back({"bad magic", b.bytes(), "x.gguf byte 0", "the magic \"GGUF\"", "\"\\x7fELF\""});
  }
  {
    GgufBytes b;
    b.header(1, 0, 0);
    v.push_back({"version 1", b.bytes(), "x.gguf byte 4", "GGUF version 2 or 3", "version 1"});
  }
  {
    GgufBytes b;
    b.header(0x03000000, 0, 0);
    v.push_back({"big-endian", b.bytes(), "x.gguf byte 4", "little-endian", "version 50331648 (0x03000000, a big-endian file?)"});
  }
  {
    GgufBytes b;
    b.header(3, uint64_t{1} << 40, 0);
    v.push_back({"absurd tensor count", b.bytes(), "x.gguf byte 8", "a tensor count of at most", "1099511627776"});
  }
  {
    GgufBytes b;
    b.header(3, 0, ~uint64_t{0});
    v.push_back({"absurd kv count", b.bytes(), "x.gguf byte 16", "a key/value count of at most", "18446744073709551615"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).raw<uint64_t>(uint64_t{1} << 33);
    v.push_back({"absurd key length", b.bytes(), "x.gguf byte 24", "a metadata key: a length of at most 65535", "length 8589934592"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).str("general.name").raw<uint32_t>(8).raw<uint64_t>(uint64_t{1} << 50);
    v.push_back({"absurd string length", b.bytes(), "x.gguf byte 48", "value of general.name: a length of at most",
                 "length 1125899906842624"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).str("tokenizer.ggml.tokens").raw<uint32_t>(9).raw<uint32_t>(8).raw<uint64_t>(uint64_t{1} << 60);
    v.push_back({"absurd array length", b.bytes(), "x.gguf byte 61", "array of tokenizer.ggml.tokens: at most",
                 "1152921504606846976"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).str("k").raw<uint32_t>(13);
    v.push_back({"unknown value type", b.bytes(), "x.gguf byte 33", "a gguf value type (0-12) for k", "13"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).str("k").raw<uint32_t>(9).raw<uint32_t>(9).raw<uint64_t>(1);
    v.push_back({"nested array", b.bytes(), "x.gguf byte 37", "nested arrays are not GGUF", "9"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 2).kv_u32("a", 1).kv_u32("a", 2);
    v.push_back({"duplicate key", b.bytes(), "x.gguf byte 41", "unique metadata keys", "'a' twice"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).str("b").raw<uint32_t>(7).raw<uint8_t>(2);
    v.push_back({"bad bool", b.bytes(), "x.gguf byte 37", "value of b: a bool (0 or 1)", "2"});
  }
  {
    GgufBytes b;
    b.header(3, 0, 1).kv_u32("general.alignment", 24);
    v.push_back({"alignment not a power of two", b.bytes(), "x.gguf byte 24", "general.alignment: a u32 power of two", "u32 24"});
  }
  {
    GgufBytes b;
    b.header(3, 1, 0).str("t").raw<uint32_t>(5);
    v.push_back({"too many dims", b.bytes(), "x.gguf byte 33", "n_dims of tensor 't' in 1..4", "5"});
  }
  {
    GgufBytes b;
    b.header(3, 1, 0).tensor("t", {64}, 99, 0);
    v.push_back({"unknown ggml type", b.bytes(), "x.gguf byte 45", "a ggml type this reader knows for tensor 't'", "99"});
  }
  {
    GgufBytes b;
    b.header(3, 1, 0).tensor("t", {48}, 2, 0);
    v.push_back({"row not a block multiple", b.bytes(), "x.gguf byte 33", "a multiple of the q4_0 block size 32", "48"});
  }
  {
    GgufBytes b;
    b.header(3, 1, 0).tensor("t", {64}, 0, 7);
    v.push_back({"misaligned offset", b.bytes(), "x.gguf byte 49", "a multiple of the alignment 32", "7"});
  }
  {
    GgufBytes b;
    b.header(3, 1, 0).tensor("t", {uint64_t{1} << 40, uint64_t{1} << 40}, 0, 0);
    v.push_back({"dims overflow", b.bytes(), "x.gguf byte 45", "product fits in 63 bits", "1099511627776"});
  }
  return v;
}

TEST(Gguf, MalformedInputsNameExpectedFoundAndOffset) {
  for (const auto& c : bad_cases()) {
    auto h = parse_gguf(c.bytes, "x.gguf");
    ASSERT_FALSE(h.ok()) << c.name;
    EXPECT_EQ(h.error().where, c.where) << c.name << ": " << h.error().message();
    EXPECT_NE(h.error().expected.find(c.expected), std::string::npos) << c.name << ": " << h.error().message();
    EXPECT_EQ(h.error().found, c.found) << c.name << ": " << h.error().message();
  }
}

TEST(Gguf, MissingArchitectureKeysAreNamed) {
  GgufBytes b;
  b.header(3, 0, 2).kv_str("general.architecture", "qwen2").kv_u32("qwen2.block_count", 4);
  auto h = parse_gguf(b.bytes(), "q.gguf");
  ASSERT_TRUE(h.ok());
  auto m = model_from_gguf(*h, "q.gguf", "q.gguf");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().expected.find("qwen2.embedding_length"), std::string::npos) << m.error().message();
}

TEST(Gguf, PerLayerKvHeadsAreAnUpperBoundWithANote) {
  GgufBytes b;
  b.header(3, 0, 5)
      .kv_str("general.architecture", "openelm")
      .kv_u32("openelm.block_count", 2)
      .kv_u32("openelm.embedding_length", 128)
      .kv_u32("openelm.attention.head_count", 8)
      .kv_i32_array("openelm.attention.head_count_kv", {2, 4});
  auto h = parse_gguf(b.bytes(), "e.gguf");
  ASSERT_TRUE(h.ok()) << h.error().message();
  auto m = model_from_gguf(*h, "e.gguf", "e.gguf");
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ(m->num_kv_heads, 8);
  ASSERT_FALSE(m->notes.empty());
  EXPECT_NE(m->notes.front().find("per layer"), std::string::npos);
}

TEST(Gguf, LoadModelReadsAGgufPathAndSaysWhenItIsMissing) {
  const auto path = std::filesystem::temp_directory_path() / ("llmtriage_gguf_test_" + std::to_string(::getpid()) + ".gguf");
  {
    std::ofstream f(path, std::ios::binary);
    const GgufBytes model = tiny_model();
    const std::string& b = model.bytes();
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  }
  auto m = load_model(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ(m->num_kv_heads, 2);
  EXPECT_TRUE(m->file_weights);
  auto missing = load_model("/nonexistent/dir/model-Q4_K_M.gguf");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().expected, "an existing GGUF file");
}

// The real test model (llama arch, 4 layers, 256 wide, 4 heads, 2 KV heads, context 4096, F16):
// the numbers llama.cpp's loader printed for it (35.76 MiB of tensors, 9 f32 + 30 f16 tensors).
TEST(Gguf, RealTinyModel) {
  const char* path = std::getenv("LLMTRIAGE_LLAMA_MODEL");
  if (!path || !*path) GTEST_SKIP() << "LLMTRIAGE_LLAMA_MODEL unset: no real GGUF to read";
  auto h = read_gguf_file(path);
  ASSERT_TRUE(h.ok()) << h.error().message();
  EXPECT_EQ(h->version, 3u);
  EXPECT_EQ(h->kv_count, 26u);
  EXPECT_EQ(h->tensor_count, 39u);
  ASSERT_EQ(h->by_type.size(), 2u);
  EXPECT_EQ(h->by_type[0].name, "f32");
  EXPECT_EQ(h->by_type[0].tensors, 9);
  EXPECT_EQ(h->by_type[1].name, "f16");
  EXPECT_EQ(h->by_type[1].tensors, 30);
  EXPECT_NEAR(static_cast<double>(h->weight_bytes) / (1024.0 * 1024.0), 35.76, 0.005);
  // Header + tensor data = the file: nothing unread, nothing invented.
  EXPECT_EQ(h->header_bytes + h->weight_bytes, std::filesystem::file_size(path));
  auto m = load_model(path);
  ASSERT_TRUE(m.ok()) << m.error().message();
  EXPECT_EQ(m->model_type, "llama");
  EXPECT_EQ(m->num_layers, 4);
  EXPECT_EQ(m->hidden_size, 256);
  EXPECT_EQ(m->num_attention_heads, 4);
  EXPECT_EQ(m->num_kv_heads, 2);
  EXPECT_EQ(m->head_dim, 64);
  EXPECT_EQ(m->intermediate_size, 512);
  EXPECT_EQ(m->max_position_embeddings, 4096);
  EXPECT_EQ(m->vocab_size, 32000);
  ASSERT_TRUE(m->file_weights);
  EXPECT_EQ(m->file_weights->file_type, "F16");
  EXPECT_EQ(m->torch_dtype, "float16");
}

}  // namespace
}  // namespace llmtriage::catalog
