#include <gtest/gtest.h>

#include <string>

#include "diagnose/output_checks.h"

namespace llmtriage::diagnose {
namespace {

TEST(OutputChecks, TemplateMarkers) {
  EXPECT_EQ(template_marker("Sure!<|im_end|>\n<|im_start|>user"), "<|im_start|>");
  EXPECT_EQ(template_marker("[INST] what is 2+2 [/INST] 4"), "[INST]");
  EXPECT_EQ(template_marker("The answer is 4.<|eot_id|>"), "<|eot_id|>");
  EXPECT_EQ(template_marker("Plain prose with <b>html</b> and [brackets]."), "");
}

TEST(OutputChecks, RepetitionSeparatesLoopsFromProse) {
  std::string loop;
  for (int i = 0; i < 30; ++i) loop += "I am sorry but I cannot ";
  EXPECT_GT(repeated_ngram_fraction(loop), 0.8);
  const std::string prose =
      "The KV cache holds the keys and values of every token a running sequence has seen, so its size bounds how many "
      "sequences can decode at once; when it fills, the scheduler preempts the newest request and recomputes it later.";
  EXPECT_LT(repeated_ngram_fraction(prose), 0.1);
  EXPECT_EQ(repeated_ngram_fraction("too short to judge"), 0);
}

TEST(OutputChecks, Garbled) {
  std::string repl;
  for (int i = 0; i < 10; ++i) repl += "ab\xEF\xBF\xBD";
  EXPECT_TRUE(is_garbled(repl));
  EXPECT_TRUE(is_garbled(std::string(60, '#')));
  EXPECT_FALSE(is_garbled("A normal answer with punctuation, numbers 1 2 3, and words."));
  EXPECT_FALSE(is_garbled("Ответ на русском языке тоже нормален."));
  EXPECT_FALSE(is_garbled(""));
  EXPECT_TRUE(is_garbled(std::string(80, '!')));
  EXPECT_FALSE(is_garbled("1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072"));
}

}  // namespace
}  // namespace llmtriage::diagnose
