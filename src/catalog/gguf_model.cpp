// A GGUF header -> catalog::ModelArch. Keys as llama.cpp reads them (src/llama-arch.cpp
// LLM_KV_NAMES, src/llama-model.cpp load_hparams): "{arch}.block_count",
// "{arch}.embedding_length", "{arch}.feed_forward_length", "{arch}.context_length",
// "{arch}.attention.head_count", "{arch}.attention.head_count_kv" (default: head_count),
// "{arch}.attention.key_length" / ".value_length" (default: embedding / head_count),
// "{arch}.expert_count", "{arch}.expert_used_count", "{arch}.vocab_size" (else the length of
// tokenizer.ggml.tokens), "general.file_type" (llama_ftype), "general.name".
#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "catalog/gguf.h"

namespace llmtriage::catalog {
namespace {

// "blk.12.attn_q.weight" -> 12; -1 for tensors outside the repeating blocks.
int64_t gguf_block_of(const std::string& name) {
  if (name.rfind("blk.", 0) != 0) return -1;
  int64_t n = 0;
  size_t k = 4;
  if (k >= name.size() || !std::isdigit(static_cast<unsigned char>(name[k]))) return -1;
  while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k])) && n < (int64_t{1} << 40))
    n = n * 10 + (name[k++] - '0');
  return (k < name.size() && name[k] == '.') ? n : -1;
}

// The compute dtype llama.cpp runs a file type in, as the catalog names dtypes.
std::string gguf_compute_dtype(const std::string& ftype) {
  if (ftype == "F32") return "float32";
  if (ftype == "BF16") return "bfloat16";
  return "float16";
}

