// `sim serve --records FILE` black-box: the real binary on 127.0.0.1, requests with and without
// X-Request-Id (streamed, non-streamed, chat, one the client abandons), then the file read back
// by our own record reader and by `llmtriage records summary`. No timing assertions: only
// ordering facts that hold on any host (TTFT <= E2E, both non-negative).
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <future>
#include <map>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "ingest/records.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {
namespace {

using nlohmann::json;

net::Response post_with_id(net::Client& c, const std::string& url, const std::string& body, const std::string& id) {
  net::Request r;
  r.method = net::Method::post;
  r.url = url;
  r.body = body;
  if (!id.empty()) r.headers.push_back({"X-Request-Id", id});
  auto res = c.fetch(r);
  return res.ok() ? *res : net::Response{};
}

// The first "data: {...}" payload of an SSE body.
json first_event(const std::string& sse) {
  const auto p = sse.find("data: ");
  if (p == std::string::npos) return json();
  return json::parse(sse.substr(p + 6, sse.find('\n', p) - p - 6), nullptr, false);
}

std::string token_completion(int prompt_tokens, int max_tokens, bool stream) {
  json j = {{"prompt", std::vector<int>(static_cast<size_t>(prompt_tokens), 1234)},
            {"max_tokens", max_tokens}, {"min_tokens", max_tokens}, {"ignore_eos", true}, {"stream", stream}};
  if (stream) j["stream_options"] = {{"include_usage", true}};
  return j.dump();
}

}  // namespace

