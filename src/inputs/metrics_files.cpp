// Saved readings as diagnose inputs: a `/metrics` exposition saved with curl (engine and/or
// dcgm-exporter / Triton GPU series), and nvidia-smi CSV output. Each file is one reading taken
// when the file was last written (its modification time): two saved scrapes give rates and
// windowed quantiles, one gives gauges and totals since start.
#include <sys/stat.h>

#include <fmt/format.h>

#include "inputs/side.h"
#include "core/files.h"
#include "ingest/gpu_dcgm.h"
#include "ingest/gpu_smi.h"
#include "ingest/metrics_engine.h"

namespace llmtriage::inputs {

namespace {

double mtime_s(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) / 1e9;
}

}  // namespace

void read_metrics_file(EvidenceSide& side, const std::string& path) {
  auto text = core::read_file(path);
  if (!text) {
    side.note(path, "metrics", false, text.error().message());
    return;
  }
  const double t = mtime_s(path);
  ingest::AdaptOptions ao;
  ao.source = path;
  auto sc = ingest::adapt_engine_metrics(*text, t, ao);
  const auto gpu = ingest::gpu_samples_from_exposition(*text, t);
  const size_t engine_n = sc ? sc->samples.size() : 0;
  if (engine_n == 0 && gpu.gpus.empty()) {
    side.note(path, "metrics", false,
              "expected a Prometheus exposition with engine (vllm:, sglang:, tgi_, llamacpp:, nv_trt_llm_) or GPU "
              "(DCGM_FI_*, nv_gpu_*) series; found none");
    return;
  }
  std::string note = fmt::format("one reading at the file's time ({:.0f}): ", t);
  if (engine_n) {
    if (side.ev.deployment.engine == core::EngineKind::unknown) side.ev.deployment.engine = sc->engine;
    note += fmt::format("{} ({})", plural(engine_n, "engine series", "engine series"), core::to_string(sc->engine));
    if (sc->malformed) note += fmt::format(", {} malformed line(s) skipped", sc->malformed);
    for (auto& e : sc->samples) side.metric_samples.push_back(std::move(e));
  }
  if (!gpu.gpus.empty()) {
    note += fmt::format("{}{}", engine_n ? ", " : "", plural(gpu.gpus.size(), "GPU", "GPUs"));
    for (auto g : gpu.gpus) side.ev.gpu_samples.push_back(std::move(g));
  }
  side.note(path, "metrics", true, note);
}

void read_gpu_file(EvidenceSide& side, const std::string& path) {
  auto text = core::read_file(path);
  if (!text) {
    side.note(path, "gpu", false, text.error().message());
    return;
  }
  const double t = mtime_s(path);
  // A DCGM exposition saved from dcgm-exporter, or nvidia-smi --query-gpu CSV.
  if (text->find("DCGM_FI_") != std::string::npos || text->find("nv_gpu_") != std::string::npos) {
    auto g = ingest::gpu_samples_from_exposition(*text, t);
    side.note(path, "gpu", !g.gpus.empty(),
              g.gpus.empty() ? "a DCGM exposition without a readable GPU series"
                             : fmt::format("{} (DCGM) at the file's time", plural(g.gpus.size(), "GPU", "GPUs")));
    for (auto& s : g.gpus) side.ev.gpu_samples.push_back(std::move(s));
    return;
  }
  auto smi = ingest::parse_nvidia_smi_csv(*text, t, path);
  if (!smi) {
    side.note(path, "gpu", false,
              smi.error().message() + " (expected nvidia-smi --query-gpu=" + ingest::kSmiQueryFields +
                  " --format=csv output, or a dcgm-exporter /metrics text)");
    return;
  }
  std::string note = fmt::format("{} (nvidia-smi) at the file's time", plural(smi->gpus.size(), "GPU", "GPUs"));
  if (smi->malformed) note += fmt::format(", {} malformed row(s): {}", smi->malformed, smi->errors.empty() ? "" : smi->errors.front());
  side.note(path, "gpu", true, note);
  for (auto& s : smi->gpus) side.ev.gpu_samples.push_back(std::move(s));
}

}  // namespace llmtriage::inputs
