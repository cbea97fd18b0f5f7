#include "diagnose/remedy_ledger.h"

#include <fmt/format.h>

#include <cmath>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "ledger/remedies.h"
#include "ledger/remedy_flags.h"

namespace llmtriage::diagnose {

core::Result<LedgerContext> ledger_for(const core::Evidence& ev, std::optional<int64_t> typical_len) {
  const core::Deployment& d = ev.deployment;
  std::string model_id = d.model.empty() ? d.settings.model.value_or("") : d.model;
  if (model_id.empty())
    return core::make_error(core::ErrorKind::input, "ledger", "a model (--model or the engine's arguments)", "none");
  std::string gpu_name = d.gpu;
  if (gpu_name.empty())
    for (const auto& g : ev.gpu_samples)
      if (!g.name.empty()) {
        gpu_name = g.name;
        break;
      }
  // llama.cpp and Ollama also run on the host alone: their ledger needs no GPU.
  const bool host_ok = d.engine == core::EngineKind::llamacpp || d.engine == core::EngineKind::ollama;
  if (gpu_name.empty() && !host_ok)
    return core::make_error(core::ErrorKind::input, "ledger", "a GPU (--gpu or GPU telemetry naming it)", "none");
  auto model = catalog::load_model(model_id);
  if (!model.ok()) return std::move(model).error();
  auto gpu = gpu_name.empty() ? core::Result<catalog::GpuSpec>(catalog::custom_gpu(0, "none")) : catalog::find_gpu(gpu_name);
  if (!gpu.ok()) return std::move(gpu).error();

  LedgerContext lc;
  ledger::LedgerInput& in = lc.input;
  in.model = *model;
  in.gpu = *gpu;
  in.num_gpus = d.num_gpus;
  // The ledger models vLLM (V0/V1), SGLang and TGI; an unknown engine is most often vLLM.
  in.engine = d.engine == core::EngineKind::unknown ? core::EngineKind::vllm : d.engine;
  in.engine_version = d.engine_version;
  in.settings = d.settings;
  in.typical_len = typical_len;
  in.with_remedies = true;
  auto rep = ledger::compute_ledger(in);
  if (!rep.ok()) return std::move(rep).error();
  lc.report = std::move(*rep);
  return lc;
}

std::vector<Remedy> ledger_remedies(const LedgerContext& lc, const std::vector<std::string>& only) {
  std::vector<Remedy> out;
  for (const auto& r : lc.report.remedies) {
    std::string flag = r.flag.rfind("--", 0) == 0 ? r.flag.substr(2) : r.flag;
    if (!only.empty()) {
      // `only` names vLLM/SGLang flags; a llama.cpp ledger's "-c" is the same variable as "max-model-len".
      const ledger::RemedyFlagRow* row = ledger::find_remedy_flag(r.flag);
      bool keep = false;
      for (const auto& o : only) keep = keep || o == flag || (row && ledger::find_remedy_flag(o) == row);
      if (!keep) continue;
    }
    Remedy m;
    m.change = flag;
    m.from = r.from;
    m.to = r.to;
    m.predicted_effect = fmt::format("KV pool {} -> {} tokens, verdict {} (ledger): {}",
                                     tokens_text(static_cast<double>(lc.report.kv_cache_tokens)),
                                     tokens_text(static_cast<double>(r.kv_cache_tokens_after)),
                                     ledger::to_string(r.verdict_after), r.effect);
    m.basis = "ledger";
    m.uncertainty = kLedgerUncertainty;
    // Same verdict and the very same KV pool: the ledger predicts no effect (not a fix to list).
    if (r.verdict_after == lc.report.verdict && r.kv_cache_tokens_after == lc.report.kv_cache_tokens) {
      const double kv = static_cast<double>(lc.report.kv_cache_tokens);
      m.predicted = PredictedValue{"KV pool", "tokens", kv, kv, true, 0};
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::optional<ledger::LedgerReport> ledger_with(const LedgerContext& lc,
                                                const std::function<void(ledger::LedgerInput&)>& change) {
  ledger::LedgerInput x = lc.input;
  x.with_remedies = false;
  change(x);
  auto r = ledger::compute_ledger_core(x);
  if (!r.ok()) return std::nullopt;
  return std::move(*r);
}

std::string tokens_text(double tokens) {
  const double a = std::fabs(tokens);
  if (a >= 1e6) return fmt::format("{:.2f}M", tokens / 1e6);
  if (a >= 1e4) return fmt::format("{:.0f}k", tokens / 1e3);
  if (a >= 1e3) return fmt::format("{:.1f}k", tokens / 1e3);
  return fmt::format("{:.0f}", tokens);
}

}  // namespace llmtriage::diagnose
