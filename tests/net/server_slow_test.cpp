// Server limits and faults on loopback, driven by our client or by raw sockets: header/body
// limits, slow-loris and idle timeouts, max connections, routing errors, handler failures,
// client disconnects, pipelining, graceful shutdown, and an access log without secrets.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "net/client.h"
#include "net/client_helpers.h"
#include "net/fetch.h"
#include "net/raw_peer.h"
#include "net/server.h"

using namespace llmtriage::net;
using llmtriage::net::testing::get_request;
using llmtriage::net::testing::connect_loopback;
using llmtriage::net::testing::RawPeer;
using llmtriage::net::testing::read_until_close;
using namespace std::chrono_literals;

namespace {

ClientOptions quick() { return llmtriage::net::testing::quick_client(); }

void ok_route(Server& s) {
  s.route("GET", "/ok", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) { w->respond(200, "{}"); });
  s.route("POST", "/ok", [](ServerRequest& r, std::shared_ptr<ResponseWriter> w) { w->respond(200, r.body); });
}

}  // namespace

TEST(ServerLimits, OversizedHeadersGet431AndBigBodies413) {
  ServerOptions so;
  so.max_header_bytes = 4096;
  so.max_body_bytes = 1000;
  Server s(so);
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  Request big = get_request(s.base_url() + "/ok");
  big.headers.push_back({"X-Big", std::string(8000, 'h')});
  auto r = fetch(big, quick(), FetchOptions{true});
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->status, 431);
  Request post = get_request(s.base_url() + "/ok");
  post.method = Method::post;
  post.body = std::string(5000, 'b');
  auto p = fetch(post, quick());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(failure_of(p.error()), Failure::http_status);
  EXPECT_NE(p.error().message().find("413"), std::string::npos);
  EXPECT_EQ(s.stats().bad_requests, 2u);
}

TEST(ServerLimits, SlowLorisHeadersAreCutAtTheHeaderTimeout) {
  ServerOptions so;
  so.header_timeout = 150ms;
  Server s(so);
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  int fd = connect_loopback(s.port());
  ASSERT_GE(fd, 0);
  RawPeer::send_all(fd, "GET /ok HTTP/1.1\r\nHost: x\r\n");
  bool closed = false;
  std::string got;
  // Keep trickling header bytes: each one is "progress", yet the head never completes.
  for (int i = 0; i < 200 && !closed; ++i) {
    if (!RawPeer::send_all(fd, "X")) break;
    got += read_until_close(fd, 10, &closed);
  }
  got += read_until_close(fd, 500, &closed);
  EXPECT_TRUE(closed);
  EXPECT_EQ(got.rfind("HTTP/1.1 408", 0), 0u) << got;
  EXPECT_EQ(s.stats().timeouts, 1u);
  ::close(fd);
}

TEST(ServerLimits, SilentConnectionsAndIdleKeepAliveAreClosed) {
  ServerOptions so;
  so.header_timeout = 100ms;
  so.idle_timeout = 100ms;
  Server s(so);
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  int silent = connect_loopback(s.port());
  bool closed = false;
  read_until_close(silent, 3000, &closed);
  EXPECT_TRUE(closed);
  ::close(silent);

  int fd = connect_loopback(s.port());
  RawPeer::send_all(fd, "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
  std::string got = read_until_close(fd, 3000, &closed);
  EXPECT_TRUE(closed);  // answered, then closed once the keep-alive wait ran out
  EXPECT_EQ(got.rfind("HTTP/1.1 200 OK", 0), 0u);
  EXPECT_EQ(s.stats().timeouts, 2u);
  ::close(fd);
}

TEST(ServerLimits, MaxConnectionsRejectsWith503) {
  ServerOptions so;
  so.max_connections = 2;
  Server s(so);
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  int a = connect_loopback(s.port());
  int b = connect_loopback(s.port());
  while (s.stats().open_connections < 2) std::this_thread::sleep_for(1ms);
  auto r = fetch(get_request(s.base_url() + "/ok"), quick());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::http_status);
  EXPECT_NE(r.error().message().find("503"), std::string::npos);
  EXPECT_EQ(s.stats().connections_rejected, 1u);
  ::close(a);
  ::close(b);
}

