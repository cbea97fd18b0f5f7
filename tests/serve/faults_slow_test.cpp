// `llmtriage sim serve` routing and the faults the engine plays itself, black-box on 127.0.0.1:
// --router prefix-affinity with no_affinity, long_prompt_burst, gateway_timeout + client_retries.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "ingest/metrics_engine.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

using nlohmann::json;

json json_body(const net::Response& r) { return json::parse(r.body, nullptr, false); }

std::vector<core::EngineSample> scrape(net::Client& c, const ServeProcess& p) {
  auto r = get(c, p.url() + "/metrics");
  EXPECT_EQ(r.status, 200);
  auto s = ingest::adapt_engine_metrics(r.body, 0);
  EXPECT_TRUE(s.ok());
  return s.ok() ? s->samples : std::vector<core::EngineSample>{};
}

// Sum of vllm:request_success_total{finished_reason="abort"} over engines.
double aborts(net::Client& c, const ServeProcess& p) {
  std::istringstream in(get(c, p.url() + "/metrics").body);
  double n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("vllm:request_success_total{", 0) == 0 && line.find("finished_reason=\"abort\"") != std::string::npos)
      n += std::stod(line.substr(line.rfind(' ') + 1));
  return n;
}

// Polls /metrics until pred holds on the summed sample (up to ~30 s); false if it never does.
template <class Pred>
bool wait_for(net::Client& c, const ServeProcess& p, Pred pred) {
  for (int i = 0; i < 600; ++i) {
    for (const auto& s : scrape(c, p))
      if (pred(s)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::string shared_prefix() {
  std::string s;
  for (int i = 0; i < 400; ++i) s += "You are a careful assistant. ";  // ~2900 tokens of system prompt
  return s.substr(0, 4000);                                           // 1000 tokens
}

std::string completion(const std::string& prompt, int max_tokens, bool stream = false) {
  return json{{"prompt", prompt}, {"max_tokens", max_tokens}, {"ignore_eos", true}, {"stream", stream}}.dump();
}

}  // namespace

TEST(SimServeFaults, PrefixAffinityRoutesASharedPrefixToOneReplicaUntilNoAffinity) {
  ServeProcess p({"--admin", "--replicas", "2", "--router", "prefix-affinity"});
  ASSERT_TRUE(p.ok()) << p.startup_output();
  net::Client c;
  const std::string prefix = shared_prefix();
  for (int i = 0; i < 6; ++i)
    ASSERT_EQ(post_json(c, p.url() + "/v1/completions", completion(prefix + " question " + std::to_string(i), 2)).status, 200);
  auto s = scrape(c, p);
  ASSERT_EQ(s.size(), 2u);
  const int home = *s[0].prompt_tokens_total > 0 ? 0 : 1;
  EXPECT_EQ(*s[static_cast<size_t>(1 - home)].prompt_tokens_total, 0) << "all six share a prefix: one replica";
  EXPECT_GE(*s[static_cast<size_t>(home)].prefix_cache_hits_total, 5 * 992.0);  // 62 full blocks each after the first
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"kind": "no_affinity"})").status, 200);
  for (int i = 6; i < 12; ++i)
    ASSERT_EQ(post_json(c, p.url() + "/v1/completions", completion(prefix + " question " + std::to_string(i), 2)).status, 200);
  s = scrape(c, p);
  EXPECT_GT(*s[static_cast<size_t>(1 - home)].prompt_tokens_total, 0) << "round robin while no_affinity is on";
  EXPECT_GT(*s[static_cast<size_t>(home)].prefix_cache_hits_total, 5 * 992.0);
  EXPECT_NE(p.log().find("[admin] fault no_affinity"), std::string::npos);
  EXPECT_EQ(p.stop(), 0);
}

TEST(SimServeFaults, LongPromptBurstFillsTheQueueAndDelaysARealClient) {
  ServeProcess p({"--admin", "--max-num-seqs", "4", "--log-interval", "1"});
  ASSERT_TRUE(p.ok()) << p.startup_output();
  net::Client c;
  // Alone on the engine, a request's TTFT is one prefill step (virtual time, from the histogram).
  ASSERT_EQ(post_json(c, p.url() + "/v1/completions", completion("hello there", 4)).status, 200);
  auto base = scrape(c, p).at(0);
  ASSERT_EQ(base.ttft_s.count, 1);
  EXPECT_LT(base.ttft_s.sum, 0.5);
  const double prompt0 = *base.prompt_tokens_total;

  ASSERT_EQ(post_json(c, p.url() + "/admin/fault",
                      R"({"kind": "long_prompt_burst", "rate_rps": 20, "input_len": 1000, "output_len": 200})").status, 200);
  ASSERT_TRUE(wait_for(c, p, [](const core::EngineSample& s) { return s.waiting.value_or(0) >= 20; }))
      << "the burst outruns 4 sequence slots: a queue builds";
  const auto t0 = std::chrono::steady_clock::now();
  auto client = std::async(std::launch::async, [&] {
    net::Client own;
    return stream_json(own, p.url() + "/v1/completions", completion("hello there", 4, true));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"clear": true})").status, 200);
  const Streamed r = client.get();
  const double waited_virtual_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 20;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.data.back(), "[DONE]");
  // >= 20 requests of 200 tokens ahead, 4 at a time: at least 5 rounds of 200 decode steps. A
  // lower bound on elapsed time: a slower machine only makes it longer.
  EXPECT_GT(waited_virtual_s, 2.0);
  const auto after = scrape(c, p).at(0);
  EXPECT_GE(*after.prompt_tokens_total - prompt0, 20 * 1000.0);  // ghosts' prompts were prefilled
  EXPECT_GT(after.ttft_s.count, 2);                                // their TTFTs are in the histogram
  auto stats = json_body(get(c, p.url() + "/sim/stats"));
  EXPECT_GE(stats["burst_requests"].get<int>(), 20);
  EXPECT_EQ(stats["gateway_timeouts"], 0);
  EXPECT_NE(p.log().find("[admin] fault long_prompt_burst {\"input_len\":1000"), std::string::npos);
  EXPECT_NE(p.log().find("Running: 4 reqs"), std::string::npos) << p.log().substr(0, 3000);
  EXPECT_EQ(p.stop(), 0);
}

