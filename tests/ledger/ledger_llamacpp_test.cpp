// The llama.cpp / Ollama ledger: KV cells per slot, cache types, --kv-unified, the -ngl split,
// against the numbers llama-server b10470 printed for tiny.gguf (-c 8192 -np 4: 2048 cells per
// slot, "llama_kv_cache: size = 16.00 MiB (2048 cells, 4 layers, 4/4 seqs), K (f16): 8.00 MiB,
// V (f16): 8.00 MiB", "CPU compute buffer size = 6.51 MiB", "CPU output buffer size = 0.49 MiB").
#include <gtest/gtest.h>

#include <cstdlib>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "core/units.h"
#include "ledger/ledger.h"
#include "ledger/ledger_llamacpp.h"
#include "ledger/ledger_render.h"

namespace llmtriage::ledger {
namespace {

using core::kMiB;

// tiny.gguf's shape (llama, 4 layers, 256 wide, 4 heads, 2 KV heads of 64, context 4096, F16),
// with the weights as stored: 35.76 MiB, 32000 x 256 f16 embedding and output.
catalog::ModelArch tiny() {
  catalog::ModelArch m;
  m.id = "tiny.gguf";
  m.model_type = "llama";
  m.torch_dtype = "float16";
  m.num_layers = 4;
  m.hidden_size = 256;
  m.num_attention_heads = 4;
  m.num_kv_heads = 2;
  m.head_dim = 64;
  m.v_head_dim = 64;
  m.intermediate_size = 512;
  m.vocab_size = 32000;
  m.max_position_embeddings = 4096;
  m.layer_attention.assign(4, catalog::LayerAttention::full);
  catalog::FileWeights fw;
  fw.file_type = "F16";
  fw.input_bytes = 32000 * 256 * 2;
  fw.output_bytes = 32000 * 256 * 2 + 256 * 4;
  // per layer: q, o 256x256; k, v 256x128; gate, up, down 256x512 (f16) + 2 norms (f32)
  const int64_t layer = (2 * 256 * 256 + 2 * 256 * 128 + 3 * 256 * 512) * 2 + 2 * 256 * 4;
  fw.layer_bytes.assign(4, layer);
  fw.total_bytes = fw.input_bytes + fw.output_bytes + 4 * layer;
  m.file_weights = fw;
  return m;
}

LedgerInput llama_in(int64_t c, int np) {
  LedgerInput in;
  in.model = tiny();
  in.engine = core::EngineKind::llamacpp;
  in.llama.ctx_size = c;
  in.llama.parallel = np;
  return in;
}

LedgerReport compute_ok(const LedgerInput& in) {
  auto r = compute_ledger(in);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : LedgerReport{};
}

double line(const LedgerReport& r, const std::string& key) {
  for (const auto& l : r.lines)
    if (l.key == key) return l.unit == "MiB" ? l.value * kMiB : l.unit == "GiB" ? l.value * core::kGiB : l.value;
  ADD_FAILURE() << "no line " << key;
  return -1;
}

TEST(LedgerLlamaCpp, TinyModelC8192Np4MatchesTheEngineLog) {
  auto r = compute_ok(llama_in(8192, 4));
  EXPECT_EQ(r.kv_cache_tokens, 8192);
  EXPECT_EQ(r.max_num_seqs, 4);
  EXPECT_EQ(r.max_model_len, 2048);  // cells per slot
  // 4 layers x 8192 cells x 2 heads x 64 x 2 (K and V) x 2 B = 16 MiB
  EXPECT_DOUBLE_EQ(r.kv_bytes_per_token, 4 * 2 * 2 * 64 * 2);
  EXPECT_DOUBLE_EQ(line(r, "kv_cache_gib"), 16 * kMiB);
  EXPECT_DOUBLE_EQ(line(r, "kv_host"), 16 * kMiB);  // no GPU: all of it on the host
  EXPECT_NEAR(line(r, "file_weights") / kMiB, 35.76, 0.01);
  EXPECT_NEAR(line(r, "output_buffer") / kMiB, 0.49, 0.005);
  EXPECT_NEAR(line(r, "compute_host") / kMiB, 6.51, 0.05);  // estimate fitted to this log
  EXPECT_EQ(r.verdict, Verdict::fits);
  EXPECT_NE(render_text(r).find("16.00 MiB"), std::string::npos) << render_text(r);
  for (const auto& l : r.lines) EXPECT_FALSE(l.source.empty()) << l.key;
}

struct KvCase {
  const char* k;
  const char* v;
  double mib;  // KV at -c 8192: 4 x 8192 x 128 elements each of K and V
};

TEST(LedgerLlamaCpp, CacheTypesSizeByTheirBlocks) {
  // ggml type_traits: q8_0 34 B / 32, q4_0 18 B / 32, q4_1 20 B / 32, q5_0 22 / 32, iq4_nl 18 / 32.
  for (const KvCase& c : {KvCase{"f16", "f16", 16.0}, KvCase{"q8_0", "q8_0", 8.5}, KvCase{"q4_0", "q4_0", 4.5},
                          KvCase{"q8_0", "q4_0", 4.25 + 2.25}, KvCase{"f32", "f32", 32.0}, KvCase{"bf16", "q5_1", 8 + 3.0},
                          KvCase{"iq4_nl", "q4_1", 2.25 + 2.5}}) {
    auto in = llama_in(8192, 4);
    in.llama.cache_type_k = c.k;
    in.llama.cache_type_v = c.v;
    auto r = compute_ok(in);
    EXPECT_NEAR(line(r, "kv_cache_gib") / kMiB, c.mib, 1e-9) << c.k << "/" << c.v;
  }
  auto bad = llama_in(8192, 4);
  bad.llama.cache_type_k = "fp8";
  auto e = compute_ledger(bad);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().where, "--cache-type-k");
  auto no_fa = llama_in(8192, 4);
  no_fa.llama.cache_type_v = "q4_0";
  no_fa.llama.flash_attn = false;
  ASSERT_FALSE(compute_ledger(no_fa).ok());  // llama.cpp refuses a quantized V cache without -fa
  EXPECT_EQ(kv_row_bytes("q8_0", 128), 136.0);
  EXPECT_FALSE(kv_row_bytes("q8_0", 48));  // not a whole block
}

TEST(LedgerLlamaCpp, SlotsSplitTheCellsUnlessUnified) {
  auto split = compute_ok(llama_in(8192, 4));
  auto in = llama_in(8192, 4);
  in.llama.kv_unified = true;
  auto uni = compute_ok(in);
  EXPECT_EQ(uni.kv_cache_tokens, 8192);            // the same cells...
  EXPECT_DOUBLE_EQ(uni.kv_cache_gib, split.kv_cache_gib);
  EXPECT_EQ(uni.max_model_len, 4096);              // ...any slot may use all of them, up to the trained context
  in.typical_len = 3000;
  auto uni3000 = compute_ok(in);
  EXPECT_DOUBLE_EQ(*uni3000.max_concurrency_typical, 2.0);  // 8192 / 3000
  EXPECT_EQ(uni3000.verdict, Verdict::low_concurrency);
  auto split3000_in = llama_in(8192, 4);
  split3000_in.typical_len = 3000;
  auto split3000 = compute_ok(split3000_in);
  EXPECT_EQ(split3000.verdict, Verdict::max_model_len_exceeds_kv);  // cut at 2048 (finish_reason length)
  EXPECT_TRUE(split3000.engine_starts);
  // Padding: -c 8000 -np 3 -> 2667 per slot, padded to 2816; n_ctx = 3 x 2816.
  auto pad = compute_ok(llama_in(8000, 3));
  EXPECT_EQ(pad.kv_cache_tokens, 3 * 2816);
  // -c 0 = the model's context; -np unset = auto: 4 slots, unified.
  LedgerInput def;
  def.model = tiny();
  def.engine = core::EngineKind::llamacpp;
  auto d = compute_ok(def);
  EXPECT_EQ(d.kv_cache_tokens, 4096);
  EXPECT_EQ(d.max_num_seqs, 4);
  EXPECT_EQ(d.max_model_len, 4096);
}

TEST(LedgerLlamaCpp, GpuLayersSplitWeightsAndKv) {
  auto in = llama_in(8192, 4);
  in.gpu = catalog::custom_gpu(8.0);
  in.gpu_mem_gib = 8.0;
  in.llama.n_gpu_layers = 3;  // the last 2 repeating layers + the output layer
  auto r = compute_ok(in);
  const catalog::FileWeights fw = *tiny().file_weights;
  EXPECT_DOUBLE_EQ(line(r, "weights_gib"), 2.0 * fw.layer_bytes[0] + fw.output_bytes);
  EXPECT_DOUBLE_EQ(line(r, "weights_host"), fw.input_bytes + 2.0 * fw.layer_bytes[0]);
  EXPECT_DOUBLE_EQ(line(r, "kv_gpu"), 8 * kMiB);   // 2 of 4 layers' KV
  EXPECT_DOUBLE_EQ(line(r, "kv_host"), 8 * kMiB);
  in.llama.n_gpu_layers = 0;
  auto none = compute_ok(in);
  EXPECT_DOUBLE_EQ(line(none, "weights_gib"), 0);
  EXPECT_DOUBLE_EQ(line(none, "kv_gpu"), 0);
  in.llama.n_gpu_layers = 99;  // more than layers + 1: all
  auto all = compute_ok(in);
  EXPECT_DOUBLE_EQ(line(all, "weights_gib"), fw.total_bytes - fw.input_bytes);
  EXPECT_DOUBLE_EQ(line(all, "kv_gpu"), 16 * kMiB);
  EXPECT_EQ(all.verdict, Verdict::fits);
  // A GPU too small for the whole model: the remedy is the most layers that fit, in -ngl.
  in.gpu = catalog::custom_gpu(0.53);
  in.gpu_mem_gib = 0.53;  // 0.5 GiB CUDA context + 30 MiB
  auto small = compute_ok(in);
  EXPECT_FALSE(small.engine_starts);
  bool ngl = false;
  for (const auto& m : small.remedies) ngl = ngl || m.flag == "-ngl";
  EXPECT_TRUE(ngl) << render_text(small);
}

TEST(LedgerLlamaCpp, OllamaAllocatesNumCtxTimesParallel) {
  LedgerInput in;
  in.model = tiny();
  in.engine = core::EngineKind::ollama;
  in.llama.ctx_size = 2048;  // num_ctx per request
  in.llama.parallel = 4;     // OLLAMA_NUM_PARALLEL
  auto r = compute_ok(in);
  EXPECT_EQ(r.kv_cache_tokens, 8192);
  EXPECT_EQ(r.max_model_len, 2048);
  EXPECT_DOUBLE_EQ(line(r, "kv_cache_gib"), 16 * kMiB);
  // OLLAMA_KV_CACHE_TYPE needs OLLAMA_FLASH_ATTENTION=1; without it the cache stays f16.
  in.llama.cache_type_k = in.llama.cache_type_v = "q8_0";
  auto no_fa = compute_ok(in);
  EXPECT_DOUBLE_EQ(line(no_fa, "kv_cache_gib"), 16 * kMiB);
  in.llama.flash_attn = true;
  auto fa = compute_ok(in);
  EXPECT_DOUBLE_EQ(line(fa, "kv_cache_gib"), 8.5 * kMiB);
  in.typical_len = 3000;
  auto longer = compute_ok(in);
  ASSERT_EQ(longer.verdict, Verdict::max_model_len_exceeds_kv);
  bool num_ctx = false;
  for (const auto& m : longer.remedies) {
    EXPECT_EQ(m.flag.find("--"), std::string::npos) << m.flag;  // Ollama's knobs are not dashed flags
    if (m.flag == "num_ctx") {
      num_ctx = true;
      EXPECT_EQ(m.to, "3072");  // per request, padded to 256
    }
  }
  EXPECT_TRUE(num_ctx) << render_text(longer);
}

TEST(LedgerLlamaCpp, RemediesUseLlamaCppFlagsAndUnits) {
  auto in = llama_in(8192, 4);
  in.typical_len = 3000;
  auto r = compute_ok(in);
  bool c = false, np = false, kvu = false, ctk = false;
  for (const auto& m : r.remedies) {
    for (const char* vllm : {"--max-model-len", "--max-num-seqs", "--kv-cache-dtype", "--gpu-memory-utilization",
                             "--tensor-parallel-size", "--max-num-batched-tokens"})
      EXPECT_NE(m.flag, vllm);
    if (m.flag == "-c") {
      c = true;
      EXPECT_EQ(m.to, "12288");  // 4 slots x 3072 cells: -c counts every slot's cells
    }
    np = np || m.flag == "-np";
    kvu = kvu || m.flag == "--kv-unified";
    if (m.flag == "--cache-type-k/--cache-type-v") {
      ctk = true;
      EXPECT_EQ(m.to, "q8_0");
    }
  }
  EXPECT_TRUE(c && np && kvu && ctk) << render_text(r);
}

// The real file through the catalog: the same 16 MiB.
TEST(LedgerLlamaCpp, RealTinyGgufGives16MiB) {
  const char* path = std::getenv("LLMTRIAGE_LLAMA_MODEL");
  if (!path || !*path) GTEST_SKIP() << "LLMTRIAGE_LLAMA_MODEL unset: no real GGUF to read";
  auto m = catalog::load_model(path);
  ASSERT_TRUE(m.ok()) << m.error().message();
  auto in = llama_in(8192, 4);
  in.model = *m;
  auto r = compute_ok(in);
  EXPECT_EQ(r.max_model_len, 2048);
  EXPECT_DOUBLE_EQ(line(r, "kv_cache_gib"), 16 * kMiB);
  EXPECT_NEAR(line(r, "file_weights") / kMiB, 35.76, 0.005);
}

}  // namespace
}  // namespace llmtriage::ledger