TEST(ServerRouting, NotFoundMethodNotAllowedAndMalformed) {
  Server s;
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  auto nf = fetch(get_request(s.base_url() + "/missing"), quick(), FetchOptions{true});
  ASSERT_TRUE(nf.ok());
  EXPECT_EQ(nf->status, 404);
  EXPECT_NE(nf->body.find("\"code\":404"), std::string::npos);
  Request del = get_request(s.base_url() + "/ok");
  del.method = Method::del;
  auto na = fetch(del, quick(), FetchOptions{true});
  ASSERT_TRUE(na.ok());
  EXPECT_EQ(na->status, 405);
  EXPECT_EQ(*na->header("allow"), "GET, POST");

  int fd = connect_loopback(s.port());
  RawPeer::send_all(fd, "BROKEN\r\n\r\n");
  bool closed = false;
  std::string got = read_until_close(fd, 2000, &closed);
  EXPECT_EQ(got.rfind("HTTP/1.1 400", 0), 0u) << got;
  EXPECT_TRUE(closed);
  ::close(fd);
}

TEST(ServerRouting, PipelinedRequestsAreAnsweredInOrder) {
  Server s;
  s.route("GET", "/a", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) { w->respond(200, "A", "text/plain"); });
  s.route("GET", "/b", [](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->post_after(5ms, [w] { w->respond(200, "B", "text/plain"); });
  });
  ASSERT_TRUE(s.start().ok());
  int fd = connect_loopback(s.port());
  RawPeer::send_all(fd, "GET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  bool closed = false;
  std::string got = read_until_close(fd, 2000, &closed);
  auto b = got.find("\r\n\r\nB");
  auto a = got.find("\r\n\r\nA");
  ASSERT_NE(b, std::string::npos) << got;
  ASSERT_NE(a, std::string::npos) << got;
  EXPECT_LT(b, a);
  EXPECT_TRUE(closed);
  ::close(fd);
}

TEST(ServerHandlers, ThrowingOrSilentHandlersGive500) {
  Server s;
  s.route("GET", "/throw", [](ServerRequest&, std::shared_ptr<ResponseWriter>) { throw std::runtime_error("boom"); });
  s.route("GET", "/silent", [](ServerRequest&, std::shared_ptr<ResponseWriter>) {});
  ASSERT_TRUE(s.start().ok());
  auto t = fetch(get_request(s.base_url() + "/throw"), quick(), FetchOptions{true});
  ASSERT_TRUE(t.ok()) << t.error().message();
  EXPECT_EQ(t->status, 500);
  EXPECT_NE(t->body.find("boom"), std::string::npos);
  auto q = fetch(get_request(s.base_url() + "/silent"), quick(), FetchOptions{true});
  ASSERT_TRUE(q.ok()) << q.error().message();
  EXPECT_EQ(q->status, 500);
}

TEST(ServerHandlers, ClientDisconnectReachesTheWriter) {
  std::promise<void> closed_seen;
  std::atomic<bool> writer_closed{false};
  std::shared_ptr<ResponseWriter> kept;
  std::mutex mu;
  Server s;
  s.route("GET", "/stream", [&](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_sse();
    w->send_event("first");
    w->on_close([&, w] {
      writer_closed = w->closed();
      closed_seen.set_value();
    });
    std::lock_guard<std::mutex> lock(mu);
    kept = w;  // keep the stream open
  });
  ASSERT_TRUE(s.start().ok());
  {
    Client c(quick());
    std::promise<void> got_first;
    StreamHandlers h;
    h.on_event = [&](const SseEvent&, SteadyClock::time_point) { got_first.set_value(); };
    c.start(get_request(s.base_url() + "/stream"), std::move(h));
    got_first.get_future().wait();
  }  // the client goes away mid-stream
  closed_seen.get_future().wait();
  EXPECT_TRUE(writer_closed.load());
  std::lock_guard<std::mutex> lock(mu);
  kept.reset();
}

