#include "serve/tokenizer.h"

#include "core/rng.h"

#include <array>
#include <unordered_map>

namespace llmtriage::serve {

namespace {

// 64 common three-letter English words; with a leading space each is one 4-byte piece.
constexpr std::array<const char*, 64> kWords = {
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our", "out",
    "day", "get", "has", "him", "his", "how", "man", "new", "now", "old", "see", "two", "way", "who", "boy", "did",
    "its", "let", "put", "say", "she", "too", "use", "big", "end", "far", "few", "got", "may", "own", "run", "set",
    "sun", "top", "try", "why", "yes", "yet", "art", "car", "cat", "dog", "eye", "key", "map", "sea", "sky", "war"};

const std::vector<std::string>& words() {
  static const std::vector<std::string> w = [] {
    std::vector<std::string> v;
    for (const char* s : kWords) v.push_back(std::string(" ") + s);
    return v;
  }();
  return w;
}

const std::unordered_map<std::string, int32_t>& word_ids() {
  static const std::unordered_map<std::string, int32_t> m = [] {
    std::unordered_map<std::string, int32_t> r;
    for (size_t i = 0; i < words().size(); ++i) r.emplace(words()[i], static_cast<int32_t>(i));
    return r;
  }();
  return m;
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}


}  // namespace

size_t vocabulary_size() { return words().size(); }

const std::string& vocabulary_word(int32_t id) {
  const auto n = static_cast<int64_t>(words().size());
  int64_t i = static_cast<int64_t>(id) % n;
  if (i < 0) i += n;
  return words()[static_cast<size_t>(i)];
}

int32_t count_tokens(std::string_view text) { return static_cast<int32_t>((text.size() + 3) / 4); }

std::vector<int32_t> tokenize(std::string_view text) {
  std::vector<int32_t> ids;
  ids.reserve((text.size() + 3) / 4);
  const auto& known = word_ids();
  const auto vocab = static_cast<uint64_t>(words().size());
  for (size_t i = 0; i < text.size(); i += 4) {
    std::string piece(text.substr(i, 4));
    if (auto it = known.find(piece); it != known.end()) ids.push_back(it->second);
    else ids.push_back(static_cast<int32_t>(vocab + fnv1a(piece) % (static_cast<uint64_t>(kVocabSize) - vocab)));
  }
  return ids;
}

std::string detokenize(const std::vector<int32_t>& ids) {
  std::string out;
  out.reserve(ids.size() * 4);
  for (int32_t id : ids) out += vocabulary_word(id);
  return out;
}

int32_t generated_token(uint64_t seed, int32_t index) {
  return static_cast<int32_t>(core::splitmix64_mix(seed * 0x100000001b3ULL + static_cast<uint64_t>(index)) % words().size());
}

}  // namespace llmtriage::serve
