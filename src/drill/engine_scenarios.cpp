#include "drill/engine_scenarios.h"

#include <nlohmann/json.hpp>

#include "core/files.h"

namespace llmtriage::drill {
namespace {

using nlohmann::json;

core::Error scenario_error(const std::string& where, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, where, expected, found);
}

core::Result<Knobs> knobs_of(const json& j, const std::string& where) {
  if (!j.is_object()) return scenario_error(where, "an object of knob -> integer", j.type_name());
  Knobs k;
  for (const auto& [name, v] : j.items()) {
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
      return scenario_error(where + "." + name, "a non-negative integer", v.dump());
    k[name] = v.get<int64_t>();
  }
  return k;
}

}  // namespace

core::Result<std::vector<EngineScenario>> parse_engine_scenarios(const std::string& text, const std::string& where) {
  auto j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("scenarios") || !j["scenarios"].is_array())
    return scenario_error(where, "a JSON object with a \"scenarios\" array", j.is_discarded() ? "not JSON" : "no scenarios array");
  std::vector<EngineScenario> out;
  for (size_t i = 0; i < j["scenarios"].size(); ++i) {
    const json& s = j["scenarios"][i];
    const std::string at = where + ": scenarios[" + std::to_string(i) + "]";
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string()) return scenario_error(at, "an object with a name", s.dump());
    EngineScenario e;
    e.name = s["name"].get<std::string>();
    e.about = s.value("about", "");
    auto k = knobs_of(s.value("knobs", json::object()), at + ".knobs");
    if (!k) return k.error();
    e.knobs = *k;
    for (const char* need : {"parallel", "ctx", "threads"})
      if (!e.knobs.count(need) || e.knobs[need] <= 0) return scenario_error(at + ".knobs." + need, "a positive integer", "missing or 0");
    if (s.contains("baseline_knobs")) {
      auto b = knobs_of(s["baseline_knobs"], at + ".baseline_knobs");
      if (!b) return b.error();
      e.baseline_knobs = *b;
    }
    const json l = s.value("load", json::object());
    e.load.input_len = l.value("input_len", e.load.input_len);
    e.load.output_len = l.value("output_len", e.load.output_len);
    e.load.num_requests = l.value("num_requests", e.load.num_requests);
    e.load.concurrency = l.value("concurrency", e.load.concurrency);
    if (e.load.num_requests <= 0 || e.load.concurrency <= 0 || e.load.input_len <= 0 || e.load.output_len <= 0)
      return scenario_error(at + ".load", "positive lengths, request count and concurrency", l.dump());
    e.slo = s.value("slo", "");
    const json p = s.value("planted", json::object());
    e.planted_layer = p.value("layer", "");
    e.planted_finding = p.value("finding", "");
    e.planted_knob = p.value("knob", "");
    if (e.planted_layer.empty()) return scenario_error(at + ".planted.layer", "the layer the planted cause is in", "none");
    out.push_back(std::move(e));
  }
  return out;
}

const core::Result<std::vector<EngineScenario>>& engine_scenarios() {
  static const core::Result<std::vector<EngineScenario>> all = []() -> core::Result<std::vector<EngineScenario>> {
    const std::string path = core::data_dir() + "/drills/engine_scenarios.json";
    auto text = core::read_file(path);
    if (!text) return text.error();
    return parse_engine_scenarios(*text, path);
  }();
  return all;
}

core::Result<EngineScenario> find_engine_scenario(const std::string& name) {
  const auto& all = engine_scenarios();
  if (!all) return all.error();
  std::string known;
  for (const auto& s : *all) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  return core::make_error(core::ErrorKind::usage, "SCENARIO", "a real-engine scenario: " + known, name);
}

}  // namespace llmtriage::drill
