#pragma once
// Wiring `llmtriage diagnose`'s inputs: the judgement flags (symptoms, SLO, thresholds, dashboard
// readings) parsed here, the evidence assembled by inputs::assemble (src/inputs), both into one
// DiagnoseInput. Only bad flags are errors; an input that cannot be used is an InputNote.
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnose.h"
#include "inputs/assemble.h"

namespace llmtriage::cli {

// The flags of `llmtriage diagnose`: the evidence they name (inputs::Sources), and how to judge it.
struct DiagnoseFlags : inputs::Sources {
  std::vector<std::string> symptoms;
  std::string slo;
  std::string thresholds_file;
  std::vector<std::string> observe, observe_files;
  bool no_what_if = false;
};

struct Gathered {
  diagnose::DiagnoseInput input;
  std::vector<std::string> warnings;  // one line per input that could not be used (for stderr)
  bool any_evidence = false;          // something at all was read
};

using LiveProgress = inputs::LiveProgress;

// Reads every input. Errors only for bad flags or flag values (unknown --symptom, bad --slo,
// unknown --observe name, unreadable --thresholds, no input named at all): exit code 2.
core::Result<Gathered> gather_inputs(const DiagnoseFlags& flags, const LiveProgress& progress = {});

}  // namespace llmtriage::cli
