#pragma once
// Model architectures: what the ledger and the simulator need to size weights, the KV cache and
// FLOPs. Read from a Hugging Face config.json (any of the families below) or from the bundled
// config.json facts under data/models/ (sources cited in each file).
//
// Families: Llama (1-3, 4 text), Mistral, Mixtral, Qwen2/2.5, Qwen2-MoE, Qwen3, Qwen3-MoE,
// Gemma 1/2/3, Phi-3/Phi-4, DeepSeek-V2/V3 (MLA), gpt-oss, Granite. Multimodal wrappers
// (Gemma3ForConditionalGeneration, Mistral3, Llama4, Qwen2.5-VL) are read from text_config.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace llmtriage::catalog {

// How one decoder layer attends, which decides how much KV it keeps per sequence.
enum class LayerAttention {
  full,     // every token of the sequence
  sliding,  // the last sliding_window tokens (Gemma 2/3 local layers, gpt-oss even layers)
  chunked,  // Llama 4 chunked-local attention: tokens of the current attention_chunk_size chunk
};
const char* to_string(LayerAttention a);

// The checkpoint's quantization_config (or --quantization), reduced to what sizes the weights.
struct QuantConfig {
  std::string method;      // "" (none), "fp8", "compressed-tensors", "gptq", "awq", "mxfp4", "bitsandbytes", ...
  int weight_bits = 0;     // bits per quantized weight (8 for fp8/int8, 4 for gptq/awq/mxfp4); 0 = unquantized
  int group_size = 0;      // weights per scale group; 0 = per channel/tensor (scales negligible)
  bool experts_only = false;  // only MoE expert weights are quantized (gpt-oss mxfp4)
  bool assumed = false;    // weight_bits not stated by the config; assumed from the method (noted)
  bool quantized() const { return weight_bits > 0; }
};

// Weights as a GGUF file stores them (tensor data bytes), for engines that load the file as is
// (llama.cpp, Ollama). llama.cpp places the input embedding on the host, each blk.N on the device
// of layer N, the output head with the last offloaded layer (src/llama-model.cpp load_tensors).
struct FileWeights {
  std::string format = "gguf";
  std::string file_type;             // general.file_type as a name ("F16", "Q4_K_M")
  int64_t total_bytes = 0;           // every tensor
  int64_t input_bytes = 0;           // token_embd.* (and tensors outside blk.N and output*)
  int64_t output_bytes = 0;          // output.weight, output_norm.*
  std::vector<int64_t> layer_bytes;  // blk.N.*, one entry per layer
};

struct ModelArch {
  std::string id;             // HF id or path as given
  std::string source;         // file read (config.json or data/models/*.json)
  std::string architecture;   // "LlamaForCausalLM"
  std::string model_type;     // config "model_type" of the text model ("llama", "gemma2", ...)
  std::string torch_dtype;    // checkpoint dtype: "bfloat16", "float16", "float32"

  int64_t num_layers = 0;
  int64_t hidden_size = 0;
  int64_t num_attention_heads = 0;
  int64_t num_kv_heads = 0;   // = num_attention_heads for MHA
  int64_t head_dim = 0;       // config head_dim, else hidden_size / num_attention_heads
  int64_t v_head_dim = 0;     // value head size when it differs (MLA); else = head_dim
  int64_t intermediate_size = 0;  // dense MLP width (gated: gate+up+down = 3 matrices)
  int64_t vocab_size = 0;
  int64_t max_position_embeddings = 0;  // the context the engine uses as default max-model-len
  bool tie_word_embeddings = false;
  bool gated_mlp = true;      // SwiGLU/GeGLU (3 matrices); false for GELU MLPs (Phi-2, 2 matrices)

  // Attention pattern: one entry per layer.
  std::vector<LayerAttention> layer_attention;
  int64_t sliding_window = 0;        // tokens, for sliding layers
  int64_t attention_chunk_size = 0;  // tokens, for chunked layers (Llama 4)

  // MLA (DeepSeek-V2/V3, Kimi): the KV cache holds a compressed latent per token per layer.
  int64_t kv_lora_rank = 0;          // 0 = not MLA
  int64_t q_lora_rank = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t qk_nope_head_dim = 0;
  bool is_mla() const { return kv_lora_rank > 0; }

  // MoE. A layer i is MoE when num_experts > 0, i >= first_k_dense_layers and
  // (i - first_k_dense_layers) % moe_layer_step == 0 (Qwen2-MoE decoder_sparse_step, Llama 4
  // interleave_moe_layer_step, DeepSeek moe_layer_freq).
  int64_t num_experts = 0;
  int64_t num_experts_per_tok = 0;
  int64_t moe_intermediate_size = 0;     // one routed expert's width
  int64_t num_shared_experts = 0;
  int64_t shared_expert_intermediate_size = 0;  // total width of the shared expert(s)
  int64_t first_k_dense_layers = 0;
  int64_t moe_layer_step = 1;
  bool is_moe() const { return num_experts > 0; }
  bool layer_is_moe(int64_t layer) const;

  // Parameters outside the decoder modelled above (vision tower, projector, MTP head), from the
  // bundled data's "extra_params" (count; kept at the checkpoint dtype).
  int64_t extra_params = 0;
  std::string extra_params_note;

  QuantConfig quant;
  std::optional<FileWeights> file_weights;  // set for a GGUF file (catalog/gguf.h)
  std::vector<std::string> notes;  // assumptions taken while reading (shown in reports)

  // --- derived sizes ------------------------------------------------------------------------
  int64_t q_size() const { return num_attention_heads * head_dim; }
  int64_t kv_size() const { return num_kv_heads * head_dim; }
  // Attention parameters of one layer (projections; biases and norms ignored: < 0.1%).
  int64_t attention_params_per_layer() const;
  // MLP (dense or MoE incl. router and shared experts) parameters of layer `layer`.
  int64_t mlp_params(int64_t layer) const;
  int64_t routed_expert_params(int64_t layer) const;  // all routed experts of the layer
  int64_t embedding_params() const { return vocab_size * hidden_size; }
  int64_t lm_head_params() const { return tie_word_embeddings ? 0 : vocab_size * hidden_size; }
  int64_t total_params() const;   // everything incl. embeddings, lm_head and extra_params
  int64_t active_params() const;  // per token: routed experts counted top-k only
  // Forward FLOPs per token at context length `context` (2 x active matmul params + attention
  // scores/values 4 x layers_attending x q_size x attended tokens). Embedding lookup excluded.
  double flops_per_token(int64_t context) const;
  int64_t count_layers(LayerAttention a) const;
};

// Bytes per element of a dtype name ("bfloat16", "bf16", "float16", "half", "float32", "fp8*").
// 0 for an unknown name.
double dtype_bytes(const std::string& dtype);

// Loads a model by HF id (bundled data/models, case-insensitive, aliases too), by path to a
// config.json, by a directory holding config.json, or by path to a GGUF file (header only,
// catalog/gguf.h). Errors: a missing field names the field and the file; an unknown architecture
// lists the fields read and those missing.
core::Result<ModelArch> load_model(const std::string& id_or_path);

// Parses config.json text (`where` names the file in errors).
core::Result<ModelArch> parse_model_config(const std::string& json_text, const std::string& where);

// The ids of the bundled models (for --help and "did you mean").
std::vector<std::string> bundled_model_ids();

// Parses a quantization_config JSON object text or a --quantization name ("fp8", "awq",
// "gptq", "compressed-tensors", "mxfp4", "bitsandbytes", "int8", "int4").
QuantConfig quant_from_name(const std::string& name);

}  // namespace llmtriage::catalog
