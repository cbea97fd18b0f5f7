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

// A value in its unit, short: fraction 0.973 -> "97%", s 0.0452 -> "45 ms", tokens 41234 ->
// "41234 tokens", W 612.4 -> "612 W". An empty unit prints the bare number.
std::string format_value(double value, const std::string& unit);

// "waiting_p50 = 42 requests (threshold > 4 requests)"; a text-only item prints its text.
std::string format_evidence(const diagnose::EvidenceItem& e);

// "max-num-seqs 256 -> 128" (or "enable-chunked-prefill -> true" when from is unknown).
std::string format_change(const diagnose::Remedy& r);
// "KV pool 41k -> 58k tokens (ledger, +-10%)"; "(qualitative)" when the basis says so.
std::string format_effect(const diagnose::Remedy& r);

// Report::missing less the lines the "Not judged" section already says ("<layer>: not judged: ...").
std::vector<std::string> missing_beyond_layers(const diagnose::Report& r);

// "0.85"; "explains ~70% of the symptom" when known.
std::string format_confidence(double c);
std::optional<std::string> format_explains(const std::optional<double>& explains);

}  // namespace llmtriage::report
