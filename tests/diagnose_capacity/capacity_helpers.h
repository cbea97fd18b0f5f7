#pragma once
// A diagnosis context built from named indicator values (the analyzers read names, not files),
// plus the Evidence parts some rules read directly (deployment, events).
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

std::vector<std::string> ids(const LayerResult& r);
bool has(const LayerResult& r, const std::string& id);
const Finding* get(const LayerResult& r, const std::string& id);

}  // namespace llmtriage::diagnose::testing
