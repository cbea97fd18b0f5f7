#pragma once
// Weight memory of a model as an engine shards it over tensor- and pipeline-parallel ranks.
#include <cstdint>
#include <string>

#include "catalog/model.h"

namespace llmtriage::catalog {

struct WeightSharding {
  int tp = 1;                // tensor-parallel size
  int pp = 1;                // pipeline-parallel size
  std::string dtype;         // compute dtype of unquantized weights ("bfloat16"; "" = checkpoint's)
  QuantConfig quant;         // effective quantization (checkpoint's, or --quantization)
  // vLLM pads MXFP4 MoE expert widths to a multiple of 256 for its Hopper kernels (fits the
  // 64.38 GiB gpt-oss-120b load reported in vllm-project/vllm#33155).
  bool pad_mxfp4_experts = false;
};

struct WeightBytes {
  double total_bytes = 0;        // whole model, all ranks
  double per_gpu_bytes = 0;      // the largest rank (first/last pipeline stage)
  double embedding_bytes = 0;    // embedding + lm_head, whole model
  double quantized_bytes = 0;    // bytes of quantized matrices incl. scales, whole model
  int64_t layers_per_stage = 0;  // decoder layers on the largest pipeline stage
};

// Bytes of the weights. Embeddings, lm_head and norms stay at the compute dtype; linear layers of
// the decoder at the quantized width (bits/8 + one 2-byte scale per group, + 4-bit zero point for
// gptq/awq; mxfp4: 4 bits + one 1-byte scale per 32). TP shards everything except replicated KV
// heads (tp > num_kv_heads: each rank holds one KV head); PP puts ceil(L/pp) layers on a stage,
// the embedding on the first and the lm_head on the last.
WeightBytes weight_bytes(const ModelArch& m, const WeightSharding& s);

}  // namespace llmtriage::catalog
