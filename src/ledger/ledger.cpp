// The ledger per engine accounting. Formulas and the engine files they mirror: docs/ledger.md.
#include "ledger/ledger.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "catalog/weights.h"
#include "core/units.h"
#include "ledger/engine_profile.h"
#include "ledger/kv_layout.h"
#include "ledger/ledger_llamacpp.h"
#include "ledger/remedies.h"
#include "ledger/resolve.h"

namespace llmtriage::ledger {
namespace {

using core::kGiB;

const char* accounting_name(Accounting a, const EngineVersion& v) {
  switch (a) {
    case Accounting::vllm_v1:
      if (v.at_least(0, 21)) return "vLLM V1 >= 0.21 (CUDA graphs subtracted before the KV pool)";
      if (v.at_least(0, 17)) return "vLLM V1 0.17-0.20 (CUDA graphs captured after the KV pool)";
      return "vLLM V1 0.8-0.16 (CUDA graphs captured after the KV pool; larger sampler peak)";
    case Accounting::vllm_v0: return "vLLM V0 (whole torch peak; CUDA graphs captured after the KV pool)";
    case Accounting::sglang: return "SGLang (free memory after weights minus (1 - mem_fraction_static) x total)";
    case Accounting::tgi: return "TGI (free memory after warmup x 0.95)";
  }
  return "";
}

void line(LedgerReport& r, std::string key, std::string label, double value, std::string unit, std::string formula,
          std::string source) {
  r.lines.push_back({std::move(key), std::move(label), value, std::move(unit), std::move(formula), std::move(source)});
}

std::string gib(double x) { return fmt::format("{:.2f}", x); }

}  // namespace

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::fits: return "fits";
    case Verdict::weights_do_not_fit: return "weights_do_not_fit";
    case Verdict::no_kv_memory: return "no_kv_memory";
    case Verdict::max_model_len_exceeds_kv: return "max_model_len_exceeds_kv";
    case Verdict::low_concurrency: return "low_concurrency";
  }
  return "fits";
}

