#pragma once
// Shared by the scheduling and hardware analyzers: finding construction, confidence from how many
// independent sources agree, and the ledger / simulator baseline computed at most once per
// diagnosis (lazily: a rule that needs no prediction never pays for one).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "diagnose/analyzers.h"
#include "diagnose/remedy_ledger.h"
#include "diagnose/whatif.h"

namespace llmtriage::diagnose::kit {

Finding finding(const char* id, Layer layer, Symptom symptom, Severity sev, const std::string& title);
bool has_symptom(const Context& c, Symptom s);
// The first of the names that is measured.
std::optional<double> first(const Context& c, std::initializer_list<const char*> names);
const char* first_name(const Context& c, std::initializer_list<const char*> names);
// A log event quoted as evidence.
EvidenceItem event_item(const core::Event& e);
EvidenceItem text_item(const std::string& indicator, double value, const std::string& unit, const std::string& source,
                       const std::string& text = {});

// Confidence from the evidence: `base`, + 0.1 for each independent kind of source beyond the
// first (metrics, log, records, ledger, GPU telemetry), - 0.15 when everything is an observation
// (one dashboard reading). Clamped to [0.1, 0.95].
double confidence(double base, const std::vector<EvidenceItem>& items);

// Ledger and what-if baseline of the observed deployment, computed once.
class Models {
 public:
  explicit Models(const Context& c) : c_(c) {}
  const LedgerContext* ledger();
  const std::string& ledger_error() const { return ledger_error_; }
  const WhatIfSetup* whatif();  // nullptr when what-ifs are off or the evidence does not suffice
  const std::string& whatif_error() const { return whatif_error_; }

 private:
  const Context& c_;
  bool ledger_tried_ = false, whatif_tried_ = false;
  std::optional<LedgerContext> ledger_;
  std::optional<WhatIfSetup> whatif_;
  std::string ledger_error_, whatif_error_;
};

// One remedy: the what-if when the evidence allows one, else the ledger's pool figure, else
// qualitative. `pool_change` (memory variables; may be empty) re-runs the ledger for the pool after.
Remedy predicted(const Context& c, Models& m, const std::string& change, const std::string& from, const std::string& to,
                 const std::function<void(sim::Scenario&)>& sim_change,
                 const std::function<void(ledger::LedgerInput&)>& pool_change, Metric focus,
                 const std::string& fallback_effect, std::optional<double>* value = nullptr);

// Remedies with the value the simulator predicts for the finding's metric (when it ran).
using Scored = std::vector<std::pair<Remedy, std::optional<double>>>;
// Best first: the simulated ones by their predicted value (lower TTFT/TPOT, higher throughput),
// then the rest in their order.
std::vector<Remedy> ordered(Scored s, Metric focus);

// "(qualitative)" remedy.
Remedy qualitative(const std::string& change, const std::string& from, const std::string& to, const std::string& effect);

std::string num(double v);  // compact: 12, 0.93, 41k

}  // namespace llmtriage::diagnose::kit
