// Operator / hardware layer (docs/rules.md, "Layer: operator_hardware"): at the roofline, or
// throttled? Power vs cap with the SM clock, temperature with thermal reasons, lopsided TP ranks
// far below the power cap (an interconnect bottleneck, not throttling), and slow kernel paths
// (fp8 KV cache without native fp8, attention-backend fallbacks) seen in settings and logs.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "catalog/gpu.h"
#include "diagnose/capacity_kit.h"
#include "diagnose/hardware_rules.h"

namespace llmtriage::diagnose {

using kit::first;

namespace {

std::optional<catalog::GpuSpec> gpu_spec(const Context& c) {
  std::string name = c.in.now.deployment.gpu;
  if (name.empty())
    for (const auto& g : c.in.now.gpu_samples)
      if (!g.name.empty()) {
        name = g.name;
        break;
      }
  if (name.empty()) return std::nullopt;
  auto g = catalog::find_gpu(name);
  if (!g.ok()) return std::nullopt;
  return *g;
}

// warning when the finding explains a symptom the operator reported (or that was detected),
// info when it is only a contributing factor.
Severity severity_for(const Context& c, std::initializer_list<Symptom> related) {
  for (Symptom s : related)
    if (kit::has_symptom(c, s)) return Severity::warning;
  return Severity::info;
}

bool contains_ci(const std::string& hay, const char* needle) {
  auto it = std::search(hay.begin(), hay.end(), needle, needle + std::char_traits<char>::length(needle),
                        [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); });
  return it != hay.end();
}

// vLLM/SGLang lines that say the fast attention kernel was not used
// (vllm/attention/selector.py, vllm/platforms/cuda.py wordings across versions).
constexpr std::array<const char*, 6> kFallbackPhrases = {
    "Cannot use FlashAttention", "Using XFormers backend", "TORCH_SDPA", "falling back to",
    "fall back to", "Please use FlashInfer backend with FP8 KV Cache"};

const core::Event* fallback_event(const Context& c) {
  for (const auto& e : c.in.now.events) {
    if (e.kind != core::EventKind::warning && e.kind != core::EventKind::error) continue;
    for (const char* p : kFallbackPhrases)
      if (contains_ci(e.text, p) && (contains_ci(e.text, "attention") || contains_ci(e.text, "backend") ||
                                     contains_ci(e.text, "xformers") || contains_ci(e.text, "sdpa")))
        return &e;
  }
  return nullptr;
}

// vLLM: "Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed."
const core::Event* no_p2p_event(const Context& c) {
  for (const auto& e : c.in.now.events)
    if (contains_ci(e.text, "P2P") && (contains_ci(e.text, "lacks") || contains_ci(e.text, "disabled") ||
                                       contains_ci(e.text, "failed") || contains_ci(e.text, "not supported")))
      return &e;
  return nullptr;
}

bool interconnect_bottleneck(const Context& c, kit::Models& m, const std::optional<catalog::GpuSpec>& gpu,
                             std::vector<Finding>& out) {
  const auto tp = c.ind.get("tp");
  const auto spread = c.ind.get("gpu_util_spread");
  const auto power = c.ind.get("power_ratio");
  if (!tp || *tp < 2 || !spread || !power) return false;
  const double spread_th = c.th.get("hw.util_spread_high"), low = c.th.get("hw.power_ratio_low");
  if (*spread < spread_th || *power > low) return false;
  const core::Event* p2p = no_p2p_event(c);
  const bool pcie_only = gpu && !gpu->interconnect_gbps;
  Finding f = kit::finding("interconnect_bottleneck", Layer::operator_hardware,
                           kit::has_symptom(c, Symptom::tpot_high) && !kit::has_symptom(c, Symptom::throughput_low)
                               ? Symptom::tpot_high
                               : Symptom::throughput_low,
                           severity_for(c, {Symptom::throughput_low, Symptom::tpot_high}),
                           "Tensor parallelism waits on the interconnect (PCIe without peer-to-peer), not on the GPUs");
  f.evidence.push_back(c.ind.item("tp", 2, ">="));
  f.evidence.push_back(c.ind.item("gpu_util_spread", spread_th, ">="));
  f.evidence.push_back(c.ind.item("power_ratio", low, "<="));
  if (gpu)
    f.evidence.push_back(kit::text_item("gpu_interconnect", gpu->interconnect_gbps.value_or(0), "GB/s", "catalog",
                                        gpu->name + ": " + (gpu->interconnect.empty() ? "unknown" : gpu->interconnect)));
  if (p2p) f.evidence.push_back(kit::event_item(*p2p));
  f.confidence = kit::confidence(p2p || pcie_only ? 0.7 : 0.45, f.evidence);
  f.explanation = fmt::format(
      "With TP {:.0f} the GPUs' utilization differs by {:.0f} points and they draw {:.0f}% of their power cap: every "
      "layer ends in an all-reduce, and over PCIe without peer-to-peer the ranks idle waiting for it. This is an "
      "interconnect bottleneck, not throttling (power is far below the cap).",
      *tp, *spread * 100, *power * 100);
  // TP 1 with replicas instead, when the model fits on one GPU (ledger) -- data parallel needs no all-reduce.
  const int t = static_cast<int>(*tp);
  const int n = std::max(1, static_cast<int>(c.ind.get("replicas").value_or(1)));
  bool fits_one = false;
  if (const LedgerContext* lc = m.ledger())
    if (auto one = ledger_with(*lc, [](ledger::LedgerInput& x) {
          x.settings.tensor_parallel_size = 1;
          x.num_gpus = 0;
        }))
      fits_one = one->engine_starts;
  if (fits_one)
    f.remedies.push_back(kit::predicted(
        c, m, "tensor-parallel-size", std::to_string(t), "1 (with " + std::to_string(n * t) + " replicas)",
        [t, n](sim::Scenario& s) {
          s.deployment.tp = 1;
          s.config.replicas = n * t;
        },
        nullptr, Metric::throughput, "no all-reduce: each GPU serves its own replica"));
  f.remedies.push_back(kit::qualitative("GPU interconnect", gpu ? gpu->interconnect : "PCIe", "NVLink (or P2P enabled)",
                                        "all-reduce at NVLink speed; TP scales"));
  f.next_measurement = "Run `nvidia-smi topo -m` (PHB/SYS between the TP GPUs means no P2P) and check the engine log for custom all-reduce being disabled.";
  out.push_back(std::move(f));
  return true;
}

void power_throttled(const Context& c, const std::optional<catalog::GpuSpec>& gpu, std::vector<Finding>& out) {
  const auto power = c.ind.get("power_ratio");
  const auto clock = c.ind.get("clock_ratio");
  const double high = c.th.get("hw.power_ratio_high"), low = c.th.get("hw.clock_ratio_low");
  const bool reason = c.ind.get("throttle_power").value_or(0) > 0;
  const bool clock_low = clock && *clock < low;
  if (!((power && *power >= high && clock_low) || (reason && (!clock || clock_low)))) return;
  Finding f = kit::finding("gpu_power_throttled", Layer::operator_hardware, Symptom::tpot_high,
                           severity_for(c, {Symptom::tpot_high, Symptom::throughput_low}),
                           "GPU power-throttled: power at the cap, SM clock below max");
  if (power) f.evidence.push_back(c.ind.item("power_ratio", high, ">="));
  if (clock) f.evidence.push_back(c.ind.item("clock_ratio", low, "<"));
  if (reason) f.evidence.push_back(c.ind.item("throttle_power", 1, "=="));
  f.confidence = kit::confidence(power && clock_low && reason ? 0.8 : 0.6, f.evidence);
  const auto limit = c.ind.get("power_limit_w");
  f.explanation = fmt::format(
      "The GPUs run at their power cap{} and the SM clock drops to {}: every kernel runs slower, compute-bound "
      "prefill most, memory-bound decode less.",
      limit ? fmt::format(" ({:.0f} W)", *limit) : "", clock ? fmt::format("{:.0f}% of max", *clock * 100) : "below max");
  if (clock) f.explains = std::clamp(1 - *clock, 0.0, 1.0);  // NOTE: upper bound: decode is partly memory-bound
  if (gpu && gpu->tdp_w && limit && *limit < 0.95 * *gpu->tdp_w)
    f.remedies.push_back(kit::qualitative(
        "GPU power limit (nvidia-smi -pl)", fmt::format("{:.0f} W", *limit), fmt::format("{:.0f} W", *gpu->tdp_w),
        fmt::format("the cap was lowered below the {}'s {:.0f} W board power: clocks back toward max", gpu->name, *gpu->tdp_w)));
  f.remedies.push_back(kit::qualitative(
      "cooling / power delivery", "as is", "checked",
      clock ? fmt::format("TPOT improves by at most {:.0f}% with clocks at max (less for memory-bound decode)",
                          (1 - *clock) * 100)
            : "clocks back toward max"));
  f.next_measurement = "Read clocks_event_reasons over the window (DCGM_FI_DEV_CLOCK_THROTTLE_REASONS or nvidia-smi -q -d PERFORMANCE) next to TPOT.";
  out.push_back(std::move(f));
}

void thermal_throttled(const Context& c, std::vector<Finding>& out) {
  const auto temp = c.ind.get("temp_c");
  const auto clock = c.ind.get("clock_ratio");
  const double hot = c.th.get("hw.temp_high_c"), low = c.th.get("hw.clock_ratio_low");
  const bool reason = c.ind.get("throttle_thermal").value_or(0) > 0;
  const bool clock_low = clock && *clock < low;
  if (!((temp && *temp >= hot && (reason || clock_low)) || (reason && clock_low))) return;
  Finding f = kit::finding("gpu_thermal_throttled", Layer::operator_hardware, Symptom::tpot_high,
                           severity_for(c, {Symptom::tpot_high, Symptom::throughput_low}),
                           "GPU thermally throttled: hot, clocks pulled down");
  if (temp) f.evidence.push_back(c.ind.item("temp_c", hot, ">="));
  if (reason) f.evidence.push_back(c.ind.item("throttle_thermal", 1, "=="));
  if (clock) f.evidence.push_back(c.ind.item("clock_ratio", low, "<"));
  f.confidence = kit::confidence(reason && temp && *temp >= hot ? 0.8 : 0.6, f.evidence);
  f.explanation = fmt::format("The hottest GPU runs at {} with thermal slowdown{}: the clock is pulled down to stay "
                              "within its temperature limit.",
                              temp ? fmt::format("{:.0f} °C", *temp) : "high temperature",
                              clock ? fmt::format(", SM clock {:.0f}% of max", *clock * 100) : "");
  if (clock) f.explains = std::clamp(1 - *clock, 0.0, 1.0);
  f.remedies.push_back(kit::qualitative("cooling (airflow, fans, inlet temperature)", "as is", "fixed",
                                        "clocks back toward max once the GPU stays below its slowdown temperature"));
  f.next_measurement = "Compare each GPU's temperature and inlet temperature; a single hot GPU points at its slot's airflow.";
  out.push_back(std::move(f));
}

void slow_kernel_path(const Context& c, kit::Models& m, const std::optional<catalog::GpuSpec>& gpu,
                      std::vector<Finding>& out) {
  const std::string kv = c.in.now.deployment.settings.kv_cache_dtype.value_or("auto");
  const bool fp8_kv = kv.rfind("fp8", 0) == 0;
  const bool no_native_fp8 = gpu && !gpu->fp8_tflops;
  const core::Event* fb = fallback_event(c);
  if (!(fp8_kv && no_native_fp8) && !fb) return;
  Finding f = kit::finding("slow_kernel_path", Layer::operator_hardware, Symptom::tpot_high,
                           severity_for(c, {Symptom::tpot_high, Symptom::throughput_low, Symptom::ttft_spike}),
                           fb ? "Attention backend fell back to a slower kernel" : "fp8 KV cache on a GPU without native fp8");
  if (fp8_kv && no_native_fp8)
    f.evidence.push_back(kit::text_item("kv_cache_quantized", 1, "0/1", "engine args",
                                        "kv-cache-dtype " + kv + " on " + gpu->name + " (no fp8 tensor cores)"));
  if (fb) f.evidence.push_back(kit::event_item(*fb));
  f.confidence = kit::confidence(fb && fp8_kv ? 0.75 : 0.55, f.evidence);
  f.explanation =
      fb ? "The engine logged that it could not use its fast attention kernel and fell back to a slower one (or one "
           "that handles this KV dtype poorly): attention, which dominates long-context decode, runs slower."
         : "The KV cache is stored in fp8 on a GPU without fp8 tensor cores: every attention step dequantizes it in "
           "software (or takes a backend without the fused fp8 path), trading memory for step time.";
  if (fp8_kv) {
    Remedy r = kit::predicted(
        c, m, "kv-cache-dtype", kv, "auto", [](sim::Scenario& s) { s.deployment.kv_cache_dtype = "auto"; },
        [](ledger::LedgerInput& x) { x.settings.kv_cache_dtype = "auto"; }, Metric::tpot_p99,
        "the native-dtype attention kernel; the KV pool halves (check the queue)");
    // NOTE: the simulator does not model the slow fp8 path, so its TPOT shows only the pool change.
    if (r.basis == "sim") r.predicted_effect += " [the simulator does not model the fallback kernel's cost]";
    f.remedies.push_back(r);
  }
  if (fb)
    f.remedies.push_back(kit::qualitative("attention backend (VLLM_ATTENTION_BACKEND)", "fallback",
                                          "FLASH_ATTN / FLASHINFER (supported for this GPU, head size and KV dtype)",
                                          "the fused kernel; step time back to the benchmark's"));
  f.next_measurement = "Check the startup log's 'Using ... backend' line and compare TPOT with kv-cache-dtype auto on the same request set (llmtriage ab).";
  out.push_back(std::move(f));
}

bool has_telemetry(const Context& c) {
  for (const char* n : {"power_ratio", "clock_ratio", "temp_c", "throttle_power", "throttle_thermal", "gpu_util",
                        "gpu_util_spread", "power_w"})
    if (c.ind.get(n)) return true;
  return false;
}

}  // namespace

