#pragma once
// The pieces every suspected-cause clue is made of (suspects.h): a reading or a quoted line as an
// evidence item, and the clue list they are added to. Shared by suspect_clues.cpp, suspect_engine.cpp,
// suspect_readings.cpp, suspect_capacity.cpp and suspect_reservation.cpp.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "diagnose/suspects.h"

namespace llmtriage::diagnose::clue {

inline EvidenceItem reading(const std::string& name, double v, const std::string& unit, const std::string& source,
                            const std::string& text = {}, std::optional<double> threshold = {}, const std::string& op = {}) {
  EvidenceItem e;
  e.indicator = name;
  e.value = v;
  e.unit = unit;
  e.source = source;
  e.text = text;
  e.threshold = threshold;
  e.op = op;
  return e;
}

inline EvidenceItem quote(const std::string& name, const std::string& text, const std::string& source) {
  EvidenceItem e;
  e.indicator = name;
  e.text = text;
  e.source = source;
  return e;
}

// ASCII lower case, for matching flag values, model names and log text.
inline std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>((ch >= 'A' && ch <= 'Z') ? ch - 'A' + 'a' : ch);
  return s;
}

// A setting that caps a response's length: any key holding max-tokens / max_tokens /
// max-completion-tokens / max-new-tokens (an app's SUMMARIZE_MAX_TOKENS too), or llama.cpp's and
// Ollama's num-predict / n-predict. `k` is lower case.
inline bool max_tokens_key(const std::string& k) {
  return k.find("max-tokens") != std::string::npos || k.find("max_tokens") != std::string::npos ||
         k.find("max-completion-tokens") != std::string::npos || k.find("max_completion_tokens") != std::string::npos ||
         k.find("max-new-tokens") != std::string::npos || k == "num-predict" || k == "n-predict";
}

inline bool has_sym(const std::vector<Symptom>& s, Symptom x) { return std::find(s.begin(), s.end(), x) != s.end(); }

// llama.cpp and the servers built on it (Ollama): CPU offload, slots, no CUDA graphs.
inline bool llamacpp_family(const std::string& e) { return e == "llamacpp" || e == "ollama"; }

struct Clues {
  std::vector<Clue> out;
  void add(const std::string& cause, double w, EvidenceItem item, bool decisive = false) {
    out.push_back({cause, w, std::move(item), decisive});
  }
};

}  // namespace llmtriage::diagnose::clue
