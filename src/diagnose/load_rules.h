#pragma once
// Load-layer rules that live in their own files (analyze_load.cpp calls them).
#include <vector>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

// load_unrecorded.cpp: the server finished requests the client's records do not hold.
void unrecorded_traffic(const Context& c, std::vector<Finding>& out);

}  // namespace llmtriage::diagnose
