#pragma once
// The GPU memory ledger: where every GiB of one GPU goes at engine startup, per engine and
// version, and whether the deployment starts. Each line names the formula and the engine source
// file it mirrors (docs/ledger.md). Numbers are per GPU (the engines size their pools per rank
// and take the minimum), tokens are per TP group (every rank holds its share of each token).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "core/engine_settings.h"
#include "core/result.h"

namespace llmtriage::ledger {

enum class Verdict {
  fits,
  weights_do_not_fit,        // the weights alone exceed the GPU: CUDA OOM while loading
  no_kv_memory,              // nothing (or not one block) left for the KV cache
  max_model_len_exceeds_kv,  // one sequence of max-model-len does not fit (vLLM refuses to start)
  low_concurrency,           // fewer than min_concurrency typical sequences fit
};
const char* to_string(Verdict v);

// llama.cpp (llama-server) and Ollama settings in their own units; unset = the engine's default.
// Mirrors common/arg.cpp and src/llama-context.cpp (llama.cpp), server/sched.go and
// envconfig/config.go (Ollama); see docs/ledger.md, "llama.cpp and Ollama".
struct LlamaCppSettings {
  // llama.cpp -c: KV cells of all slots together (0 = the model's context_length).
  // Ollama: num_ctx / OLLAMA_CONTEXT_LENGTH, per slot (Ollama asks for num_ctx x slots cells).
  std::optional<int64_t> ctx_size;
  std::optional<int> parallel;              // -np / OLLAMA_NUM_PARALLEL (llama.cpp -1 = auto: 4, unified)
  std::optional<bool> kv_unified;           // --kv-unified / --no-kv-unified
  std::optional<std::string> cache_type_k;  // -ctk: f16 (default), f32, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1
  std::optional<std::string> cache_type_v;  // -ctv (Ollama: OLLAMA_KV_CACHE_TYPE sets both)
  std::optional<int> n_gpu_layers;          // -ngl / Ollama num_gpu; -1 or >= layers + 1 = all
  std::optional<bool> flash_attn;           // -fa on/off (unset = auto); Ollama OLLAMA_FLASH_ATTENTION
  std::optional<int64_t> ubatch_size;       // -ub (default 512): sizes the compute buffer
  // Buffers the engine's startup log states (ingest startup_memory events), GiB.
  std::optional<double> logged_compute_gpu_gib, logged_compute_host_gib;
};

struct LedgerInput {
  catalog::ModelArch model;
  catalog::GpuSpec gpu;
  int num_gpus = 0;                         // 0 = tp x pp x dp; if TP is unset, TP = num_gpus / pp
  core::EngineKind engine = core::EngineKind::vllm;
  std::string engine_version;               // "0.19.0"; "" = the newest accounting modelled
  core::EngineSettings settings;
  std::optional<int64_t> typical_len;       // typical prompt + output tokens
  std::optional<double> gpu_mem_gib;        // overrides gpu.memory_gib (torch-visible GiB)
  int min_concurrency = 4;                  // low_concurrency below this many typical sequences
  bool with_remedies = true;
  LlamaCppSettings llama;                   // engine llamacpp / ollama only
};

// One line of the ledger.
struct LedgerLine {
  std::string key;       // "weights_gib"
  std::string label;     // "Weights"
  double value = 0;
  std::string unit;      // "GiB", "tokens", "blocks", "x", "B"
  std::string formula;   // with the numbers used
  std::string source;    // engine source file it mirrors, or "llmtriage estimate: <basis>"
};

// KV bytes per token for one attention kind (layers differ in hybrid models).
struct KvLayerType {
  std::string attention;          // "full", "sliding", "chunked", "mla"
  int64_t layers = 0;             // on the largest pipeline stage
  double bytes_per_token_per_layer = 0;  // per GPU
  int64_t window = 0;             // tokens kept per sequence (sliding/chunked); 0 = all
};

// A computed change of one variable and what it does.
struct Remedy {
  std::string flag;      // "--max-model-len"
  std::string from;      // current value
  std::string to;        // proposed value
  std::string effect;    // one sentence with numbers
  Verdict verdict_after = Verdict::fits;
  int64_t kv_cache_tokens_after = 0;
};

struct LedgerReport {
  // What was modelled (resolved defaults included).
  std::string model_id;
  std::string gpu_name;
  core::EngineKind engine = core::EngineKind::vllm;
  std::string engine_version;     // as given ("" = newest)
  std::string accounting;         // "vLLM V1 >= 0.21", "vLLM V1 0.17-0.20", "SGLang", ...
  int tp = 1, pp = 1, dp = 1, num_gpus = 1;
  double utilization = 0;         // gpu_memory_utilization / mem_fraction_static / TGI fraction
  int64_t max_model_len = 0;
  int64_t max_num_seqs = 0;
  int64_t max_num_batched_tokens = 0;
  int block_size = 16;
  std::string dtype;              // compute dtype of unquantized weights
  std::string kv_cache_dtype;     // "bfloat16", "fp8", ...
  std::string quantization;       // effective weight quantization ("" none)
  bool enforce_eager = false;

