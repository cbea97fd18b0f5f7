// Names of the report's enums (JSON and CLI spellings, docs/diagnose-json.md) and the exit code.
#include "diagnose/finding.h"

#include <algorithm>
#include <cmath>

#include "core/exit_code.h"

namespace llmtriage::diagnose {

const char* to_string(Layer l) {
  switch (l) {
    case Layer::load: return "load";
    case Layer::scheduling_capacity: return "scheduling_capacity";
    case Layer::operator_hardware: return "operator_hardware";
    case Layer::numeric_parameter: return "numeric_parameter";
    case Layer::gateway_client: return "gateway_client";
  }
  return "load";
}

const std::vector<Layer>& all_layers() {
  static const std::vector<Layer> v = {Layer::load, Layer::scheduling_capacity, Layer::operator_hardware,
                                       Layer::numeric_parameter, Layer::gateway_client};
  return v;
}

std::optional<Layer> layer_from_string(const std::string& s) {
  for (Layer l : all_layers())
    if (s == to_string(l)) return l;
  return std::nullopt;
}

const char* to_string(Symptom s) {
  switch (s) {
    case Symptom::startup_oom: return "startup_oom";
    case Symptom::runtime_oom_or_preemption: return "runtime_oom_or_preemption";
    case Symptom::ttft_spike: return "ttft_spike";
    case Symptom::tpot_high: return "tpot_high";
    case Symptom::throughput_low: return "throughput_low";
    case Symptom::output_quality: return "output_quality";
    case Symptom::timeout_or_stream_break: return "timeout_or_stream_break";
  }
  return "ttft_spike";
}

const std::vector<Symptom>& all_symptoms() {
  static const std::vector<Symptom> v = {Symptom::startup_oom,    Symptom::runtime_oom_or_preemption,
                                         Symptom::ttft_spike,     Symptom::tpot_high,
                                         Symptom::throughput_low, Symptom::output_quality,
                                         Symptom::timeout_or_stream_break};
  return v;
}

std::optional<Symptom> symptom_from_string(const std::string& s) {
  for (Symptom x : all_symptoms())
    if (s == to_string(x)) return x;
  return std::nullopt;
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::critical: return "critical";
  }
  return "info";
}

const char* to_string(LayerVerdict::State s) {
  switch (s) {
    case LayerVerdict::State::cleared: return "cleared";
    case LayerVerdict::State::at_fault: return "at_fault";
    case LayerVerdict::State::not_judged: return "not_judged";
  }
  return "not_judged";
}

const char* to_string(Remedy::Kind k) {
  switch (k) {
    case Remedy::Kind::change: return "change";
    case Remedy::Kind::precaution: return "precaution";
  }
  return "change";
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::improves: return "improves";
    case Outcome::no_effect: return "no_effect";
    case Outcome::worse: return "worse";
    case Outcome::not_predicted: return "not_predicted";
  }
  return "not_predicted";
}

namespace {
constexpr double kNoEffectShare = 0.05;
}  // namespace

Outcome outcome(const Remedy& r) {
  if (!r.predicted) return Outcome::not_predicted;
  // A what-if whose simulated baseline does not reproduce the observed value (its uncertainty
  // widened to 100%: "trust the direction, not the size") cannot tell a fix from a change with no
  // effect: it neither vetoes nor promotes the remedy (the text still carries its numbers).
  // (An engine that would not start is still worse, whatever the size of the other numbers.)
  if (r.uncertainty && *r.uncertainty >= 1.0 && std::isfinite(r.predicted->after) && r.predicted->after != 0)
    return Outcome::not_predicted;
  const PredictedValue& p = *r.predicted;
  // An infinite "after" is a real prediction (an engine that does not start: infinite latency).
  if (!std::isfinite(p.before) || std::isnan(p.after)) return Outcome::not_predicted;
  const double delta = p.after - p.before;
  // Both simulations share the seed and the request set, so their difference is the change's own
  // effect in the model: the stated uncertainty (+-30% for TTFT) is about the absolute size against
  // reality, not about the sign. A change within 5% (or the tolerance, if smaller) is no predicted
  // effect ("688 ms -> 688 ms"); beyond it the sign decides, and the report states the uncertainty.
  const double nil = std::min(p.tolerance, kNoEffectShare);
  if (std::fabs(delta) <= nil * std::fabs(p.before) || delta == 0) return Outcome::no_effect;
  return (delta > 0) == p.higher_is_better ? Outcome::improves : Outcome::worse;
}

bool listed_as_fix(const Remedy& r) {
  if (r.kind != Remedy::Kind::change) return false;
  const Outcome o = outcome(r);
  return o == Outcome::improves || o == Outcome::not_predicted;
}

void order_remedies(std::vector<Remedy>& remedies) {
  auto rank = [](const Remedy& r) {
    if (r.kind == Remedy::Kind::precaution) return 0;
    switch (outcome(r)) {
      case Outcome::improves:
      case Outcome::not_predicted: return 1;
      case Outcome::no_effect: return 2;
      case Outcome::worse: return 3;
    }
    return 1;
  };
  std::stable_sort(remedies.begin(), remedies.end(),
                   [&](const Remedy& a, const Remedy& b) { return rank(a) < rank(b); });
}

int Report::exit_code() const {
  for (const auto& f : findings)
    if (f.severity != Severity::info) return core::kExitFindings;
  // Symptoms the evidence shows with no cause located are not a healthy service (docs/diagnose.md).
  if (symptoms_detected && !symptoms.empty()) return core::kExitFindings;
  return core::kExitHealthy;
}

}  // namespace llmtriage::diagnose
