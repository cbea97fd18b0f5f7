#pragma once
// Private to src/net: the server's shared state, loops, connections and response writers. The
// connection state machine is in server_conn.cpp, routing and the writer handed to handlers in
// server_dispatch.cpp, the listener and the loops' lifecycle in server.cpp.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "net/asio_impl.h"
#include "net/http_parser.h"
#include "net/server.h"

namespace llmtriage::net {
namespace detail {

constexpr TimePoint kNoDeadline = TimePoint::max();
constexpr size_t kMaxPipelinedBytes = 1u << 20;

struct ServerConn;

// One event loop: its thread, its connections and the read buffer its plain sockets share.
struct SLoop {
  asio::io_context ioc{1};
  asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
  std::thread thread;
  std::vector<char> rbuf = std::vector<char>(64 * 1024);
  std::unordered_set<ServerConn*> conns;
  std::atomic<bool> stopping{false};  // stop() began: finish responses, then close
  std::atomic<bool> stopped{false};   // loop gone: writers become no-ops
};
extern thread_local SLoop* t_sloop;  // the loop this thread runs, if any

struct Route {
  std::string method;
  Handler handler;
};

}  // namespace detail

struct Server::Impl {
  ServerOptions opts;
  std::unordered_map<std::string, std::vector<detail::Route>> routes;
  std::vector<std::shared_ptr<detail::SLoop>> loops;
  std::unique_ptr<detail::tcp::acceptor> acceptor;
  std::unique_ptr<detail::ssl::context> ssl_ctx;
  std::uint16_t port = 0;
  size_t next_loop = 0;
  bool started = false;
  bool stopped = false;
  std::atomic<std::uint64_t> accepted{0}, rejected{0}, requests{0}, timeouts{0}, bad{0};
  std::atomic<size_t> open{0};
  std::atomic<size_t> overflow_open{0};  // connections over the limit, being answered 503
};

namespace detail {

struct WriterImpl;

// One accepted connection (loop thread only): reads requests, runs one exchange at a time,
// writes responses; every state change goes through `st`.
struct ServerConn : std::enable_shared_from_this<ServerConn> {
  enum class St { handshake, wait, head, body, handling, closed };
  std::shared_ptr<SLoop> loop;
  Server::Impl& srv;
  std::optional<tcp::socket> plain;
  std::optional<ssl::stream<tcp::socket>> tls;
  asio::steady_timer timer;
  RequestParser parser;
  std::string pending_in;
  std::vector<char> tls_buf;
  std::string remote;
  St st = St::wait;
  TimePoint deadline = kNoDeadline;
  TimePoint armed_at = kNoDeadline;
  bool reading = false;
  bool writing = false;
  std::string out;
  size_t out_off = 0;
  std::string queued;
  bool keep_alive = true;
  bool over_limit = false;  // accepted past max_connections: read the request, answer 503, close
  std::vector<std::shared_ptr<asio::steady_timer>> user_timers;
  // The exchange in progress (loop thread only).
  struct Exchange {
    std::uint64_t id = 0;
    enum class Phase { none, fresh, streaming, finishing } phase = Phase::none;
    int status = 0;
    std::uint64_t bytes = 0;
    TimePoint received;
    std::string method, path;
    bool head_request = false;
    std::function<void()> on_close;
    std::weak_ptr<WriterImpl> writer;
  } ex;

  ServerConn(std::shared_ptr<SLoop> l, Server::Impl& s, tcp::socket sock)
      : loop(std::move(l)), srv(s), timer(loop->ioc), parser(s.opts.max_header_bytes, s.opts.max_body_bytes) {
    if (srv.ssl_ctx) tls.emplace(std::move(sock), *srv.ssl_ctx);
    else plain.emplace(std::move(sock));
  }
  tcp::socket& sock() { return tls ? tls->next_layer() : *plain; }

  // timers
  void set_deadline(TimePoint tp);
  void on_timer(const error_code& ec);
  // lifecycle
  void start(TimePoint now);
  void close();
  // reading
  void do_read();
  void on_read(const error_code& ec, std::string_view data);
  void feed(std::string_view data);
  void process_input();
  // exchanges
  void begin_exchange(TimePoint received, std::string method, std::string path);
  void reject(int status, const std::string& why);
  void dispatch(TimePoint now);  // the router (server_dispatch.cpp)
  void respond(std::uint64_t id, int status, std::string body, std::string_view ct, const Headers& extra);
  void begin_stream(std::uint64_t id, int status, std::string_view ct, const Headers& extra);
  void write_chunk(std::uint64_t id, std::string_view data);
  void finish_stream(std::uint64_t id);
  void abandoned(std::uint64_t id);
  // writing
  void enqueue(std::string bytes);
  void flush();
  void written();
  void log_exchange(bool aborted);
  void end_exchange();
};

// The ResponseWriter a handler gets: thread-safe, every call runs on the connection's loop.
struct WriterImpl final : ResponseWriter, std::enable_shared_from_this<WriterImpl> {
  std::shared_ptr<ServerConn> conn;
  std::shared_ptr<SLoop> loop;
  std::uint64_t id;
  std::atomic<bool> closed_{false};

  WriterImpl(std::shared_ptr<ServerConn> c, std::uint64_t i) : conn(std::move(c)), loop(conn->loop), id(i) {}
  ~WriterImpl() override;

  template <typename F>
  void run(F&& f) {
    if (loop->stopped.load(std::memory_order_acquire)) return;
    if (t_sloop == loop.get()) f();
    else asio::post(loop->ioc, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(); });
  }

  void respond(int status, std::string body, std::string content_type, Headers extra) override;
  void begin_stream(int status, std::string content_type, Headers extra) override;
  void write(std::string bytes) override;
  void finish() override;
  bool closed() const override { return closed_.load(std::memory_order_acquire); }
  bool stopping() const override { return loop->stopping.load(std::memory_order_acquire); }
  void on_close(std::function<void()> fn) override;
  void post(std::function<void()> fn) override;
  void post_after(Millis delay, std::function<void()> fn) override;
};

}  // namespace detail
}  // namespace llmtriage::net
