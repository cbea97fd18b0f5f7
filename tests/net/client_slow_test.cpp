// Client against deliberately scripted raw-socket peers on loopback: round trips, keep-alive,
// and every fault with its exact category. Timeouts are tens of ms; nothing asserts a duration.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <sys/socket.h>

#include "net/client.h"
#include "net/fetch.h"
#include "net/raw_peer.h"

using namespace llmtriage::net;
using llmtriage::net::testing::RawPeer;
using namespace std::chrono_literals;

namespace {

ClientOptions short_timeouts() {
  ClientOptions o;
  o.timeouts.connect = 1000ms;
  o.timeouts.first_byte = 150ms;
  o.timeouts.idle = 150ms;
  o.timeouts.total = 5000ms;
  return o;
}

std::string ok_response(const std::string& body, const std::string& extra = "") {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n" + extra + "\r\n" + body;
}

// Runs one streaming request to completion and returns its outcome plus what was streamed.
struct Streamed {
  Outcome outcome;
  std::string data;
  std::vector<std::string> events;
};

Streamed stream(Client& client, Request req, bool sse) {
  auto st = std::make_shared<Streamed>();
  auto done = std::make_shared<std::promise<void>>();
  StreamHandlers h;
  if (sse) h.on_event = [st](const SseEvent& e, SteadyClock::time_point) { st->events.emplace_back(e.data); };
  else h.on_data = [st](std::string_view b, SteadyClock::time_point) { st->data.append(b); };
  h.on_done = [st, done](const Outcome& o) {
    st->outcome = o;
    done->set_value();
  };
  client.start(std::move(req), std::move(h));
  done->get_future().wait();
  return *st;
}

Request get(const std::string& url) {
  Request r;
  r.url = url;
  return r;
}

}  // namespace

TEST(ClientRaw, GetSendsBearerAndReadsBody) {
  std::atomic<bool> saw_auth{false};
  RawPeer peer([&](int fd, RawPeer&) {
    std::string req = RawPeer::read_request(fd);
    saw_auth = req.find("\r\nAuthorization: Bearer sekrit-token\r\n") != std::string::npos &&
               req.rfind("GET /metrics HTTP/1.1\r\n", 0) == 0;
    RawPeer::send_all(fd, ok_response("{\"ok\":true}", "Connection: close\r\n"));
  });
  Request req = get(peer.url("/metrics"));
  req.bearer_token = "sekrit-token";
  auto r = fetch(req, short_timeouts());
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "{\"ok\":true}");
  EXPECT_EQ(*r->header("content-type"), "application/json");
  EXPECT_TRUE(saw_auth);
}

TEST(ClientRaw, PostSendsBodyWithLength) {
  std::atomic<bool> saw_body{false};
  RawPeer peer([&](int fd, RawPeer&) {
    std::string req = RawPeer::read_request(fd);
    saw_body = req.rfind("POST /v1/completions HTTP/1.1\r\n", 0) == 0 &&
               req.find("Content-Length: 14\r\n") != std::string::npos &&
               req.find("\r\n\r\n{\"prompt\":\"x\"}") != std::string::npos;
    RawPeer::send_all(fd, ok_response("done"));
  });
  Request req = get(peer.url("/v1/completions"));
  req.method = Method::post;
  req.body = "{\"prompt\":\"x\"}";
  auto r = fetch(req, short_timeouts());
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->body, "done");
  EXPECT_TRUE(saw_body);
}