TEST(SimServeRecords, OneRecordPerRequestJoinableByRequestId) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("serve_records_" + std::to_string(::getpid()) + ".jsonl")).string();
  std::filesystem::remove(path);
  ServeProcess server({"--records", path, "--served-model-name", "sim-llama"});
  ASSERT_TRUE(server.ok()) << server.startup_output() << server.log();
  net::Client client;
  const std::string comp = server.url() + "/v1/completions";

  auto a = post_with_id(client, comp, token_completion(10, 5, true), "rec-stream");
  ASSERT_EQ(a.status, 200) << a.body;
  // vLLM builds its response id from X-Request-Id: "cmpl-<id>".
  EXPECT_EQ(first_event(a.body).value("id", ""), "cmpl-rec-stream") << a.body;
  auto b = post_with_id(client, comp, token_completion(7, 3, false), "rec-whole");
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(json::parse(b.body).value("id", ""), "cmpl-rec-whole");
  json chat = {{"messages", {{{"role", "user"}, {"content", "abcdefgh"}}}}, {"max_tokens", 4}, {"min_tokens", 4},
               {"ignore_eos", true}, {"stream", true}};
  auto c = post_with_id(client, server.url() + "/v1/chat/completions", chat.dump(), "rec-chat");
  ASSERT_EQ(c.status, 200) << c.body;
  auto d = post_with_id(client, comp, token_completion(4, 2, false), "");  // no header: the server's own id
  ASSERT_EQ(d.status, 200) << d.body;
  const std::string own_id = json::parse(d.body).value("id", "");
  ASSERT_EQ(own_id.rfind("cmpl-", 0), 0u) << d.body;
  // A header that cannot be an id (over 256 bytes) is ignored, not echoed.
  auto e = post_with_id(client, comp, token_completion(4, 2, false), std::string(300, 'x'));
  ASSERT_EQ(e.status, 200) << e.body;
  const std::string long_id = json::parse(e.body).value("id", "");
  EXPECT_LT(long_id.size(), 40u);

  // A client that leaves after the first token: its record says so.
  {
    net::Request r;
    r.method = net::Method::post;
    r.url = comp;
    r.body = token_completion(6, 3000, true);
    r.headers.push_back({"X-Request-Id", "rec-gone"});
    auto first = std::make_shared<std::promise<void>>();
    auto done = std::make_shared<std::promise<void>>();
    auto fired = std::make_shared<std::atomic<bool>>(false);
    net::StreamHandlers h;
    h.on_event = [first, fired](const net::SseEvent&, net::SteadyClock::time_point) {
      if (!fired->exchange(true)) first->set_value();
    };
    h.on_done = [done](const net::Outcome&) { done->set_value(); };
    auto handle = client.start(r, h);
    ASSERT_EQ(first->get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
    handle.cancel();
    done->get_future().wait();
  }
  // The abort reaches the engine asynchronously; /sim/stats says when it has.
  for (int i = 0; i < 200; ++i) {
    auto s = json::parse(get(client, server.url() + "/sim/stats").body, nullptr, false);
    if (s.is_object() && s.value("aborted", 0) >= 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  // The clock its counters run on, for a reader such as `llmtriage top` (not an engine metric).
  EXPECT_NE(get(client, server.url() + "/metrics").body.find("\nllmtriage_sim_time_scale 20\n"), std::string::npos);
  EXPECT_EQ(server.stop(), 0);  // SIGTERM: the writer flushes on the way out

  auto rd = ingest::read_records_file(path);
  ASSERT_TRUE(rd.ok()) << rd.error().message();
  EXPECT_EQ(rd->format, ingest::RecordFormat::llmtriage);
  EXPECT_EQ(rd->records_bad, 0);
  EXPECT_TRUE(rd->issues.empty());
  ASSERT_EQ(rd->records.size(), 6u);
  std::map<std::string, core::RequestRecord> by_id;
  for (const auto& r : rd->records) by_id[r.id] = r;
  ASSERT_EQ(by_id.size(), 6u);
  struct Want {
    std::string id;
    int64_t in, out;
  };
  // Chat: 8 bytes = 2 tokens + 4 per message + 3 for the assistant header (docs/serve.md).
  for (const Want& w : {Want{"rec-stream", 10, 5}, Want{"rec-whole", 7, 3}, Want{"rec-chat", 9, 4}, Want{own_id, 4, 2},
                        Want{long_id, 4, 2}}) {
    SCOPED_TRACE(w.id);
    ASSERT_EQ(by_id.count(w.id), 1u);
    const auto& r = by_id[w.id];
    EXPECT_EQ(r.status, core::RequestStatus::ok);
    EXPECT_EQ(r.input_tokens.value_or(-1), w.in);
    EXPECT_EQ(r.output_tokens.value_or(-1), w.out);
    ASSERT_TRUE(r.ttft_s && r.e2e_s);
    EXPECT_GE(*r.ttft_s, 0);
    EXPECT_LE(*r.ttft_s, *r.e2e_s);
    EXPECT_EQ(r.model, "sim-llama");
    EXPECT_EQ(r.max_tokens.value_or(-1), w.out);
  }
  ASSERT_EQ(by_id.count("rec-gone"), 1u);
  EXPECT_EQ(by_id["rec-gone"].status, core::RequestStatus::error);
  EXPECT_EQ(by_id["rec-gone"].error_category, "client_closed");
  EXPECT_LT(by_id["rec-gone"].output_tokens.value_or(3000), 3000);

  // The extras: which instant stands for the first token, and the simulator's own TTFT (the
  // helper runs the server at --time-scale 20, so virtual and wall time differ).
  auto text = core::read_file(path);
  ASSERT_TRUE(text.ok());
  std::istringstream lines(*text);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    auto j = json::parse(line);
    const std::string id = j["id"];
    SCOPED_TRACE(id);
    ++n;
    EXPECT_EQ(j["schema"], "llmtriage.request.v1");
    EXPECT_GT(j["arrival_s"].get<double>(), 1.6e9);  // Unix seconds
    EXPECT_EQ(j["source"], "sim_serve");
    if (id == "rec-gone") continue;
    EXPECT_EQ(j["ttft_stamp"], j["stream"].get<bool>() ? "socket" : "engine");
    EXPECT_EQ(j["time_scale"], 20);
    EXPECT_GT(j["sim_ttft_s"].get<double>(), 0);
    EXPECT_EQ(j["finish_reason"], "length");
    if (id != own_id && id != long_id) {
      EXPECT_EQ(j["response_id"], (id == "rec-chat" ? "chatcmpl-" : "cmpl-") + id);
    }
  }
  EXPECT_EQ(n, 6);

  // `records summary` accepts the file as it is.
  std::string out;
  EXPECT_EQ(run_binary({"records", "summary", path, "--json"}, out), 0) << out;
  auto s = json::parse(out, nullptr, false);
  ASSERT_FALSE(s.is_discarded()) << out;
  std::filesystem::remove(path);
}

}  // namespace llmtriage::serve_test
