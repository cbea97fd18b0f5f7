// Every subcommand's option table follows the conventions: no duplicate flags or env vars within
// a command, env vars are LLMTRIAGE_*, no env var means two different things across commands,
// every option has help, every command has a summary and a worked example.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "cli/option_values.h"

using llmtriage::cli::all_commands;

namespace {
std::vector<std::string> names_of(const std::string& flag) { return llmtriage::cli::parse_flag_spec(flag).names; }
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

// Typed help: every value names its type (NUMBER, DURATION, SLO, FILE, DIR, URL, NAME, LIST,
// TEXT); a string or list option declares it (TEXT only on purpose, for free text).
TEST(OptionsTable, EveryValueDeclaresItsType) {
  for (const auto& cmd : all_commands()) {
    for (const auto& o : cmd.options) {
      const auto spec = llmtriage::cli::parse_flag_spec(o.flag);
      const std::string type = llmtriage::cli::value_type(o);  // throws on an unknown type name
      const bool text_target = std::holds_alternative<std::string*>(o.target) ||
                               std::holds_alternative<std::optional<std::string>*>(o.target) ||
                               std::holds_alternative<std::vector<std::string>*>(o.target);
      if (text_target) EXPECT_FALSE(spec.type.empty()) << cmd.path << " " << o.flag << ": declare its type";
    }
  }
}

// One spelling per meaning: a flag name means the same type of value in every command
// (--out is a FILE or a DIR, never a NUMBER), and durations are DURATION wherever they appear.
TEST(OptionsTable, OneTypePerFlagNameAcrossCommands) {
  std::map<std::string, std::string> seen;  // flag -> type
  const std::set<std::string> file_or_dir{"FILE", "DIR"};
  for (const auto& cmd : all_commands())
    for (const auto& o : cmd.options)
      for (const auto& n : names_of(o.flag)) {
        const std::string type = llmtriage::cli::value_type(o);
        auto [it, inserted] = seen.emplace(n, type);
        // --config: ledger's is a settings file, bench's the same settings inline (k=v,k=v).
        if (!inserted && it->second != type && n != "--config")
          EXPECT_TRUE(file_or_dir.count(it->second) && file_or_dir.count(type))
              << n << " is " << it->second << " in one command and " << type << " in " << cmd.path;
      }
  for (const char* d : {"--window", "--interval", "--deadline", "--request-timeout", "--scrape-interval", "--timeout",
                        "--step", "--baseline-offset", "--budget"})
    if (seen.count(d)) EXPECT_EQ(seen[d], "DURATION") << d;
  EXPECT_EQ(seen["--slo"], "SLO");
}

TEST(OptionsTable, OutHasTheShortNameOEverywhere) {
  for (const auto& cmd : all_commands())
    for (const auto& o : cmd.options) {
      const auto names = names_of(o.flag);
      if (std::find(names.begin(), names.end(), "--out") != names.end())
        EXPECT_NE(std::find(names.begin(), names.end(), "-o"), names.end()) << cmd.path;
    }
}
