// Single-variable remedies for llama.cpp and Ollama, each named by the engine's own knob
// (data/engines/remedy_flags.jsonl) and valued in its units (llama.cpp -c counts the cells of
// every slot together; Ollama's num_ctx is per slot).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/units.h"
#include "ledger/ledger_llamacpp.h"
#include "ledger/remedy_flags.h"

namespace llmtriage::ledger {
namespace {

std::optional<LedgerReport> lcpp_eval(LedgerInput x) {
  x.with_remedies = false;
  auto r = compute_llamacpp_ledger(x);
  if (!r.ok()) return std::nullopt;
  return *r;
}

std::string lcpp_setting(const LedgerReport& r, const std::string& key) {
  for (const auto& [k, v] : r.engine_settings)
    if (k == key) return v;
  return "";
}

int64_t lcpp_pad256(int64_t x) { return (x + 255) / 256 * 256; }

// GiB as the report prints small sizes: MiB below 1 GiB.
std::string lcpp_gib(double gib) {
  return gib < 1 ? fmt::format("{:.2f} MiB", gib * 1024.0) : fmt::format("{:.2f} GiB", gib);
}

Remedy lcpp_remedy(std::string flag, std::string from, std::string to, const LedgerReport& after, std::string effect) {
  Remedy m;
  m.flag = std::move(flag);
  m.from = std::move(from);
  m.to = std::move(to);
  m.effect = std::move(effect);
  m.verdict_after = after.verdict;
  m.kv_cache_tokens_after = after.kv_cache_tokens;
  return m;
}

std::string lcpp_after(const LedgerReport& e) {
  std::string gpu;
  for (const auto& l : e.lines)
    if (l.key == "gpu_need") gpu = fmt::format("; GPU needs {:.2f} {}", l.value, l.unit);
  return fmt::format("{} slots x {} cells, KV {}{} (verdict {})", e.max_num_seqs, e.max_model_len, lcpp_gib(e.kv_cache_gib),
                     gpu, to_string(e.verdict));
}

}  // namespace

void add_llamacpp_remedies(const LedgerInput& in, LedgerReport& r) {
  const bool ollama = in.engine == core::EngineKind::ollama;
  const core::EngineKind eng = in.engine;
  const std::string f_ctx = engine_flag("max_model_len", eng, ollama ? "num_ctx" : "-c");
  const std::string f_np = engine_flag("max_num_seqs", eng, ollama ? "OLLAMA_NUM_PARALLEL" : "-np");
  const std::string f_kv = engine_flag("kv_cache_dtype", eng, ollama ? "OLLAMA_KV_CACHE_TYPE" : "--cache-type-k/--cache-type-v");
  const std::string f_ngl = engine_flag("gpu_layers", eng, ollama ? "num_gpu" : "-ngl");
  const std::string f_uni = engine_flag("kv_unified", eng, ollama ? "none" : "--kv-unified");
  const int64_t slots = r.max_num_seqs;
  const int64_t n_ctx = r.kv_cache_tokens;
  const int64_t layers = in.model.num_layers;
  const bool unified = lcpp_setting(r, "kv_unified") == "true";
  const bool starts = r.engine_starts;
  const int64_t trained = in.model.max_position_embeddings;

  // 1. Requests longer than a slot.
  if (r.verdict == Verdict::max_model_len_exceeds_kv && in.typical_len) {
    const int64_t want = lcpp_pad256(*in.typical_len);
    if (trained > 0 && *in.typical_len > trained) {
      r.notes.push_back(fmt::format("a {}-token request is longer than the model's trained context {}: no setting gives a "
                                    "slot more (llama-server caps each slot there)",
                                    *in.typical_len, trained));
    } else {
      LedgerInput x = in;
      x.llama.ctx_size = ollama ? want : want * slots;
      if (auto e = lcpp_eval(x))
        r.remedies.push_back(lcpp_remedy(f_ctx, std::to_string(ollama ? n_ctx / slots : n_ctx),
                                         std::to_string(*x.llama.ctx_size), *e,
                                         fmt::format("{} cells per slot{}: {}", want,
                                                     ollama ? "" : fmt::format(" ({} = {} slots x {})", f_ctx, slots, want),
                                                     lcpp_after(*e))));
      if (!ollama && !unified && slots > 1 && n_ctx >= want) {
        const int64_t fewer = std::max<int64_t>(1, n_ctx / want);
        LedgerInput y = in;
        y.llama.parallel = static_cast<int>(fewer);
        y.llama.kv_unified = false;
        if (fewer < slots)
          if (auto e = lcpp_eval(y))
            r.remedies.push_back(lcpp_remedy(f_np, std::to_string(slots), std::to_string(fewer), *e,
                                             fmt::format("the same {} cells over fewer slots: {}", n_ctx, lcpp_after(*e))));
        if (f_uni != "none") {
          LedgerInput z = in;
          z.llama.kv_unified = true;
          if (auto e = lcpp_eval(z))
            r.remedies.push_back(lcpp_remedy(f_uni, "off", "on", *e,
                                             fmt::format("every slot may use all {} cells ({:.1f} requests of {} tokens at once; "
                                                         "a full pool stops every running request together)",
                                                         n_ctx, e->max_concurrency_typical.value_or(0), *in.typical_len)));
        }
      }
    }
  }

  // 2. The GPU does not hold what was asked: fewer layers, a smaller KV, a smaller context.
  if (!starts) {
    for (int64_t ngl = layers; ngl >= 0; --ngl) {
      LedgerInput x = in;
      x.llama.n_gpu_layers = static_cast<int>(ngl);
      auto e = lcpp_eval(x);
      if (e && e->engine_starts) {
        r.remedies.push_back(lcpp_remedy(f_ngl, lcpp_setting(r, ollama ? "num_gpu" : "-ngl"), std::to_string(ngl), *e,
                                         fmt::format("the most layers that fit: {}; {} then in host memory, and decode "
                                                     "slows to the host's speed for those layers",
                                                     lcpp_after(*e), lcpp_gib(e->host_gib))));
        break;
      }
    }
    int64_t lo = 0, hi = n_ctx / 256;
    std::optional<LedgerReport> best;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo + 1) / 2;
      LedgerInput x = in;
      x.llama.ctx_size = ollama ? mid * 256 / std::max<int64_t>(1, slots) : mid * 256;
      auto e = x.llama.ctx_size > 0 ? lcpp_eval(x) : std::nullopt;
      if (e && e->engine_starts) {
        lo = mid;
        best = e;
      } else {
        hi = mid - 1;
      }
    }
    if (best && lo > 0)
      r.remedies.push_back(lcpp_remedy(f_ctx, std::to_string(ollama ? n_ctx / slots : n_ctx),
                                       std::to_string(ollama ? lo * 256 / std::max<int64_t>(1, slots) : lo * 256), *best,
                                       fmt::format("the largest context that fits on the GPU: {}", lcpp_after(*best))));
  }

  // 3. A q8_0 cache: about half the KV of f16 (34 bytes per 32 elements).
  if (r.kv_cache_dtype == "f16" || r.kv_cache_dtype == "f32" || r.kv_cache_dtype == "bf16") {
    LedgerInput x = in;
    x.llama.cache_type_k = "q8_0";
    x.llama.cache_type_v = "q8_0";
    x.llama.flash_attn = true;
    auto e = lcpp_eval(x);
    if (e && e->kv_cache_gib < r.kv_cache_gib)
      r.remedies.push_back(lcpp_remedy(f_kv, r.kv_cache_dtype, "q8_0", *e,
                                       fmt::format("{:.0f} -> {:.0f} KV bytes per cell, KV {} -> {}; needs flash "
                                                   "attention ({}): {}",
                                                   r.kv_bytes_per_token, e->kv_bytes_per_token, lcpp_gib(r.kv_cache_gib),
                                                   lcpp_gib(e->kv_cache_gib),
                                                   engine_flag("flash_attention", eng, ollama ? "OLLAMA_FLASH_ATTENTION" : "-fa") +
                                                       (ollama ? "=1" : " on"),
                                                   lcpp_after(*e))));
  }

  // 4. Layers left on the host while the GPU has room for more.
  const std::string ngl_now = lcpp_setting(r, ollama ? "num_gpu" : "-ngl");
  if (starts && r.num_gpus > 0 && !ngl_now.empty() && std::all_of(ngl_now.begin(), ngl_now.end(), ::isdigit) &&
      std::stoll(ngl_now) < layers + 1) {
    std::optional<LedgerReport> best;
    int64_t best_ngl = -1;
    for (int64_t ngl = layers + 1; ngl > std::stoll(ngl_now); --ngl) {
      LedgerInput x = in;
      x.llama.n_gpu_layers = static_cast<int>(ngl);
      auto e = lcpp_eval(x);
      if (e && e->engine_starts) {
        best = e;
        best_ngl = ngl;
        break;
      }
    }
    if (best)
      r.remedies.push_back(lcpp_remedy(f_ngl, ngl_now, std::to_string(best_ngl), *best,
                                       fmt::format("more layers on the GPU that still fit: host memory {} -> {}, {}",
                                                   lcpp_gib(r.host_gib), lcpp_gib(best->host_gib), lcpp_after(*best))));
  }
}

}  // namespace llmtriage::ledger