TEST(ClientRaw, ErrorStatusIsTypedUnlessAccepted) {
  RawPeer peer([](int fd, RawPeer&) {
    while (!RawPeer::read_request(fd).empty()) {
      RawPeer::send_all(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nno route\n");
    }
  });
  auto r = fetch(get(peer.url("/nope")), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::http_status);
  EXPECT_NE(r.error().message().find("404"), std::string::npos);
  auto accepted = fetch(get(peer.url("/nope")), short_timeouts(), FetchOptions{true});
  ASSERT_TRUE(accepted.ok());
  EXPECT_EQ(accepted->status, 404);
}

TEST(ClientRaw, KeepAliveReusesOneConnection) {
  RawPeer peer([](int fd, RawPeer&) {
    while (!RawPeer::read_request(fd).empty()) RawPeer::send_all(fd, ok_response("x"));
  });
  Client client(short_timeouts());
  for (int i = 0; i < 5; ++i) {
    auto r = client.fetch(get(peer.url("/")));
    ASSERT_TRUE(r.ok()) << r.error().message();
    EXPECT_EQ(r->timing.reused_connection, i > 0);
  }
  EXPECT_EQ(client.connections_opened(), 1u);
  EXPECT_EQ(peer.accepted(), 1);
}

TEST(ClientRaw, StalePooledConnectionIsReplaced) {
  // The peer answers one request per connection and then closes, though it says keep-alive.
  RawPeer peer([](int fd, RawPeer&) {
    if (!RawPeer::read_request(fd).empty()) RawPeer::send_all(fd, ok_response("x"));
  });
  Client client(short_timeouts());
  for (int i = 0; i < 3; ++i) {
    auto r = client.fetch(get(peer.url("/")));
    ASSERT_TRUE(r.ok()) << r.error().message();
  }
  EXPECT_EQ(peer.accepted(), 3);
}

TEST(ClientRaw, ChunkedAndCloseDelimitedBodies) {
  RawPeer peer([](int fd, RawPeer&) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n");
    RawPeer::send_all(fd, "7;ext=1\r\n, world\r\n0\r\nX-Trailer: y\r\n\r\n");
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.0 200 OK\r\n\r\nuntil the end");
  });
  Client client(short_timeouts());
  auto a = client.fetch(get(peer.url("/a")));
  ASSERT_TRUE(a.ok()) << a.error().message();
  EXPECT_EQ(a->body, "hello, world");
  auto b = client.fetch(get(peer.url("/b")));
  ASSERT_TRUE(b.ok()) << b.error().message();
  EXPECT_EQ(b->body, "until the end");
}

TEST(ClientFault, ConnectRefused) {
  auto r = fetch(get("http://127.0.0.1:" + std::to_string(llmtriage::net::testing::closed_port()) + "/"), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::connect_refused) << r.error().message();
}

TEST(ClientFault, BadUrl) {
  auto r = fetch(get("ftp://127.0.0.1/"), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::bad_url);
}

TEST(ClientFault, PeerNeverSendsHeaders) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    p.hold(3000);
  });
  Request req = get(peer.url("/"));
  req.bearer_token = "tok-must-not-leak";
  auto r = fetch(req, short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::timeout_first_byte) << r.error().message();
  EXPECT_EQ(r.error().message().find("tok-must-not-leak"), std::string::npos);
}

TEST(ClientFault, PeerStallsBetweenChunks) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
    p.hold(3000);
  });
  Client client(short_timeouts());
  Streamed s = stream(client, get(peer.url("/")), false);
  EXPECT_EQ(s.outcome.failure, Failure::timeout_idle) << s.outcome.error.message();
  EXPECT_EQ(s.data, "abc");
  EXPECT_EQ(s.outcome.status, 200);
}

TEST(ClientFault, TotalTimeoutWhileTrickling) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    while (!p.stopping() && RawPeer::send_all(fd, "1\r\nx\r\n")) p.hold(10);
  });
  ClientOptions o = short_timeouts();
  o.timeouts.total = 200ms;
  Client client(o);
  Streamed s = stream(client, get(peer.url("/")), false);
  EXPECT_EQ(s.outcome.failure, Failure::timeout_total) << s.outcome.error.message();
  EXPECT_FALSE(s.data.empty());
}

TEST(ClientFault, PeerResetsMidStream) {
  RawPeer peer([](int fd, RawPeer&) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
    RawPeer::send_all(fd, "e\r\ndata: one\n\n\r\n\r\n");
    std::this_thread::sleep_for(20ms);
    RawPeer::reset(fd);
  });
  Client client(short_timeouts());
  Streamed s = stream(client, get(peer.url("/")), true);
  EXPECT_EQ(s.outcome.failure, Failure::reset) << s.outcome.error.message();
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0], "one");
}

TEST(ClientFault, PeerClosesBeforeContentLengthIsMet) {
  RawPeer peer([](int fd, RawPeer&) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly a part");
  });
  auto r = fetch(get(peer.url("/")), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::reset) << r.error().message();
}

TEST(ClientFault, MalformedChunkSize) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n");
    p.hold(3000);
  });
  auto r = fetch(get(peer.url("/")), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::malformed_http) << r.error().message();
  EXPECT_NE(r.error().message().find("zz"), std::string::npos);
}

TEST(ClientFault, MalformedStatusLine) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "SSH-2.0-OpenSSH_9.2\r\n\r\n");
    p.hold(3000);
  });
  auto r = fetch(get(peer.url("/")), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::malformed_http) << r.error().message();
}

