#pragma once
// The llama.cpp accounting (llama-server, and Ollama, which runs llama.cpp's memory layout):
// no memory fraction and no paged pool; the engine allocates what its flags ask for.
//   cells  = -c padded to 256 (0 = the model's context); without --kv-unified each of the -np
//            slots gets n_ctx / np cells (padded to 256) and n_ctx = that x np
//   KV     = n_layer x cells x (n_head_kv x head_dim_k x bytes(type_k) + n_head_kv x head_dim_v x bytes(type_v))
//   -ngl N = the last N-1 repeating layers and the output layer on the GPU, with their KV
// Sources: src/llama-context.cpp, src/llama-kv-cache.cpp, src/llama-model.cpp load_tensors,
// common/arg.cpp (llama.cpp); server/sched.go, envconfig/config.go (Ollama). docs/ledger.md.
#include "ledger/ledger.h"

namespace llmtriage::ledger {

// The llama.cpp/Ollama ledger without remedies (in.engine is llamacpp or ollama).
core::Result<LedgerReport> compute_llamacpp_ledger(const LedgerInput& in);

// Its single-variable remedies, in the engine's own flags (ledger/remedy_flags.h).
void add_llamacpp_remedies(const LedgerInput& in, LedgerReport& report);

// Bytes of one row of `n` elements of a llama.cpp cache type ("f16", "q8_0", ...), as
// ggml_row_size: n / block_size x type_size. nullopt for a type llama.cpp's -ctk/-ctv do not accept
// or a row that is not a whole number of blocks.
std::optional<double> kv_row_bytes(const std::string& cache_type, int64_t n);

}  // namespace llmtriage::ledger
