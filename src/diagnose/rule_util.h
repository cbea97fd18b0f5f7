#pragma once
// Small helpers the layer analyzers share: which symptom a finding answers, its severity, how
// numbers read in titles.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <initializer_list>
#include <string>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

inline bool reported(const Context& c, Symptom s) {
  return std::find(c.symptoms.begin(), c.symptoms.end(), s) != c.symptoms.end();
}

// Of `candidates`, the one the report lists first (given with --symptom or detected, in the
// report's order); else the first candidate.
inline Symptom pick_symptom(const Context& c, std::initializer_list<Symptom> candidates) {
  for (Symptom s : c.symptoms)
    if (std::find(candidates.begin(), candidates.end(), s) != candidates.end()) return s;
  return *candidates.begin();
}

// A located cause of a reported symptom is a warning; a contributing factor, info.
inline Severity severity_for(const Context& c, Symptom s) { return reported(c, s) ? Severity::warning : Severity::info; }

// 4 significant digits, no trailing zeros: 0.95, 1200, 3.142; large values whole (30000, not
// 3e+04: a person reads token counts and byte sizes).
inline std::string num(double v) {
  if (std::isfinite(v) && std::fabs(v) >= 1e4 && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

// Lower confidence when the only support is a dashboard reading.
inline double source_confidence(const Indicators& ind, std::initializer_list<const char*> names, double base) {
  int observed = 0, total = 0;
  for (const char* n : names) {
    if (const Indicator* i = ind.find(n)) {
      ++total;
      if (i->source.rfind("observe", 0) == 0) ++observed;
    }
  }
  if (total > 0 && observed == total) return std::max(0.1, base - 0.15);
  return base;
}

}  // namespace llmtriage::diagnose
