#pragma once
// Content checks on sampled response texts (numeric_parameter layer, docs/rules.md).
#include <string_view>

namespace llmtriage::diagnose {

// The first raw chat-template marker found in a text ("<|im_start|>", "<|eot_id|>", "[INST]", ...),
// or "" when none: markers in an answer mean the template did not match the model.
std::string_view template_marker(std::string_view text);

// Share of word 4-grams in the text that repeat an earlier 4-gram (0 for texts under 20 words):
// a looping answer ("the the the", a sentence over and over) is near 1, prose near 0.
double repeated_ngram_fraction(std::string_view text);

// A text that is mostly not language: U+FFFD replacement characters, control bytes, or
// almost no letters or digits over a long text ("!!!!!!!!", what a broken quantized kernel emits).
bool is_garbled(std::string_view text);

}  // namespace llmtriage::diagnose
