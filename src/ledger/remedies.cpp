#include "ledger/remedies.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "ledger/remedy_flags.h"

namespace llmtriage::ledger {
namespace {

std::optional<LedgerReport> eval(LedgerInput x) {
  x.with_remedies = false;
  auto r = compute_ledger_core(x);
  if (!r.ok()) return std::nullopt;
  return *r;
}

bool good(const LedgerReport& r) { return r.verdict == Verdict::fits; }

bool starts_and_fits_one(const LedgerReport& r) {
  return r.verdict == Verdict::fits || r.verdict == Verdict::low_concurrency;
}

std::string conc_text(const LedgerReport& r) {
  return r.max_concurrency_typical ? fmt::format("{:.1f}x at the typical length", *r.max_concurrency_typical)
                                   : fmt::format("{:.2f}x at {}", r.max_concurrency, r.max_model_len);
}

Remedy make(const std::string& flag, const std::string& from, const std::string& to, const LedgerReport& after,
            const std::string& effect) {
  Remedy m;
  m.flag = flag;
  m.from = from;
  m.to = to;
  m.effect = effect;
  m.verdict_after = after.verdict;
  m.kv_cache_tokens_after = after.kv_cache_tokens;
  return m;
}

bool is_sglang(const LedgerReport& r) { return r.engine == core::EngineKind::sglang; }

}  // namespace

void add_remedies(const LedgerInput& in, LedgerReport& r) {
  const bool sg = is_sglang(r);
  // What a remedy must reach: a deployment that does not start must start with one sequence of
  // max-model-len; one that starts with too little concurrency must reach the threshold.
  const bool fails_to_start = r.verdict != Verdict::fits && r.verdict != Verdict::low_concurrency;
  auto solves = [&](const LedgerReport& e) { return fails_to_start ? starts_and_fits_one(e) : good(e); };
  // Each engine's own flag for the variable (data/engines/remedy_flags.jsonl).
  const std::string util_flag =
      engine_flag("gpu_memory_utilization", r.engine, sg ? "--mem-fraction-static" : "--gpu-memory-utilization");
  const std::string len_flag = engine_flag("max_model_len", r.engine, sg ? "--context-length" : "--max-model-len");
  const std::string tp_flag = engine_flag("tensor_parallel_size", r.engine, "--tensor-parallel-size");
  const std::string kv_flag = engine_flag("kv_cache_dtype", r.engine, "--kv-cache-dtype");

  // 1. The largest max-model-len that fits (vLLM's own estimate when it refuses).
  if (r.verdict == Verdict::max_model_len_exceeds_kv ||
      (r.verdict == Verdict::low_concurrency && !in.typical_len)) {
    int64_t lo = 0, hi = r.max_model_len - 1;
    std::optional<LedgerReport> best;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      LedgerInput x = in;
      x.settings.max_model_len = mid;
      auto e = eval(x);
      if (e && solves(*e)) {
        lo = mid;
        best = e;
      } else {
        hi = mid - 1;
      }
    }
    if (best && lo > 0)
      r.remedies.push_back(make(len_flag, std::to_string(r.max_model_len), std::to_string(lo), *best,
                                fmt::format("the largest context that {}: {} KV tokens, {}",
                                            fails_to_start ? "starts" : "keeps the concurrency threshold",
                                            best->kv_cache_tokens, conc_text(*best))));
  }

  // 2. Memory fraction: the smallest that fits (when it fails: how much more is needed; when it
  // fits: how much can be given back to co-located processes).
  if (r.verdict != Verdict::weights_do_not_fit) {
    const int cur = static_cast<int>(r.utilization * 100 + 0.5);
    int lo = 1, hi = 99;
    if (!good(r)) lo = std::min(cur + 1, 99);
    else hi = cur;
    std::optional<LedgerReport> best;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) / 2;
      LedgerInput x = in;
      if (sg) x.settings.mem_fraction_static = mid / 100.0;
      else x.settings.gpu_memory_utilization = mid / 100.0;
      auto e = eval(x);
      if (e && solves(*e)) {
        found = mid;
        best = e;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    if (best && found != cur)
      r.remedies.push_back(make(
          util_flag, fmt::format("{:.2f}", r.utilization), fmt::format("{:.2f}", found / 100.0), *best,
          good(r) ? fmt::format("the smallest fraction that still fits ({} KV tokens, {}); frees {:.1f} GiB per GPU for "
                                "other processes",
                                best->kv_cache_tokens, conc_text(*best), r.usable_gib - best->usable_gib)
                  : fmt::format("the smallest fraction that starts: {} KV tokens, {}", best->kv_cache_tokens,
                                conc_text(*best))));
    else if (!good(r) && !best)
      r.remedies.push_back(make(util_flag, fmt::format("{:.2f}", r.utilization), "0.99", r,
                                "no fraction up to 0.99 fits: change another variable"));
  }

