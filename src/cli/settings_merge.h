#pragma once
// Layering engine settings from several inputs (a config file, a startup log, --engine-args,
// explicit flags): each field a later input sets replaces the earlier value.
#include "core/engine_settings.h"

namespace llmtriage::cli {

// How a later input's unmodelled flags join the earlier ones'.
enum class UnmodelledMerge {
  append,         // every one, repeats included (ledger: each input's notes as it stated them)
  append_unique,  // only those not listed yet (diagnose: the same flag from log and snapshot once)
};

void overlay_settings(core::EngineSettings& into, const core::EngineSettings& later, UnmodelledMerge how);

}  // namespace llmtriage::cli
