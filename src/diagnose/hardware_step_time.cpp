// The same work, slower per step: decode time per token well above the baseline's at a batch no
// larger and with prompts and outputs of the same length. What changed is under the engine: the
// processor it runs on (a contended or throttled CPU/GPU, fewer compute threads than cores, a
// noisy neighbour). A located cause of the hardware layer without GPU telemetry: the baseline is
// the control. docs/rules.md, "Layer: operator_hardware".
#include <fmt/format.h>

#include <algorithm>

#include "diagnose/capacity_kit.h"
#include "diagnose/hardware_rules.h"

namespace llmtriage::diagnose {

std::optional<StepSlowdown> step_slowdown(const Context& c) {
  const auto now = c.ind.get("tpot_p50_s"), base = c.ind.base("tpot_p50_s");
  if (!now || !base || *base <= 0) return std::nullopt;
  const double same = c.th.get("load.length_stable_ratio");
  for (const char* len : {"input_len_mean", "output_len_mean"}) {
    const auto a = c.ind.get(len), b = c.ind.base(len);
    if (a && b && *b > 0 && (*a / *b > same || *b / *a > same)) return std::nullopt;  // other work: the load layer's
  }
  // Work the server did that the records do not hold (another client's traffic): the prompt
  // length its own histogram saw, against the records' and the baseline's.
  const auto srv = c.ind.get("server_input_len_mean"), srv_base = c.ind.base("server_input_len_mean");
  if (srv && srv_base && *srv_base > 0 && *srv / *srv_base > same) return std::nullopt;
  StepSlowdown s;
  s.tpot_ratio = *now / *base;
  // The largest batch seen compares like with like (a mean over a few scrapes of a batch of 1-2 is
  // noise); larger means by more than the stable ratio and by more than one sequence.
  const bool by_max = c.ind.get("running_max") && c.ind.base("running_max");
  const auto run_now = by_max ? c.ind.get("running_max") : c.ind.get("running");
  const auto run_base = by_max ? c.ind.base("running_max") : c.ind.base("running");
  if (run_now) s.batch_indicator = by_max ? "running_max" : "running";
  if (run_now && run_base && *run_base > 0) {
    s.batch_ratio = *run_now / *run_base;
    s.batch_larger = *run_now > *run_base * same && *run_now > *run_base + 1;
  }
  return s;
}

bool step_slower_than_batch_explains(const Context& c) {
  const auto s = step_slowdown(c);
  return s && s->per_sequence() >= c.th.get("hw.step_slowdown_ratio");
}

void step_slower_than_baseline(const Context& c, std::vector<Finding>& out) {
  const auto sd = step_slowdown(c);
  const double th = c.th.get("hw.step_slowdown_ratio");
  if (!sd || sd->per_sequence() < th) return;
  const double ratio = sd->tpot_ratio;
  const auto base = c.ind.base("tpot_p50_s"), now = c.ind.get("tpot_p50_s");
  const auto run_now = sd->batch_indicator.empty() ? std::nullopt : c.ind.get(sd->batch_indicator);
  const bool by_max = sd->batch_indicator == "running_max";
  const std::string title =
      sd->batch_larger
          ? fmt::format("Each token takes {:.1f}x the baseline's time at a {:.1f}x larger batch: more than the batch explains, "
                        "the processor runs slower",
                        ratio, sd->batch_ratio)
          : fmt::format("Each token takes {:.1f}x the baseline's time at the same batch: the processor runs slower", ratio);
  Finding f = kit::finding("step_slower_than_baseline", Layer::operator_hardware, Symptom::tpot_high, Severity::warning, title);
  // The threshold on TPOT itself: the baseline's x the slowdown ratio x the batch's growth.
  EvidenceItem e = c.ind.item("tpot_p50_s", *base * th * (sd->batch_larger ? sd->batch_ratio : 1.0), ">=");
  f.evidence.push_back(e);
  if (run_now) f.evidence.push_back(c.ind.item(by_max ? "running_max" : "running"));
  if (c.ind.get("input_len_mean")) f.evidence.push_back(c.ind.item("input_len_mean"));
  const auto threads = c.ind.get("engine_threads"), cores = c.ind.get("host_cpu_cores");
  if (threads) f.evidence.push_back(c.ind.item("engine_threads"));
  if (cores) f.evidence.push_back(c.ind.item("host_cpu_cores"));
  f.confidence = kit::confidence(0.6, f.evidence);
  f.explains = std::clamp(1 - 1 / sd->per_sequence(), 0.0, 1.0);
  const bool cpu = c.in.now.deployment.engine == core::EngineKind::llamacpp || c.in.now.deployment.engine == core::EngineKind::ollama;
  const std::string batch_said =
      sd->batch_larger
          ? fmt::format("the request lengths stayed the same and the batch grew {:.1f}x ({} running). At the same lengths a "
                        "step does the same work per sequence and reads the weights once for all of them, so a {:.1f}x batch "
                        "makes it at most {:.1f}x longer; the rest, {:.1f}x per sequence, is each step taking longer. The "
                        "larger batch follows from the slower step (requests stay longer, so more are in flight)",
                        sd->batch_ratio, kit::num(*run_now), sd->batch_ratio, sd->batch_ratio, sd->per_sequence())
          : fmt::format("the batch ({}) and the request lengths stayed the same: the engine does the same work per step, and "
                        "each step takes longer",
                        run_now ? kit::num(*run_now) + " running" : "not measured");
  f.explanation = fmt::format(
      "Time per output token went from {:.2f} ms to {:.2f} ms while {}. The processor is slower than in the baseline: "
      "{}.",
      *base * 1e3, *now * 1e3, batch_said,
      cpu ? "fewer compute threads than free cores, or other processes on the cores the threads need (a thread pool "
            "waits at every step's barrier for its slowest thread)"
          : "clocks or power capped (check GPU telemetry), another process on the GPU, or a slower device than the baseline ran on");
  if (cpu && threads && cores && *threads < *cores) {
    f.remedies.push_back(kit::qualitative("threads", kit::num(*threads), kit::num(*cores),
                                          "one compute thread per core the host has free: the step's work spread over all of them"));
  } else if (cpu && threads && cores && *threads >= *cores && *cores > 1) {
    f.remedies.push_back(kit::qualitative("threads", kit::num(*threads), kit::num(*cores - 1),
                                          "one core left for the rest of the host, so a busy core no longer stalls every step's barrier"));
  }
  f.remedies.push_back(kit::qualitative("processes sharing the processor", "present", "none (or pinned to other cores)",
                                        "the engine's threads run without waiting for a core"));
  f.next_measurement = cpu ? "top / pidstat on the server's host during the run: the engine's threads' CPU share and other processes on its cores"
                           : "GPU telemetry (SM clock vs max, power vs limit, other processes on the GPU) during the run";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose
