// The real engine: llmtriage bench and diagnose against a real llama.cpp `llama-server` (the test
// peer named by LLMTRIAGE_LLAMA_SERVER / LLMTRIAGE_LLAMA_MODEL; skipped with one line when they are
// unset). A few dozen short requests on 127.0.0.1; every server started is stopped. What is checked
// is what a llama.cpp operator relies on: token counts that agree with the server's usage, the
// server's own clock beside ours, the slot queue named relative to the slots, and an interrupted
// run reported as partial with sane rates.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "support/llama_server_process.h"
#include "support/prometheus_process.h"  // read_file
#include "support/shell_run.h"

namespace fs = std::filesystem;
using nlohmann::json;
using llmtriage::test_support::LlamaServerProcess;

namespace {

fs::path peer_temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("llmtriage_llama_" + std::to_string(::getpid()) + "_" + name);
}

std::string bin() { return LLMTRIAGE_BINARY; }

json run_json(const std::string& args, int* code = nullptr) {
  auto r = llmtriage::shell_test::run_shell(bin() + " " + args + " 2>/dev/null");
  if (code) *code = r.code;
  return json::parse(r.out, nullptr, false);
}

const json* finding_in_layer(const json& d, const std::string& layer) {
  for (const auto& f : d["findings"])
    if (f["layer"] == layer) return &f;
  return nullptr;
}

#define SKIP_WITHOUT_PEER()                                                              \
  do {                                                                                   \
    const std::string why = llmtriage::test_support::llama_peer_missing();               \
    if (!why.empty()) GTEST_SKIP() << why;                                               \
  } while (0)

TEST(LlamaCppPeer, BenchCountsTokensAsTheServerDoesAndKeepsItsClock) {
  SKIP_WITHOUT_PEER();
  LlamaServerProcess srv({"-np", "4", "-c", "8192", "-t", "2", "--metrics"});
  ASSERT_TRUE(srv.ok()) << srv.log();
  for (const char* api : {"completions", "chat"}) {
    SCOPED_TRACE(api);
    int code = -1;
    json s = run_json("bench --endpoint " + srv.url() + " --model tiny --api " + api +
                          " --input-len 24 --output-len 24 --num-requests 12 --concurrency 4 --scrape-interval 0 "
                          "--deadline 120 --json",
                      &code);
    ASSERT_FALSE(s.is_discarded());
    EXPECT_EQ(s["completed"], 12) << s.dump(1);
    // One token per chunk, checked against usage: no disagreement, so token-level ITL exists.
    EXPECT_EQ(s["token_count_disagreements"]["count"], 0) << s.dump(1);
    EXPECT_GT(s["itl_ms"]["count"].get<int>(), 0);
    EXPECT_EQ(s["itl_token_unavailable"], 0);
    // Every response carried the server's timings: client TTFT - server prompt time per request.
    ASSERT_EQ(s["ttft_outside_server_ms"]["count"], 12) << s.dump(1);
    EXPECT_GE(s["ttft_outside_server_ms"]["min"].get<double>(), -1.0);  // the client waits at least the prompt time
    EXPECT_FALSE(s["partial"].get<bool>());
  }
}

TEST(LlamaCppPeer, DiagnoseUnderOverloadNamesTheSlotQueueRelativeToTheSlots) {
  SKIP_WITHOUT_PEER();
  LlamaServerProcess srv({"-np", "4", "-c", "8192", "-t", "2", "--metrics"});
  ASSERT_TRUE(srv.ok()) << srv.log();
  // 12 clients on 4 slots: 8 wait, all the time the run lasts (bounded by --deadline).
  const fs::path bout = peer_temp_path("load.out");
  llmtriage::shell_test::run_shell("(" + bin() + " bench --endpoint " + srv.url() +
                                   " --model tiny --input-len 16 --output-len 400 --num-requests 60 --concurrency 12"
                                   " --scrape-interval 0 --deadline 10 > " + bout.string() + " 2>&1 &)");
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const fs::path snap = peer_temp_path("snap.json");
  int code = -1;
  json d = run_json("diagnose --endpoint " + srv.url() + " --window 4s --interval 1s --no-local-gpu --keep-snapshot " +
                        snap.string() + " --json",
                    &code);
  ASSERT_FALSE(d.is_discarded());
  EXPECT_EQ(code, 1) << d.dump(1);
  const json* f = finding_in_layer(d, "scheduling_capacity");
  ASSERT_NE(f, nullptr) << d["findings"].dump(1) << d["layers"].dump(1);
  EXPECT_EQ(d["findings"][0]["layer"], "scheduling_capacity") << d["findings"].dump(1);
  // The queue is judged against the slot count read from /props, and the evidence says so.
  bool relative = false;
  for (const auto& e : (*f)["evidence"])
    if (e.value("indicator", "") == "waiting_p50" && e.value("text", "").find("slots 4") != std::string::npos) relative = true;
  EXPECT_TRUE(relative) << f->dump(1);
  // The snapshot holds /props and /slots.
  json kept = json::parse(llmtriage::test_support::read_file(snap.string()), nullptr, false);
  ASSERT_FALSE(kept.is_discarded());
  EXPECT_EQ(kept["server"]["total_slots"], 4);
  EXPECT_EQ(kept["server"]["ctx_per_slot"], 2048);
  ASSERT_FALSE(kept["slots"].empty());
  // Load is never cleared by a zero rate while the server generated tokens.
  for (const auto& l : d["layers"])
    if (l["layer"] == "load" && l["state"] == "cleared")
      for (const auto& e : l["evidence"])
        if (e.value("indicator", "") == "output_tokens_per_s") {
          EXPECT_GT(e["value"].get<double>(), 0) << l.dump(1);
        }
  srv.stop();
  fs::remove(snap);
  fs::remove(bout);
}

TEST(LlamaCppPeer, InterruptedBenchIsPartialWithSaneRates) {
  SKIP_WITHOUT_PEER();
  LlamaServerProcess srv({"-np", "4", "-c", "8192", "-t", "2", "--metrics"});
  ASSERT_TRUE(srv.ok()) << srv.log();
  const fs::path out = peer_temp_path("partial");
  int code = -1;
  // The deadline ends the run with requests in flight and most never sent.
  json s = run_json("bench --endpoint " + srv.url() + " --model tiny --input-len 16 --output-len 64 "
                        "--num-requests 200 --concurrency 8 --scrape-interval 0 --deadline 4 --out " + out.string() + " --json",
                    &code);
  ASSERT_FALSE(s.is_discarded());
  EXPECT_TRUE(s["partial"].get<bool>()) << s.dump(1);
  EXPECT_EQ(s["failed"], 0) << s.dump(1);  // cut or never sent: neither success nor failure
  EXPECT_GT(s["cut"].get<int>() + s["not_sent"].get<int>(), 0);
  json d = run_json("diagnose --bench " + out.string() + " --json", &code);
  ASSERT_FALSE(d.is_discarded());
  bool said_partial = false;
  for (const auto& m : d["missing"])
    if (m.get<std::string>().find("partial run") != std::string::npos) said_partial = true;
  EXPECT_TRUE(said_partial) << d.dump(1);
  for (const auto& l : d["layers"])
    for (const auto& e : l["evidence"]) {
      if (e.value("indicator", "") == "error_rate") {
        EXPECT_LT(e["value"].get<double>(), 0.5) << l.dump(1);
      }
      if (e.value("indicator", "") == "request_rate") {
        EXPECT_LT(e["value"].get<double>(), 1000) << l.dump(1);
      }
    }
  fs::remove_all(out);
}

}  // namespace
