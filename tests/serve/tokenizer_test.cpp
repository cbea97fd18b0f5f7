#include "serve/tokenizer.h"

#include <gtest/gtest.h>

namespace llmtriage::serve {

TEST(Tokenizer, CountsOneTokenPerFourBytesRoundedUp) {
  struct Case {
    const char* text;
    int32_t tokens;
  } cases[] = {{"", 0}, {"a", 1}, {"abcd", 1}, {"abcde", 2}, {"Hello, world!", 4}, {"\xc3\xa9t\xc3\xa9", 2}};
  for (const auto& c : cases) {
    EXPECT_EQ(count_tokens(c.text), c.tokens) << c.text;
    EXPECT_EQ(tokenize(c.text).size(), static_cast<size_t>(c.tokens)) << c.text;
  }
}

TEST(Tokenizer, GeneratedTextRoundTripsAndCountsAsItsTokens) {
  std::vector<int32_t> ids;
  for (int k = 0; k < 50; ++k) ids.push_back(generated_token(42, k));
  const std::string text = detokenize(ids);
  EXPECT_EQ(text.size(), 200u);
  EXPECT_EQ(count_tokens(text), 50);
  EXPECT_EQ(tokenize(text), ids);
}

TEST(Tokenizer, IsDeterministicAndIdsStayInTheVocabulary) {
  EXPECT_EQ(tokenize("The quick brown fox"), tokenize("The quick brown fox"));
  EXPECT_NE(tokenize("The quick brown fox"), tokenize("The quick brown cat"));
  for (int32_t id : tokenize("some arbitrary text, with punctuation; and digits 12345")) {
    EXPECT_GE(id, 0);
    EXPECT_LT(id, kVocabSize);
  }
  EXPECT_EQ(generated_token(7, 3), generated_token(7, 3));
  EXPECT_EQ(vocabulary_word(-1), vocabulary_word(static_cast<int32_t>(vocabulary_size()) - 1));
}

}  // namespace llmtriage::serve
