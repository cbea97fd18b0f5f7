// Our client against our server on loopback: GET, POST, chunked, SSE (10k events), keep-alive
// reuse, 1000 concurrent streams, streaming from another thread and from loop timers, TLS.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "net/client.h"
#include "net/client_helpers.h"
#include "net/fetch.h"
#include "net/raw_peer.h"
#include "net/server.h"

using namespace llmtriage::net;
using llmtriage::net::testing::get_request;
using namespace std::chrono_literals;

namespace {

ClientOptions roundtrip_client() { return llmtriage::net::testing::quick_client(20000ms); }

void add_routes(Server& s) {
  s.route("GET", "/v1/models", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->respond(200, R"({"object":"list","data":[{"id":"m"}]})");
  });
  s.route("POST", "/echo", [](ServerRequest& r, std::shared_ptr<ResponseWriter> w) {
    w->respond(200, r.body, "text/plain", {{"X-Query", r.query}});
  });
  s.route("GET", "/chunked", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_stream(200, "text/plain");
    for (int i = 0; i < 100; ++i) w->write(std::to_string(i) + ",");
    w->finish();
  });
  s.route("GET", "/sse", [](ServerRequest& r, std::shared_ptr<ResponseWriter> w) {
    int n = r.query.empty() ? 10 : std::stoi(r.query.substr(2));  // "n=NUMBER"
    w->begin_sse();
    for (int i = 0; i < n; ++i) w->send_event("{\"i\":" + std::to_string(i) + "}");
    w->send_event("[DONE]");
    w->finish();
  });
}

struct StreamResult {
  Outcome outcome;
  std::vector<std::string> events;
  bool ordered_times = true;
};

StreamResult run_sse(Client& c, const std::string& url) {
  auto st = std::make_shared<StreamResult>();
  auto done = std::make_shared<std::promise<void>>();
  auto last = std::make_shared<SteadyClock::time_point>();
  StreamHandlers h;
  h.on_event = [st, last](const SseEvent& e, SteadyClock::time_point t) {
    st->ordered_times = st->ordered_times && t >= *last;
    *last = t;
    st->events.emplace_back(e.data);
  };
  h.on_done = [st, done](const Outcome& o) {
    st->outcome = o;
    done->set_value();
  };
  c.start(get_request(url), std::move(h));
  done->get_future().wait();
  return *st;
}

}  // namespace

TEST(RoundTrip, GetPostAndChunked) {
  Server s;
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  Client c(roundtrip_client());
  auto models = c.fetch(get_request(s.base_url() + "/v1/models"));
  ASSERT_TRUE(models.ok()) << models.error().message();
  EXPECT_EQ(models->status, 200);
  EXPECT_EQ(models->body, R"({"object":"list","data":[{"id":"m"}]})");

  Request post = get_request(s.base_url() + "/echo?x=1");
  post.method = Method::post;
  post.body = std::string(100000, 'b');
  auto echo = c.fetch(post);
  ASSERT_TRUE(echo.ok()) << echo.error().message();
  EXPECT_EQ(echo->body, post.body);
  EXPECT_EQ(*echo->header("x-query"), "x=1");

  auto chunked = c.fetch(get_request(s.base_url() + "/chunked"));
  ASSERT_TRUE(chunked.ok()) << chunked.error().message();
  std::string want;
  for (int i = 0; i < 100; ++i) want += std::to_string(i) + ",";
  EXPECT_EQ(chunked->body, want);
  EXPECT_EQ(c.connections_opened(), 1u);  // all three on one keep-alive connection
  EXPECT_EQ(s.stats().connections_accepted, 1u);
}

TEST(RoundTrip, SseTenThousandEvents) {
  Server s;
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  Client c(roundtrip_client());
  StreamResult r = run_sse(c, s.base_url() + "/sse?n=10000");
  ASSERT_TRUE(r.outcome.ok()) << r.outcome.error.message();
  ASSERT_EQ(r.events.size(), 10001u);
  EXPECT_EQ(r.outcome.events, 10001u);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(r.events[i], "{\"i\":" + std::to_string(i) + "}");
  EXPECT_EQ(r.events.back(), "[DONE]");
  EXPECT_TRUE(r.ordered_times);
}

TEST(RoundTrip, KeepAliveReuseAcrossManyRequests) {
  Server s;
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  Client c(roundtrip_client());
  for (int i = 0; i < 200; ++i) {
    auto r = c.fetch(get_request(s.base_url() + "/v1/models"));
    ASSERT_TRUE(r.ok()) << r.error().message();
  }
  EXPECT_EQ(c.connections_opened(), 1u);
  EXPECT_EQ(s.stats().connections_accepted, 1u);
  EXPECT_EQ(s.stats().requests, 200u);
}

