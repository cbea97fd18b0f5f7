#include "diagnose/capacity_kit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace llmtriage::diagnose::kit {

Finding finding(const char* id, Layer layer, Symptom symptom, Severity sev, const std::string& title) {
  Finding f;
  f.id = id;
  f.layer = layer;
  f.symptom = symptom;
  f.severity = sev;
  f.title = title;
  return f;
}

bool has_symptom(const Context& c, Symptom s) {
  return std::find(c.symptoms.begin(), c.symptoms.end(), s) != c.symptoms.end();
}

std::optional<double> first(const Context& c, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (auto v = c.ind.get(n)) return v;
  return std::nullopt;
}

const char* first_name(const Context& c, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (c.ind.get(n)) return n;
  return *names.begin();
}

EvidenceItem event_item(const core::Event& e) {
  EvidenceItem it;
  it.indicator = std::string("log:") + core::to_string(e.kind);
  it.source = e.source;
  it.text = e.text;
  return it;
}

EvidenceItem text_item(const std::string& indicator, double value, const std::string& unit, const std::string& source,
                       const std::string& text) {
  EvidenceItem it;
  it.indicator = indicator;
  it.value = value;
  it.unit = unit;
  it.source = source;
  it.text = text;
  return it;
}

namespace {
std::string source_kind(const std::string& s) {
  // Facts looked up (catalog) are not an independent measurement.
  if (s.empty() || s == "not measured" || s == "catalog") return "";
  if (s.rfind("engine args", 0) == 0 || s.rfind("engine default", 0) == 0) return "settings";
  if (s.rfind("observe", 0) == 0) return "observe";
  if (s.find("ledger") != std::string::npos) return "ledger";
  if (s.find("record") != std::string::npos) return "records";
  if (s.find("gpu") != std::string::npos || s.find("GPU") != std::string::npos || s.find("dcgm") != std::string::npos ||
      s.find("nvidia") != std::string::npos)
    return "gpu";
  if (s.find(".log") != std::string::npos || s.find("log") != std::string::npos) return "log";
  return "metrics";
}
}  // namespace

double confidence(double base, const std::vector<EvidenceItem>& items) {
  std::set<std::string> kinds;
  for (const auto& it : items)
    if (auto k = source_kind(it.source); !k.empty()) kinds.insert(k);
  double v = base;
  if (kinds.size() > 1) v += 0.1 * static_cast<double>(kinds.size() - 1);
  if (kinds.size() == 1 && *kinds.begin() == "observe") v -= 0.15;
  return std::clamp(v, 0.1, 0.95);
}

const LedgerContext* Models::ledger() {
  if (!ledger_tried_) {
    ledger_tried_ = true;
    std::optional<int64_t> typical;
    auto in = c_.ind.get("input_len_mean"), out = c_.ind.get("output_len_mean");
    if (in && out && *in + *out >= 1) typical = static_cast<int64_t>(std::llround(*in + *out));
    auto r = ledger_for(c_.in.now, typical);
    if (r.ok()) ledger_ = std::move(*r);
    else ledger_error_ = r.error().message();
  }
  return ledger_ ? &*ledger_ : nullptr;
}

const WhatIfSetup* Models::whatif() {
  if (!whatif_tried_) {
    whatif_tried_ = true;
    if (!c_.in.what_if) {
      whatif_error_ = "what-ifs disabled";
    } else {
      // The observed arrivals and lengths replayed as a trace when records exist: a burst of long
      // prompts (the case chunked prefill is for) is lost in a Poisson stream at the mean rate.
      auto r = whatif_replay_setup(c_.in, c_.ind, 1000);
      if (r.ok()) whatif_ = std::move(*r);
      else whatif_error_ = r.error().message();
    }
  }
  return whatif_ ? &*whatif_ : nullptr;
}

// One remedy: the what-if when the evidence allows one, else the ledger's pool figure, else
// qualitative. `pool_change` (memory variables) re-runs the ledger for the pool after.
Remedy predicted(const Context& c, Models& m, const std::string& change, const std::string& from,
                 const std::string& to, const std::function<void(sim::Scenario&)>& sim_change,
                 const std::function<void(ledger::LedgerInput&)>& pool_change, Metric focus,
                 const std::string& fallback_effect, std::optional<double>* value) {
  std::string pool_text;
  const LedgerContext* lc = pool_change ? m.ledger() : nullptr;
  if (lc)
    if (auto after = ledger_with(*lc, pool_change))
      pool_text = fmt::format("KV pool {} -> {} tokens (ledger)", tokens_text(static_cast<double>(lc->report.kv_cache_tokens)),
                              tokens_text(static_cast<double>(after->kv_cache_tokens)));
  if (const WhatIfSetup* w = m.whatif()) {
    auto after = predict_changed(*w, sim_change);
    if (after.ok()) {
      const char* obs = focus == Metric::ttft_p99 ? "ttft_p99_s" : focus == Metric::tpot_p99 ? "tpot_p99_s" : "output_tokens_per_s";
      Remedy r = whatif_remedy(change, from, to, *w, *after, focus, c.ind.get(obs));
      if (value && after->starts) *value = value_of(*after, focus);
      if (!pool_text.empty()) r.predicted_effect = pool_text + "; " + r.predicted_effect;
      return r;
    }
  }
  if (!pool_text.empty()) {
    Remedy r;
    r.change = change;
    r.from = from;
    r.to = to;
    r.predicted_effect = pool_text + "; " + fallback_effect;
    r.basis = "ledger";
    r.uncertainty = kLedgerUncertainty;
    return r;
  }
  return kit::qualitative(change, from, to, fallback_effect);
}

std::vector<Remedy> ordered(Scored s, Metric focus) {
  std::stable_sort(s.begin(), s.end(), [focus](const auto& a, const auto& b) {
    if (a.second.has_value() != b.second.has_value()) return a.second.has_value();
    if (!a.second) return false;
    return focus == Metric::throughput ? *a.second > *b.second : *a.second < *b.second;
  });
  std::vector<Remedy> out;
  for (auto& [r, v] : s) out.push_back(std::move(r));
  return out;
}

Remedy qualitative(const std::string& change, const std::string& from, const std::string& to, const std::string& effect) {
  Remedy r;
  r.change = change;
  r.from = from;
  r.to = to;
  r.predicted_effect = effect;
  r.basis = "qualitative";
  return r;
}

std::string num(double v) {
  if (std::fabs(v) >= 1e4) return tokens_text(v);
  if (std::fabs(v - std::round(v)) < 1e-9) return fmt::format("{:.0f}", v);
  return fmt::format("{:.3g}", v);
}

}  // namespace llmtriage::diagnose::kit