bool gguf_has_tensor_prefix(const GgufHeader& h, const std::string& prefix) {
  for (const auto& t : h.tensors)
    if (t.name.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

core::Result<ModelArch> model_from_gguf(const GgufHeader& h, const std::string& id, const std::string& where) {
  auto missing = [&](const std::string& key, const std::string& what) {
    return core::make_error(core::ErrorKind::input, where, "GGUF metadata key " + key + " (" + what + ")", "none",
                            "llama.cpp needs it to load the model too; the file may be a vocabulary-only or adapter GGUF.");
  };
  auto arch = h.get_string("general.architecture");
  if (!arch) return missing("general.architecture", "the model architecture");
  const std::string a = *arch + ".";

  ModelArch m;
  m.id = id;
  m.source = where;
  m.model_type = *arch;
  m.architecture = *arch + " (GGUF)";

  auto need = [&](const std::string& key, const std::string& what) -> core::Result<int64_t> {
    const GgufValue* v = h.find(key);
    if (!v) return missing(key, what);
    if (v->type == GgufType::array)
      return core::make_error(core::ErrorKind::input, where, key + ": one integer", "a per-layer array of " +
                                                                                       std::to_string(v->array_len),
                              "Per-layer values are not modelled.");
    auto x = v->as_int();
    if (!x || *x <= 0) return core::make_error(core::ErrorKind::input, where, key + ": a positive integer", to_string(v->type));
    return *x;
  };
  auto opt = [&](const std::string& key) -> std::optional<int64_t> {
    auto x = h.get_int(key);
    if (x && *x > 0) return x;
    return std::nullopt;
  };

  auto layers = need(a + "block_count", "the layer count");
  if (!layers.ok()) return layers.error();
  auto embd = need(a + "embedding_length", "the hidden size");
  if (!embd.ok()) return embd.error();
  auto heads = need(a + "attention.head_count", "the attention heads");
  if (!heads.ok()) return heads.error();
  m.num_layers = *layers;
  m.hidden_size = *embd;
  m.num_attention_heads = *heads;

  if (const GgufValue* kv = h.find(a + "attention.head_count_kv"); kv && kv->type == GgufType::array) {
    m.num_kv_heads = m.num_attention_heads;
    m.notes.push_back(fmt::format("{}attention.head_count_kv is per layer ({} values, not read): sized as {} KV heads "
                                  "on every layer (an upper bound)",
                                  a, kv->array_len, m.num_kv_heads));
  } else {
    m.num_kv_heads = opt(a + "attention.head_count_kv").value_or(m.num_attention_heads);
  }
  m.head_dim = opt(a + "attention.key_length").value_or(m.hidden_size / m.num_attention_heads);
  m.v_head_dim = opt(a + "attention.value_length").value_or(m.hidden_size / m.num_attention_heads);
  m.intermediate_size = opt(a + "feed_forward_length").value_or(0);
  m.max_position_embeddings = opt(a + "context_length").value_or(0);
  if (m.max_position_embeddings == 0) m.notes.push_back(a + "context_length missing: give the context explicitly");

  m.num_experts = opt(a + "expert_count").value_or(0);
  m.num_experts_per_tok = opt(a + "expert_used_count").value_or(0);
  m.moe_intermediate_size = opt(a + "expert_feed_forward_length").value_or(m.num_experts ? m.intermediate_size : 0);
  m.num_shared_experts = opt(a + "expert_shared_count").value_or(0);
  if (m.num_shared_experts > 0)
    m.shared_expert_intermediate_size =
        m.num_shared_experts * opt(a + "expert_shared_feed_forward_length").value_or(m.moe_intermediate_size);
  m.first_k_dense_layers = opt(a + "leading_dense_block_count").value_or(0);

  if (auto sw = opt(a + "attention.sliding_window")) {
    m.sliding_window = *sw;
    m.notes.push_back(fmt::format("{}attention.sliding_window = {}: the per-layer pattern is not in the metadata; "
                                  "every layer is sized as full attention (an upper bound for llama.cpp's SWA cache)",
                                  a, *sw));
  }
  if (opt(a + "attention.kv_lora_rank"))
    m.notes.push_back("MLA attention (kv_lora_rank) in GGUF: the KV cache is sized as standard attention (not modelled)");
  m.layer_attention.assign(static_cast<size_t>(m.num_layers), LayerAttention::full);

  // Vocabulary: the arch key, else the token list, else the embedding tensor's second dimension.
  if (auto vs = opt(a + "vocab_size")) {
    m.vocab_size = *vs;
  } else if (const GgufValue* tok = h.find("tokenizer.ggml.tokens"); tok && tok->type == GgufType::array) {
    m.vocab_size = static_cast<int64_t>(tok->array_len);
  } else {
    for (const auto& t : h.tensors)
      if (t.name == "token_embd.weight" && t.dims.size() >= 2) m.vocab_size = static_cast<int64_t>(t.dims[1]);
  }
  m.tie_word_embeddings = !gguf_has_tensor_prefix(h, "output.weight");
  m.gated_mlp = h.tensors.empty() || gguf_has_tensor_prefix(h, "blk.0.ffn_gate");

  // File type and the weights as stored.
  FileWeights fw;
  if (auto ft = h.get_int("general.file_type")) {
    fw.file_type = llama_ftype_name(static_cast<uint32_t>(*ft));
    if (fw.file_type.empty()) fw.file_type = fmt::format("ftype {}", *ft);
  } else if (!h.by_type.empty()) {
    // No file type: name it after the type holding the most bytes.
    const GgufTypeTotal* big = &h.by_type.front();
    for (const auto& t : h.by_type)
      if (t.bytes > big->bytes) big = &t;
    fw.file_type = big->name;
    m.notes.push_back("general.file_type missing: file type taken from the largest tensors (" + big->name + ")");
  }
  fw.layer_bytes.assign(static_cast<size_t>(m.num_layers), 0);
  uint64_t elements = 0;
  for (const auto& t : h.tensors) {
    uint64_t n = 1;
    for (auto d : t.dims) n *= d;
    elements += n;
    const auto b = static_cast<int64_t>(t.bytes);
    fw.total_bytes += b;
    const int64_t blk = gguf_block_of(t.name);
    if (blk >= 0 && blk < m.num_layers) fw.layer_bytes[static_cast<size_t>(blk)] += b;
    else if (t.name.rfind("output", 0) == 0) fw.output_bytes += b;
    else fw.input_bytes += b;
  }
  m.torch_dtype = gguf_compute_dtype(fw.file_type);
  const double bpw = elements ? 8.0 * static_cast<double>(fw.total_bytes) / static_cast<double>(elements) : 0;
  if (fw.file_type != "F32" && fw.file_type != "F16" && fw.file_type != "BF16" && !h.tensors.empty()) {
    m.quant.method = "gguf " + fw.file_type;
    m.quant.weight_bits = std::max(1, static_cast<int>(std::lround(bpw)));
  }
  if (auto name = h.get_string("general.name"); name && !name->empty())
    m.notes.push_back(fmt::format("GGUF v{} '{}': {} {}, {} tensors, {:.2f} MiB of weights ({:.2f} bits per weight)",
                                  h.version, *name, *arch, fw.file_type, h.tensors.size(),
                                  static_cast<double>(fw.total_bytes) / (1024.0 * 1024.0), bpw));
  m.file_weights = std::move(fw);
  return m;
}

}  // namespace llmtriage::catalog