TEST(SimServeFaults, GatewayTimeoutAnswers504AndRetriesAddGhostLoad) {
  ServeProcess p({"--admin", "--max-num-seqs", "1"});
  ASSERT_TRUE(p.ok()) << p.startup_output();
  net::Client c;
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"kind": "gateway_timeout", "timeout_s": 1.0})").status, 200);
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault",
                      R"({"kind": "client_retries", "max_retries": 2, "backoff_s": 0.5})").status, 200);
  // An idle engine answers well inside the budget, streaming or not.
  EXPECT_EQ(post_json(c, p.url() + "/v1/completions", completion("quick", 4)).status, 200);
  const Streamed quick = stream_json(c, p.url() + "/v1/completions", completion("quick", 4, true));
  EXPECT_EQ(quick.status, 200);
  EXPECT_EQ(quick.data.back(), "[DONE]");
  // One sequence slot, held by three requests of 3000 decode steps each (about a virtual minute),
  // sent with the faults off (no deadline): what comes next waits far past the budget.
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"clear": true})").status, 200);
  std::vector<std::future<Streamed>> holders;
  for (int i = 0; i < 3; ++i)
    holders.push_back(std::async(std::launch::async, [&] {
      net::Client own;
      return stream_json(own, p.url() + "/v1/completions", completion("hold", 3000, true));
    }));
  ASSERT_TRUE(wait_for(c, p, [](const core::EngineSample& s) { return s.waiting.value_or(0) >= 2; }));
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"kind": "gateway_timeout", "timeout_s": 1.0})").status, 200);
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault",
                      R"({"kind": "client_retries", "max_retries": 2, "backoff_s": 0.5})").status, 200);
  const double aborts0 = aborts(c, p);
  auto waiting = post_json(c, p.url() + "/v1/completions", completion("late", 4));
  EXPECT_EQ(waiting.status, 504) << waiting.body;
  auto j = json_body(waiting);
  ASSERT_TRUE(j.contains("error")) << waiting.body;
  EXPECT_EQ(j["error"]["type"], "gateway_timeout");
  EXPECT_EQ(j["error"]["code"], 504);
  const Streamed s = stream_json(c, p.url() + "/v1/completions", completion("late stream", 4, true));
  EXPECT_EQ(s.status, 504) << "no token yet: the held-back SSE headers let the gateway answer 504";
  EXPECT_TRUE(s.data.empty());
  // A whole JSON error document, not a cut connection.
  EXPECT_EQ(s.failure, net::Failure::none);
  auto sj = json::parse(s.body, nullptr, false);
  ASSERT_TRUE(sj.is_object()) << s.body;
  EXPECT_EQ(sj["error"]["type"], "gateway_timeout") << s.body;
  // Two cut requests, each retried twice (0.5 s backoff) and cut again: 6 aborts; wait for the
  // last retry's deadline (~4 virtual s after the second cut).
  json stats;
  for (int i = 0; i < 200; ++i) {
    stats = json_body(get(c, p.url() + "/sim/stats"));
    if (stats["engine_timed_out"].get<int>() >= 6) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(stats["gateway_timeouts"], 2);
  EXPECT_EQ(stats["retries"], 4);
  EXPECT_EQ(stats["engine_timed_out"], 6);
  EXPECT_EQ(aborts(c, p) - aborts0, 6);
  ASSERT_EQ(post_json(c, p.url() + "/admin/fault", R"({"clear": true})").status, 200);
  for (auto& f : holders) {  // they arrived before the fault: no deadline, they stream to the end
    const Streamed h = f.get();
    EXPECT_EQ(h.status, 200);
    EXPECT_EQ(h.data.back(), "[DONE]");
  }
  EXPECT_NE(p.log().find("\"POST /v1/completions HTTP/1.1\" 504 Gateway Timeout"), std::string::npos);
  EXPECT_EQ(p.stop(), 0);
}

}  // namespace llmtriage::serve_test
