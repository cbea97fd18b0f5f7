// Black-box tests of `llmtriage sim serve`: the real binary on 127.0.0.1, talked to over HTTP.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <chrono>
#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "ingest/metrics_engine.h"
#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {

using nlohmann::json;

class SimServe : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServeProcess({"--admin", "--served-model-name", "sim-llama"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static ServeProcess* server_;
  net::Client client_;
  std::string url(const std::string& path) const { return server_->url() + path; }
  core::EngineSample scrape() {
    auto r = get(client_, url("/metrics"));
    EXPECT_EQ(r.status, 200);
    auto s = ingest::adapt_engine_metrics(r.body, 0);
    EXPECT_TRUE(s.ok());
    EXPECT_EQ(s->samples.size(), 1u);
    return s->samples.empty() ? core::EngineSample{} : s->samples[0];
  }
};
ServeProcess* SimServe::server_ = nullptr;

json body_of(const net::Response& r) { return json::parse(r.body, nullptr, false); }

// vllm:request_success_total{finished_reason="abort"} of the test server's model.
double abort_count(const std::string& body) {
  const std::string key = R"(finished_reason="abort",model_name="sim-llama"} )";
  const auto k = body.find(key);
  return k == std::string::npos ? -1 : std::stod(body.substr(k + key.size()));
}

void expect_error(const net::Response& r, int status, const std::string& part) {
  EXPECT_EQ(r.status, status) << r.body;
  auto j = body_of(r);
  ASSERT_TRUE(j.contains("error")) << r.body;
  EXPECT_EQ(j["error"]["code"], status);
  EXPECT_NE(j["error"]["message"].get<std::string>().find(part), std::string::npos) << r.body;
}

}  // namespace

TEST_F(SimServe, HealthVersionModelsAndTokenizer) {
  ASSERT_TRUE(server_->ok()) << server_->startup_output() << server_->log();
  EXPECT_EQ(get(client_, url("/health")).status, 200);
  auto v = body_of(get(client_, url("/version")));
  EXPECT_TRUE(v.contains("version"));
  auto m = body_of(get(client_, url("/v1/models")));
  ASSERT_EQ(m["data"].size(), 1u);
  EXPECT_EQ(m["data"][0]["id"], "sim-llama");
  EXPECT_EQ(m["data"][0]["owned_by"], "vllm");
  EXPECT_EQ(m["data"][0]["max_model_len"], 4096);
  auto t = body_of(post_json(client_, url("/tokenize"), R"({"prompt": "Hello, world!"})"));
  EXPECT_EQ(t["count"], 4);
  auto d = body_of(post_json(client_, url("/detokenize"), json{{"tokens", t["tokens"]}}.dump()));
  EXPECT_EQ(d["prompt"].get<std::string>().size(), 16u);
}

TEST_F(SimServe, CompletionNonStreamingHonoursMaxTokensAndUsage) {
  auto r = post_json(client_, url("/v1/completions"),
                     R"({"model": "sim-llama", "prompt": "Say something long please", "max_tokens": 12, "ignore_eos": true})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = body_of(r);
  EXPECT_EQ(j["object"], "text_completion");
  EXPECT_EQ(j["model"], "sim-llama");
  ASSERT_EQ(j["choices"].size(), 1u);
  EXPECT_EQ(j["choices"][0]["finish_reason"], "length");
  EXPECT_EQ(j["choices"][0]["text"].get<std::string>().size(), 48u);  // 12 stand-in tokens of 4 bytes
  EXPECT_EQ(j["usage"]["prompt_tokens"], 7);
  EXPECT_EQ(j["usage"]["completion_tokens"], 12);
  EXPECT_EQ(j["usage"]["total_tokens"], 19);
}

TEST_F(SimServe, CompletionStreamsOneChunkPerTokenThenUsageAndDone) {
  auto s = stream_json(client_, url("/v1/completions"),
                       R"({"prompt": [1,2,3,4,5,6,7,8], "max_tokens": 20, "ignore_eos": true, "stream": true,
                           "stream_options": {"include_usage": true}, "n": 2})");
  ASSERT_EQ(s.status, 200);
  EXPECT_EQ(s.failure, net::Failure::none);
  ASSERT_GE(s.data.size(), 3u);
  EXPECT_EQ(s.data.back(), "[DONE]");
  auto usage = json::parse(s.data[s.data.size() - 2]);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_EQ(usage["usage"]["prompt_tokens"], 8);
  EXPECT_EQ(usage["usage"]["completion_tokens"], 40);
  int tokens[2] = {0, 0};
  std::string finish[2];
  for (size_t i = 0; i + 2 < s.data.size(); ++i) {
    auto c = json::parse(s.data[i]);
    EXPECT_EQ(c["object"], "text_completion");
    const int idx = c["choices"][0]["index"];
    ++tokens[idx];
    if (!c["choices"][0]["finish_reason"].is_null()) finish[idx] = c["choices"][0]["finish_reason"];
  }
  EXPECT_EQ(tokens[0], 20);
  EXPECT_EQ(tokens[1], 20);
  EXPECT_EQ(finish[0], "length");
  EXPECT_EQ(finish[1], "length");
}

