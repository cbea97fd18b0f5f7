// The drill on the real llama.cpp peer (LLMTRIAGE_LLAMA_SERVER / LLMTRIAGE_LLAMA_MODEL; skipped
// with one line when unset): the structural scenarios (a slot queue, requests longer than the
// slot's context) must name their planted cause and apply its knob; their A/Bs are recorded, not
// asserted on speed (timing never goes into a test). cpu-starved is timing by nature: run by hand
// (docs/accuracy.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/llama_server_process.h"
#include "support/shell_run.h"

namespace {

using nlohmann::json;

json drill(const std::string& scenario) {
  const std::string server = std::getenv("LLMTRIAGE_LLAMA_SERVER"), model = std::getenv("LLMTRIAGE_LLAMA_MODEL");
  const std::string tmpl = server + " -m {model} --host {host} --port {port} -np {parallel} -c {ctx} -t {threads} --metrics";
  const auto out = std::filesystem::temp_directory_path() / ("llmtriage_edrill_" + scenario + "_" + std::to_string(::getpid()));
  auto r = llmtriage::shell_test::run_shell(std::string(LLMTRIAGE_BINARY) + " drill " + scenario + " --engine-cmd '" + tmpl +
                                            "' --engine-model " + model + " --run-deadline 120 --out " + out.string() +
                                            " --json 2>/dev/null");
  json j = json::parse(r.out, nullptr, false);
  std::filesystem::remove_all(out);
  return j;
}

TEST(EngineDrill, TooFewSlotsNamesTheSlotQueueAndRaisesTheSlots) {
  if (auto why = llmtriage::test_support::llama_peer_missing(); !why.empty()) GTEST_SKIP() << why;
  json d = drill("too-few-slots");
  ASSERT_FALSE(d.is_discarded());
  EXPECT_TRUE(d["named"].get<bool>()) << d["diagnosis"]["findings"].dump(1);
  ASSERT_TRUE(d.contains("remedy")) << d.dump(1);
  EXPECT_EQ(d["remedy"]["knob"], "parallel");
  EXPECT_EQ(d["remedy"]["change"], "-np");  // llama.cpp's own flag, never max-num-seqs
  EXPECT_GT(d["remedy"]["value"].get<int>(), 1);
  ASSERT_TRUE(d.contains("ab"));
  EXPECT_EQ(d["run_a"]["request_set_hash"], d["run_b"]["request_set_hash"]);  // the same request set
}

TEST(EngineDrill, PromptsOverTheSlotContextNameTheContextAndRaiseIt) {
  if (auto why = llmtriage::test_support::llama_peer_missing(); !why.empty()) GTEST_SKIP() << why;
  json d = drill("prompts-over-slot-context");
  ASSERT_FALSE(d.is_discarded());
  EXPECT_TRUE(d["named"].get<bool>()) << d["diagnosis"]["findings"].dump(1);
  ASSERT_TRUE(d.contains("remedy")) << d.dump(1);
  EXPECT_EQ(d["remedy"]["knob"], "ctx");
  EXPECT_EQ(d["remedy"]["change"], "-c");
  // The effect is structural, not a timing: the answers are as long as asked after the change.
  bool longer = false;
  for (const auto& m : d["ab"]["metrics"])
    if (m["metric"] == "output_tokens_mean") longer = m["b"].get<double>() > m["a"].get<double>();
  EXPECT_TRUE(longer) << d["ab"].dump(1);
}

}  // namespace
