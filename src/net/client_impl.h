#pragma once
// Private to src/net: the client's loops, pooled connections and per-request state machine (Op).
// Connecting (pool, resolve, TCP, TLS) is in client_connect.cpp, the exchange itself (timers,
// write, read, endings) in client_request.cpp, the loops and the public API in client.cpp.
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "net/asio_impl.h"
#include "net/client.h"
#include "net/http_parser.h"
#include "net/url.h"

namespace llmtriage::net {
namespace detail {

constexpr TimePoint kNever = TimePoint::max();

struct Loop;
extern thread_local Loop* t_loop;  // the loop this thread runs, if any

// A connection, in flight or idle in its loop's pool (keyed by scheme|host|port).
struct Conn {
  std::optional<tcp::socket> plain;
  std::optional<ssl::stream<tcp::socket>> tls;
  std::string key;
  Conn(asio::io_context& ioc, ssl::context* ctx) {
    if (ctx) tls.emplace(ioc, *ctx);
    else plain.emplace(ioc);
  }
  tcp::socket& sock() { return tls ? tls->next_layer() : *plain; }
  void close() {
    error_code ec;
    sock().close(ec);
  }
  // A pooled plain connection the server closed (or wrote to unasked) is not reusable.
  bool looks_alive() {
    if (!sock().is_open()) return false;
    if (tls) return true;  // a stale TLS connection is caught by the retry instead
    char c;
    ssize_t n = ::recv(sock().native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
};


struct Op;

struct Loop {
  asio::io_context ioc{1};
  asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
  std::thread thread;
  Client::Impl* impl = nullptr;
  std::unordered_map<std::string, std::vector<std::unique_ptr<Conn>>> idle;
  std::unordered_set<std::shared_ptr<Op>> live;
  std::vector<char> rbuf;  // shared by every plain-socket read of this loop
  bool shutting_down = false;
};

}  // namespace detail

struct Client::Impl {
  ClientOptions opts;
  std::unique_ptr<detail::ssl::context> ssl_ctx;
  std::string ssl_setup_error;
  std::vector<std::unique_ptr<detail::Loop>> loops;
  std::atomic<size_t> next{0};
  std::atomic<size_t> in_flight{0};
  std::atomic<std::uint64_t> opened{0};
};

namespace detail {

enum class Phase { connect, first_byte, body };

// One request from start() to on_done, on its loop's thread only.
struct Op : std::enable_shared_from_this<Op>, BodySink {
  Loop& loop;
  Client::Impl& impl;
  Request req;
  StreamHandlers h;
  Url url;
  Timeouts to;
  std::string key;
  std::unique_ptr<Conn> conn;
  std::unique_ptr<tcp::resolver> resolver;
  asio::steady_timer timer;
  ResponseParser parser;
  SseParser sse;
  Outcome out;
  std::string head_out;
  std::vector<char> tls_buf;
  Phase phase = Phase::connect;
  TimePoint phase_deadline = kNever;
  TimePoint total_deadline = kNever;
  TimePoint arrived;
  bool finished = false;
  bool got_bytes = false;
  bool retried = false;
  bool head_reported = false;
  // Whether the body goes to the SSE parser: only a 2xx response is a stream of events.
  bool sse_body() const { return out.status >= 200 && out.status < 300; }
  bool leftover = false;

  Op(Loop& l, Client::Impl& i, Request r, StreamHandlers hs, Url u)
      : loop(l), impl(i), req(std::move(r)), h(std::move(hs)), url(std::move(u)),
        to(req.timeouts ? *req.timeouts : i.opts.timeouts), timer(l.ioc),
        parser(i.opts.max_header_bytes) {
    key = std::string(url.tls ? "s|" : "p|") + url.host + "|" + std::to_string(url.port);
  }

  std::string where() const { return std::string(to_string(req.method)) + " " + url.redacted(); }
  TimePoint after(Millis d, TimePoint from) const { return d.count() > 0 ? from + d : kNever; }

  // timers
  void set_phase(Phase p, TimePoint now);
  void arm_timer();
  void on_timer(const error_code& ec);
  std::string progress_text() const;
  // start, connect (client_connect.cpp)
  void begin();
  void connect();
  void do_connect(std::vector<tcp::endpoint> eps);
  void on_connect(const error_code& ec);
  // write, read
  void send();
  void on_sent(const error_code& ec);
  void read();
  void on_body(std::string_view bytes) override;
  void report_head();
  void on_bytes(std::string_view data);
  void on_read_error(const error_code& ec);
  // endings
  void complete();
  void fail(Failure f, std::string expected, std::string found, std::string detail = {});
  void end();
};

}  // namespace detail
}  // namespace llmtriage::net
