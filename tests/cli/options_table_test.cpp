// Every subcommand's option table follows the conventions: no duplicate flags or env vars within
// a command, env vars are LLMTRIAGE_*, no env var means two different things across commands,
// every option has help, every command has a summary and a worked example.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include "cli/commands.h"

using llmtriage::cli::all_commands;

namespace {
std::vector<std::string> names_of(const std::string& flag) {
  std::vector<std::string> out;
  std::stringstream ss(flag);
  std::string part;
  while (std::getline(ss, part, ',')) out.push_back(part);
  return out;
}
}  // namespace

TEST(OptionsTable, NoDuplicateFlagsOrEnvVarsWithinACommand) {
  for (const auto& cmd : all_commands()) {
    std::set<std::string> flags{"--json", "--help", "-h"};
    std::set<std::string> envs{"LLMTRIAGE_JSON"};
    for (const auto& o : cmd.options) {
      for (const auto& n : names_of(o.flag)) {
        EXPECT_TRUE(flags.insert(n).second) << cmd.path << ": duplicate flag " << n;
      }
      if (!o.env.empty()) {
        EXPECT_TRUE(envs.insert(o.env).second) << cmd.path << ": duplicate env var " << o.env;
      }
    }
  }
}

TEST(OptionsTable, EnvVarsArePrefixedAndMeanOneThingEverywhere) {
  std::map<std::string, std::string> env_to_flag;
  for (const auto& cmd : all_commands()) {
    for (const auto& o : cmd.options) {
      if (o.env.empty()) continue;
      EXPECT_EQ(o.env.rfind("LLMTRIAGE_", 0), 0u) << cmd.path << " " << o.flag << ": " << o.env;
      auto [it, inserted] = env_to_flag.emplace(o.env, names_of(o.flag).front());
      if (!inserted) {
        EXPECT_EQ(it->second, names_of(o.flag).front())
            << o.env << " names " << it->second << " in one command and " << o.flag << " in "
            << cmd.path;
      }
    }
  }
}

TEST(OptionsTable, EveryCommandHasSummaryExampleAndHelp) {
  std::set<std::string> paths;
  for (const auto& cmd : all_commands()) {
    EXPECT_TRUE(paths.insert(cmd.path).second) << "duplicate command " << cmd.path;
    EXPECT_FALSE(cmd.summary.empty()) << cmd.path;
    EXPECT_EQ(cmd.example.rfind("llmtriage " + cmd.path, 0), 0u)
        << cmd.path << ": example must start with 'llmtriage " << cmd.path << "'";
    EXPECT_TRUE(static_cast<bool>(cmd.run)) << cmd.path;
    for (const auto& o : cmd.options) EXPECT_FALSE(o.help.empty()) << cmd.path << " " << o.flag;
  }
}