TEST(ServerShutdown, FinishesStreamsInGraceAndCutsTheRest) {
  ServerOptions so;
  so.shutdown_grace = 200ms;
  Server s(so);
  std::vector<std::shared_ptr<ResponseWriter>> stuck;
  std::vector<std::thread> finishers;
  std::mutex mu;
  s.route("GET", "/polite", [&](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_sse();
    w->send_event("start");
    std::lock_guard<std::mutex> lock(mu);
    finishers.emplace_back([w] {
      while (!w->stopping()) std::this_thread::sleep_for(1ms);
      w->send_event("bye");
      w->finish();
    });
  });
  s.route("GET", "/stuck", [&](ServerRequest&, std::shared_ptr<ResponseWriter> w) {
    w->begin_sse();
    w->send_event("start");
    std::lock_guard<std::mutex> lock(mu);
    stuck.push_back(w);  // never finishes
  });
  ASSERT_TRUE(s.start().ok());
  Client c(quick());
  std::promise<Outcome> polite_done, stuck_done;
  std::atomic<int> started{0};
  for (auto* path : {"/polite", "/stuck"}) {
    StreamHandlers h;
    h.on_event = [&](const SseEvent& e, SteadyClock::time_point) { started += e.data == "start"; };
    auto* p = std::string(path) == "/polite" ? &polite_done : &stuck_done;
    h.on_done = [p](const Outcome& o) { p->set_value(o); };
    c.start(get_request(s.base_url() + path), std::move(h));
  }
  while (started.load() < 2) std::this_thread::sleep_for(1ms);
  s.stop();
  Outcome polite = polite_done.get_future().get();
  Outcome cut = stuck_done.get_future().get();
  EXPECT_TRUE(polite.ok()) << polite.error.message();
  EXPECT_EQ(polite.events, 2u);
  EXPECT_EQ(cut.failure, Failure::reset) << cut.error.message();
  for (auto& t : finishers) t.join();
  std::lock_guard<std::mutex> lock(mu);
  stuck.clear();
}

TEST(ServerLog, OneLinePerRequestWithoutSecrets) {
  std::mutex mu;
  std::vector<std::string> lines;
  ServerOptions so;
  so.access_log = [&](const AccessLogEntry& e) {
    std::lock_guard<std::mutex> lock(mu);
    lines.push_back(format_access_log(e));
  };
  Server s(so);
  ok_route(s);
  ASSERT_TRUE(s.start().ok());
  Client c(quick());
  Request req = get_request(s.base_url() + "/ok?api_key=query-secret");
  req.bearer_token = "bearer-secret";
  ASSERT_TRUE(c.fetch(req).ok());
  ASSERT_TRUE(c.fetch(get_request(s.base_url() + "/nope")).ok());
  s.stop();
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("\"GET /ok\" 200 2B"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("\"GET /nope\" 404"), std::string::npos) << lines[1];
  for (const auto& l : lines) {
    EXPECT_EQ(l.find("secret"), std::string::npos) << l;
    EXPECT_EQ(l.find("Authorization"), std::string::npos) << l;
    EXPECT_EQ(l.rfind("127.0.0.1:", 0), 0u) << l;
  }
}

TEST(ServerStart, BindFailureIsAnErrorNamingTheAddress) {
  Server a;
  ASSERT_TRUE(a.start().ok());
  ServerOptions so;
  so.port = a.port();
  Server b(so);
  auto st = b.start();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message().find(std::to_string(a.port())), std::string::npos);
}
