#pragma once
// Computed remedies: each changes one variable and re-runs the ledger to show what it buys.
#include "ledger/ledger.h"

namespace llmtriage::ledger {

// The ledger without remedies (remedies call it to evaluate each change).
core::Result<LedgerReport> compute_ledger_core(const LedgerInput& in);

// Appends remedies to `report` (computed for `in`).
void add_remedies(const LedgerInput& in, LedgerReport& report);

}  // namespace llmtriage::ledger
