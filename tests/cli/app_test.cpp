// The CLI framework: parsing from the option table, env vars, defaults in --help, exit codes and
// error messages that name what was expected and what was found.
#include "cli/app.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <memory>
#include <sstream>

using namespace llmtriage::cli;

namespace {

struct Opts {
  double util = 0.9;
  std::optional<int64_t> max_len;
  std::string name = "x";
  bool eager = false;
  std::vector<std::string> files;
  bool ran = false;
  bool json = false;
};

std::vector<Command> table(std::shared_ptr<Opts> o) {
  Command c;
  c.path = "demo run";
  c.summary = "a test command";
  c.example = "llmtriage demo run --util 0.8";
  c.options = {
      {"--util", "LLMTRIAGE_TEST_UTIL", "a fraction", &o->util},
      {"--max-len", "", "tokens", &o->max_len},
      {"--name", "", "a name", &o->name},
      {"--eager", "", "a flag", &o->eager},
      {"--file", "", "repeatable", &o->files},
  };
  c.run = [o](Context& ctx) {
    o->ran = true;
    o->json = ctx.json;
    return 1;
  };
  c.state = o;
  return {c};
}

struct AppRun {
  int code;
  std::string out, err;
};

AppRun run_table(std::shared_ptr<Opts> o, std::vector<const char*> args) {
  args.insert(args.begin(), "llmtriage");
  std::ostringstream out, err;
  int code = run_app(table(o), static_cast<int>(args.size()), args.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST(App, ParsesTypedOptionsAndReturnsTheCommandsExitCode) {
  auto o = std::make_shared<Opts>();
  auto r = run_table(o, {"demo", "run", "--util", "0.5", "--max-len", "4096", "--eager", "--file", "a",
                   "--file", "b", "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(o->ran);
  EXPECT_DOUBLE_EQ(o->util, 0.5);
  EXPECT_EQ(o->max_len, 4096);
  EXPECT_TRUE(o->eager);
  EXPECT_EQ(o->files, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(o->json);
}

TEST(App, BadNumberIsExit2NamingFlagExpectedAndFound) {
  auto o = std::make_shared<Opts>();
  auto r = run_table(o, {"demo", "run", "--util", "zero.nine"});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(o->ran);
  EXPECT_NE(r.err.find("--util"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("expected a number"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("zero.nine"), std::string::npos) << r.err;
}

TEST(App, UnknownFlagIsExit2) {
  auto o = std::make_shared<Opts>();
  auto r = run_table(o, {"demo", "run", "--nope"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--nope"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
}

TEST(App, EnvVarFillsTheOption) {
  auto o = std::make_shared<Opts>();
  ::setenv("LLMTRIAGE_TEST_UTIL", "0.7", 1);
  auto r = run_table(o, {"demo", "run"});
  ::unsetenv("LLMTRIAGE_TEST_UTIL");
  EXPECT_EQ(r.code, 1);
  EXPECT_DOUBLE_EQ(o->util, 0.7);
}

TEST(App, HelpShowsDefaultsEnvVarsAndTheExample) {
  auto o = std::make_shared<Opts>();
  auto r = run_table(o, {"demo", "run", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_FALSE(o->ran);
  EXPECT_NE(r.out.find("0.9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LLMTRIAGE_TEST_UTIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("llmtriage demo run --util 0.8"), std::string::npos) << r.out;
}

TEST(App, VersionAndMissingCommand) {
  auto o = std::make_shared<Opts>();
  auto v = run_table(o, {"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("llmtriage "), std::string::npos);
  auto none = run_table(o, {});
  EXPECT_EQ(none.code, 2);
}
