#pragma once
// Hardware-layer rules that live in their own files (analyze_hardware.cpp calls them).
#include <optional>
#include <string>
#include <vector>

#include "diagnose/analyzers.h"

namespace llmtriage::diagnose {

// hardware_step_time.cpp: decode slower per token than the baseline at the same batch and lengths.
void step_slower_than_baseline(const Context& c, std::vector<Finding>& out);

// hardware_replica.cpp: one replica decodes slower than its peers at no larger a batch.
void replica_slower_than_peers(const Context& c, std::vector<Finding>& out);

// Against a baseline with requests of the same lengths: how much slower each token is than the
// baseline's, and how much of that a larger running batch can explain. A decode step does the
// same work per sequence at any batch (same lengths) and amortises the weights over more of them,
// so its time grows at most in proportion to the batch: TPOT ratio / batch ratio above 1 is a
// slower processor, never the batch. Absent without a baseline TPOT or when the lengths moved.
struct StepSlowdown {
  double tpot_ratio = 1;         // TPOT p50 now / baseline
  double batch_ratio = 1;        // running (largest seen when both have it) now / baseline; 1 when unknown
  bool batch_larger = false;     // by more than the stable ratio and by more than one sequence
  std::string batch_indicator;   // "running_max" or "running"; "" when unknown
  double per_sequence() const { return batch_larger ? tpot_ratio / batch_ratio : tpot_ratio; }
};
std::optional<StepSlowdown> step_slowdown(const Context& c);
// Whether the step is slower than the batch explains (per_sequence >= hw.step_slowdown_ratio).
bool step_slower_than_batch_explains(const Context& c);

}  // namespace llmtriage::diagnose