TEST_F(SimServe, ChatStreamsRoleThenContentThenFinish) {
  auto s = stream_json(client_, url("/v1/chat/completions"),
                       R"({"model": "sim-llama", "messages": [{"role": "user", "content": "Hi there"}],
                           "max_tokens": 6, "stream": true, "stop": ["zzzz"], "seed": 4})");
  ASSERT_EQ(s.status, 200);
  ASSERT_GE(s.data.size(), 3u);
  auto first = json::parse(s.data[0]);
  EXPECT_EQ(first["object"], "chat.completion.chunk");
  EXPECT_EQ(first["choices"][0]["delta"]["role"], "assistant");
  std::string text, finish;
  for (size_t i = 1; i + 1 < s.data.size(); ++i) {
    auto c = json::parse(s.data[i]);
    text += c["choices"][0]["delta"]["content"].get<std::string>();
    if (!c["choices"][0]["finish_reason"].is_null()) finish = c["choices"][0]["finish_reason"];
  }
  EXPECT_EQ(s.data.back(), "[DONE]");
  EXPECT_FALSE(text.empty());
  EXPECT_TRUE(finish == "length" || finish == "stop") << finish;
  // The same seed gives the same text without streaming.
  auto r = post_json(client_, url("/v1/chat/completions"),
                     R"({"messages": [{"role": "user", "content": "Hi there"}], "max_tokens": 6, "stop": ["zzzz"], "seed": 4})");
  auto j = body_of(r);
  EXPECT_EQ(j["choices"][0]["message"]["content"], text);
  EXPECT_EQ(j["choices"][0]["finish_reason"], finish);
}

TEST_F(SimServe, ErrorsComeBackInOpenAiShape) {
  expect_error(post_json(client_, url("/v1/completions"), "{not json"), 400, "Invalid JSON");
  expect_error(post_json(client_, url("/v1/completions"), R"({"prompt": "x", "max_tokens": 5000})"), 400,
               "This model's maximum context length is 4096 tokens. However, you requested 5001 tokens");
  expect_error(post_json(client_, url("/v1/chat/completions"), R"({"model": "gpt-4", "messages": [{"role": "user", "content": "x"}]})"),
               404, "The model `gpt-4` does not exist.");
  // Oversized body: over the 4 MiB limit -> 413 from the HTTP layer, the server keeps serving.
  std::string big = R"({"prompt": ")" + std::string(5u << 20, 'a') + R"("})";
  // The server answers 413 as soon as the head announces the size; the client may still be
  // writing the body and then sees the connection close instead of the response.
  const int big_status = post_json(client_, url("/v1/completions"), big).status;
  EXPECT_TRUE(big_status == 413 || big_status == 0) << big_status;
  EXPECT_EQ(get(client_, url("/health")).status, 200);
}

