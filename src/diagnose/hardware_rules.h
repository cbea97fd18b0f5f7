#pragma once
// Hardware-layer rules that live in their own files (analyze_hardware.cpp calls them).
#include <vector>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

// hardware_step_time.cpp: decode slower per token than the baseline at the same batch and lengths.
void step_slower_than_baseline(const Context& c, std::vector<Finding>& out);

}  // namespace llmtriage::diagnose
