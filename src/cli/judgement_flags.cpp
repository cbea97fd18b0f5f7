#include "cli/judgement_flags.h"

#include <algorithm>

#include "cli/suggest.h"
#include "core/files.h"

namespace llmtriage::cli {

core::Status parse_symptoms(const std::vector<std::string>& names, std::vector<diagnose::Symptom>& out) {
  for (const auto& s : names) {
    auto sym = diagnose::symptom_from_string(s);
    if (!sym) {
      std::string known;
      for (auto x : diagnose::all_symptoms()) known += (known.empty() ? "" : ", ") + std::string(diagnose::to_string(x));
    {
      std::vector<std::string> names;
      for (auto x : diagnose::all_symptoms()) names.emplace_back(diagnose::to_string(x));
      return core::make_error(core::ErrorKind::usage, "--symptom", "one of " + known, "'" + s + "'" + did_you_mean(s, names));
    }
    }
    if (std::find(out.begin(), out.end(), *sym) == out.end()) out.push_back(*sym);
  }
  return core::ok_status();
}

core::Status add_observation_suggesting(diagnose::Observations& obs, const std::string& assignment, const std::string& where) {
  auto st = diagnose::add_observation(obs, assignment, where);
  if (st || st.error().expected != "a known observation name") return st;
  core::Error e = st.error();
  std::string name = e.found;
  const bool baseline = name.rfind("baseline_", 0) == 0;
  if (baseline) name = name.substr(9);
  std::vector<std::string> names;
  for (const auto& n : diagnose::observation_names()) names.emplace_back(n.name);
  if (auto c = closest_name(name, names)) e.found += " (did you mean '" + std::string(baseline ? "baseline_" : "") + *c + "'?)";
  return e;
}

core::Status apply_slo_and_thresholds(const std::string& slo, const std::string& thresholds_file, diagnose::Slo& slo_out,
                                      diagnose::Thresholds& thresholds_out) {
  if (!slo.empty())
    if (auto st = diagnose::parse_slo(slo_out, slo); !st) return st;
  if (!thresholds_file.empty()) {
    auto text = core::read_file(thresholds_file);
    if (!text) return std::move(text).error();
    if (auto st = diagnose::load_thresholds(thresholds_out, *text, thresholds_file); !st) return st;
  }
  return core::ok_status();
}

}  // namespace llmtriage::cli
