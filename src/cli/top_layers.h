#pragma once
// `llmtriage top`'s layer lines: the recent samples through the same diagnosis as
// `llmtriage diagnose` (diagnose::diagnose, the one threshold table), one line per layer.
#include <vector>

#include "collect/live_view.h"
#include "collect/snapshot.h"

namespace llmtriage::cli {

// One line per layer in traversal order: its most likely finding (severity, or "suspected"),
// else what cleared it, else why it was not judged.
std::vector<collect::LayerLine> judge_layers(const collect::Snapshot& recent);

}  // namespace llmtriage::cli
