#pragma once
// The stand-in tokenizer of `sim serve` (no model files needed, deterministic, documented in
// docs/serve.md):
//  - counting: a text is one token per 4 bytes of UTF-8, rounded up (English BPE vocabularies
//    average about 4 characters per token); the empty text is 0 tokens;
//  - ids: piece i is bytes [4i, 4i+4); a piece that is a word of the stand-in vocabulary gets
//    that word's index, any other piece FNV-1a(piece) mod kVocabSize (>= vocabulary size);
//  - detokenize: id -> vocabulary word (id mod vocabulary size), so
//    detokenize(tokenize(generated text)) == generated text;
//  - generated text: vocabulary words, each exactly 4 bytes (" the", " cat", ...), so N
//    generated tokens are 4N bytes and count as N tokens again.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llmtriage::serve {

inline constexpr int32_t kVocabSize = 32000;

size_t vocabulary_size();
const std::string& vocabulary_word(int32_t id);  // id mod vocabulary_size()

int32_t count_tokens(std::string_view text);
std::vector<int32_t> tokenize(std::string_view text);
std::string detokenize(const std::vector<int32_t>& ids);

// Token `index` of a generated output: a vocabulary word chosen by a hash of (seed, index).
int32_t generated_token(uint64_t seed, int32_t index);

}  // namespace llmtriage::serve
