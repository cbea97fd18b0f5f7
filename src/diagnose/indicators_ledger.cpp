// ledger_kv_tokens: the KV pool the memory ledger predicts for the deployment (src/ledger), the
// third source of the KV capacity next to the metrics and the startup log line.
#include <fmt/format.h>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "diagnose/indicators_detail.h"
#include "ledger/ledger.h"

namespace llmtriage::diagnose {

void summarize_ledger(const core::Deployment& d, IndicatorMap& out) {
  const std::string model = !d.model.empty() ? d.model : d.settings.model.value_or("");
  if (model.empty() || d.gpu.empty()) return;
  auto arch = catalog::load_model(model);
  if (!arch.ok()) return;
  auto gpu = catalog::find_gpu(d.gpu);
  if (!gpu.ok()) return;
  ledger::LedgerInput li;
  li.model = *arch;
  li.gpu = *gpu;
  li.num_gpus = d.num_gpus;
  li.engine = d.engine == core::EngineKind::unknown ? core::EngineKind::vllm : d.engine;
  li.engine_version = d.engine_version;
  li.settings = d.settings;
  li.with_remedies = false;
  auto rep = ledger::compute_ledger(li);
  if (!rep.ok()) return;
  out["ledger_kv_tokens"] = Indicator{static_cast<double>(rep->kv_cache_tokens),
                                      fmt::format("ledger ({} on {}, {}; {})", rep->model_id, rep->gpu_name,
                                                  core::to_string(rep->engine), rep->accounting)};
}

}  // namespace llmtriage::diagnose
