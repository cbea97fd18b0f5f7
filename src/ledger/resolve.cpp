#include "ledger/resolve.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace llmtriage::ledger {
namespace {

core::Error bad(const std::string& flag, const std::string& expected, const std::string& found,
                const std::string& detail = {}) {
  return core::make_error(core::ErrorKind::usage, flag, expected, found, detail);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string canonical_dtype(const std::string& d) {
  std::string l = lower(d);
  if (l == "bf16" || l == "bfloat16") return "bfloat16";
  if (l == "fp16" || l == "float16" || l == "half") return "float16";
  if (l == "fp32" || l == "float32" || l == "float") return "float32";
  return l;
}

}  // namespace

FlagNames flag_names(Accounting a) {
  if (a == Accounting::sglang)
    return {"--mem-fraction-static", "--context-length", "--max-running-requests", "--chunked-prefill-size"};
  if (a == Accounting::tgi)
    return {"--cuda-memory-fraction", "--max-total-tokens", "--max-concurrent-requests", "--max-batch-prefill-tokens"};
  return {"--gpu-memory-utilization", "--max-model-len", "--max-num-seqs", "--max-num-batched-tokens"};
}

core::Result<Resolved> resolve_settings(const LedgerInput& in) {
  Resolved r;
  const auto& s = in.settings;
  const auto& m = in.model;
  r.version = parse_version(in.engine_version);
  if (!in.engine_version.empty() && !r.version.known)
    return bad("--engine-version", "a version like 0.19.0", in.engine_version);
  switch (in.engine) {
    case core::EngineKind::vllm:
      // V1 became the default in 0.8.0; an older version runs the V0 accounting.
      r.acct = r.version.at_least(0, 8) ? Accounting::vllm_v1 : Accounting::vllm_v0;
      if (r.acct == Accounting::vllm_v0) r.notes.push_back("vLLM " + r.version.str() + " predates V1 (0.8.0): V0 accounting");
      break;
    case core::EngineKind::vllm_v0: r.acct = Accounting::vllm_v0; break;
    case core::EngineKind::sglang: r.acct = Accounting::sglang; break;
    case core::EngineKind::tgi:
      r.acct = Accounting::tgi;
      r.notes.push_back("TGI accounting is an estimate with no engine log to check it against");
      break;
    case core::EngineKind::unknown:
    case core::EngineKind::llamacpp:
    case core::EngineKind::trtllm:
    case core::EngineKind::ollama:
      return bad("--engine", "vllm, vllm-v0, sglang, tgi, llamacpp or ollama (the engines with a memory model)",
                 core::to_string(in.engine));
  }
  const FlagNames f = flag_names(r.acct);

  // Parallelism.
  r.pp = s.pipeline_parallel_size.value_or(1);
  r.dp = s.data_parallel_size.value_or(1);
  if (r.pp < 1) return bad("--pipeline-parallel-size", "a positive integer", std::to_string(r.pp));
  if (r.dp < 1) return bad("--data-parallel-size", "a positive integer", std::to_string(r.dp));
  if (in.num_gpus < 0) return bad("--num-gpus", "a positive integer", std::to_string(in.num_gpus));
  if (s.tensor_parallel_size) {
    r.tp = *s.tensor_parallel_size;
  } else if (in.num_gpus > 0) {
    r.tp = std::max(1, in.num_gpus / (r.pp * r.dp));
    r.notes.push_back(fmt::format("--tensor-parallel-size not given: {} GPUs / (PP {} x DP {}) = TP {}", in.num_gpus,
                                  r.pp, r.dp, r.tp));
  }
  if (r.tp < 1) return bad("--tensor-parallel-size", "a positive integer", std::to_string(r.tp));
  r.num_gpus = r.tp * r.pp * r.dp;
  if (in.num_gpus > 0 && in.num_gpus < r.num_gpus)
    return bad("--num-gpus", fmt::format("at least TP x PP x DP = {}", r.num_gpus), std::to_string(in.num_gpus));
  if (in.num_gpus > r.num_gpus)
    r.warnings.push_back(fmt::format("{} GPUs given but TP x PP x DP = {}: the rest stay idle", in.num_gpus, r.num_gpus));
  if (m.num_attention_heads % r.tp != 0)
    return bad("--tensor-parallel-size",
               fmt::format("a divisor of the model's {} attention heads", m.num_attention_heads), std::to_string(r.tp),
               "The engines shard attention heads evenly over TP ranks.");
  if (!m.is_mla() && m.num_kv_heads % r.tp != 0 && r.tp % m.num_kv_heads != 0)
    return bad("--tensor-parallel-size",
               fmt::format("a divisor or a multiple of the model's {} KV heads", m.num_kv_heads), std::to_string(r.tp),
               "KV heads are split over TP ranks, or replicated when TP exceeds them.");
  if (!m.is_mla() && r.tp > m.num_kv_heads)
    r.notes.push_back(fmt::format("TP {} > {} KV heads: each rank holds a replica of one KV head", r.tp, m.num_kv_heads));
  if (r.pp > m.num_layers)
    return bad("--pipeline-parallel-size", fmt::format("at most the model's {} layers", m.num_layers), std::to_string(r.pp));

  // Memory fraction.
  if (r.acct == Accounting::sglang) {
    if (s.mem_fraction_static) {
      r.utilization = *s.mem_fraction_static;
    } else if (s.gpu_memory_utilization) {
      r.utilization = *s.gpu_memory_utilization;
      r.notes.push_back("SGLang: --gpu-memory-utilization taken as --mem-fraction-static");
    } else {
      // sglang/srt/server_args.py (0.4.x) default by TP size.
      r.utilization = r.tp >= 16 ? 0.79 : r.tp >= 8 ? 0.81 : r.tp >= 4 ? 0.85 : r.tp >= 2 ? 0.87 : 0.88;
      r.notes.push_back(fmt::format("--mem-fraction-static not given: SGLang's default for TP {} is {}", r.tp, r.utilization));
    }
  } else {
    r.utilization = s.gpu_memory_utilization.value_or(r.acct == Accounting::tgi ? 1.0 : 0.9);
  }
  if (!(r.utilization > 0 && r.utilization <= 1))
    return bad(f.utilization, "a fraction in (0, 1]", fmt::format("{}", r.utilization));

  // Lengths.
  if (s.max_model_len && *s.max_model_len <= 0)
    return bad(f.max_model_len, "a positive number of tokens", std::to_string(*s.max_model_len));
  r.max_model_len = s.max_model_len.value_or(m.max_position_embeddings);
  if (r.max_model_len <= 0)
    return bad(f.max_model_len, "a context length (the model's config has no max_position_embeddings)", "none");
  if (!s.max_model_len)
    r.notes.push_back(fmt::format("{} not given: the model's context, {} tokens", f.max_model_len, r.max_model_len));
  if (m.max_position_embeddings > 0 && r.max_model_len > m.max_position_embeddings)
    r.warnings.push_back(fmt::format("{} {} exceeds the model's max_position_embeddings {}: vLLM refuses it unless "
                                     "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (and quality degrades past the trained context)",
                                     f.max_model_len, r.max_model_len, m.max_position_embeddings));
  if (in.typical_len && *in.typical_len <= 0)
    return bad("--typical-len", "a positive number of tokens", std::to_string(*in.typical_len));
  if (s.max_num_seqs && *s.max_num_seqs <= 0) return bad(f.max_num_seqs, "a positive integer", std::to_string(*s.max_num_seqs));
  if (s.max_num_batched_tokens && *s.max_num_batched_tokens <= 0)
    return bad(f.max_num_batched_tokens, "a positive number of tokens", std::to_string(*s.max_num_batched_tokens));
  if (s.block_size && (*s.block_size <= 0 || *s.block_size > 4096))
    return bad("--block-size", "a positive number of tokens per block (e.g. 16)", std::to_string(*s.block_size));
  if (in.gpu_mem_gib && !(*in.gpu_mem_gib > 0))
    return bad("--gpu-mem-gib", "a positive capacity in GiB", fmt::format("{}", *in.gpu_mem_gib));

  // GPU capacity.
  r.total_gib = in.gpu_mem_gib.value_or(in.gpu.memory_gib);
  if (r.total_gib <= 0) return bad("--gpu", "a GPU with a known capacity, or --gpu-mem-gib", in.gpu.name);
  if (!in.gpu_mem_gib && !in.gpu.assumed.empty()) r.notes.push_back(in.gpu.assumed);
  if (!in.gpu_mem_gib && !in.gpu.memory_measured)
    r.notes.push_back(fmt::format("{}: capacity {:.2f} GiB is estimated from the datasheet; pass --gpu-mem-gib with "
                                  "the torch-visible value for exact numbers",
                                  in.gpu.name, r.total_gib));

  // Scheduler limits (the profile run's shape). vllm/engine/arg_utils.py: GPUs with >= 70 GiB
  // that are not A100 get 1024 seqs / 8192 batched tokens for the API server, others 256 / 2048.
  const bool big = r.total_gib >= 70 && lower(in.gpu.name).find("a100") == std::string::npos;
  switch (r.acct) {
    case Accounting::vllm_v1:
      r.max_num_seqs = s.max_num_seqs.value_or(big ? 1024 : 256);
      r.max_num_batched_tokens = s.max_num_batched_tokens.value_or(big ? 8192 : 2048);
      break;
    case Accounting::vllm_v0: {
      r.max_num_seqs = s.max_num_seqs.value_or(256);
      // Chunked prefill is on by default past 32k context (2048-token chunks); otherwise one
      // prefill of max_model_len must fit a batch.
      bool chunked = s.enable_chunked_prefill.value_or(r.max_model_len > 32768);
      r.max_num_batched_tokens = s.max_num_batched_tokens.value_or(chunked ? 2048 : std::max<int64_t>(r.max_model_len, 2048));
      break;
    }
    case Accounting::sglang:
      r.max_num_seqs = s.max_num_seqs.value_or(0);
      r.max_num_batched_tokens = s.max_num_batched_tokens.value_or(big ? 8192 : 2048);
      break;
    case Accounting::tgi:
      r.max_num_seqs = s.max_num_seqs.value_or(128);
      r.max_num_batched_tokens = s.max_num_batched_tokens.value_or(4096);
      break;
  }

  // Dtypes.
  std::string dtype = canonical_dtype(s.dtype.value_or("auto"));
  if (dtype == "auto") {
    dtype = canonical_dtype(m.torch_dtype);
    // vLLM (and SGLang) run float32 checkpoints in bfloat16 under dtype=auto.
    if (dtype == "float32") {
      dtype = "bfloat16";
      r.notes.push_back("checkpoint is float32: dtype auto runs it in bfloat16");
    }
  }
  if (catalog::dtype_bytes(dtype) == 0)
    return bad("--dtype", "auto, bfloat16, float16 or float32", s.dtype.value_or(""));
  r.dtype = dtype;
  std::string kv = lower(s.kv_cache_dtype.value_or("auto"));
  if (kv == "auto") {
    r.kv_cache_dtype = dtype;
    r.kv_elem_bytes = catalog::dtype_bytes(dtype);
  } else if (kv.rfind("fp8", 0) == 0) {
    r.kv_cache_dtype = kv;
    r.kv_elem_bytes = 1;
  } else if (catalog::dtype_bytes(kv) > 0) {
    r.kv_cache_dtype = canonical_dtype(kv);
    r.kv_elem_bytes = catalog::dtype_bytes(kv);
  } else {
    return bad("--kv-cache-dtype", "auto, fp8, fp8_e4m3 or fp8_e5m2", kv);
  }

  // Quantization: the checkpoint's config wins (the engines read it); else --quantization.
  if (m.quant.quantized()) {
    r.quant = m.quant;
  } else if (s.quantization) {
    r.quant = catalog::quant_from_name(*s.quantization);
    if (!r.quant.quantized() && !r.quant.method.empty())
      r.notes.push_back("quantization '" + *s.quantization + "' is not modelled: weights sized at " + dtype);
    else if (r.quant.assumed)
      r.notes.push_back(fmt::format("--quantization {}: {}-bit weights assumed (the checkpoint's config is not bundled)",
                                    *s.quantization, r.quant.weight_bits));
  }

  // Blocks: vLLM 16 (FlashMLA needs 64 for MLA models); SGLang pages of 1 token; TGI 16.
  int default_block = (r.acct == Accounting::sglang) ? 1 : (m.is_mla() && r.acct == Accounting::vllm_v1 ? 64 : 16);
  r.block_size = s.block_size.value_or(default_block);
  r.enforce_eager = s.enforce_eager.value_or(false);
  for (const auto& n : m.notes) r.notes.push_back(m.id + ": " + n);
  return r;
}

}  // namespace llmtriage::ledger
