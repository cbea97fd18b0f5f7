#include "report/diagnose_format.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "core/text_escape.h"
#include "core/units.h"

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

std::string format_value(double v, const std::string& unit) { return core::format_quantity(v, unit); }

std::string format_threshold(const diagnose::EvidenceItem& e) {
  if (!e.threshold) return "";
  const std::string& op = e.op;
  // A threshold relative to the baseline is a factor, not a value in the indicator's unit:
  // ">= x baseline" 1.5 reads ">= 1.5x baseline", "<= baseline /" 1.5 reads "<= baseline / 1.5".
  if (op.find("baseline") != std::string::npos) {
    const std::string factor = core::format_number(*e.threshold);
    if (auto x = op.find("x baseline"); x != std::string::npos) return op.substr(0, x) + factor + op.substr(x);
    return op + " " + factor;
  }
  return (op.empty() ? std::string() : op + " ") + format_value(*e.threshold, e.unit);
}

std::string format_evidence(const diagnose::EvidenceItem& e) {
  std::string s;
  const std::string text = core::printable(e.text);  // quoted input (a log line) is escaped
  if (e.value) {
    s = e.indicator + " = " + format_value(*e.value, e.unit);
    if (e.threshold) s += " (threshold " + format_threshold(e) + ")";
    if (!text.empty()) s += ": " + text;
  } else {
    s = e.indicator.empty() ? text : (text.empty() ? e.indicator : e.indicator + ": " + text);
  }
  return s;
}

std::string format_change(const diagnose::Remedy& r) {
  if (r.kind == diagnose::Remedy::Kind::precaution) return r.to.empty() ? r.change : r.change + ": " + r.to;
  if (r.from.empty() && r.to.empty()) return r.change;
  if (r.from.empty()) return r.change + " -> " + r.to;
  if (r.to.empty()) return r.change + " (now " + r.from + ")";
  return r.change + " " + r.from + " -> " + r.to;
}

std::string format_effect(const diagnose::Remedy& r) {
  std::string s = r.predicted_effect.empty() ? std::string("effect not predicted") : r.predicted_effect;
  const std::string basis = r.basis.empty() ? "qualitative" : r.basis;
  const std::string band = r.uncertainty ? fmt::format("+-{:.0f}%", 100 * *r.uncertainty) : std::string();
  // Said once: an effect that already names its basis ("... (sim what-if, +-30%; ...)", "KV pool
  // ... (ledger)") gets only what it does not say yet.
  const bool names_basis = s.find("(" + basis) != std::string::npos;
  const bool names_band = band.empty() || s.find(band) != std::string::npos;
  if (names_basis) return names_band ? s : s + " (" + band + ")";
  return s + " (" + basis + (band.empty() ? "" : ", " + band) + ")";
}

std::string format_precaution(const diagnose::Remedy& r) {
  std::string s = "First, " + format_change(r) + ".";
  if (!r.predicted_effect.empty()) {
    std::string e = r.predicted_effect;
    e[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(e[0])));
    s += " " + e + (e.ends_with(".") ? "" : ".");
  }
  return s;
}

std::optional<std::string> format_not_a_fix(const diagnose::Remedy& r) {
  switch (diagnose::outcome(r)) {
    case diagnose::Outcome::no_effect: return std::string("no predicted effect");
    case diagnose::Outcome::worse: return std::string("predicted worse");
    case diagnose::Outcome::improves:
    case diagnose::Outcome::not_predicted: return std::nullopt;
  }
  return std::nullopt;
}

RemedyGroups group_remedies(const diagnose::Finding& f) {
  RemedyGroups g;
  for (const auto& r : f.remedies) {
    if (r.kind == diagnose::Remedy::Kind::precaution) g.precautions.push_back(&r);
    else if (diagnose::listed_as_fix(r)) g.fixes.push_back(&r);
    else g.not_fixes.push_back(&r);
  }
  return g;
}

std::vector<std::string> missing_beyond_layers(const diagnose::Report& r) {
  std::vector<std::string> out;
  for (const auto& m : r.missing) {
    bool said = false;
    for (const auto& l : r.layers)
      said |= l.state == diagnose::LayerVerdict::State::not_judged &&
              m.rfind(std::string(diagnose::to_string(l.layer)) + ": not judged", 0) == 0;
    // An input that could not be read is said once, on its line under Inputs (diagnose words
    // the missing line "<source> (<kind>) could not be read: <note>").
    for (const auto& i : r.inputs)
      said |= !i.ok && m == fmt::format("{} ({}) could not be read: {}", i.source, i.kind, i.note);
    if (!said) out.push_back(core::printable(m));
  }
  return out;
}

bool healthy(const diagnose::Report& r) {
  if (!r.symptoms.empty()) return false;
  for (const auto& f : r.findings)
    if (f.severity != diagnose::Severity::info) return false;
  for (const auto& l : r.layers)
    if (l.state != diagnose::LayerVerdict::State::cleared) return false;
  return !r.layers.empty();
}

std::string format_confidence(double c) { return fmt::format("{:.2f}", c); }

std::optional<std::string> format_explains(const std::optional<double>& explains) {
  if (!explains) return std::nullopt;
  return fmt::format("explains ~{:.0f}% of the symptom", 100 * *explains);
}

}  // namespace llmtriage::report