TEST(RoundTrip, ThousandConcurrentStreams) {
  ServerOptions so;
  so.threads = 2;
  Server s(so);
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  Client c(roundtrip_client());
  constexpr int kStreams = 1000;
  std::atomic<int> ok{0}, events{0}, done{0};
  std::promise<void> all;
  for (int i = 0; i < kStreams; ++i) {
    StreamHandlers h;
    h.on_event = [&](const SseEvent&, SteadyClock::time_point) { ++events; };
    h.on_done = [&](const Outcome& o) {
      ok += o.ok();
      if (++done == kStreams) all.set_value();
    };
    c.start(get_request(s.base_url() + "/sse?n=20"), std::move(h));
  }
  all.get_future().wait();
  EXPECT_EQ(ok.load(), kStreams);
  EXPECT_EQ(events.load(), kStreams * 21);
  EXPECT_EQ(c.in_flight(), 0u);
}

TEST(RoundTrip, StreamFromAnotherThreadAndFromLoopTimers) {
  Server s;
  std::vector<std::thread> producers;
  std::mutex mu;
  s.route("POST", "/v1/completions", [&](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_sse();
    std::lock_guard<std::mutex> lock(mu);
    producers.emplace_back([w] {
      for (int i = 0; i < 50; ++i) {
        w->send_event("tok" + std::to_string(i));
        std::this_thread::sleep_for(1ms);
      }
      w->send_event("[DONE]");
      w->finish();
    });
  });
  s.route("GET", "/timed", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_sse();
    auto step = std::make_shared<std::function<void(int)>>();
    *step = [w, step](int i) {
      if (i == 5) {
        w->finish();
        *step = nullptr;  // break the self-reference
        return;
      }
      w->send_event("t" + std::to_string(i));
      w->post_after(2ms, [step, i] { if (*step) (*step)(i + 1); });
    };
    (*step)(0);
  });
  ASSERT_TRUE(s.start().ok());
  Client c(roundtrip_client());
  Request req = get_request(s.base_url() + "/v1/completions");
  req.method = Method::post;
  req.body = "{}";
  auto st = std::make_shared<std::vector<std::string>>();
  std::promise<Outcome> done;
  StreamHandlers h;
  h.on_event = [st](const SseEvent& e, SteadyClock::time_point) { st->emplace_back(e.data); };
  h.on_done = [&done](const Outcome& o) { done.set_value(o); };
  c.start(req, std::move(h));
  Outcome o = done.get_future().get();
  ASSERT_TRUE(o.ok()) << o.error.message();
  ASSERT_EQ(st->size(), 51u);
  EXPECT_EQ(st->front(), "tok0");
  EXPECT_EQ(st->back(), "[DONE]");
  StreamResult timed = run_sse(c, s.base_url() + "/timed");
  ASSERT_TRUE(timed.outcome.ok()) << timed.outcome.error.message();
  EXPECT_EQ(timed.events, (std::vector<std::string>{"t0", "t1", "t2", "t3", "t4"}));
  for (auto& t : producers) t.join();
}

TEST(RoundTrip, TlsWithGeneratedCertificate) {
  auto cert = llmtriage::net::testing::make_self_signed_cert();
  ServerOptions so;
  so.tls_cert_pem = cert.cert_pem;
  so.tls_key_pem = cert.key_pem;
  Server s(so);
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  ASSERT_EQ(s.base_url().substr(0, 8), "https://");
  auto ca = std::filesystem::temp_directory_path() / ("llmtriage_net_ca_" + std::to_string(::getpid()) + ".pem");
  std::ofstream(ca) << cert.cert_pem;

  ClientOptions verified = roundtrip_client();
  verified.ca_file = ca.string();
  Client c(verified);
  for (int i = 0; i < 3; ++i) {
    auto r = c.fetch(get_request(s.base_url() + "/v1/models"));
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->status, 200);
  }
  EXPECT_EQ(c.connections_opened(), 1u);
  StreamResult sse = run_sse(c, s.base_url() + "/sse?n=1000");
  ASSERT_TRUE(sse.outcome.ok()) << sse.outcome.error.message();
  EXPECT_EQ(sse.events.size(), 1001u);

  // The system store does not trust it: a typed TLS failure, unless --insecure.
  auto untrusted = fetch(get_request(s.base_url() + "/v1/models"), roundtrip_client());
  ASSERT_FALSE(untrusted.ok());
  EXPECT_EQ(failure_of(untrusted.error()), Failure::tls) << untrusted.error().message();
  ClientOptions insecure = roundtrip_client();
  insecure.insecure_tls = true;
  auto ok = fetch(get_request(s.base_url() + "/v1/models"), insecure);
  EXPECT_TRUE(ok.ok());
  std::filesystem::remove(ca);
}

TEST(RoundTrip, TlsClientToPlainServerPort) {
  Server s;
  add_routes(s);
  ASSERT_TRUE(s.start().ok());
  auto r = fetch(get_request("https://127.0.0.1:" + std::to_string(s.port()) + "/v1/models"), roundtrip_client());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::tls) << r.error().message();
}
