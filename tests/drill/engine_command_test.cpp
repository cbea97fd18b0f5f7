// The real-engine drill's command template: placeholders, quoting, and what is refused.
#include <gtest/gtest.h>

#include "drill/engine_command.h"

namespace llmtriage::drill {
namespace {

TEST(EngineCommand, ExpandsPlaceholdersInsideWordsAndKeepsQuotedBlanks) {
  auto a = expand_command("llama-server -m {model} --port={port} -np {parallel} --alias 'my model' \"-c\" {ctx}",
                          {{"model", "/m/tiny.gguf"}, {"port", "8080"}, {"parallel", "4"}, {"ctx", "8192"}});
  ASSERT_TRUE(a.ok()) << a.error().message();
  EXPECT_EQ(*a, (std::vector<std::string>{"llama-server", "-m", "/m/tiny.gguf", "--port=8080", "-np", "4", "--alias",
                                           "my model", "-c", "8192"}));
  EXPECT_EQ(command_line(*a).find("'my model'") != std::string::npos, true);
}

TEST(EngineCommand, RefusesWhatCannotBeRunAndSaysWhy) {
  for (const auto& [tmpl, why] : std::vector<std::pair<std::string, std::string>>{
           {"", "empty"}, {"   ", "empty"}, {"srv -m {model", "unclosed '{'"}, {"srv 'a b", "unclosed '"},
           {"srv --port {prot}", "{prot}"}}) {
    SCOPED_TRACE(tmpl);
    auto r = expand_command(tmpl, {{"model", "m"}, {"port", "1"}});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "--engine-cmd");
    EXPECT_NE(r.error().message().find(why), std::string::npos) << r.error().message();
  }
}

TEST(EngineCommand, ListsPlaceholders) {
  EXPECT_EQ(placeholders("x {model} {port} {model} -c {ctx}"), (std::vector<std::string>{"model", "port", "ctx"}));
}

}  // namespace
}  // namespace llmtriage::drill
