#include "diagnose/output_checks.h"

#include <cctype>
#include <functional>
#include <unordered_set>
#include <vector>

namespace llmtriage::diagnose {

std::string_view template_marker(std::string_view text) {
  // Special tokens of the common chat templates (ChatML, Llama 3, Llama 2/Mistral, Gemma, Phi,
  // DeepSeek); a model with its own template never prints them as text.
  static constexpr std::string_view kMarkers[] = {
      "<|im_start|>", "<|im_end|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
      "<|begin_of_text|>", "[INST]", "[/INST]", "<<SYS>>", "<start_of_turn>", "<end_of_turn>",
      "<|assistant|>", "<|user|>", "<|system|>", "<|end|>", "<|endoftext|>", "<｜Assistant｜>",
      "<｜User｜>", "<|eom_id|>", "</s><s>"};
  for (auto m : kMarkers)
    if (text.find(m) != std::string_view::npos) return m;
  return {};
}

double repeated_ngram_fraction(std::string_view text) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t b = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > b) words.push_back(text.substr(b, i - b));
  }
  constexpr size_t kN = 4;
  if (words.size() < 20) return 0;
  std::unordered_set<size_t> seen;
  size_t repeats = 0, total = 0;
  std::hash<std::string_view> h;
  for (size_t k = 0; k + kN <= words.size(); ++k) {
    size_t key = 0;
    for (size_t j = 0; j < kN; ++j) key = key * 1000003u ^ h(words[k + j]);
    ++total;
    if (!seen.insert(key).second) ++repeats;
  }
  return total ? static_cast<double>(repeats) / static_cast<double>(total) : 0;
}

bool is_garbled(std::string_view text) {
  if (text.empty()) return false;
  size_t replacement = 0, control = 0, letters = 0, chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    ++chars;
    if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        static_cast<unsigned char>(text[i + 2]) == 0xBD)
      ++replacement;
    else if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
      ++control;
    else if (std::isalnum(c) || c >= 0xC0)  // digits count: a table of numbers is not garbage
      ++letters;
  }
  if (chars == 0) return false;
  const double bad = static_cast<double>(replacement + control) / static_cast<double>(chars);
  return bad >= 0.1 || (chars >= 40 && letters * 10 < chars);
}

}  // namespace llmtriage::diagnose
