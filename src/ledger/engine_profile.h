#pragma once
// Per-engine, per-version estimates of what the engines measure at startup and we cannot:
// the activation peak of the profile run, non-torch memory and CUDA-graph memory. Each returns
// GiB per GPU with the formula and its basis, so a report can show where the number comes from.
#include <cstdint>
#include <string>

#include "catalog/model.h"
#include "ledger/version.h"

namespace llmtriage::ledger {

struct Estimate {
  double gib = 0;
  std::string formula;  // with the numbers
  std::string basis;    // engine file it mirrors and the data it was checked against
};

struct ProfileShape {
  int tp = 1;
  int pp = 1;
  int64_t max_num_seqs = 256;
  int64_t max_num_batched_tokens = 8192;
  double act_bytes = 2;       // activation dtype size
  int64_t layers_per_stage = 0;
  bool enforce_eager = false;
};

// vLLM V1 profile-run peak (torch peak increase over the weights): the larger of the forward
// pass over max_num_batched_tokens and the dummy sampler run over min(max_num_seqs, tokens)
// rows of vocab-sized fp32 logits. The sampler's bytes per logit dropped in 0.17.
Estimate vllm_v1_activation(const catalog::ModelArch& m, const ProfileShape& s, const EngineVersion& v);
// vLLM V0 profile-run peak: max_num_seqs sequences filling max_num_batched_tokens
// (= max(max_model_len, 2048) without chunked prefill).
Estimate vllm_v0_activation(const catalog::ModelArch& m, const ProfileShape& s);
// Non-torch memory vLLM measures during profiling (NCCL and custom all-reduce buffers when
// TP/PP > 1, cuBLAS workspaces).
Estimate vllm_non_torch(const ProfileShape& s, bool v1, const EngineVersion& v);
// CUDA-graph pool (piecewise + full graphs over the capture sizes).
Estimate cuda_graph(const ProfileShape& s);
// Memory SGLang's process holds besides weights when it measures free memory (CUDA context,
// NCCL and custom all-reduce buffers).
Estimate sglang_runtime(const ProfileShape& s);
// TGI warmup prefill peak (max_batch_prefill_tokens).
Estimate tgi_activation(const catalog::ModelArch& m, const ProfileShape& s);

// The CUDA context every process pays before any allocation (outside the engines' ledgers).
inline constexpr double kCudaContextGiB = 0.5;

}  // namespace llmtriage::ledger
