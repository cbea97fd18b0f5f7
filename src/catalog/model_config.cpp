// Reading a Hugging Face config.json into ModelArch. Field names follow transformers'
// configuration_*.py of each family; the per-family defaults are the ones transformers applies
// when a field is absent (each noted in ModelArch::notes, never silent).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "catalog/model.h"

namespace llmtriage::catalog {
namespace {

using nlohmann::json;

// Architectures whose layout this reader knows (transformers class names).
const std::set<std::string> kKnownArchitectures = {
    "LlamaForCausalLM", "MistralForCausalLM", "MixtralForCausalLM", "Qwen2ForCausalLM",
    "Qwen2MoeForCausalLM", "Qwen3ForCausalLM", "Qwen3MoeForCausalLM", "GemmaForCausalLM",
    "Gemma2ForCausalLM", "Gemma3ForCausalLM", "Gemma3ForConditionalGeneration", "Phi3ForCausalLM",
    "Phi3VForCausalLM", "PhiForCausalLM", "DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM",
    "GptOssForCausalLM", "Llama4ForConditionalGeneration", "Llama4ForCausalLM",
    "Mistral3ForConditionalGeneration", "Qwen2_5_VLForConditionalGeneration",
    "Qwen2VLForConditionalGeneration", "GraniteForCausalLM", "KimiVLForConditionalGeneration"};

struct Reader {
  const json& text;   // text_config when present, else the root
  const json& root;
  std::string where;
  std::vector<std::string> read, missing;

