#include "report/diagnose_format.h"

#include <fmt/format.h>

#include <cmath>

namespace llmtriage::report {

const char* layer_title(diagnose::Layer l) {
  switch (l) {
    case diagnose::Layer::load: return "load";
    case diagnose::Layer::scheduling_capacity: return "scheduling/capacity";
    case diagnose::Layer::operator_hardware: return "operator/hardware";
    case diagnose::Layer::numeric_parameter: return "numeric/parameters";
    case diagnose::Layer::gateway_client: return "gateway/client";
  }
  return "?";
}

namespace {

// Up to 4 significant digits, never scientific for the magnitudes a report shows.
std::string num(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : (v < 0 ? "-inf" : "nan");
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 1000) return fmt::format("{:.0f}", v);
  if (a >= 100) return fmt::format("{:.1f}", v).ends_with(".0") ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v);
  if (a >= 0.001) {
    std::string s = fmt::format("{:.3g}", v);
    return s.find('e') == std::string::npos ? s : fmt::format("{:.4f}", v);
  }
  return fmt::format("{:.2g}", v);
}

}  // namespace

std::string format_value(double v, const std::string& unit) {
  if (unit == "fraction" || unit == "ratio_pct") {
    const double pct = 100 * v;
    return (std::fabs(pct) < 10 && pct != std::round(pct) ? fmt::format("{:.1f}", pct) : fmt::format("{:.0f}", pct)) + "%";
  }
  if (unit == "s") {
    if (std::isfinite(v) && std::fabs(v) < 1 && v != 0) return num(v * 1000) + " ms";
    return num(v) + " s";
  }
  if (unit == "bool" || unit == "flag") return v != 0 ? "yes" : "no";
  if (unit.empty()) return num(v);
  if (unit == "1/s") return num(v) + "/s";
  // "1 request", "1 token": a count of one reads singular.
  if (v == 1 && (unit == "requests" || unit == "tokens" || unit == "events" || unit == "replicas"))
    return "1 " + unit.substr(0, unit.size() - 1);
  return num(v) + " " + unit;
}

std::string format_evidence(const diagnose::EvidenceItem& e) {
  std::string s;
  if (e.value) {
    s = e.indicator + " = " + format_value(*e.value, e.unit);
    if (e.threshold) {
      s += " (threshold " + (e.op.empty() ? std::string() : e.op + " ") + format_value(*e.threshold, e.unit) + ")";
    }
    if (!e.text.empty()) s += ": " + e.text;
  } else {
    s = e.indicator.empty() ? e.text : (e.text.empty() ? e.indicator : e.indicator + ": " + e.text);
  }
  return s;
}

std::string format_change(const diagnose::Remedy& r) {
  if (r.from.empty() && r.to.empty()) return r.change;
  if (r.from.empty()) return r.change + " -> " + r.to;
  if (r.to.empty()) return r.change + " (now " + r.from + ")";
  return r.change + " " + r.from + " -> " + r.to;
}

std::string format_effect(const diagnose::Remedy& r) {
  std::string s = r.predicted_effect.empty() ? std::string("effect not predicted") : r.predicted_effect;
  std::string basis = r.basis.empty() ? "qualitative" : r.basis;
  if (r.uncertainty) basis += fmt::format(", +-{:.0f}%", 100 * *r.uncertainty);
  return s + " (" + basis + ")";
}

std::vector<std::string> missing_beyond_layers(const diagnose::Report& r) {
  std::vector<std::string> out;
  for (const auto& m : r.missing) {
    bool said = false;
    for (const auto& l : r.layers)
      said |= l.state == diagnose::LayerVerdict::State::not_judged &&
              m.rfind(std::string(diagnose::to_string(l.layer)) + ": not judged", 0) == 0;
    if (!said) out.push_back(m);
  }
  return out;
}

std::string format_confidence(double c) { return fmt::format("{:.2f}", c); }

std::optional<std::string> format_explains(const std::optional<double>& explains) {
  if (!explains) return std::nullopt;
  return fmt::format("explains ~{:.0f}% of the symptom", 100 * *explains);
}

}  // namespace llmtriage::report
