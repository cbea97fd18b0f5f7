#pragma once
// Memory remedies from the ledger: the observed deployment's ledger (ledger::compute_ledger, whose
// sizing remedies each change one variable and re-run it), turned into diagnose::Remedy, plus the
// ledger with one variable changed for remedies the ledger does not propose itself (KV pool after a
// change, for the what-ifs). One source of truth for memory: nothing here re-derives a ledger line.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/result.h"
#include "diagnose/finding.h"
#include "ledger/ledger.h"

namespace llmtriage::diagnose {

// docs/accuracy.md ("Ledger"): KV tokens within 2.8% of the engine on 21 checked startup logs
// (median 0.17%), 9.6% on the two known misses -- stated as +-5%.
inline constexpr double kLedgerUncertainty = 0.05;

struct LedgerContext {
  ledger::LedgerInput input;    // what was modelled
  ledger::LedgerReport report;  // with its remedies
};

// The ledger of the deployment the evidence describes. The GPU comes from the deployment, else
// from the GPU samples' name ("NVIDIA H100 80GB HBM3"). `typical_len` (prompt + output tokens)
// lets the ledger judge concurrency at the observed lengths. Errors: no model or GPU named, a
// name the catalog does not know, an engine the ledger does not model, settings it rejects.
core::Result<LedgerContext> ledger_for(const core::Evidence& ev, std::optional<int64_t> typical_len = {});

// The ledger's own remedies as diagnose remedies (flag without the leading "--", basis "ledger",
// uncertainty kLedgerUncertainty). `only`: keep just these flags ("max-model-len", ...), in the
// ledger's order; empty = all.
std::vector<Remedy> ledger_remedies(const LedgerContext& lc, const std::vector<std::string>& only = {});

// The ledger with one variable changed (no remedies computed); nullopt when it refuses the change.
std::optional<ledger::LedgerReport> ledger_with(const LedgerContext& lc,
                                                const std::function<void(ledger::LedgerInput&)>& change);

// "41k" style token counts for remedy texts.
std::string tokens_text(double tokens);

}  // namespace llmtriage::diagnose
