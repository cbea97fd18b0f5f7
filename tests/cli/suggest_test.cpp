// Did-you-mean: the closest known name, or nothing when no name is close.
#include "cli/suggest.h"

#include <gtest/gtest.h>

using llmtriage::cli::closest_name;

TEST(Suggest, ClosestNameOrNothing) {
  const std::vector<std::string> cmds{"sim", "ledger", "snapshot", "records", "bench", "capacity", "diagnose", "drill"};
  EXPECT_EQ(closest_name("diagnos", cmds).value_or(""), "diagnose");
  EXPECT_EQ(closest_name("ldeger", cmds).value_or(""), "ledger");  // a swap costs one
  EXPECT_EQ(closest_name("snap", cmds).value_or(""), "snapshot");  // the only name it starts
  EXPECT_EQ(closest_name("DIAGNOSE", cmds).value_or(""), "diagnose");
  EXPECT_FALSE(closest_name("kubernetes", cmds));
  EXPECT_FALSE(closest_name("", cmds));
  const std::vector<std::string> flags{"--model", "--gpu", "--max-model-len", "--engine"};
  EXPECT_EQ(closest_name("--modle", flags).value_or(""), "--model");
  EXPECT_EQ(closest_name("--max-model-length", flags).value_or(""), "--max-model-len");
  EXPECT_FALSE(closest_name("--zzz", flags));
}
