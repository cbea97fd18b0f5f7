#pragma once
// The layered diagnosis: Evidence (+ a healthy-period baseline, + dashboard readings) in,
// Report out. Pure: no files, no network, no clock — the CLI gathers inputs (src/cli/diagnose_cmd.cpp)
// and renders the Report (src/report). Method and thresholds: docs/rules.md.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"
#include "diagnose/finding.h"

namespace llmtriage::diagnose {

// Readings taken off a dashboard: --observe NAME=VALUE. Names and units in docs/rules.md
// ("Observations"); `baseline_` in front of a name is the healthy-period value.
struct Observations {
  std::map<std::string, double> now;
  std::map<std::string, double> baseline;
};
// The known names (without the baseline_ prefix), with their unit, for --help and errors.
struct ObservationName {
  const char* name;
  const char* unit;
  const char* meaning;
};
const std::vector<ObservationName>& observation_names();
// Parses "NAME=VALUE" into obs; an unknown name or a bad value is an error that lists the known
// names; `where` says where the line came from ("--observe", "obs.txt:3").
core::Status add_observation(Observations& obs, const std::string& assignment, const std::string& where);

// Service-level objectives used to detect symptoms when none is given (--slo ttft_p99_s=2,...).
struct Slo {
  double ttft_p99_s = 2.0;
  double tpot_p99_s = 0.1;
  double e2e_p99_s = 60.0;
  double error_rate = 0.01;
};
core::Status parse_slo(Slo& slo, const std::string& spec);  // "ttft_p99_s=1.5,tpot_p99_s=0.08"

// Every threshold the rules use, by name, with its default (docs/rules.md). --thresholds FILE
// overrides some of them ("name = value" lines, '#' comments); unknown names are an error.
struct Thresholds {
  std::map<std::string, double> values;
  double get(const std::string& name) const;  // a name not in the table is a programming error (throws)
};
Thresholds default_thresholds();
core::Status load_thresholds(Thresholds& t, const std::string& text, const std::string& where);

struct DiagnoseInput {
  core::Evidence now;                        // what is happening
  std::optional<core::Evidence> baseline;    // a healthy period, for the load layer
  Observations observations;
  std::vector<Symptom> symptoms;             // --symptom; empty = detect from the evidence
  Slo slo;
  Thresholds thresholds = default_thresholds();
  bool live = false;                         // input came from a live endpoint (capture-before-restart)
  std::optional<std::string> snapshot_path;  // where the live snapshot was kept
  bool what_if = true;                       // run simulator what-ifs for remedy predictions
  // Thin evidence as the operator gave it (read by the suspected-causes reasoning, suspects.h):
  std::string launch_text;                   // --engine-args verbatim: flags, KEY=VALUE, Modelfile lines
  std::string model_as_given;                // --model as typed ("llama3:70b", "x.Q4_K_M.gguf")
  std::string gpu_as_given;                  // --gpu as typed ("RTX 3090", "Tesla V100 16GB")
};

Report diagnose(const DiagnoseInput& in);

}  // namespace llmtriage::diagnose