core::Result<LedgerReport> compute_ledger_core(const LedgerInput& in) {
  if (in.engine == core::EngineKind::llamacpp || in.engine == core::EngineKind::ollama) return compute_llamacpp_ledger(in);
  auto res = resolve_settings(in);
  if (!res.ok()) return res.error();
  const Resolved& rs = *res;
  const catalog::ModelArch& m = in.model;
  const bool vllm = rs.acct == Accounting::vllm_v1 || rs.acct == Accounting::vllm_v0;

  LedgerReport r;
  r.model_id = m.id;
  r.gpu_name = in.gpu_mem_gib ? fmt::format("{} ({} GiB given)", in.gpu.name, *in.gpu_mem_gib) : in.gpu.name;
  r.engine = in.engine;
  r.engine_version = in.engine_version;
  r.accounting = accounting_name(rs.acct, rs.version);
  r.tp = rs.tp;
  r.pp = rs.pp;
  r.dp = rs.dp;
  r.num_gpus = rs.num_gpus;
  r.utilization = rs.utilization;
  r.max_model_len = rs.max_model_len;
  r.max_num_seqs = rs.max_num_seqs;
  r.max_num_batched_tokens = rs.max_num_batched_tokens;
  r.block_size = rs.block_size;
  r.dtype = rs.dtype;
  r.kv_cache_dtype = rs.kv_cache_dtype;
  r.quantization = rs.quant.quantized() ? rs.quant.method : "";
  r.enforce_eager = rs.enforce_eager;
  r.notes = rs.notes;
  r.warnings = rs.warnings;

  // Weights.
  catalog::WeightSharding sh;
  sh.tp = rs.tp;
  sh.pp = rs.pp;
  sh.dtype = rs.dtype;
  sh.quant = rs.quant;
  sh.pad_mxfp4_experts = vllm;
  const catalog::WeightBytes wb = catalog::weight_bytes(m, sh);

  ProfileShape ps;
  ps.tp = rs.tp;
  ps.pp = rs.pp;
  ps.max_num_seqs = std::max<int64_t>(1, rs.max_num_seqs);
  ps.max_num_batched_tokens = rs.max_num_batched_tokens;
  ps.act_bytes = catalog::dtype_bytes(rs.dtype);
  ps.layers_per_stage = wb.layers_per_stage;
  ps.enforce_eager = rs.enforce_eager;

  r.total_gib = rs.total_gib;
  r.usable_gib = rs.total_gib * rs.utilization;
  r.headroom_gib = r.total_gib - r.usable_gib;
  r.weights_gib = wb.per_gpu_bytes / kGiB;

  Estimate act, nt, cg = cuda_graph(ps);
  std::string kv_formula, kv_source, usable_source;
  switch (rs.acct) {
    case Accounting::vllm_v1: {
      act = vllm_v1_activation(m, ps, rs.version);
      nt = vllm_non_torch(ps, true, rs.version);
      r.cuda_graph_subtracted = rs.version.at_least(0, 21) && !rs.enforce_eager;
      r.kv_cache_gib = r.usable_gib - r.weights_gib - act.gib - nt.gib - (r.cuda_graph_subtracted ? cg.gib : 0);
      kv_formula = fmt::format("usable {} - weights {} - activation {} - non-torch {}{} = {} GiB", gib(r.usable_gib),
                               gib(r.weights_gib), gib(act.gib), gib(nt.gib),
                               r.cuda_graph_subtracted ? " - CUDA graphs " + gib(cg.gib) : std::string(),
                               gib(r.kv_cache_gib));
      kv_source = "vllm/v1/worker/gpu_worker.py determine_available_memory (requested_memory - non_kv_cache_memory)";
      usable_source = "vllm/v1/worker/gpu_worker.py: requested_memory = total_gpu_memory * gpu_memory_utilization";
      break;
    }
    case Accounting::vllm_v0: {
      act = vllm_v0_activation(m, ps);
      nt = vllm_non_torch(ps, false, rs.version);
      r.kv_cache_gib = r.usable_gib - r.weights_gib - act.gib - nt.gib;
      kv_formula = fmt::format("usable {} - torch peak (weights {} + activation {}) - non-torch {} = {} GiB",
                               gib(r.usable_gib), gib(r.weights_gib), gib(act.gib), gib(nt.gib), gib(r.kv_cache_gib));
      kv_source = "vllm/worker/worker.py determine_num_available_blocks (total * util - peak_memory)";
      usable_source = "vllm/worker/worker.py: total_gpu_memory * gpu_memory_utilization";
      break;
    }
    case Accounting::sglang: {
      // rest = free_after_weights - total * (1 - mem_fraction_static); activations and CUDA
      // graphs live in that reserved (1 - fraction) part.
      nt = sglang_runtime(ps);
      act.formula = "0 (not profiled: activations use the reserved 1 - mem_fraction_static)";
      act.basis = "sglang/srt/model_executor/model_runner.py profile_max_num_token";
      const double free_after = r.total_gib - nt.gib - r.weights_gib;
      r.kv_cache_gib = free_after - r.total_gib * (1 - rs.utilization);
      kv_formula = fmt::format("free after weights ({} - runtime {} - weights {} = {}) - {} x (1 - {}) = {} GiB",
                               gib(r.total_gib), gib(nt.gib), gib(r.weights_gib), gib(free_after), gib(r.total_gib),
                               rs.utilization, gib(r.kv_cache_gib));
      kv_source = "sglang/srt/model_executor/model_runner.py profile_max_num_token";
      usable_source = "sglang/srt/model_executor/model_runner.py: total * mem_fraction_static";
      break;
    }
    case Accounting::tgi: {
      act = tgi_activation(m, ps);
      nt.gib = kCudaContextGiB;
      nt.formula = "CUDA context 0.50 GiB";
      nt.basis = "llmtriage estimate";
      const double free_after = r.usable_gib - nt.gib - r.weights_gib - act.gib;
      r.kv_cache_gib = free_after * 0.95;
      kv_formula = fmt::format("(usable {} - context {} - weights {} - warmup peak {}) x 0.95 = {} GiB", gib(r.usable_gib),
                               gib(nt.gib), gib(r.weights_gib), gib(act.gib), gib(r.kv_cache_gib));
      kv_source = "server/text_generation_server/models/flash_causal_lm.py warmup (TGI_WIGGLE_ROOM 0.95)";
      usable_source = "server/text_generation_server/utils/import_utils.py get_free_memory (CUDA_MEMORY_FRACTION)";
      break;
    }
  }
  r.activation_gib = act.gib;
  r.non_torch_gib = nt.gib;
  r.cuda_graph_gib = cg.gib;

  // KV layout, blocks and tokens.
  KvLayoutOptions ko;
  ko.tp = rs.tp;
  ko.pp = rs.pp;
  ko.elem_bytes = rs.kv_elem_bytes;
  ko.block_size = rs.block_size;
  ko.hybrid_groups = rs.acct == Accounting::vllm_v1 && rs.version.at_least(0, 10);
  ko.max_num_batched_tokens = rs.max_num_batched_tokens;
  const KvLayout kl = make_kv_layout(m, ko);
  r.kv_by_layer_type = kl.types;
  r.kv_bytes_per_token = kl.bytes_per_token();
  r.kv_groups = static_cast<int64_t>(kl.group_kinds.size());
  r.padding_layers = kl.padding_layers;
  const double kv_bytes = r.kv_cache_gib * kGiB;
  r.num_blocks = kl.num_blocks(kv_bytes);
  r.kv_cache_tokens = kl.reported_tokens(r.num_blocks);
  const int64_t blocks_per_seq = std::max<int64_t>(1, kl.blocks_per_request(rs.max_model_len));
  r.max_concurrency = static_cast<double>(r.num_blocks) / static_cast<double>(blocks_per_seq);
  if (in.typical_len)
    r.max_concurrency_typical = static_cast<double>(r.num_blocks) /
                                static_cast<double>(std::max<int64_t>(1, kl.blocks_per_request(*in.typical_len)));
  r.kv_needed_for_max_len_gib = kl.bytes_needed(rs.max_model_len) / kGiB;
  {
    int64_t lo = 0, hi = std::max<int64_t>(rs.max_model_len, 1) * 64;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (kl.bytes_needed(mid) <= kv_bytes) lo = mid;
      else hi = mid - 1;
    }
    r.largest_fitting_max_model_len = lo;
  }

  // Verdict.
  const FlagNames f = flag_names(rs.acct);
  const double threshold = static_cast<double>(
      rs.max_num_seqs > 0 ? std::min<int64_t>(in.min_concurrency, rs.max_num_seqs) : in.min_concurrency);
  const double conc = r.max_concurrency_typical.value_or(r.max_concurrency);
  const int64_t conc_len = in.typical_len.value_or(rs.max_model_len);
  if (r.weights_gib + kCudaContextGiB > r.total_gib) {
    r.verdict = Verdict::weights_do_not_fit;
    r.verdict_detail = fmt::format("weights need {} GiB per GPU, more than the {} GiB the GPU has besides the CUDA "
                                   "context: loading fails with CUDA out of memory",
                                   gib(r.weights_gib), gib(r.total_gib - kCudaContextGiB));
  } else if (r.num_blocks <= 0) {
    r.verdict = Verdict::no_kv_memory;
    r.verdict_detail = fmt::format("the KV pool gets {} GiB: {}", gib(r.kv_cache_gib),
                                   r.kv_cache_gib <= 0 ? "weights, activations and runtime take all of the usable memory"
                                                       : "less than one block");
  } else if (vllm && rs.acct == Accounting::vllm_v1 && r.kv_needed_for_max_len_gib * kGiB > kv_bytes) {
    r.verdict = Verdict::max_model_len_exceeds_kv;
    r.verdict_detail = fmt::format("one sequence of {} tokens needs {} GiB of KV cache, the pool has {} GiB; vLLM refuses "
                                   "to start (largest {} that fits: {})",
                                   rs.max_model_len, gib(r.kv_needed_for_max_len_gib), gib(r.kv_cache_gib), f.max_model_len,
                                   r.largest_fitting_max_model_len);
  } else if (rs.acct != Accounting::vllm_v1 && rs.max_model_len > r.kv_cache_tokens) {
    r.verdict = Verdict::max_model_len_exceeds_kv;
    r.verdict_detail = fmt::format("{} {} is larger than the {} tokens the KV cache holds{}", f.max_model_len,
                                   rs.max_model_len, r.kv_cache_tokens,
                                   rs.acct == Accounting::sglang ? "; SGLang starts but cannot run a request that long"
                                                                 : "; the engine refuses to start");
  } else if (conc < threshold) {
    r.verdict = Verdict::low_concurrency;
    r.verdict_detail = fmt::format("only {:.2f} sequences of {} tokens fit in the KV cache at once (threshold {})", conc,
                                   conc_len, threshold);
  } else {
    r.verdict = Verdict::fits;
    r.verdict_detail = fmt::format("{} sequences of {} tokens fit in the KV cache at once", fmt::format("{:.1f}", conc),
                                   conc_len);
  }
  r.engine_starts = r.verdict == Verdict::fits || r.verdict == Verdict::low_concurrency ||
                    (r.verdict == Verdict::max_model_len_exceeds_kv && rs.acct == Accounting::sglang);

  // CUDA graphs captured after the pool must fit in the headroom (with the CUDA context).
  if (!r.cuda_graph_subtracted && !rs.enforce_eager && r.engine_starts) {
    // vLLM: the CUDA context is outside its ledger, so it also lives in the headroom. SGLang:
    // the context was already gone from the free memory it measured, but activations were not.
    double need = cg.gib + (rs.acct == Accounting::sglang ? vllm_v1_activation(m, ps, rs.version).gib : kCudaContextGiB);
    if (need > r.headroom_gib)
      r.warnings.push_back(fmt::format(
          "CUDA graphs (~{} GiB) and {} are allocated after the KV pool in the {} GiB left by "
          "{} {}: graph capture may run out of memory; lower {} or pass --enforce-eager",
          gib(cg.gib), rs.acct == Accounting::sglang ? "activations" : "the CUDA context (0.5 GiB)", gib(r.headroom_gib), f.utilization,
          rs.utilization, f.utilization));
  }

  // The lines, in ledger order.
  line(r, "total_gib", "GPU memory (torch-visible)", r.total_gib, "GiB",
       in.gpu_mem_gib ? "--gpu-mem-gib" : fmt::format("{} catalog ({})", in.gpu.name, in.gpu.memory_measured ? "measured" : "estimated"),
       "torch.cuda.mem_get_info() total");
  line(r, "usable_gib", rs.acct == Accounting::sglang ? "Static pool budget" : "Usable", r.usable_gib, "GiB",
       fmt::format("{} x {} {}", gib(r.total_gib), f.utilization, rs.utilization), usable_source);
  line(r, "weights_gib", "Weights", r.weights_gib, "GiB",
       fmt::format("{:.2f}B params{}{} / TP {}{}", m.total_params() / 1e9,
                   rs.quant.quantized() ? ", " + rs.quant.method + " " + std::to_string(rs.quant.weight_bits) + "-bit" : "",
                   rs.quant.experts_only ? " experts" : "", rs.tp, rs.pp > 1 ? fmt::format(", PP {}", rs.pp) : ""),
       "model loader: 'Model loading took X GiB' (llmtriage: catalog::weight_bytes)");
  line(r, "activation_gib", "Activation peak", act.gib, "GiB", act.formula, act.basis);
  line(r, "non_torch_gib", rs.acct == Accounting::sglang ? "Runtime (context, NCCL)" : "Non-torch memory", nt.gib, "GiB",
       nt.formula, nt.basis);
  line(r, "cuda_graph_gib", r.cuda_graph_subtracted ? "CUDA graphs (subtracted)" : "CUDA graphs (in headroom)", cg.gib,
       "GiB",
       cg.formula + (r.cuda_graph_subtracted || rs.enforce_eager
                         ? std::string()
                         : fmt::format("; not subtracted: must fit in the {} GiB headroom", gib(r.headroom_gib))),
       cg.basis);
  line(r, "kv_cache_gib", "KV cache pool", r.kv_cache_gib, "GiB", kv_formula, kv_source);
  std::string per_type;
  for (const auto& t : kl.types)
    per_type += fmt::format("{}{} {} layers x {:.0f} B", per_type.empty() ? "" : " + ", t.layers, t.attention,
                            t.bytes_per_token_per_layer);
  line(r, "kv_bytes_per_token", "KV bytes per token", r.kv_bytes_per_token, "B",
       per_type + (m.is_mla() ? fmt::format(" (MLA latent {}+{})", m.kv_lora_rank, m.qk_rope_head_dim)
                              : fmt::format(" (2 x {} KV heads/GPU x {} x {} B)",
                                            std::max<int64_t>(1, m.num_kv_heads / rs.tp), m.head_dim, rs.kv_elem_bytes)),
       "vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes; sglang mem_cache/memory_pool.py");
  line(r, "num_blocks", "KV blocks", static_cast<double>(r.num_blocks), "blocks",
       fmt::format("{} GiB / ({} tokens x {:.0f} B x {} layers per group)", gib(r.kv_cache_gib), rs.block_size,
                   kl.bytes_per_token_per_layer, kl.group_size),
       "vllm/v1/core/kv_cache_utils.py get_num_blocks");
  line(r, "kv_cache_tokens", "KV cache tokens", static_cast<double>(r.kv_cache_tokens), "tokens",
       r.kv_groups > 1 ? fmt::format("{} blocks / {} KV-cache groups x {}", r.num_blocks, r.kv_groups, rs.block_size)
                       : fmt::format("{} blocks x {}", r.num_blocks, rs.block_size),
       "vllm/v1/core/kv_cache_utils.py ('GPU KV cache size'); sglang max_total_num_tokens");
  line(r, "max_concurrency", fmt::format("Max concurrency @ {}", rs.max_model_len), r.max_concurrency, "x",
       fmt::format("{} blocks / {} blocks per request", r.num_blocks, blocks_per_seq),
       "vllm/v1/core/kv_cache_utils.py get_max_concurrency_for_kv_cache_config");
  if (r.max_concurrency_typical)
    line(r, "max_concurrency_typical", fmt::format("Max concurrency @ {}", *in.typical_len), *r.max_concurrency_typical,
         "x", fmt::format("{} blocks / {} blocks per request", r.num_blocks, kl.blocks_per_request(*in.typical_len)),
         "same, at --typical-len");
  line(r, "kv_needed_for_max_len_gib", fmt::format("KV for one {}-token sequence", rs.max_model_len),
       r.kv_needed_for_max_len_gib, "GiB", "sum over layers of the blocks one request holds x page size",
       "vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory");
  if (kl.padding_layers > 0)
    r.notes.push_back(fmt::format("vLLM groups the hybrid layers in {} groups of {} and adds {} padding layer(s)",
                                  r.kv_groups, kl.group_size, kl.padding_layers));
  if (m.count_layers(catalog::LayerAttention::sliding) > 0 && !ko.hybrid_groups)
    r.notes.push_back("sliding-window layers are sized as full attention by this engine/version");
  return r;
}

core::Result<LedgerReport> compute_ledger(const LedgerInput& in) {
  auto r = compute_ledger_core(in);
  if (!r.ok() || !in.with_remedies) return r;
  if (in.engine == core::EngineKind::llamacpp || in.engine == core::EngineKind::ollama) add_llamacpp_remedies(in, *r);
  else add_remedies(in, *r);
  return r;
}

}  // namespace llmtriage::ledger