  // 3. The smallest TP that fits.
  for (int tp : {1, 2, 4, 8, 16, 32, 64}) {
    if (in.model.num_attention_heads % tp != 0 || tp == r.tp) continue;
    // When it fits: could fewer GPUs do? When it does not: fewer GPUs cannot.
    if (good(r) ? tp > r.tp : tp < r.tp) continue;
    LedgerInput x = in;
    x.settings.tensor_parallel_size = tp;
    if (x.num_gpus > 0) x.num_gpus = 0;
    auto e = eval(x);
    if (e && solves(*e)) {
      r.remedies.push_back(make(tp_flag, std::to_string(r.tp), std::to_string(tp), *e,
                                fmt::format("{}: {} GiB weights and {} KV tokens per GPU, {}",
                                            tp < r.tp ? "fits on fewer GPUs" : "the smallest TP that fits",
                                            fmt::format("{:.1f}", e->weights_gib), e->kv_cache_tokens, conc_text(*e))));
      break;
    }
  }

  // 4. What an fp8 KV cache buys.
  if (r.kv_cache_dtype.rfind("fp8", 0) != 0 && r.num_blocks >= 0) {
    LedgerInput x = in;
    x.settings.kv_cache_dtype = "fp8";
    auto e = eval(x);
    if (e && e->kv_cache_tokens > r.kv_cache_tokens)
      r.remedies.push_back(make(kv_flag, r.kv_cache_dtype, "fp8", *e,
                                fmt::format("{:.0f} -> {:.0f} KV bytes per token: {} -> {} KV tokens, {} (verdict {})",
                                            r.kv_bytes_per_token, e->kv_bytes_per_token, r.kv_cache_tokens,
                                            e->kv_cache_tokens, conc_text(*e), to_string(e->verdict))));
  }

  // 5. What lower scheduler limits free (vLLM sizes its activation peak from them).
  if (!sg && r.engine != core::EngineKind::tgi) {
    if (r.max_num_seqs > 256 || (r.max_num_seqs > 1 && !good(r))) {
      int64_t to = r.max_num_seqs > 256 ? 256 : r.max_num_seqs / 2;
      LedgerInput x = in;
      x.settings.max_num_seqs = to;
      auto e = eval(x);
      if (e && r.activation_gib - e->activation_gib > 0.05)
        r.remedies.push_back(make("--max-num-seqs", std::to_string(r.max_num_seqs), std::to_string(to), *e,
                                  fmt::format("activation peak {:.2f} -> {:.2f} GiB: +{} KV tokens (at most {} sequences "
                                              "run at once)",
                                              r.activation_gib, e->activation_gib, e->kv_cache_tokens - r.kv_cache_tokens,
                                              to)));
    }
    if (r.max_num_batched_tokens > 2048) {
      int64_t to = std::max<int64_t>(2048, std::min(r.max_num_seqs, r.max_num_batched_tokens / 2));
      to = std::max<int64_t>(to, 2048);
      LedgerInput x = in;
      x.settings.max_num_batched_tokens = to;
      if (r.engine == core::EngineKind::vllm_v0 || r.accounting.rfind("vLLM V0", 0) == 0) x.settings.enable_chunked_prefill = true;
      auto e = eval(x);
      if (e && r.activation_gib - e->activation_gib > 0.05)
        r.remedies.push_back(make("--max-num-batched-tokens", std::to_string(r.max_num_batched_tokens),
                                  std::to_string(to), *e,
                                  fmt::format("activation peak {:.2f} -> {:.2f} GiB: +{} KV tokens (longer prefills "
                                              "are chunked)",
                                              r.activation_gib, e->activation_gib,
                                              e->kv_cache_tokens - r.kv_cache_tokens)));
    }
  }
}

}  // namespace llmtriage::ledger
