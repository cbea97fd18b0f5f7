#include "ledger/ledger_render.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <vector>

namespace llmtriage::ledger {
namespace {

double round2(double x) { return std::round(x * 100.0) / 100.0; }

std::string value_text(const LedgerLine& l) {
  if (l.unit == "GiB") return fmt::format("{:.2f} GiB", l.value);
  if (l.unit == "MiB") return fmt::format("{:.2f} MiB", l.value);
  if (l.unit == "x") return fmt::format("{:.2f}x", l.value);
  if (l.unit == "B") return fmt::format("{:.0f} B", l.value);
  return fmt::format("{:.0f} {}", l.value, l.unit);
}

// A line's value in GiB (llama.cpp lines are in MiB or GiB as their size asks); nullopt when absent.
std::optional<double> line_gib(const LedgerReport& r, const std::string& key) {
  for (const auto& l : r.lines)
    if (l.key == key) return l.unit == "MiB" ? l.value / 1024.0 : l.value;
  return std::nullopt;
}

}  // namespace

std::vector<LogPair> log_pairs(const LedgerReport& r) {
  if (r.engine == core::EngineKind::llamacpp || r.engine == core::EngineKind::ollama) {
    std::vector<LogPair> out;
    const bool gpu = r.num_gpus > 0;
    auto add = [&](const char* log_key, const char* label, const char* line_key) {
      if (auto v = line_gib(r, line_key)) out.push_back({log_key, label, *v});
    };
    add("weights_cpu_gib", "Weights, host (GiB)", "weights_host");
    add("kv_cache_cpu_gib", "KV, host (GiB)", "kv_host");
    add("compute_buffer_cpu_gib", "Compute, host (GiB)", "compute_host");
    if (gpu) {
      add("weights_gib", "Weights, GPU (GiB)", "weights_gib");
      add("kv_cache_gib", "KV, GPU (GiB)", "kv_gpu");
      add("compute_buffer_gib", "Compute, GPU (GiB)", "compute_gpu");
    }
    out.push_back({"n_ctx_tokens", "KV cells", static_cast<double>(r.kv_cache_tokens)});
    return out;
  }
  return {{"total_gpu_memory_gib", "GPU memory (GiB)", r.total_gib},
          {"weights_gib", "Weights (GiB)", r.weights_gib},
          {"peak_activation_gib", "Activation peak (GiB)", r.activation_gib},
          {"non_torch_gib", "Non-torch (GiB)", r.non_torch_gib},
          {"cuda_graph_gib", "CUDA graphs (GiB)", r.cuda_graph_gib},
          {"kv_cache_gib", "KV cache (GiB)", r.kv_cache_gib},
          {"kv_tokens", "KV tokens", static_cast<double>(r.kv_cache_tokens)},
          {"gpu_blocks", "KV blocks", static_cast<double>(r.num_blocks)},
          {"max_concurrency", "Max concurrency (x)", r.max_concurrency}};
}

nlohmann::json to_json(const LedgerReport& r) {
  using nlohmann::json;
  json j;
  j["model"] = r.model_id;
  j["gpu"] = r.gpu_name;
  j["engine"] = core::to_string(r.engine);
  j["engine_version"] = r.engine_version;
  j["accounting"] = r.accounting;
  j["settings"] = {{"tensor_parallel_size", r.tp},
                   {"pipeline_parallel_size", r.pp},
                   {"data_parallel_size", r.dp},
                   {"num_gpus", r.num_gpus},
                   {"memory_fraction", r.utilization},
                   {"max_model_len", r.max_model_len},
                   {"max_num_seqs", r.max_num_seqs},
                   {"max_num_batched_tokens", r.max_num_batched_tokens},
                   {"block_size", r.block_size},
                   {"dtype", r.dtype},
                   {"kv_cache_dtype", r.kv_cache_dtype},
                   {"quantization", r.quantization},
                   {"enforce_eager", r.enforce_eager}};
  j["total_gib"] = round2(r.total_gib);
  j["usable_gib"] = round2(r.usable_gib);
  j["weights_gib"] = round2(r.weights_gib);
  j["activation_gib"] = round2(r.activation_gib);
  j["non_torch_gib"] = round2(r.non_torch_gib);
  j["cuda_graph_gib"] = round2(r.cuda_graph_gib);
  j["cuda_graph_subtracted"] = r.cuda_graph_subtracted;
  j["headroom_gib"] = round2(r.headroom_gib);
  j["kv_cache_gib"] = round2(r.kv_cache_gib);
  if (!r.engine_settings.empty()) {
    json es = json::object();
    for (const auto& [k, v] : r.engine_settings) es[k] = v;
    j["engine_settings"] = es;
    j["host_gib"] = std::round(r.host_gib * 1000.0) / 1000.0;
  }
  j["kv_bytes_per_token"] = std::round(r.kv_bytes_per_token);
  json types = json::array();
  for (const auto& t : r.kv_by_layer_type)
    types.push_back({{"attention", t.attention},
                     {"layers", t.layers},
                     {"bytes_per_token_per_layer", t.bytes_per_token_per_layer},
                     {"bytes_per_token", t.bytes_per_token_per_layer * static_cast<double>(t.layers)},
                     {"window_tokens", t.window}});
  j["kv_bytes_per_token_by_layer_type"] = types;
  j["kv_groups"] = r.kv_groups;
  j["kv_cache_tokens"] = r.kv_cache_tokens;
  j["num_blocks"] = r.num_blocks;
  j["max_concurrency"] = round2(r.max_concurrency);
  j["max_concurrency_typical"] = r.max_concurrency_typical ? json(round2(*r.max_concurrency_typical)) : json(nullptr);
  j["kv_needed_for_max_len_gib"] = round2(r.kv_needed_for_max_len_gib);
  j["largest_fitting_max_model_len"] = r.largest_fitting_max_model_len;
  j["verdict"] = to_string(r.verdict);
  j["verdict_detail"] = r.verdict_detail;
  j["engine_starts"] = r.engine_starts;
  json rem = json::array();
  for (const auto& m : r.remedies)
    rem.push_back({{"flag", m.flag},
                   {"from", m.from},
                   {"to", m.to},
                   {"effect", m.effect},
                   {"verdict_after", to_string(m.verdict_after)},
                   {"kv_cache_tokens_after", m.kv_cache_tokens_after}});
  j["remedies"] = rem;
  json lines = json::array();
  for (const auto& l : r.lines)
    lines.push_back({{"key", l.key}, {"label", l.label}, {"value", l.unit == "GiB" || l.unit == "MiB" || l.unit == "x" ? round2(l.value) : l.value},
                     {"unit", l.unit}, {"formula", l.formula}, {"source", l.source}});
  j["lines"] = lines;
  j["warnings"] = r.warnings;
  j["notes"] = r.notes;
  return j;
}

std::string render_text(const LedgerReport& r) {
  std::string out;
  if (!r.engine_settings.empty() && r.num_gpus == 0)
    out += fmt::format("Memory ledger: {} on the host (no GPU given), {}\n", r.model_id, r.accounting);
  else
    out += fmt::format("Memory ledger: {} on {} x {}, {}\n", r.model_id, r.num_gpus, r.gpu_name, r.accounting);
  if (!r.engine_settings.empty()) {
    std::string es;
    for (const auto& [k, v] : r.engine_settings) es += (es.empty() ? "" : ", ") + k + " " + v;
    out += "Settings: " + es + (r.quantization.empty() ? "" : ", weights " + r.quantization) + "\n";
  } else {
    out += fmt::format("Settings: TP {}, PP {}{}, memory fraction {:.2f}, max-model-len {}, max-num-seqs {}, "
                       "max-num-batched-tokens {}, block {}, dtype {}, kv-cache-dtype {}{}{}\n",
                       r.tp, r.pp, r.dp > 1 ? fmt::format(", DP {}", r.dp) : "", r.utilization, r.max_model_len,
                       r.max_num_seqs, r.max_num_batched_tokens, r.block_size, r.dtype, r.kv_cache_dtype,
                       r.quantization.empty() ? "" : ", weights " + r.quantization, r.enforce_eager ? ", eager" : "");
  }
  out += r.engine_settings.empty() ? "Per GPU:\n" : "Memory:\n";
  for (const auto& l : r.lines) {
    out += fmt::format("  {:<34} {:>16}   {}\n", l.label, value_text(l), l.formula);
    out += fmt::format("  {:<34} {:>16}   [{}]\n", "", "", l.source);
  }
  if (r.kv_by_layer_type.size() > 1) {
    out += "KV bytes per token by layer type:";
    for (const auto& t : r.kv_by_layer_type)
      out += fmt::format(" {} x {} {:.0f} B{}", t.layers, t.attention, t.bytes_per_token_per_layer,
                         t.window ? fmt::format(" (window {})", t.window) : "");
    out += "\n";
  }
  out += fmt::format("\nVerdict: {}: {}.\n", to_string(r.verdict), r.verdict_detail);
  // A change that leaves the verdict and the KV pool exactly as they are is no remedy here: it is
  // listed after the remedies, never among them (e.g. max-num-seqs when the weights do not fit).
  std::vector<const Remedy*> fixes, nil;
  for (const auto& m : r.remedies)
    (m.verdict_after == r.verdict && m.kv_cache_tokens_after == r.kv_cache_tokens ? nil : fixes).push_back(&m);
  if (!fixes.empty()) {
    out += "Remedies (each changes one variable):\n";
    for (const auto* m : fixes) out += fmt::format("  {} {} -> {}: {}\n", m->flag, m->from, m->to, m->effect);
  }
  if (!nil.empty()) {
    out += "No effect on the verdict or the KV pool (not remedies here):\n";
    for (const auto* m : nil) out += fmt::format("  {} {} -> {}: {}\n", m->flag, m->from, m->to, m->effect);
  }
  for (const auto& w : r.warnings) out += "Warning: " + w + "\n";
  for (const auto& n : r.notes) out += "Note: " + n + "\n";
  return out;
}

}  // namespace llmtriage::ledger