TEST_F(SimServe, DisconnectMidStreamAbortsTheRequestWithoutDisturbingOthers) {
  const auto before = scrape();
  const double aborts_before = abort_count(get(client_, url("/metrics")).body);
  ASSERT_GE(aborts_before, 0);
  net::Client other;
  auto survivor = std::async(std::launch::async, [&] {
    return stream_json(other, url("/v1/completions"), R"({"prompt": "keep going", "max_tokens": 60, "ignore_eos": true, "stream": true})");
  });
  // A client that reads a few chunks, then goes away.
  net::Request rq;
  rq.method = net::Method::post;
  rq.url = url("/v1/completions");
  rq.body = R"({"prompt": "I will leave", "max_tokens": 3000, "ignore_eos": true, "stream": true})";
  std::promise<void> done;
  std::atomic<int> events{0};
  net::RequestHandle handle;
  net::StreamHandlers h;
  h.on_event = [&](const net::SseEvent&, net::SteadyClock::time_point) {
    if (++events == 5) handle.cancel();
  };
  h.on_done = [&](const net::Outcome&) { done.set_value(); };
  handle = client_.start(rq, h);
  done.get_future().wait();
  EXPECT_GE(events.load(), 5);
  auto s = survivor.get();
  EXPECT_EQ(s.failure, net::Failure::none);
  EXPECT_EQ(s.data.back(), "[DONE]");
  EXPECT_EQ(s.data.size(), 61u);
  // The abort shows in vllm:request_success_total{finished_reason="abort"} and frees the KV.
  auto r = get(client_, url("/metrics"));
  for (int i = 0; i < 50 && abort_count(r.body) <= aborts_before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    r = get(client_, url("/metrics"));
  }
  EXPECT_EQ(abort_count(r.body), aborts_before + 1);
  const auto after = scrape();
  EXPECT_EQ(*after.requests_finished_total, *before.requests_finished_total + 2);
  EXPECT_EQ(*after.running, 0);  // the aborted request left the batch and freed its KV blocks
  EXPECT_EQ(*after.kv_usage, 0);
  EXPECT_LT(*after.generation_tokens_total, *before.generation_tokens_total + 60 + 3000);
}

TEST_F(SimServe, SlowLorisConnectionDoesNotBlockStreams) {
  // A raw connection that sends half a request head and then nothing.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(server_->port()));
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const char part[] = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Le";
  ASSERT_GT(write(fd, part, sizeof part - 1), 0);
  auto s = stream_json(client_, url("/v1/completions"), R"({"prompt": "x", "max_tokens": 30, "ignore_eos": true, "stream": true})");
  EXPECT_EQ(s.failure, net::Failure::none);
  EXPECT_EQ(s.data.size(), 31u);
  // The slow connection is answered 408 and closed by the header timeout.
  std::string got;
  char buf[512];
  timeval tv{20, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) got.append(buf, static_cast<size_t>(n));
  close(fd);
  EXPECT_NE(got.find("408"), std::string::npos) << got;
}

TEST_F(SimServe, MetricsTrackRequestsAndOurParserReadsThem) {
  const auto before = scrape();
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(post_json(client_, url("/v1/completions"), R"({"prompt": "abcdefgh", "max_tokens": 10, "ignore_eos": true})").status, 200);
  const auto after = scrape();
  EXPECT_EQ(after.model_name, "sim-llama");
  EXPECT_EQ(after.engine_index, "0");
  EXPECT_DOUBLE_EQ(*after.generation_tokens_total - *before.generation_tokens_total, 30);
  EXPECT_DOUBLE_EQ(*after.requests_finished_total - *before.requests_finished_total, 3);
  EXPECT_DOUBLE_EQ(after.ttft_s.count - before.ttft_s.count, 3);
  EXPECT_DOUBLE_EQ(after.itl_s.count - before.itl_s.count, 27);
  EXPECT_DOUBLE_EQ(after.e2e_s.count - before.e2e_s.count, 3);
  EXPECT_EQ(after.ttft_s.upper_bounds.size(), 23u);  // vLLM V1 TTFT buckets + +Inf
  EXPECT_DOUBLE_EQ(*after.kv_cache_capacity_tokens, 200000);
}