  // The ledger, GiB per GPU.
  double total_gib = 0;
  double usable_gib = 0;          // total x utilization
  double weights_gib = 0;
  double activation_gib = 0;      // profiled activation peak (0 where the engine reserves headroom instead)
  double non_torch_gib = 0;       // NCCL/custom all-reduce buffers, cuBLAS workspaces, ...
  double cuda_graph_gib = 0;      // estimate; 0 with enforce_eager
  bool cuda_graph_subtracted = false;  // true: taken out before sizing the pool; false: must fit in the headroom
  double headroom_gib = 0;        // total - usable: where pre-0.21 CUDA graphs and the CUDA context live
  double kv_cache_gib = 0;        // the pool (negative = short by that much)
  double host_gib = 0;            // llama.cpp/Ollama: weights, KV and buffers kept in host memory

  double kv_bytes_per_token = 0;  // per GPU, all layers on the stage, as a full-attention token costs
  std::vector<KvLayerType> kv_by_layer_type;
  int64_t kv_groups = 1;          // vLLM hybrid KV-cache groups (1 = uniform)
  int64_t padding_layers = 0;     // vLLM hybrid grouping padding
  int64_t num_blocks = 0;
  int64_t kv_cache_tokens = 0;    // as the engine reports it ("GPU KV cache size", max_total_num_tokens)
  double max_concurrency = 0;     // sequences of max_model_len that fit at once
  std::optional<double> max_concurrency_typical;  // at typical_len
  double kv_needed_for_max_len_gib = 0;  // one sequence of max_model_len
  int64_t largest_fitting_max_model_len = 0;

  Verdict verdict = Verdict::fits;
  bool engine_starts = true;      // the engine's startup outcome under this accounting
  std::string verdict_detail;     // one sentence with numbers

  // Settings in the engine's own names where the vLLM-shaped ones above do not fit (llama.cpp,
  // Ollama): ("-c", "8192"), ("-np", "4"), ("cells_per_slot", "2048"), ...
  std::vector<std::pair<std::string, std::string>> engine_settings;

  std::vector<LedgerLine> lines;  // every line, in ledger order
  std::vector<Remedy> remedies;
  std::vector<std::string> warnings;  // risks that do not change the verdict (CUDA-graph headroom, ...)
  std::vector<std::string> notes;     // assumptions (defaults taken, estimated GPU capacity, ...)
};

// Computes the ledger. Errors (exit 2): utilization outside (0, 1], TP not dividing the
// attention heads (or KV heads not divisible/replicable), non-positive lengths or sizes,
// engines without a memory model (trtllm), a model without a context length and no
// max_model_len, a llama.cpp cache type it does not accept. llamacpp and ollama run the
// llama.cpp accounting (ledger_llamacpp.cpp): KV cells per slot, cache types, -ngl split.
core::Result<LedgerReport> compute_ledger(const LedgerInput& in);

}  // namespace llmtriage::ledger
