#pragma once
// Runs one layer analyzer on indicator maps written in the test (data-driven rule tables).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose::testing {

struct RuleCase {
  const char* name;
  std::map<std::string, double> now;
  std::map<std::string, double> base;
  std::vector<Symptom> symptoms;
  std::set<std::string> expect_ids;
  LayerVerdict::State state;
};

inline Indicators indicators_of(const RuleCase& c, const char* source = "test") {
  Indicators ind;
  for (const auto& [k, v] : c.now) ind.now[k] = Indicator{v, source};
  for (const auto& [k, v] : c.base) ind.baseline[k] = Indicator{v, source};
  return ind;
}

inline std::set<std::string> ids(const LayerResult& r) {
  std::set<std::string> s;
  for (const auto& f : r.findings) s.insert(f.id);
  return s;
}

template <typename Fn>
LayerResult run_rule(Fn fn, const RuleCase& c, const DiagnoseInput& in = {}) {
  const Indicators ind = indicators_of(c);
  const Context ctx{in, ind, c.symptoms, in.thresholds};
  return fn(ctx);
}

// Every finding states its evidence with a source and single-variable remedies with from/to.
inline void expect_well_formed(const LayerResult& r, Layer layer) {
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.layer, layer) << f.id;
    EXPECT_FALSE(f.title.empty()) << f.id;
    EXPECT_FALSE(f.explanation.empty()) << f.id;
    EXPECT_FALSE(f.evidence.empty()) << f.id;
    EXPECT_GT(f.confidence, 0) << f.id;
    EXPECT_LE(f.confidence, 1) << f.id;
    if (f.explains) {
      EXPECT_TRUE(*f.explains >= 0 && *f.explains <= 1) << f.id;
    }
    for (const auto& e : f.evidence) EXPECT_FALSE(e.source.empty()) << f.id << " " << e.indicator;
    for (const auto& m : f.remedies) {
      EXPECT_FALSE(m.change.empty()) << f.id;
      EXPECT_FALSE(m.to.empty()) << f.id << " " << m.change;
      EXPECT_FALSE(m.basis.empty()) << f.id << " " << m.change;
    }
  }
}

}  // namespace llmtriage::diagnose::testing
