// Operator / hardware layer (docs/rules.md, "operator_hardware").
#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

LayerResult analyze_hardware(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::operator_hardware;
  const auto power = c.ind.get("power_w");
  const auto limit = c.ind.get("power_limit_w");
  if (!power || !limit || *limit <= 0) {
    r.verdict.why = "no GPU telemetry (power, clocks): give --dcgm, a snapshot with GPU samples, or --observe power_w=, power_limit_w=";
    return r;
  }
  const double ratio = *power / *limit;
  const auto clk = c.ind.get("sm_clock_mhz");
  const auto max_clk = c.ind.get("max_sm_clock_mhz");
  const bool clock_low = clk && max_clk && *max_clk > 0 && *clk / *max_clk < c.th.get("hw.clock_ratio_low");
  if (ratio >= c.th.get("hw.power_ratio_high") && clock_low) {
    Finding f;
    f.id = "gpu_power_throttled";
    f.layer = Layer::operator_hardware;
    f.symptom = Symptom::tpot_high;
    f.title = "GPU power-throttled: power at the cap, SM clock below max";
    f.evidence.push_back(c.ind.item("power_w"));
    f.evidence.push_back(c.ind.item("power_limit_w"));
    r.findings.push_back(std::move(f));
    r.verdict.state = LayerVerdict::State::at_fault;
  } else {
    r.verdict.state = LayerVerdict::State::cleared;
    r.verdict.evidence.push_back(c.ind.item("power_w"));
    r.verdict.evidence.push_back(c.ind.item("power_limit_w"));
  }
  return r;
}

}  // namespace llmtriage::diagnose
