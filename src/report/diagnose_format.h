#pragma once
// Shared wording of the diagnosis renderers (terminal, Markdown): how a layer, a number with its
// unit, a threshold and a remedy read. One place, so the three outputs say the same thing.
#include <optional>
#include <string>
#include <vector>

#include "diagnose/finding.h"

namespace llmtriage::report {

// "scheduling/capacity", "operator/hardware": the layer as a person says it.
const char* layer_title(diagnose::Layer l);

// A value in its unit, short (core::format_quantity): fraction 0.973 -> "97%", s 0.0452 ->
// "45.2 ms", 16.89 -> "16.9 s", tokens 41234 -> "41234 tokens", 0/1 flags -> "yes"/"no".
std::string format_value(double value, const std::string& unit);

// The threshold with its comparison: "> 4 requests", ">= 90%"; a factor of the baseline reads
// ">= 1.5x baseline", "<= baseline / 1.5". "" when the item has none.
std::string format_threshold(const diagnose::EvidenceItem& e);

// "waiting_p50 = 42 requests (threshold > 4 requests)"; a text-only item prints its text (quoted
// input escaped: core::printable).
std::string format_evidence(const diagnose::EvidenceItem& e);

// "max-num-seqs 256 -> 128" (or "enable-chunked-prefill -> true" when from is unknown); a
// precaution reads "capture before restart: keep /path".
std::string format_change(const diagnose::Remedy& r);
// "KV pool 41k -> 58k tokens (ledger, +-10%)"; "(qualitative)" when the basis says so.
std::string format_effect(const diagnose::Remedy& r);
// A precaution as sentences: "First, capture before restart: keep /path. The evidence ... survives ...".
std::string format_precaution(const diagnose::Remedy& r);
// Why a change is not offered as a fix: "no predicted effect", "predicted worse"; nullopt for a fix.
std::optional<std::string> format_not_a_fix(const diagnose::Remedy& r);

// A finding's remedies as the renderers list them: precautions above the fixes, the fixes
// numbered, the changes predicted to do nothing or harm after them, never numbered.
struct RemedyGroups {
  std::vector<const diagnose::Remedy*> precautions, fixes, not_fixes;
};
RemedyGroups group_remedies(const diagnose::Finding& f);

// Report::missing less the lines the "Not judged" section already says ("<layer>: not judged: ...")
// and less the inputs that could not be read (their own line under Inputs says so), escaped.
std::vector<std::string> missing_beyond_layers(const diagnose::Report& r);

// A report is healthy (the one case a renderer may print its verdict in green) when no symptom is
// seen, no finding is at warning or above, and every layer was judged.
bool healthy(const diagnose::Report& r);

// "0.85"; "explains ~70% of the symptom" when known.
std::string format_confidence(double c);
std::optional<std::string> format_explains(const std::optional<double>& explains);

}  // namespace llmtriage::report
