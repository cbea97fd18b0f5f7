#pragma once
// `llmtriage snapshot show`: a snapshot in human form, the current state of every indicator,
// layer by layer (load, scheduling/capacity, hardware, parameters), then what is missing.
#include <string>

#include "collect/snapshot.h"

namespace llmtriage::collect {

std::string render_snapshot_text(const Snapshot& snapshot);

}  // namespace llmtriage::collect