TEST(ClientFault, OversizedHeaders) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    std::string head = "HTTP/1.1 200 OK\r\n";
    for (int i = 0; i < 2000; ++i) head += "X-Filler-" + std::to_string(i) + ": " + std::string(40, 'a') + "\r\n";
    RawPeer::send_all(fd, head);
    p.hold(3000);
  });
  ClientOptions o = short_timeouts();
  o.max_header_bytes = 16 * 1024;
  auto r = fetch(get(peer.url("/")), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::too_large) << r.error().message();
}

TEST(ClientFault, TruncatedSseEventAtEof) {
  RawPeer peer([](int fd, RawPeer&) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
                          "data: a\n\ndata: b\n\ndata: {\"partial\":");
  });
  Client client(short_timeouts());
  Streamed s = stream(client, get(peer.url("/")), true);
  EXPECT_EQ(s.outcome.failure, Failure::sse_truncated) << s.outcome.error.message();
  EXPECT_EQ(s.events, (std::vector<std::string>{"a", "b"}));
}

// A streaming request answered with an error status gets a JSON document, not events: it is kept
// as the body (the caller reads the server's message), never failed as a truncated stream.
TEST(ClientRaw, ErrorStatusToAStreamingRequestKeepsItsDocument) {
  RawPeer peer([](int fd, RawPeer&) {
    RawPeer::read_request(fd);
    const std::string doc = R"({"error": {"message": "queue full", "type": "overloaded", "code": 429}})";
    RawPeer::send_all(fd, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: " +
                              std::to_string(doc.size()) + "\r\nConnection: close\r\n\r\n" + doc);
  });
  Client client(short_timeouts());
  Streamed s = stream(client, get(peer.url("/")), true);
  EXPECT_EQ(s.outcome.failure, Failure::none) << s.outcome.error.message();
  EXPECT_EQ(s.outcome.status, 429);
  EXPECT_TRUE(s.events.empty());
  EXPECT_NE(s.outcome.body.find("queue full"), std::string::npos) << s.outcome.body;
}

TEST(ClientFault, TlsToPlainPort) {
  RawPeer peer([](int fd, RawPeer&) {
    char buf[512];
    if (::recv(fd, buf, sizeof buf, 0) > 0)
      RawPeer::send_all(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  auto r = fetch(get("https://127.0.0.1:" + std::to_string(peer.port()) + "/"), short_timeouts());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(failure_of(r.error()), Failure::tls) << r.error().message();
}

TEST(ClientFault, CancelInFlight) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    RawPeer::send_all(fd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
    p.hold(3000);
  });
  ClientOptions o = short_timeouts();
  o.timeouts.idle = 5000ms;
  Client client(o);
  auto done = std::make_shared<std::promise<Outcome>>();
  auto got_data = std::make_shared<std::promise<void>>();
  auto once = std::make_shared<std::atomic<bool>>(false);
  StreamHandlers h;
  h.on_data = [got_data, once](std::string_view, SteadyClock::time_point) {
    if (!once->exchange(true)) got_data->set_value();
  };
  h.on_done = [done](const Outcome& out) { done->set_value(out); };
  RequestHandle handle = client.start(get(peer.url("/")), std::move(h));
  got_data->get_future().wait();
  handle.cancel();
  Outcome out = done->get_future().get();
  EXPECT_EQ(out.failure, Failure::cancelled);
}

TEST(ClientFault, DestroyingTheClientCancelsInFlight) {
  RawPeer peer([](int fd, RawPeer& p) {
    RawPeer::read_request(fd);
    p.hold(3000);
  });
  std::atomic<int> cancelled{0};
  {
    ClientOptions o = short_timeouts();
    o.timeouts.first_byte = 5000ms;
    Client client(o);
    for (int i = 0; i < 3; ++i) {
      StreamHandlers h;
      h.on_done = [&cancelled](const Outcome& out) { cancelled += out.failure == Failure::cancelled; };
      client.start(get(peer.url("/")), std::move(h));
    }
    while (peer.accepted() < 3) std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(cancelled.load(), 3);
}

TEST(ClientFault, UnresolvableHostIsDns) {
  // ".invalid" is reserved (RFC 6761): resolvers answer NXDOMAIN without asking anyone.
  ClientOptions o = short_timeouts();
  o.timeouts.connect = 10000ms;
  auto r = fetch(get("http://no-such-host.invalid/"), o);
  ASSERT_FALSE(r.ok());
  if (failure_of(r.error()) == Failure::timeout_connect) GTEST_SKIP() << "this machine's resolver hangs";
  EXPECT_EQ(failure_of(r.error()), Failure::dns) << r.error().message();
}
