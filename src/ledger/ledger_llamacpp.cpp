// The llama.cpp / Ollama ledger. Formulas and the engine files they mirror: ledger_llamacpp.h and
// docs/ledger.md ("llama.cpp and Ollama").
#include "ledger/ledger_llamacpp.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

#include "catalog/gguf.h"
#include "catalog/weights.h"
#include "core/units.h"
#include "ledger/engine_profile.h"

namespace llmtriage::ledger {
namespace {

using core::kGiB;
using core::kMiB;

int64_t lcpp_pad(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

std::string lcpp_lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Bytes as the report prints them: MiB below 1 GiB, GiB above.
std::string lcpp_size(double bytes) {
  return bytes < kGiB ? fmt::format("{:.2f} MiB", bytes / kMiB) : fmt::format("{:.2f} GiB", bytes / kGiB);
}

void lcpp_line(LedgerReport& r, std::string key, std::string label, double bytes_or_value, std::string unit,
               std::string formula, std::string source) {
  double v = bytes_or_value;
  if (unit == "bytes") {
    unit = bytes_or_value < kGiB ? "MiB" : "GiB";
    v = bytes_or_value / (unit == "MiB" ? kMiB : kGiB);
  }
  r.lines.push_back({std::move(key), std::move(label), v, std::move(unit), std::move(formula), std::move(source)});
}

core::Error lcpp_bad(const std::string& flag, const std::string& expected, const std::string& found,
                     const std::string& detail = {}) {
  return core::make_error(core::ErrorKind::usage, flag, expected, found, detail);
}

// Where the weights are: per layer, the input embedding, the output head.
struct LcppWeights {
  std::vector<double> layer;
  double input = 0, output = 0, total = 0;
  bool from_file = false;
};

LcppWeights lcpp_weights(const catalog::ModelArch& m, const std::string& dtype) {
  LcppWeights w;
  if (m.file_weights) {
    w.from_file = true;
    for (auto b : m.file_weights->layer_bytes) w.layer.push_back(static_cast<double>(b));
    w.input = static_cast<double>(m.file_weights->input_bytes);
    w.output = static_cast<double>(m.file_weights->output_bytes);
    w.total = static_cast<double>(m.file_weights->total_bytes);
    return w;
  }
  // A config.json with a llama.cpp engine: the architecture at the dtype, spread evenly.
  catalog::WeightSharding sh;
  sh.dtype = dtype;
  sh.quant = m.quant;
  const catalog::WeightBytes wb = catalog::weight_bytes(m, sh);
  const double emb = static_cast<double>(m.embedding_params()) * catalog::dtype_bytes(dtype);
  w.input = emb;
  w.output = wb.embedding_bytes - emb;
  const double per = (wb.total_bytes - wb.embedding_bytes) / static_cast<double>(std::max<int64_t>(1, m.num_layers));
  w.layer.assign(static_cast<size_t>(m.num_layers), per);
  w.total = wb.total_bytes;
  return w;
}

struct LcppPlan {
  bool ollama = false;
  int slots = 1;
  bool unified = false;
  int64_t asked = 0;      // -c as asked (Ollama: num_ctx x slots)
  int64_t n_ctx = 0;      // cells, after llama.cpp's padding
  int64_t n_ctx_seq = 0;  // cells one sequence may use
  int64_t slot_ctx = 0;   // n_ctx_seq capped at the trained context (the server's slot limit)
  std::string type_k = "f16", type_v = "f16";
  bool flash_attn = true;
  int64_t ubatch = 512;
  bool has_gpu = false;
  int64_t gpu_layers = 0;  // repeating layers on the GPU
  bool output_on_gpu = false;
  std::string ngl_text;
};

}  // namespace

std::optional<double> kv_row_bytes(const std::string& cache_type, int64_t n) {
  // common/arg.cpp kv_cache_types: the types -ctk/-ctv accept.
  static const char* accepted[] = {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"};
  const std::string t = lcpp_lower(cache_type);
  if (std::none_of(std::begin(accepted), std::end(accepted), [&](const char* a) { return t == a; })) return std::nullopt;
  auto id = catalog::ggml_type_from_name(t);
  if (!id) return std::nullopt;
  auto tr = catalog::ggml_type_traits(*id);
  if (!tr || n % tr->block_size != 0) return std::nullopt;
  return static_cast<double>(n / tr->block_size * tr->type_size);
}

core::Result<LedgerReport> compute_llamacpp_ledger(const LedgerInput& in) {
  const catalog::ModelArch& m = in.model;
  // What the engine-neutral settings say fills what the llama.cpp ones leave unset (a diagnosis
  // reads slots as max_num_seqs and the per-slot context as max_model_len).
  LlamaCppSettings s = in.llama;
  if (!s.parallel && in.settings.max_num_seqs) s.parallel = static_cast<int>(*in.settings.max_num_seqs);
  if (!s.ctx_size && in.settings.max_model_len)
    s.ctx_size = in.engine == core::EngineKind::ollama ? *in.settings.max_model_len
                                                       : *in.settings.max_model_len * std::max(1, s.parallel.value_or(4));
  if (!s.cache_type_k && in.settings.kv_cache_dtype && kv_row_bytes(*in.settings.kv_cache_dtype, 256))
    s.cache_type_k = s.cache_type_v = *in.settings.kv_cache_dtype;
  LcppPlan p;
  p.ollama = in.engine == core::EngineKind::ollama;
  const char* eng = p.ollama ? "Ollama" : "llama.cpp";
  LedgerReport r;
  r.model_id = m.id;
  r.engine = in.engine;
  r.engine_version = in.engine_version;
  for (const auto& n : m.notes) r.notes.push_back(m.id + ": " + n);
  const int64_t n_train = m.max_position_embeddings;

  // Slots and cells.
  if (p.ollama) {
    p.slots = s.parallel.value_or(1);
    if (!s.parallel) r.notes.push_back("OLLAMA_NUM_PARALLEL not given: 1 slot (Ollama's default, envconfig/config.go)");
    if (p.slots < 1) return lcpp_bad("OLLAMA_NUM_PARALLEL", "a positive number of slots", std::to_string(p.slots));
    int64_t num_ctx = s.ctx_size.value_or(4096);
    if (!s.ctx_size)
      r.notes.push_back("num_ctx / OLLAMA_CONTEXT_LENGTH not given: 4096 (Ollama's default, envconfig/config.go)");
    if (num_ctx <= 0) return lcpp_bad("num_ctx", "a positive context per request", std::to_string(num_ctx));
    p.asked = num_ctx * p.slots;  // server/sched.go: opts.NumCtx = origNumCtx * numParallel
    p.unified = false;
  } else {
    if (s.parallel && (*s.parallel == 0 || *s.parallel < -1))
      return lcpp_bad("-np", "a positive number of slots (or -1 = auto)", std::to_string(*s.parallel));
    const bool auto_np = !s.parallel || *s.parallel < 0;
    p.slots = auto_np ? 4 : *s.parallel;
    p.unified = s.kv_unified.value_or(auto_np);
    if (auto_np)
      r.notes.push_back("-np not given: llama-server's auto, 4 slots with a unified KV cache (tools/server/server.cpp)");
    if (s.ctx_size && *s.ctx_size < 0) return lcpp_bad("-c", "a number of KV cells (0 = the model's context)", std::to_string(*s.ctx_size));
    p.asked = s.ctx_size.value_or(0);
    if (p.asked == 0) {
      p.asked = n_train;
      r.notes.push_back(fmt::format("-c {}: the model's context_length, {} cells (common/common.h n_ctx = 0; llama.cpp's "
                                    "--fit may lower it to fit device memory)",
                                    s.ctx_size ? "0" : "not given", n_train));
    }
  }
  if (p.asked <= 0) return lcpp_bad(p.ollama ? "num_ctx" : "-c", "a context size (the GGUF has no context_length)", "none");
  // src/llama-context.cpp: n_ctx padded to 256; split per sequence unless unified.
  p.n_ctx = lcpp_pad(p.asked, 256);
  if (p.unified) {
    p.n_ctx_seq = p.n_ctx;
  } else {
    p.n_ctx_seq = lcpp_pad(p.n_ctx / p.slots, 256);
    p.n_ctx = p.n_ctx_seq * p.slots;
  }
  p.slot_ctx = n_train > 0 ? std::min(p.n_ctx_seq, n_train) : p.n_ctx_seq;
  if (n_train > 0 && p.n_ctx_seq > n_train)
    r.notes.push_back(fmt::format("{} cells per sequence exceed the trained context {}: each slot is capped at {} "
                                  "(tools/server/server-context.cpp)", p.n_ctx_seq, n_train, n_train));
  if (p.n_ctx != p.asked)
    r.notes.push_back(fmt::format("{} cells asked, {} allocated (llama.cpp pads to 256 per sequence)", p.asked, p.n_ctx));

  // Cache types.
  // llama.cpp -fa defaults to auto (on where the backend has it); Ollama's OLLAMA_FLASH_ATTENTION to off.
  p.flash_attn = s.flash_attn.value_or(!p.ollama);
  if (!s.flash_attn)
    r.notes.push_back(p.ollama ? "OLLAMA_FLASH_ATTENTION not given: off (envconfig/config.go; some releases turn it on per model)"
                               : "-fa auto: taken as on (flash attention where the backend has it)");
  if (p.ollama) {
    std::string t = lcpp_lower(s.cache_type_k.value_or(s.cache_type_v.value_or("f16")));
    if (t != "f16" && !s.flash_attn.value_or(false)) {
      r.notes.push_back("OLLAMA_KV_CACHE_TYPE=" + t + " needs OLLAMA_FLASH_ATTENTION=1: the cache stays f16");
      t = "f16";
    } else if (t != "f16" && t != "q8_0" && t != "q4_0") {
      r.notes.push_back("OLLAMA_KV_CACHE_TYPE=" + t + " is not one of f16, q8_0, q4_0: Ollama uses f16");
      t = "f16";
    }
    p.type_k = p.type_v = t;
  } else {
    p.type_k = lcpp_lower(s.cache_type_k.value_or("f16"));
    p.type_v = lcpp_lower(s.cache_type_v.value_or("f16"));
  }
  const int64_t n_kv = m.num_kv_heads, dk = m.head_dim, dv = m.v_head_dim > 0 ? m.v_head_dim : m.head_dim;
  auto row_k = kv_row_bytes(p.type_k, n_kv * dk);
  auto row_v = kv_row_bytes(p.type_v, n_kv * dv);
  const char* accepted = "f16, f32, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0 or q5_1 (a whole number of blocks per row)";
  if (!row_k) return lcpp_bad(p.ollama ? "OLLAMA_KV_CACHE_TYPE" : "--cache-type-k", accepted, p.type_k);
  if (!row_v) return lcpp_bad(p.ollama ? "OLLAMA_KV_CACHE_TYPE" : "--cache-type-v", accepted, p.type_v);
  if (!p.flash_attn && p.type_v != "f16" && p.type_v != "f32" && p.type_v != "bf16")
    return lcpp_bad("--cache-type-v", "f16, bf16 or f32 without flash attention", p.type_v,
                    "llama.cpp refuses a quantized V cache without -fa (src/llama-context.cpp); pass -fa on.");
  p.ubatch = s.ubatch_size.value_or(512);
  if (p.ubatch <= 0) return lcpp_bad("-ub", "a positive batch size", std::to_string(p.ubatch));

  // Placement. src/llama-model.cpp load_tensors: i_gpu_start = max(n_layer + 1 - n_gpu_layers, 0);
  // layer il goes to the GPU when il >= i_gpu_start, the output layer (il = n_layer) when ngl >= 1.
  const double total_gib = in.gpu_mem_gib.value_or(in.gpu.memory_gib);
  p.has_gpu = total_gib > 0;
  const int64_t L = m.num_layers;
  int64_t ngl = s.n_gpu_layers.value_or(-1);
  if (ngl < 0 || ngl > L + 1) ngl = L + 1;
  if (!p.has_gpu) {
    ngl = 0;
    if (s.n_gpu_layers && *s.n_gpu_layers != 0)
      r.notes.push_back("no GPU given (--gpu / --gpu-mem-gib): every layer in host memory, -ngl has no effect");
  } else if (!s.n_gpu_layers) {
    r.notes.push_back(p.ollama ? "num_gpu not given: every layer on the GPU assumed (Ollama offloads what its estimate fits)"
                               : "-ngl not given: every layer on the GPU (llama.cpp's default -1 = all; --fit may lower it)");
  }
  p.gpu_layers = std::clamp<int64_t>(ngl - 1, 0, L);
  p.output_on_gpu = ngl >= 1;
  p.ngl_text = fmt::format("{}/{} layers{}", p.gpu_layers, L, p.output_on_gpu ? " + output" : "");

  // Weights.
  const std::string dtype = m.torch_dtype.empty() ? "float16" : m.torch_dtype;
  const LcppWeights w = lcpp_weights(m, dtype);
  double w_gpu = 0;
  for (int64_t il = L - p.gpu_layers; il < L; ++il) w_gpu += w.layer[static_cast<size_t>(il)];
  if (p.output_on_gpu) w_gpu += m.tie_word_embeddings ? w.input : w.output;  // tied: token_embd duplicated as output
  const double w_host = w.total - w_gpu + (p.output_on_gpu && m.tie_word_embeddings ? w.input : 0);

  // KV: one K and one V tensor per layer of [n_embd_gqa, kv_size, n_stream] (src/llama-kv-cache.cpp).
  const double cell_layer = *row_k + *row_v;
  const double kv_total = static_cast<double>(L) * static_cast<double>(p.n_ctx) * cell_layer;
  const double kv_gpu = static_cast<double>(p.gpu_layers) * static_cast<double>(p.n_ctx) * cell_layer;
  const double kv_host = kv_total - kv_gpu;

  // Compute buffers: the log's when given, else an estimate.
  const int64_t n_ff = std::max(m.intermediate_size, m.moe_intermediate_size * std::max<int64_t>(1, m.num_experts_per_tok));
  double act = static_cast<double>(p.ubatch) * 4.0 * static_cast<double>(5 * m.hidden_size + 4 * n_ff);
  if (!p.flash_attn)
    act += static_cast<double>(p.ubatch) * static_cast<double>(m.num_attention_heads) * static_cast<double>(p.n_ctx_seq) * 4.0;
  const bool gpu_compute = p.has_gpu && (p.gpu_layers > 0 || p.output_on_gpu);
  const bool all_gpu = p.has_gpu && p.gpu_layers == L && p.output_on_gpu;
  double c_gpu = gpu_compute ? act : 0;
  double c_host = all_gpu ? 3.0 * static_cast<double>(p.ubatch) * static_cast<double>(m.hidden_size) * 4.0 : act;
  std::string c_basis = "llmtriage estimate: ubatch x 4 B x (5 x n_embd + 4 x n_ff)" +
                        std::string(p.flash_attn ? "" : " + ubatch x heads x cells per sequence x 4 B (no flash attention)") +
                        ", fitted to tiny.gguf's 6.51 MiB (b10470); pass --from-log for the engine's own";
  const bool logged = s.logged_compute_gpu_gib || s.logged_compute_host_gib;
  if (s.logged_compute_gpu_gib) c_gpu = *s.logged_compute_gpu_gib * kGiB;
  if (s.logged_compute_host_gib) c_host = *s.logged_compute_host_gib * kGiB;
  // src/llama-context.cpp output_reserve: logits of n_outputs_max (= sequences) rows, f32, host.
  const double out_buf = static_cast<double>(p.slots) * static_cast<double>(m.vocab_size) * 4.0;
  const double ctx_gib = p.has_gpu ? kCudaContextGiB : 0;

  const double gpu_need = w_gpu + kv_gpu + c_gpu + ctx_gib * kGiB;
  const double host_need = w_host + kv_host + c_host + out_buf;

  // The report's fields.
  r.gpu_name = p.has_gpu ? (in.gpu_mem_gib ? fmt::format("{} ({} GiB given)", in.gpu.name, *in.gpu_mem_gib) : in.gpu.name)
                         : "no GPU (host memory only)";
  r.num_gpus = p.has_gpu ? 1 : 0;
  r.accounting = p.ollama ? "Ollama (llama.cpp memory layout: num_ctx x OLLAMA_NUM_PARALLEL cells, num_gpu layers on the GPU)"
                          : "llama.cpp llama-server (-c cells over -np slots, --cache-type-k/-v, -ngl layers on the GPU)";
  r.max_model_len = p.slot_ctx;
  r.max_num_seqs = p.slots;
  r.max_num_batched_tokens = p.ubatch;
  r.block_size = 1;
  r.dtype = dtype;
  r.kv_cache_dtype = p.type_k == p.type_v ? p.type_k : p.type_k + "/" + p.type_v;
  r.quantization = m.file_weights ? m.file_weights->file_type : (m.quant.quantized() ? m.quant.method : "");
  r.enforce_eager = false;
  r.total_gib = total_gib;
  r.usable_gib = total_gib;
  r.weights_gib = w_gpu / kGiB;
  r.activation_gib = c_gpu / kGiB;
  r.non_torch_gib = ctx_gib;
  r.kv_cache_gib = kv_total / kGiB;
  r.host_gib = host_need / kGiB;
  r.kv_bytes_per_token = static_cast<double>(L) * cell_layer;
  r.kv_by_layer_type.push_back({"full", L, cell_layer, 0});
  r.num_blocks = p.n_ctx;
  r.kv_cache_tokens = p.n_ctx;
  r.max_concurrency = p.unified ? std::min<double>(p.slots, static_cast<double>(p.n_ctx) / static_cast<double>(p.slot_ctx))
                                : static_cast<double>(p.slots);
  if (in.typical_len) {
    const int64_t t = *in.typical_len;
    if (t <= 0) return lcpp_bad("--typical-len", "a positive number of tokens", std::to_string(t));
    r.max_concurrency_typical = t > p.slot_ctx ? 0.0
                                : p.unified ? std::min<double>(p.slots, std::floor(static_cast<double>(p.n_ctx) / static_cast<double>(t)))
                                            : static_cast<double>(p.slots);
  }
  r.kv_needed_for_max_len_gib = static_cast<double>(p.slot_ctx) * r.kv_bytes_per_token / kGiB;
  r.largest_fitting_max_model_len = p.slot_ctx;
  const std::string cflag = p.ollama ? "num_ctx" : "-c", npflag = p.ollama ? "OLLAMA_NUM_PARALLEL" : "-np";
  r.engine_settings = {
      {cflag, p.ollama ? std::to_string(p.asked / p.slots) : std::to_string(p.asked)},
      {npflag, std::to_string(p.slots)},
      {"cells", std::to_string(p.n_ctx)},
      {"cells_per_slot", std::to_string(p.n_ctx_seq)},
      {"kv_unified", p.unified ? "true" : "false"},
      {p.ollama ? "OLLAMA_KV_CACHE_TYPE" : "--cache-type-k", p.type_k},
      {"--cache-type-v", p.type_v},
      {p.ollama ? "num_gpu" : "-ngl", p.has_gpu ? std::to_string(ngl) : "0 (no GPU)"},
      {"flash_attn", p.flash_attn ? "on" : "off"},
      {"ubatch", std::to_string(p.ubatch)},
  };
  if (p.ollama)  // one variable sets both caches
    r.engine_settings.erase(std::remove_if(r.engine_settings.begin(), r.engine_settings.end(),
                                           [](const auto& kv) { return kv.first == "--cache-type-v"; }),
                            r.engine_settings.end());

  // Verdict.
  const double threshold = static_cast<double>(std::min<int64_t>(in.min_concurrency, p.slots));
  const double conc = r.max_concurrency_typical.value_or(r.max_concurrency);
  const int64_t conc_len = in.typical_len.value_or(p.slot_ctx);
  const double total_b = total_gib * kGiB;
  if (p.has_gpu && w_gpu + ctx_gib * kGiB > total_b) {
    r.verdict = Verdict::weights_do_not_fit;
    r.verdict_detail = fmt::format("the {} offloaded to the GPU need {} of weights, more than the {} GiB the GPU has "
                                   "besides the CUDA context: loading fails (lower {})",
                                   p.ngl_text, lcpp_size(w_gpu), fmt::format("{:.2f}", total_gib - ctx_gib),
                                   p.ollama ? "num_gpu" : "-ngl");
  } else if (p.has_gpu && gpu_need > total_b) {
    r.verdict = Verdict::no_kv_memory;
    r.verdict_detail = fmt::format("weights {} + KV {} + compute {} + context {:.2f} GiB = {} on the GPU, more than its "
                                   "{:.2f} GiB: the KV or compute buffer allocation fails",
                                   lcpp_size(w_gpu), lcpp_size(kv_gpu), lcpp_size(c_gpu), ctx_gib, lcpp_size(gpu_need),
                                   total_gib);
  } else if (in.typical_len && *in.typical_len > p.slot_ctx) {
    r.verdict = Verdict::max_model_len_exceeds_kv;
    r.verdict_detail = fmt::format("a {}-token request is longer than a slot's {} cells: {} stops it there "
                                   "(finish_reason length) or refuses the prompt",
                                   *in.typical_len, p.slot_ctx, eng);
  } else if (conc < threshold) {
    r.verdict = Verdict::low_concurrency;
    r.verdict_detail = fmt::format("only {:.2f} sequences of {} tokens fit at once (threshold {})", conc, conc_len, threshold);
  } else {
    r.verdict = Verdict::fits;
    r.verdict_detail = fmt::format("{} slots of {} cells{}; {:.1f} sequences of {} tokens run at once", p.slots, p.slot_ctx,
                                   p.unified ? " sharing one pool" : "", conc, conc_len);
  }
  r.engine_starts = r.verdict != Verdict::weights_do_not_fit && r.verdict != Verdict::no_kv_memory;

  // The lines.
  const std::string src_ctx = "src/llama-context.cpp (n_ctx padded to 256; n_ctx_seq = n_ctx / n_seq_max unless kv_unified)";
  if (p.has_gpu)
    lcpp_line(r, "total_gib", "GPU memory", total_gib, "GiB",
              in.gpu_mem_gib ? "--gpu-mem-gib" : fmt::format("{} catalog ({})", in.gpu.name, in.gpu.memory_measured ? "measured" : "estimated"),
              "the device's total memory");
  lcpp_line(r, "file_weights", "Weights (file)", w.total, "bytes",
            w.from_file ? fmt::format("GGUF {}: {} of tensor data", m.file_weights->file_type, lcpp_size(w.total))
                        : fmt::format("{:.2f}B params at {} (no GGUF given: an estimate)", m.total_params() / 1e9, dtype),
            w.from_file ? "GGUF tensor infos (catalog/gguf.cpp); llama.cpp 'model buffer size' lines" : "llmtriage estimate: catalog::weight_bytes");
  if (p.has_gpu)
    lcpp_line(r, "weights_gib", "Weights on the GPU", w_gpu, "bytes",
              fmt::format("{} {}: {} offloaded", p.ollama ? "num_gpu" : "-ngl", ngl, p.ngl_text),
              "src/llama-model.cpp load_tensors (i_gpu_start = n_layer + 1 - n_gpu_layers)");
  lcpp_line(r, "weights_host", "Weights in host memory", w_host, "bytes",
            fmt::format("input embedding {}{}", lcpp_size(w.input),
                        p.gpu_layers < L ? fmt::format(" + {} layers", L - p.gpu_layers) : std::string()) +
                (p.output_on_gpu ? "" : " + output"),
            "src/llama-model.cpp (the input layer always stays on the CPU); memory-mapped from the file");
  lcpp_line(r, "kv_cells", "KV cells", static_cast<double>(p.n_ctx), "cells",
            p.unified ? fmt::format("{} {} -> {} cells shared by {} slots (--kv-unified)", cflag, p.asked, p.n_ctx, p.slots)
                      : fmt::format("{} {} -> {} slots x {} cells", cflag, p.asked, p.slots, p.n_ctx_seq),
            p.ollama ? "server/sched.go (opts.NumCtx = num_ctx x numParallel); " + src_ctx : src_ctx);
  lcpp_line(r, "slot_ctx", "Context per slot", static_cast<double>(p.slot_ctx), "tokens",
            n_train > 0 && p.n_ctx_seq > n_train ? fmt::format("min({} cells, trained context {})", p.n_ctx_seq, n_train)
                                                 : fmt::format("{} cells per sequence", p.n_ctx_seq),
            "tools/server/server-context.cpp (slot n_ctx = llama_n_ctx_seq, capped at n_ctx_train)");
  lcpp_line(r, "kv_bytes_per_token", "KV bytes per cell", r.kv_bytes_per_token, "B",
            fmt::format("{} layers x ({} KV heads x {} x {} B (K {}) + {} x {} x {} B (V {}))", L, n_kv, dk,
                        *row_k / static_cast<double>(n_kv * dk), p.type_k, n_kv, dv, *row_v / static_cast<double>(n_kv * dv),
                        p.type_v),
            "src/llama-kv-cache.cpp (K, V = ggml_new_tensor_3d(type, n_embd_gqa, kv_size, n_stream)); ggml_row_size");
  lcpp_line(r, "kv_cache_gib", "KV cache", kv_total, "bytes",
            fmt::format("{} cells x {:.0f} B = {} (K {}, V {})", p.n_ctx, r.kv_bytes_per_token, lcpp_size(kv_total),
                        lcpp_size(static_cast<double>(L * p.n_ctx) * *row_k), lcpp_size(static_cast<double>(L * p.n_ctx) * *row_v)),
            "llama_kv_cache: 'size = ... MiB (... cells, ... layers, .../... seqs), K (...), V (...)'");
  if (p.has_gpu) {
    lcpp_line(r, "kv_gpu", "KV on the GPU", kv_gpu, "bytes", fmt::format("{}/{} layers' KV, with their layers", p.gpu_layers, L),
              "src/llama-kv-cache.cpp (offload_kqv: each layer's KV on its layer's device)");
    lcpp_line(r, "compute_gpu", "Compute buffer (GPU)", c_gpu, "bytes",
              s.logged_compute_gpu_gib ? "logged: 'compute buffer size'" : "estimated", s.logged_compute_gpu_gib ? "the engine's startup log" : c_basis);
  }
  lcpp_line(r, "kv_host", "KV in host memory", kv_host, "bytes", fmt::format("{}/{} layers' KV", L - p.gpu_layers, L),
            "src/llama-kv-cache.cpp");
  lcpp_line(r, "compute_host", "Compute buffer (host)", c_host, "bytes",
            s.logged_compute_host_gib ? "logged: 'CPU compute buffer size'" : (all_gpu ? "estimated: 3 x ubatch x n_embd x 4 B (inputs)" : "estimated"),
            s.logged_compute_host_gib ? "the engine's startup log" : c_basis);
  lcpp_line(r, "output_buffer", "Output buffer (host)", out_buf, "bytes",
            fmt::format("{} sequences x {} vocab x 4 B logits", p.slots, m.vocab_size), "src/llama-context.cpp output_reserve (n_outputs_max = n_seq_max)");
  if (p.has_gpu)
    lcpp_line(r, "gpu_need", "GPU memory needed", gpu_need, "bytes",
              fmt::format("weights {} + KV {} + compute {} + CUDA context {:.2f} GiB (estimate)", lcpp_size(w_gpu),
                          lcpp_size(kv_gpu), lcpp_size(c_gpu), ctx_gib),
              "sum of the device's buffers (llama.cpp memory breakdown: model + context + compute)");
  lcpp_line(r, "host_need", "Host memory needed", host_need, "bytes",
            fmt::format("weights {} + KV {} + compute {} + output {}", lcpp_size(w_host), lcpp_size(kv_host), lcpp_size(c_host),
                        lcpp_size(out_buf)),
            "common_memory_breakdown_print 'Host' row (model + context + compute)");
  lcpp_line(r, "max_concurrency", fmt::format("Max concurrency @ {}", p.slot_ctx), r.max_concurrency, "x",
            p.unified ? fmt::format("min({} slots, {} cells / {})", p.slots, p.n_ctx, p.slot_ctx) : fmt::format("{} slots", p.slots),
            "tools/server/server-context.cpp (one sequence per slot)");
  if (r.max_concurrency_typical)
    lcpp_line(r, "max_concurrency_typical", fmt::format("Max concurrency @ {}", *in.typical_len), *r.max_concurrency_typical, "x",
              *in.typical_len > p.slot_ctx ? fmt::format("{} > {} cells per slot: cut at the slot limit", *in.typical_len, p.slot_ctx)
              : p.unified ? fmt::format("min({} slots, {} cells / {})", p.slots, p.n_ctx, *in.typical_len)
                          : fmt::format("{} slots of {} cells", p.slots, p.slot_ctx),
              "same, at --typical-len");
  if (!logged) r.notes.push_back("compute buffers are estimated; --from-log with the startup log (-lv 4 on recent builds) uses the engine's own sizes");
  if (p.has_gpu && p.gpu_layers < L)
    r.notes.push_back(fmt::format("{}/{} layers run from host memory: decode speed is bound by the host part", L - p.gpu_layers, L));
  return r;
}

}  // namespace llmtriage::ledger
