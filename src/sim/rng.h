#pragma once
// The simulator draws from the project's one seeded PRNG (core/rng.h), shared with the load
// generator so that a request set built by either is the same for the same seed.
#include "core/rng.h"

namespace llmtriage::sim {
using core::mix64;
using core::Rng;
}  // namespace llmtriage::sim
