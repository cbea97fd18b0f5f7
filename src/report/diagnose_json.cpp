#include "report/diagnose_json.h"

#include <cmath>

namespace llmtriage::report {
namespace {

using nlohmann::json;

// Absent stays null; a non-finite number (never expected) becomes a string, as in snapshots.
json json_number(const std::optional<double>& v) {
  if (!v) return nullptr;
  if (std::isnan(*v)) return "NaN";
  if (std::isinf(*v)) return *v > 0 ? "+Inf" : "-Inf";
  return *v;
}

json evidence_json(const diagnose::EvidenceItem& e) {
  return {{"indicator", e.indicator}, {"value", json_number(e.value)},      {"unit", e.unit},
          {"threshold", json_number(e.threshold)}, {"op", e.op},           {"source", e.source},
          {"text", e.text}};
}

json evidence_list(const std::vector<diagnose::EvidenceItem>& items) {
  json a = json::array();
  for (const auto& e : items) a.push_back(evidence_json(e));
  return a;
}

json remedy_json(const diagnose::Remedy& r) {
  json j = {{"change", r.change},
            {"from", r.from},
            {"to", r.to},
            {"predicted_effect", r.predicted_effect},
            {"basis", r.basis.empty() ? std::string("qualitative") : r.basis},
            {"uncertainty", json_number(r.uncertainty)},
            {"kind", diagnose::to_string(r.kind)},
            {"outcome", diagnose::to_string(diagnose::outcome(r))},
            {"predicted", nullptr}};
  if (r.predicted)
    j["predicted"] = {{"metric", r.predicted->metric},       {"unit", r.predicted->unit},
                      {"before", json_number(r.predicted->before)},  {"after", json_number(r.predicted->after)},
                      {"higher_is_better", r.predicted->higher_is_better},
                      {"tolerance", json_number(r.predicted->tolerance)}};
  return j;
}

json finding_json(const diagnose::Finding& f) {
  json rem = json::array();
  for (const auto& r : f.remedies) rem.push_back(remedy_json(r));
  return {{"id", f.id},
          {"layer", diagnose::to_string(f.layer)},
          {"symptom", diagnose::to_string(f.symptom)},
          {"severity", diagnose::to_string(f.severity)},
          {"confidence", f.confidence},
          {"explains", json_number(f.explains)},
          {"title", f.title},
          {"explanation", f.explanation},
          {"evidence", evidence_list(f.evidence)},
          {"remedies", rem},
          {"next_measurement", f.next_measurement},
          {"status", f.status},
          {"evidence_against", evidence_list(f.against)}};
}

json plan_state_json(const diagnose::PlanState& s) {
  return {{"ttft_p50_s", s.ttft_p50_s},
          {"ttft_p99_s", s.ttft_p99_s},
          {"tpot_p99_s", s.tpot_p99_s},
          {"output_tokens_per_s", s.output_tokens_per_s},
          {"goodput_rps", json_number(s.goodput_rps)},
          {"gpus", s.gpus}};
}

// null when no plan was attempted (no finding); an object with `computed` false and `why_not` when
// none could be searched.
json plan_json(const diagnose::RemedyPlan& p) {
  if (!p.computed && p.why_not.empty()) return nullptr;
  json steps = json::array();
  for (const auto& s : p.steps)
    steps.push_back({{"change", s.change},
                     {"from", s.from},
                     {"to", s.to},
                     {"sizing", s.sizing},
                     {"predicted", plan_state_json(s.after)},
                     {"uncertainty", {{"ttft", s.ttft_uncertainty}, {"tpot", s.tpot_uncertainty}, {"throughput", s.throughput_uncertainty}}},
                     {"met", s.met}});
  json j = {{"computed", p.computed}, {"why_not", p.why_not}, {"finding", p.finding_id}};
  if (p.computed) {
    j["objective"] = {{"ttft_p99_s", p.objective.ttft_p99_s}, {"tpot_p99_s", p.objective.tpot_p99_s},
                      {"basis", p.objective.basis}, {"text", p.objective.text}};
    j["before"] = plan_state_json(p.before);
  } else {
    j["objective"] = nullptr;
    j["before"] = nullptr;
  }
  j["steps"] = steps;
  j["met"] = p.met;
  j["met_at_step"] = p.met_at_step ? json(*p.met_at_step) : json(nullptr);
  j["shortfall"] = p.shortfall;
  j["notes"] = p.notes;
  j["simulations"] = p.simulations;
  return j;
}

// Reading back: strict on the shape, lenient on absent optional fields.
std::optional<double> opt_num(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (it->is_number()) return it->get<double>();
  if (it->is_string()) {
    const auto s = it->get<std::string>();
    if (s == "+Inf") return INFINITY;
    if (s == "-Inf") return -INFINITY;
    if (s == "NaN") return NAN;
  }
  return std::nullopt;
}

std::string str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool boolean(const json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// The array under `key`; anything else (absent, another type) reads as empty.
const json& array(const json& j, const char* key) {
  static const json empty = json::array();
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : empty;
}

std::vector<diagnose::EvidenceItem> evidence_from(const json& a) {
  std::vector<diagnose::EvidenceItem> out;
  if (!a.is_array()) return out;
  for (const auto& e : a) {
    if (!e.is_object()) continue;
    diagnose::EvidenceItem it;
    it.indicator = str(e, "indicator");
    it.value = opt_num(e, "value");
    it.unit = str(e, "unit");
    it.threshold = opt_num(e, "threshold");
    it.op = str(e, "op");
    it.source = str(e, "source");
    it.text = str(e, "text");
    out.push_back(std::move(it));
  }
  return out;
}

diagnose::PlanState plan_state_from(const json& j) {
  diagnose::PlanState s;
  if (!j.is_object()) return s;
  s.ttft_p50_s = opt_num(j, "ttft_p50_s").value_or(0);
  s.ttft_p99_s = opt_num(j, "ttft_p99_s").value_or(0);
  s.tpot_p99_s = opt_num(j, "tpot_p99_s").value_or(0);
  s.output_tokens_per_s = opt_num(j, "output_tokens_per_s").value_or(0);
  s.goodput_rps = opt_num(j, "goodput_rps");
  s.gpus = static_cast<int>(opt_num(j, "gpus").value_or(0));
  return s;
}

diagnose::RemedyPlan plan_from(const json& j) {
  diagnose::RemedyPlan p;
  if (!j.is_object()) return p;
  p.computed = boolean(j, "computed", false);
  p.why_not = str(j, "why_not");
  p.finding_id = str(j, "finding");
  if (auto o = j.find("objective"); o != j.end() && o->is_object()) {
    p.objective.ttft_p99_s = opt_num(*o, "ttft_p99_s").value_or(0);
    p.objective.tpot_p99_s = opt_num(*o, "tpot_p99_s").value_or(0);
    p.objective.basis = str(*o, "basis");
    p.objective.text = str(*o, "text");
  }
  if (auto b = j.find("before"); b != j.end()) p.before = plan_state_from(*b);
  for (const auto& sj : array(j, "steps")) {
    if (!sj.is_object()) continue;
    diagnose::PlanStep s;
    s.change = str(sj, "change");
    s.from = str(sj, "from");
    s.to = str(sj, "to");
    s.sizing = str(sj, "sizing");
    if (auto a = sj.find("predicted"); a != sj.end()) s.after = plan_state_from(*a);
    if (auto u = sj.find("uncertainty"); u != sj.end() && u->is_object()) {
      s.ttft_uncertainty = opt_num(*u, "ttft").value_or(0);
      s.tpot_uncertainty = opt_num(*u, "tpot").value_or(0);
      s.throughput_uncertainty = opt_num(*u, "throughput").value_or(0);
    }
    s.met = boolean(sj, "met", false);
    p.steps.push_back(std::move(s));
  }
  p.met = boolean(j, "met", false);
  if (auto m = opt_num(j, "met_at_step"); m && *m >= 0) p.met_at_step = static_cast<size_t>(*m);
  p.shortfall = str(j, "shortfall");
  p.notes = str(j, "notes");
  p.simulations = static_cast<int>(opt_num(j, "simulations").value_or(0));
  return p;
}

core::Error bad(const std::string& where, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, where, expected, found);
}

}  // namespace

json to_json(const diagnose::Report& r) {
  json j;
  j["format"] = kDiagnosisFormat;
  j["version"] = kDiagnosisVersion;
  j["exit_code"] = r.exit_code();
  json sym = json::array();
  for (auto s : r.symptoms) sym.push_back(diagnose::to_string(s));
  j["symptoms"] = sym;
  j["symptoms_detected"] = r.symptoms_detected;
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(finding_json(f));
  j["findings"] = findings;
  json layers = json::array(), cleared = json::array(), not_judged = json::array();
  for (const auto& l : r.layers) {
    layers.push_back({{"layer", diagnose::to_string(l.layer)},
                      {"state", diagnose::to_string(l.state)},
                      {"evidence", evidence_list(l.evidence)},
                      {"why", l.why}});
    switch (l.state) {
      case diagnose::LayerVerdict::State::cleared:
        cleared.push_back({{"layer", diagnose::to_string(l.layer)}, {"evidence", evidence_list(l.evidence)}});
        break;
      case diagnose::LayerVerdict::State::not_judged:
        not_judged.push_back({{"layer", diagnose::to_string(l.layer)}, {"why", l.why}});
        break;
      case diagnose::LayerVerdict::State::at_fault:
        break;
    }
  }
  j["layers"] = layers;
  j["cleared"] = cleared;
  j["not_judged"] = not_judged;
  json inputs = json::array();
  for (const auto& i : r.inputs)
    inputs.push_back({{"source", i.source}, {"kind", i.kind}, {"ok", i.ok}, {"note", i.note}});
  j["inputs"] = inputs;
  j["missing"] = r.missing;
  j["definitions"] = r.definitions;
  j["snapshot_path"] = r.snapshot_path ? json(*r.snapshot_path) : json(nullptr);
  j["plan"] = plan_json(r.plan);
  return j;
}

core::Result<diagnose::Report> report_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) return bad(where, "a JSON object", j.type_name());
  if (str(j, "format") != kDiagnosisFormat)
    return bad(where + " format", std::string("\"") + kDiagnosisFormat + "\"", "\"" + str(j, "format") + "\"");
  auto v = j.find("version");
  if (v == j.end() || !v->is_number_integer() || v->get<int64_t>() > kDiagnosisVersion || v->get<int64_t>() < 1)
    return bad(where + " version", "1", v == j.end() ? "nothing" : v->dump());
  diagnose::Report r;
  for (const auto& s : array(j, "symptoms")) {
    auto sym = s.is_string() ? diagnose::symptom_from_string(s.get<std::string>()) : std::nullopt;
    if (!sym) return bad(where + " symptoms", "a symptom name", s.dump());
    r.symptoms.push_back(*sym);
  }
  r.symptoms_detected = boolean(j, "symptoms_detected", false);
  const json& findings = array(j, "findings");
  for (size_t i = 0; i < findings.size(); ++i) {
    const json& f = findings[i];
    const std::string at = where + " findings[" + std::to_string(i) + "]";
    if (!f.is_object()) return bad(at, "an object", f.type_name());
    diagnose::Finding x;
    x.id = str(f, "id");
    auto layer = diagnose::layer_from_string(str(f, "layer"));
    auto sym = diagnose::symptom_from_string(str(f, "symptom"));
    if (!layer) return bad(at + ".layer", "a layer name", "\"" + str(f, "layer") + "\"");
    if (!sym) return bad(at + ".symptom", "a symptom name", "\"" + str(f, "symptom") + "\"");
    x.layer = *layer;
    x.symptom = *sym;
    const std::string sev = str(f, "severity");
    if (sev == "info") x.severity = diagnose::Severity::info;
    else if (sev == "warning") x.severity = diagnose::Severity::warning;
    else if (sev == "critical") x.severity = diagnose::Severity::critical;
    else return bad(at + ".severity", "info, warning or critical", "\"" + sev + "\"");
    x.confidence = opt_num(f, "confidence").value_or(0);
    x.explains = opt_num(f, "explains");
    x.title = str(f, "title");
    x.explanation = str(f, "explanation");
    x.evidence = evidence_from(array(f, "evidence"));
    for (const auto& rj : array(f, "remedies")) {
      if (!rj.is_object()) continue;
      diagnose::Remedy rem;
      rem.change = str(rj, "change");
      rem.from = str(rj, "from");
      rem.to = str(rj, "to");
      rem.predicted_effect = str(rj, "predicted_effect");
      rem.basis = str(rj, "basis");
      rem.uncertainty = opt_num(rj, "uncertainty");
      rem.kind = str(rj, "kind") == "precaution" ? diagnose::Remedy::Kind::precaution : diagnose::Remedy::Kind::change;
      if (auto p = rj.find("predicted"); p != rj.end() && p->is_object()) {
        diagnose::PredictedValue v;
        v.metric = str(*p, "metric");
        v.unit = str(*p, "unit");
        v.before = opt_num(*p, "before").value_or(NAN);
        v.after = opt_num(*p, "after").value_or(NAN);
        v.higher_is_better = boolean(*p, "higher_is_better", false);
        v.tolerance = opt_num(*p, "tolerance").value_or(0);
        rem.predicted = v;
      }
      x.remedies.push_back(std::move(rem));
    }
    x.next_measurement = str(f, "next_measurement");
    // Reports written before the field existed hold located findings only.
    x.status = f.contains("status") ? str(f, "status") : std::string("located");
    if (x.status != "located" && x.status != "suspected")
      return bad(at + ".status", "located or suspected", "\"" + x.status + "\"");
    if (f.contains("evidence_against")) x.against = evidence_from(array(f, "evidence_against"));
    r.findings.push_back(std::move(x));
  }
  for (const auto& l : array(j, "layers")) {
    if (!l.is_object()) continue;
    auto layer = diagnose::layer_from_string(str(l, "layer"));
    if (!layer) return bad(where + " layers", "a layer name", "\"" + str(l, "layer") + "\"");
    diagnose::LayerVerdict v;
    v.layer = *layer;
    const std::string st = str(l, "state");
    if (st == "cleared") v.state = diagnose::LayerVerdict::State::cleared;
    else if (st == "at_fault") v.state = diagnose::LayerVerdict::State::at_fault;
    else if (st == "not_judged") v.state = diagnose::LayerVerdict::State::not_judged;
    else return bad(where + " layers.state", "cleared, at_fault or not_judged", "\"" + st + "\"");
    v.evidence = evidence_from(array(l, "evidence"));
    v.why = str(l, "why");
    r.layers.push_back(std::move(v));
  }
  for (const auto& i : array(j, "inputs")) {
    if (!i.is_object()) continue;
    r.inputs.push_back({str(i, "source"), str(i, "kind"), boolean(i, "ok", true), str(i, "note")});
  }
  for (const auto& m : array(j, "missing"))
    if (m.is_string()) r.missing.push_back(m.get<std::string>());
  if (auto d = str(j, "definitions"); !d.empty()) r.definitions = d;
  if (auto sp = str(j, "snapshot_path"); !sp.empty()) r.snapshot_path = sp;
  if (auto pl = j.find("plan"); pl != j.end()) r.plan = plan_from(*pl);
  return r;
}

}  // namespace llmtriage::report
