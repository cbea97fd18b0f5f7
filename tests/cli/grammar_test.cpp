// One grammar across commands, through the real command tables (issue 19): durations with units
// and bounds, numbers refused the same way everywhere, one SLO grammar, did-you-mean, --json
// errors, typed help, --version with the commit, shell completion. Each case is a command an
// on-call user typed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cli/app.h"
#include "cli/commands.h"

using namespace llmtriage::cli;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run run(std::vector<const char*> args) {
  args.insert(args.begin(), "llmtriage");
  std::ostringstream out, err;
  const int code = run_app(all_commands(), static_cast<int>(args.size()), args.data(), out, err);
  return {code, out.str(), err.str()};
}

void expect_usage(const Run& r, const std::string& want) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
}

}  // namespace

TEST(Grammar, DurationsAreBoundedAndRefusedWithTheFlagNamed) {
  // Overflowed to "0 of 0 scrapes".
  expect_usage(run({"snapshot", "--endpoint", "http://127.0.0.1:1", "--window", "5000000000000s", "--out", "/dev/null"}),
               "--window: expected a duration up to 1d");
  // Called a healthy endpoint "down".
  expect_usage(run({"diagnose", "--endpoint", "http://127.0.0.1:1", "--window", "99999999999999999999s"}),
               "--window: expected a duration up to 1d");
  expect_usage(run({"snapshot", "--endpoint", "http://127.0.0.1:1", "--window", "1e9s", "--out", "/dev/null"}),
               "Exponents are not accepted");
  // 1000d is refused by the same rule everywhere; fleet's 7d is a duration like any other.
  expect_usage(run({"fleet", "--prometheus", "http://127.0.0.1:1", "--window", "1000d"}), "up to 365d");
  expect_usage(run({"bench", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--deadline", "1000d"}), "up to 365d");
  expect_usage(run({"bench", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--request-timeout", "0"}),
               "--request-timeout: expected a duration > 0s");
  auto week = run({"fleet", "--prometheus", "http://127.0.0.1:1", "--window", "1h", "--baseline-offset", "7d", "--timeout", "2s"});
  EXPECT_EQ(week.err.find("--baseline-offset"), std::string::npos) << week.err;  // accepted; the store is what fails
  EXPECT_EQ(week.err.find("--timeout"), std::string::npos) << week.err;
}

TEST(Grammar, NumbersAreRefusedByTheOneValidatedParse) {
  // Blamed --warmup.
  expect_usage(run({"bench", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--num-requests", "-3"}),
               "--num-requests: expected an integer >= 1, found '-3'");
  // Sent everything at once: inf is the one way to say so.
  expect_usage(run({"bench", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--rate", "0"}),
               "--rate: expected a number > 0 (or inf), found '0'");
  // Printed "1 x H100", exit 0.
  expect_usage(run({"ledger", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100", "--num-gpus", "0"}),
               "--num-gpus: expected an integer >= 1, found '0'");
  expect_usage(run({"ledger", "--model", "m", "--gpu-memory-utilization", "1.5"}), "--gpu-memory-utilization");
  expect_usage(run({"sim", "run", "--rate", "nan"}), "--rate: expected a number > 0");
  expect_usage(run({"sim", "run", "--num-requests", "ten"}), "found 'ten'");
  expect_usage(run({"capacity", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--slo", "ttft=1s", "--trials", "0"}),
               "--trials: expected an integer >= 1");
  expect_usage(run({"sim", "serve", "--port", "70000"}), "--port: expected an integer >= 0 and <= 65535");
}

TEST(Grammar, OneSloGrammarInEveryCommand) {
  // bench's spelling in diagnose, diagnose's spelling in bench: both parse.
  auto d = run({"diagnose", "--observe", "waiting=0", "--no-what-if", "--slo", "ttft=500ms,tpot=50ms"});
  EXPECT_NE(d.code, 2) << d.err;
  auto r = run({"rules", "--slo", "ttft=2s,error_rate=0.01"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("2"), std::string::npos);
  auto b = run({"bench", "--endpoint", "ftp://x", "--model", "m", "--slo", "ttft_p99_s=0.5"});
  EXPECT_EQ(b.err.find("--slo"), std::string::npos) << b.err;  // refused for its --endpoint, not its SLO
  auto bad = run({"capacity", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--slo", "latency=1s"});
  expect_usage(bad, "ttft, tpot, e2e");
  expect_usage(run({"diagnose", "--observe", "waiting=0", "--slo", "ttft=500"}), "Give the unit");
}

TEST(Grammar, DidYouMeanForCommandsFlagsAndNames) {
  expect_usage(run({"diagnos"}), "did you mean 'diagnose'?");
  expect_usage(run({"sim", "rnu"}), "did you mean 'run'?");
  expect_usage(run({"ledger", "--modle", "m"}), "did you mean '--model'?");
  expect_usage(run({"diagnose", "--observe", "wating=40"}), "did you mean 'waiting'?");
  expect_usage(run({"diagnose", "--observe", "baseline_wating=40"}), "did you mean 'baseline_waiting'?");
  expect_usage(run({"diagnose", "--symptom", "ttft_spik"}), "did you mean 'ttft_spike'?");
  // A misspelt required flag: the misspelling is named, not "--model is required".
  expect_usage(run({"bench", "--endpoint", "http://127.0.0.1:1", "--modle", "m"}), "did you mean '--model'?");
  // No command, or a parent without its command: said in the same words, with the commands.
  expect_usage(run({}), "expected a command, found none");
  expect_usage(run({"sim"}), "expected a command of 'sim' (run, serve, calibrate), found none");
  const auto parent_json = run({"sim", "--json"});  // with --json the error is the JSON object on stdout
  EXPECT_EQ(parent_json.code, 2);
  EXPECT_NE(parent_json.out.find("expected a command of 'sim' (run, serve, calibrate) before --json"), std::string::npos)
      << parent_json.out;
}

TEST(Grammar, JsonErrorsAreObjectsOnStdoutWithTheExitCode) {
  const std::string snap = ::testing::TempDir() + "/grammar-test-snapshot.json";
  for (auto args : std::vector<std::vector<const char*>>{
           {"bench", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--rate", "0", "--json"},
           {"diagnos", "--json"},
           {"capacity", "--endpoint", "http://127.0.0.1:1", "--model", "m", "--json"},  // no --slo: the command's check
           {"diagnose", "--log", "/nonexistent/engine.log", "--json"},                   // nothing readable
           {"snapshot", "--endpoint", "http://127.0.0.1:1", "--window", "0", "--no-local-gpu", "--out",
            snap.c_str(), "--json"},                       // no scrape succeeded
       }) {
    auto r = run(args);
    EXPECT_EQ(r.code, 2);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r.out << r.err;
    EXPECT_EQ(j["exit_code"], 2);
    EXPECT_FALSE(j["error"].get<std::string>().empty());
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

TEST(Grammar, TypedHelpVersionAndCompletion) {
  auto h = run({"bench", "--help"});
  EXPECT_EQ(h.code, 0);
  for (const char* t : {"--deadline DURATION", "--slo SLO", "--endpoint URL", "--num-requests NUMBER", "-o,--out DIR"})
    EXPECT_NE(h.out.find(t), std::string::npos) << t << "\n" << h.out;
  EXPECT_EQ(h.out.find("--endpoint TEXT"), std::string::npos) << h.out;  // what every option printed before
  EXPECT_NE(run({"records", "summary", "--help"}).out.find("--format"), std::string::npos);  // the old spelling, kept

  auto v = run({"--version"});
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("(git "), std::string::npos) << v.out;

  auto bash = run({"--completion", "bash"});
  EXPECT_EQ(bash.code, 0) << bash.err;
  EXPECT_NE(bash.out.find("complete -o filenames -F _llmtriage llmtriage"), std::string::npos);
  EXPECT_NE(bash.out.find("\"sim\") subs=\"calibrate run serve\""), std::string::npos) << bash.out;
  EXPECT_NE(bash.out.find("--max-model-len"), std::string::npos);
  const std::string path = ::testing::TempDir() + "/llmtriage-completion.bash";
  {
    std::ofstream f(path);
    f << bash.out;
  }
  EXPECT_EQ(std::system(("bash -n " + path).c_str()), 0) << "the script does not parse";
  auto zsh = run({"--completion", "zsh"});
  EXPECT_EQ(zsh.code, 0);
  EXPECT_EQ(zsh.out.rfind("#compdef llmtriage", 0), 0u);
  expect_usage(run({"--completion", "fish"}), "bash or zsh");
}