LayerResult analyze_hardware(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::operator_hardware;
  kit::Models models(c);
  const auto gpu = gpu_spec(c);
  // An interconnect bottleneck runs the GPUs far below their cap: it excludes power throttling.
  if (!interconnect_bottleneck(c, models, gpu, r.findings)) power_throttled(c, gpu, r.findings);
  thermal_throttled(c, r.findings);
  slow_kernel_path(c, models, gpu, r.findings);
  if (r.findings.empty()) replica_slower_than_peers(c, r.findings);
  if (r.findings.empty()) step_slower_than_baseline(c, r.findings);

  if (!r.findings.empty()) {
    r.verdict.state = LayerVerdict::State::at_fault;
    return r;
  }
  if (!has_telemetry(c)) {
    r.verdict.state = LayerVerdict::State::not_judged;
    r.verdict.why = "no GPU telemetry (power, clocks, temperature, throttle reasons): give --dcgm, a snapshot with GPU "
                    "samples, or --observe power_w=, power_limit_w=, sm_clock_mhz=, max_sm_clock_mhz=";
    return r;
  }
  r.verdict.state = LayerVerdict::State::cleared;
  auto add = [&](const char* name, std::optional<double> th, const char* op) {
    if (c.ind.get(name)) r.verdict.evidence.push_back(c.ind.item(name, th, op));
  };
  add("power_ratio", c.th.get("hw.power_ratio_high"), "<");
  add("clock_ratio", c.th.get("hw.clock_ratio_low"), ">=");
  add("temp_c", c.th.get("hw.temp_high_c"), "<");
  add("throttle_power", 1, "<");
  add("throttle_thermal", 1, "<");
  add("gpu_util_spread", c.th.get("hw.util_spread_high"), "<");
  return r;
}

}  // namespace llmtriage::diagnose