TEST_F(SimServe, AdminFaultSwitchesWhileRunning) {
  expect_error(post_json(client_, url("/admin/fault"), R"({"kind": "warp_drive"})"), 400, "fault kind");
  expect_error(post_json(client_, url("/admin/fault"), R"({"kind": "clock_throttle", "factor": 3})"), 400, "factor in (0, 1]");
  expect_error(post_json(client_, url("/admin/fault"), R"({"kind": "gateway_timeout"})"), 400, "timeout_s > 0");
  expect_error(post_json(client_, url("/admin/fault"), R"({"kind": "client_retries", "max_retries": 0})"), 400, "max_retries in 1..100");
  expect_error(post_json(client_, url("/admin/fault"), R"({"kind": "long_prompt_burst", "rate_rps": 1})"), 400, "input_len >= 1");
  auto r = post_json(client_, url("/admin/fault"), R"({"kind": "clock_throttle", "factor": 0.5, "duration_s": 5})");
  ASSERT_EQ(r.status, 200) << r.body;
  auto j = body_of(r);
  ASSERT_FALSE(j["faults"].empty());
  EXPECT_EQ(j["faults"].back()["kind"], "clock_throttle");
  EXPECT_TRUE(j["faults"].back()["active"].get<bool>());
  auto c = body_of(post_json(client_, url("/admin/fault"), R"({"clear": true})"));
  for (const auto& f : c["faults"]) EXPECT_FALSE(f["active"].get<bool>());
  EXPECT_NE(server_->log().find("[admin] fault clock_throttle"), std::string::npos);
}

TEST(SimServeProcess, AdminRoutesAbsentWithoutTheFlagAndSheddingAnswers503) {
  ServeProcess p({"--kv-cache-tokens", "200000", "--max-model-len", "4096", "--time-scale", "1", "--log-interval", "1",
                  "--max-waiting", "1", "--max-num-seqs", "1"},
                 false);
  ASSERT_TRUE(p.ok()) << p.startup_output();
  net::Client c(net::ClientOptions{}, 1);
  EXPECT_EQ(post_json(c, p.url() + "/admin/fault", R"({"kind": "clock_throttle", "factor": 0.5})").status, 404);
  // One running (max_num_seqs 1), one waiting: the next ones are shed.
  std::vector<std::future<Streamed>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::async(std::launch::async, [&] {
      net::Client own;
      return stream_json(own, p.url() + "/v1/completions", R"({"prompt": "x", "max_tokens": 400, "ignore_eos": true, "stream": true})");
    }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  // Both held streams admitted (one running, one waiting) before any is shed: on a loaded host
  // (the sanitizer run at -j2) 300 ms may not be enough for the second to arrive.
  auto waiting_now = [&] {
    const std::string m = get(c, p.url() + "/metrics").body;
    const size_t at = m.find("\nvllm:num_requests_waiting{");
    if (at == std::string::npos) return -1.0;
    const size_t sp = m.find("} ", at);
    return sp == std::string::npos ? -1.0 : std::atof(m.c_str() + sp + 2);
  };
  for (int i = 0; i < 150 && waiting_now() < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  int shed = 0;
  for (int i = 0; i < 20 && !shed; ++i) {
    auto r = post_json(c, p.url() + "/v1/completions", R"({"prompt": "x", "max_tokens": 5})");
    if (r.status == 503) {
      ++shed;
      expect_error(r, 503, "overloaded");
      EXPECT_NE(r.header("Retry-After"), nullptr);
    }
  }
  EXPECT_EQ(shed, 1);
  for (auto& h : held) EXPECT_EQ(h.get().failure, net::Failure::none);
  EXPECT_EQ(p.stop(), 0);
  const std::string log = p.log();
  EXPECT_NE(log.find("GPU KV cache size: 200,000 tokens"), std::string::npos) << log.substr(0, 2000);
  EXPECT_NE(log.find("Engine 000: Avg prompt throughput"), std::string::npos) << log.substr(0, 2000);
  EXPECT_NE(log.find("\"POST /v1/completions HTTP/1.1\" 503"), std::string::npos);
}

TEST(SimServeProcess, StartupOutOfMemoryLogsTheEngineErrorAndExits1) {
  std::string out;
  const int rc = run_binary({"sim", "serve", "--model", "meta-llama/Llama-3.1-70B-Instruct", "--gpu", "L4", "--port", "0"}, out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("does not start"), std::string::npos) << out;
}

TEST(SimServeProcess, SglangMetricsStyle) {
  ServeProcess p({"--metrics-style", "sglang"});
  ASSERT_TRUE(p.ok());
  net::Client c;
  auto r = get(c, p.url() + "/metrics");
  EXPECT_NE(r.body.find("sglang:num_running_reqs{model_name="), std::string::npos);
  EXPECT_EQ(r.body.find("vllm:"), std::string::npos);
  auto m = body_of(get(c, p.url() + "/v1/models"));
  EXPECT_EQ(m["data"][0]["owned_by"], "sglang");
}

}  // namespace llmtriage::serve_test
