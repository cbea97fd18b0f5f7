#pragma once
// A diagnosis context built from named indicator values (the analyzers read names, not files),
// plus the Evidence parts some rules read directly (deployment, events).
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose::testing {

struct Case {
  DiagnoseInput in;
  Indicators ind;
  std::vector<Symptom> symptoms;

  Case() { in.what_if = false; }
  Case& set(std::initializer_list<std::pair<const char*, double>> values, const char* source = "metrics (test)") {
    for (const auto& [k, v] : values) ind.now[k] = Indicator{v, source};
    return *this;
  }
  Case& base(std::initializer_list<std::pair<const char*, double>> values) {
    for (const auto& [k, v] : values) ind.baseline[k] = Indicator{v, "baseline (test)"};
    return *this;
  }
  Context ctx() const { return Context{in, ind, symptoms, in.thresholds}; }
};

// One row of an analyzer's table: the indicators it is given and what it must conclude.
struct Row {
  const char* name;
  std::function<void(Case&)> setup;
  std::vector<std::string> expect;  // finding ids, in any order; exactly these
  LayerVerdict::State state;
};

// The checks every table row gets: exactly the expected ids, the expected verdict, every finding
// in `layer` with evidence and remedies, and evidence behind a cleared verdict.
void expect_row(const Row& row, const LayerResult& r, Layer layer);

std::vector<std::string> ids(const LayerResult& r);
bool has(const LayerResult& r, const std::string& id);
const Finding* get(const LayerResult& r, const std::string& id);

}  // namespace llmtriage::diagnose::testing