  const json* find(const char* key) const {
    if (auto it = text.find(key); it != text.end() && !it->is_null()) return &*it;
    if (&text != &root)
      if (auto it = root.find(key); it != root.end() && !it->is_null()) return &*it;
    return nullptr;
  }
  std::optional<int64_t> num(const char* key) {
    const json* v = find(key);
    if (!v || !v->is_number()) return std::nullopt;
    read.push_back(key);
    return v->is_number_integer() ? v->get<int64_t>() : static_cast<int64_t>(v->get<double>());
  }
  int64_t required(const char* key) {
    auto v = num(key);
    if (!v) missing.push_back(key);
    return v.value_or(0);
  }
  std::string str(const char* key) {
    const json* v = find(key);
    if (!v || !v->is_string()) return {};
    read.push_back(key);
    return v->get<std::string>();
  }
};

QuantConfig parse_quant(const json& q, std::vector<std::string>& notes) {
  QuantConfig out;
  std::string method = q.value("quant_method", std::string());
  for (auto& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out.method = method;
  if (method == "fp8" || method == "fbgemm_fp8") {
    out.weight_bits = 8;
    if (auto it = q.find("weight_block_size"); it != q.end() && it->is_array() && it->size() == 2)
      out.group_size = (*it)[0].get<int>() * (*it)[1].get<int>();
  } else if (method == "compressed-tensors") {
    out.weight_bits = 8;
    out.assumed = true;
    if (auto groups = q.find("config_groups"); groups != q.end() && groups->is_object() && !groups->empty()) {
      const json& g = groups->begin().value();
      if (auto w = g.find("weights"); w != g.end() && w->is_object()) {
        if (auto b = w->find("num_bits"); b != w->end() && b->is_number()) {
          out.weight_bits = b->get<int>();
          out.assumed = false;
        }
        if (auto gs = w->find("group_size"); gs != w->end() && gs->is_number()) out.group_size = gs->get<int>();
      }
    }
    if (out.assumed) notes.push_back("compressed-tensors config without weights.num_bits: 8-bit weights assumed");
  } else if (method == "gptq" || method == "awq" || method == "gptq_marlin" || method == "awq_marlin") {
    int bits = q.value("bits", q.value("w_bit", 4));
    int group = q.value("group_size", q.value("q_group_size", 128));
    out.weight_bits = bits;
    out.group_size = group > 0 ? group : 0;
  } else if (method == "mxfp4") {
    out.weight_bits = 4;
    out.group_size = 32;
    out.experts_only = true;
  } else if (method == "bitsandbytes") {
    out.weight_bits = q.value("load_in_8bit", false) ? 8 : 4;
    out.group_size = out.weight_bits == 4 ? 64 : 0;
  } else if (method == "modelopt") {
    std::string algo = q.value("quant_algo", std::string());
    out.weight_bits = algo.find("FP4") != std::string::npos ? 4 : 8;
    out.group_size = out.weight_bits == 4 ? 16 : 0;
  } else if (!method.empty()) {
    notes.push_back("quantization method '" + method + "' is not modelled: weights sized at the compute dtype");
  }
  return out;
}

// The per-layer attention pattern, from the most explicit field available.
void read_attention_pattern(Reader& r, ModelArch& m) {
  m.layer_attention.assign(m.num_layers, LayerAttention::full);
  const std::string mt = m.model_type;
  auto window = r.num("sliding_window");
  if (const json* lt = r.find("layer_types"); lt && lt->is_array() && static_cast<int64_t>(lt->size()) == m.num_layers) {
    r.read.push_back("layer_types");
    for (int64_t i = 0; i < m.num_layers; ++i) {
      std::string t = (*lt)[i].is_string() ? (*lt)[i].get<std::string>() : "";
      if (t.find("sliding") != std::string::npos) m.layer_attention[i] = LayerAttention::sliding;
      else if (t.find("chunked") != std::string::npos) m.layer_attention[i] = LayerAttention::chunked;
    }
  } else if (mt == "gemma2" && window) {
    // transformers Gemma2: even layers are local (sliding), odd layers global.
    for (int64_t i = 0; i < m.num_layers; i += 2) m.layer_attention[i] = LayerAttention::sliding;
  } else if ((mt == "gemma3" || mt == "gemma3_text") && window) {
    int64_t pattern = r.num("sliding_window_pattern").value_or(6);
    if (!r.find("sliding_window_pattern")) m.notes.push_back("sliding_window_pattern absent: Gemma 3 default 6 (5 local : 1 global)");
    for (int64_t i = 0; i < m.num_layers; ++i)
      if ((i + 1) % pattern != 0) m.layer_attention[i] = LayerAttention::sliding;
  } else if (mt == "llama4" || mt == "llama4_text") {
    m.attention_chunk_size = r.num("attention_chunk_size").value_or(0);
    if (m.attention_chunk_size > 0) {
      const json* nr = r.find("no_rope_layers");
      for (int64_t i = 0; i < m.num_layers; ++i) {
        // no_rope_layers[i] == 1: RoPE + chunked local attention; 0: NoPE global layer.
        bool chunked = (nr && nr->is_array() && static_cast<int64_t>(nr->size()) == m.num_layers)
                           ? (*nr)[i].get<int>() != 0
                           : (i + 1) % 4 != 0;
        if (chunked) m.layer_attention[i] = LayerAttention::chunked;
      }
      if (!nr) m.notes.push_back("no_rope_layers absent: Llama 4 default (every 4th layer global)");
    }
  } else if (window && *window > 0) {
    const json* use = r.find("use_sliding_window");
    bool enabled = !(use && use->is_boolean() && !use->get<bool>());
    if (mt.rfind("qwen", 0) == 0 && !use) enabled = false;
    // A window at least as long as the context is no window at all (Qwen2.5, Phi-3-128k).
    if (enabled && (m.max_position_embeddings == 0 || *window < m.max_position_embeddings))
      std::fill(m.layer_attention.begin(), m.layer_attention.end(), LayerAttention::sliding);
  }
  if (window) m.sliding_window = *window;
  if (m.sliding_window <= 0)
    for (auto& a : m.layer_attention)
      if (a == LayerAttention::sliding) a = LayerAttention::full;
}

}  // namespace

core::Result<ModelArch> parse_model_config(const std::string& json_text, const std::string& where) {
  json root = json::parse(json_text, nullptr, false, /*ignore_comments=*/true);
  if (root.is_discarded() || !root.is_object())
    return core::make_error(core::ErrorKind::input, where, "a JSON object (a Hugging Face config.json)",
                            json_text.substr(0, std::min<size_t>(40, json_text.size())));
  const json& text = (root.contains("text_config") && root["text_config"].is_object()) ? root["text_config"] : root;
  Reader r{text, root, where, {}, {}};
  ModelArch m;
  m.source = where;
  if (auto a = root.find("architectures"); a != root.end() && a->is_array() && !a->empty() && (*a)[0].is_string())
    m.architecture = (*a)[0].get<std::string>();
  m.model_type = r.str("model_type");
  const bool known = kKnownArchitectures.count(m.architecture) > 0;

  m.num_layers = r.required("num_hidden_layers");
  m.hidden_size = r.required("hidden_size");
  m.num_attention_heads = r.required("num_attention_heads");
  m.vocab_size = r.required("vocab_size");
  m.max_position_embeddings = r.num("max_position_embeddings").value_or(0);
  m.kv_lora_rank = r.num("kv_lora_rank").value_or(0);
  if (m.is_mla()) {
    m.q_lora_rank = r.num("q_lora_rank").value_or(0);
    m.qk_rope_head_dim = r.required("qk_rope_head_dim");
    m.qk_nope_head_dim = r.required("qk_nope_head_dim");
    m.v_head_dim = r.required("v_head_dim");
    m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    m.num_kv_heads = m.num_attention_heads;
  } else {
    if (auto kv = r.num("num_key_value_heads")) {
      m.num_kv_heads = *kv;
    } else {
      m.num_kv_heads = m.num_attention_heads;
      m.notes.push_back("num_key_value_heads absent: multi-head attention (= num_attention_heads), as transformers defaults");
    }
    if (auto hd = r.num("head_dim")) m.head_dim = *hd;
    else if (m.num_attention_heads > 0) m.head_dim = m.hidden_size / m.num_attention_heads;
    m.v_head_dim = m.head_dim;
  }

  // MoE fields differ per family.
  m.num_experts = r.num("num_experts").value_or(r.num("num_local_experts").value_or(r.num("n_routed_experts").value_or(0)));
  if (m.is_moe()) {
    m.num_experts_per_tok = r.num("num_experts_per_tok").value_or(r.num("experts_per_token").value_or(0));
    if (m.num_experts_per_tok <= 0) r.missing.push_back("num_experts_per_tok");
    m.first_k_dense_layers = r.num("first_k_dense_replace").value_or(0);
    m.moe_layer_step = r.num("decoder_sparse_step").value_or(r.num("interleave_moe_layer_step").value_or(r.num("moe_layer_freq").value_or(1)));
    if (auto mi = r.num("moe_intermediate_size")) {
      m.moe_intermediate_size = *mi;
      m.intermediate_size = r.num("intermediate_size").value_or(0);
    } else {
      // Mixtral, gpt-oss, Llama 4: intermediate_size is the expert width.
      m.moe_intermediate_size = r.required("intermediate_size");
      m.intermediate_size = r.num("intermediate_size_mlp").value_or(m.moe_intermediate_size);
    }
    if (auto sh = r.num("shared_expert_intermediate_size")) {
      m.num_shared_experts = 1;
      m.shared_expert_intermediate_size = *sh;
    } else if (auto n = r.num("n_shared_experts")) {
      m.num_shared_experts = *n;
      m.shared_expert_intermediate_size = *n * m.moe_intermediate_size;
    } else if (m.model_type == "llama4_text" || m.model_type == "llama4") {
      m.num_shared_experts = 1;
      m.shared_expert_intermediate_size = m.moe_intermediate_size;
    }
  } else {
    m.intermediate_size = r.required("intermediate_size");
  }
  if (m.model_type == "phi") m.gated_mlp = false;

  m.torch_dtype = r.str("torch_dtype");
  if (m.torch_dtype.empty()) m.torch_dtype = r.str("dtype");
  if (m.torch_dtype.empty() || dtype_bytes(m.torch_dtype) == 0) {
    m.notes.push_back("torch_dtype absent: bfloat16 assumed");
    m.torch_dtype = "bfloat16";
  }
  const bool gemma = m.model_type.rfind("gemma", 0) == 0;
  if (const json* t = r.find("tie_word_embeddings"); t && t->is_boolean()) {
    m.tie_word_embeddings = t->get<bool>();
    r.read.push_back("tie_word_embeddings");
  } else {
    // transformers' PretrainedConfig defaults tie_word_embeddings to true; Gemma relies on it.
    m.tie_word_embeddings = gemma;
    if (!gemma) m.notes.push_back("tie_word_embeddings absent: untied lm_head assumed");
  }
  if (m.num_layers > 0) read_attention_pattern(r, m);
  if (const json* q = r.find("quantization_config"); q && q->is_object()) {
    m.quant = parse_quant(*q, m.notes);
    r.read.push_back("quantization_config");
  } else if (const json* q2 = root.find("compression_config") != root.end() ? &root["compression_config"] : nullptr;
             q2 && q2->is_object()) {
    m.quant = parse_quant(*q2, m.notes);
  }

  if (!r.missing.empty()) {
    std::string missing, read;
    for (const auto& f : r.missing) missing += (missing.empty() ? "" : ", ") + f;
    std::sort(r.read.begin(), r.read.end());
    r.read.erase(std::unique(r.read.begin(), r.read.end()), r.read.end());
    for (const auto& f : r.read) read += (read.empty() ? "" : ", ") + f;
    std::string arch = m.architecture.empty() ? "no \"architectures\"" : m.architecture;
    return core::make_error(
        core::ErrorKind::input, where,
        "the fields " + arch + " needs: " + missing, "them missing",
        std::string(known ? "" : "Architecture '" + arch + "' is not one llmtriage knows. ") +
            "Fields read: " + (read.empty() ? "none" : read) + ". Missing: " + missing + ".");
  }
  if (!known)
    m.notes.push_back("architecture '" + (m.architecture.empty() ? std::string("unnamed") : m.architecture) +
                      "' is not a known family: read as a standard decoder from num_hidden_layers, hidden_size, "
                      "num_attention_heads, num_key_value_heads, head_dim, intermediate_size, vocab_size");
  if (m.num_layers <= 0 || m.hidden_size <= 0 || m.num_attention_heads <= 0 || m.head_dim <= 0 ||
      m.num_kv_heads <= 0 || m.vocab_size <= 0)
    return core::make_error(core::ErrorKind::input, where,
                            "positive num_hidden_layers, hidden_size, num_attention_heads, num_key_value_heads, head_dim, vocab_size",
                            fmt::format("{}, {}, {}, {}, {}, {}", m.num_layers, m.hidden_size, m.num_attention_heads,
                                        m.num_kv_heads, m.head_dim, m.vocab_size));
  return m;
}

}  // namespace llmtriage::catalog
