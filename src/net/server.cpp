// The server's loops, acceptor, connections and writers (Asio lives here).
#include "net/server.h"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "net/http_parser.h"
#include "net/server_util.h"

namespace llmtriage::net {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using TimePoint = SteadyClock::time_point;
constexpr TimePoint kNoDeadline = TimePoint::max();
constexpr size_t kMaxPipelinedBytes = 1u << 20;

struct ServerConn;

struct SLoop {
  asio::io_context ioc{1};
  asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
  std::thread thread;
  std::vector<char> rbuf = std::vector<char>(64 * 1024);
  std::unordered_set<ServerConn*> conns;
  std::atomic<bool> stopping{false};  // stop() began: finish responses, then close
  std::atomic<bool> stopped{false};   // loop gone: writers become no-ops
};
thread_local SLoop* t_sloop = nullptr;

struct Route {
  std::string method;
  Handler handler;
};

}  // namespace

struct Server::Impl {
  ServerOptions opts;
  std::unordered_map<std::string, std::vector<Route>> routes;
  std::vector<std::shared_ptr<SLoop>> loops;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<ssl::context> ssl_ctx;
  std::uint16_t port = 0;
  size_t next_loop = 0;
  bool started = false;
  bool stopped = false;
  std::atomic<std::uint64_t> accepted{0}, rejected{0}, requests{0}, timeouts{0}, bad{0};
  std::atomic<size_t> open{0};
  std::atomic<size_t> overflow_open{0};  // connections over the limit, being answered 503
};

namespace {

struct WriterImpl;

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

  // ------------------------------------------------------------ timers
  void set_deadline(TimePoint tp) {
    deadline = tp;
    if (tp < armed_at) {
      armed_at = tp;
      timer.expires_at(tp);
      timer.async_wait([self = shared_from_this()](const error_code& ec) { self->on_timer(ec); });
    }
  }
  void on_timer(const error_code& ec) {
    if (ec == asio::error::operation_aborted || st == St::closed) return;
    armed_at = kNoDeadline;
    if (deadline == kNoDeadline) return;
    if (SteadyClock::now() < deadline) {
      set_deadline(deadline);
      return;
    }
    srv.timeouts.fetch_add(1, std::memory_order_relaxed);
    if ((st == St::head || st == St::body) && !tls && !writing) {
      // Best effort, never blocking: the peer may not read at all.
      static const char k408[] = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
      error_code ignore;
      sock().non_blocking(true, ignore);
      sock().write_some(asio::buffer(k408, sizeof k408 - 1), ignore);
    }
    close();
  }

  // ------------------------------------------------------------ lifecycle
  void start(TimePoint now) {
    loop->conns.insert(this);
    if (loop->stopping.load()) {
      close();
      return;
    }
    error_code ec;
    auto ep = sock().remote_endpoint(ec);
    if (!ec) remote = ep.address().to_string() + ":" + std::to_string(ep.port());
    sock().set_option(tcp::no_delay(true), ec);
    set_deadline(now + srv.opts.header_timeout);
    if (tls) {
      st = St::handshake;
      tls->async_handshake(ssl::stream_base::server, [self = shared_from_this()](const error_code& ec) {
        if (self->st == St::closed) return;
        if (ec) {
          self->close();
          return;
        }
        self->st = St::wait;
        self->do_read();
      });
      return;
    }
    sock().non_blocking(true, ec);
    st = St::wait;
    do_read();
  }

  void close();

  // ------------------------------------------------------------ reading
  void do_read() {
    if (reading || st == St::closed) return;
    reading = true;
    if (tls) {
      if (tls_buf.empty()) tls_buf.resize(16 * 1024);
      tls->async_read_some(asio::buffer(tls_buf), [self = shared_from_this()](const error_code& ec, size_t n) {
        self->reading = false;
        self->on_read(ec, std::string_view(self->tls_buf.data(), n));
      });
      return;
    }
    sock().async_wait(tcp::socket::wait_read, [self = shared_from_this()](const error_code& ec) {
      self->reading = false;
      if (ec) {
        self->on_read(ec, {});
        return;
      }
      if (self->st == St::closed) return;
      error_code rec;
      size_t n = self->sock().read_some(asio::buffer(self->loop->rbuf), rec);
      if (rec == asio::error::would_block || rec == asio::error::try_again) self->do_read();
      else self->on_read(rec, std::string_view(self->loop->rbuf.data(), n));
    });
  }

  void on_read(const error_code& ec, std::string_view data) {
    if (st == St::closed) return;
    if (ec) {
      close();  // EOF or reset: the client is gone
      return;
    }
    if (st == St::handling) {
      // Pipelined bytes (or a disconnect probe) while a response is running: keep them.
      pending_in.append(data);
      if (pending_in.size() < kMaxPipelinedBytes) do_read();
      return;
    }
    feed(data);
  }

  void feed(std::string_view data) {
    TimePoint now = SteadyClock::now();
    if (st == St::wait && !data.empty()) {
      st = St::head;
      set_deadline(now + srv.opts.header_timeout);  // not extended per read: slow-loris bound
    }
    size_t used = parser.feed(data);
    if (parser.failed()) {
      srv.bad.fetch_add(1, std::memory_order_relaxed);
      keep_alive = false;
      reject(parser.error_status(), parser.error().what);
      return;
    }
    if (parser.done()) {
      pending_in.assign(data.substr(used));
      dispatch(now);
      return;
    }
    if (parser.head_done()) {
      st = St::body;
      set_deadline(now + srv.opts.idle_timeout);
    }
    do_read();
  }

  void process_input() {
    if (pending_in.empty()) {
      do_read();
      return;
    }
    std::string in;
    in.swap(pending_in);
    feed(in);
  }

  // ------------------------------------------------------------ exchanges
  void begin_exchange(TimePoint received, std::string method, std::string path) {
    ++ex.id;
    ex.phase = Exchange::Phase::fresh;
    ex.status = 0;
    ex.bytes = 0;
    ex.received = received;
    ex.method = std::move(method);
    ex.path = std::move(path);
    ex.on_close = nullptr;
    ex.writer.reset();
    st = St::handling;
    set_deadline(kNoDeadline);
  }

  void reject(int status, const std::string& why) {
    begin_exchange(SteadyClock::now(), parser.head().method.empty() ? "-" : parser.head().method, "-");
    respond(ex.id, status, json_error_body(status, why), "application/json", {});
  }

  void dispatch(TimePoint now);

  void respond(std::uint64_t id, int status, std::string body, std::string_view ct, const Headers& extra) {
    if (id != ex.id || ex.phase != Exchange::Phase::fresh || st == St::closed) return;
    bool ka = keep_alive && !loop->stopping.load(std::memory_order_relaxed);
    keep_alive = ka;
    std::string bytes;
    bytes.reserve(160 + body.size());
    append_response_head(bytes, status, ct, extra, static_cast<long long>(body.size()), ka);
    if (!ex.head_request) bytes += body;
    ex.status = status;
    ex.bytes = body.size();
    ex.phase = Exchange::Phase::finishing;
    enqueue(std::move(bytes));
  }

  void begin_stream(std::uint64_t id, int status, std::string_view ct, const Headers& extra) {
    if (id != ex.id || ex.phase != Exchange::Phase::fresh || st == St::closed) return;
    std::string bytes;
    append_response_head(bytes, status, ct, extra, -1, keep_alive && !loop->stopping.load());
    ex.status = status;
    ex.phase = Exchange::Phase::streaming;
    enqueue(std::move(bytes));
  }

  void write_chunk(std::uint64_t id, std::string_view data) {
    if (id != ex.id || ex.phase != Exchange::Phase::streaming || st == St::closed || data.empty()) return;
    char size[20];
    int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    std::string& dst = writing ? queued : out;
    dst.append(size, static_cast<size_t>(n));
    dst.append(data);
    dst.append("\r\n");
    ex.bytes += data.size();
    if (!writing) flush();
  }

  void finish_stream(std::uint64_t id) {
    if (id != ex.id || ex.phase != Exchange::Phase::streaming || st == St::closed) return;
    ex.phase = Exchange::Phase::finishing;
    if (!keep_alive || loop->stopping.load()) keep_alive = false;
    enqueue("0\r\n\r\n");
  }

  // The writer was dropped: answer 500 if nothing was sent, cut an unfinished stream.
  void abandoned(std::uint64_t id) {
    if (id != ex.id || st == St::closed) return;
    if (ex.phase == Exchange::Phase::fresh) {
      keep_alive = false;
      respond(id, 500, json_error_body(500, "the handler returned no response"), "application/json", {});
    } else if (ex.phase == Exchange::Phase::streaming) {
      close();
    }
  }

  // ------------------------------------------------------------ writing
  void enqueue(std::string bytes) {
    if (writing) {
      queued.append(bytes);
      return;
    }
    if (out.empty()) out = std::move(bytes);
    else out.append(bytes);
    flush();
  }

  void flush() {
    if (st == St::closed) return;
    writing = true;
    if (!tls) {
      // Try the write now: a small response usually fits the socket buffer (no reactor trip).
      error_code ec;
      while (out_off < out.size()) {
        size_t n = sock().write_some(asio::buffer(out.data() + out_off, out.size() - out_off), ec);
        if (ec) break;
        out_off += n;
      }
      if (!ec) {
        written();
        return;
      }
      if (ec != asio::error::would_block && ec != asio::error::try_again) {
        close();
        return;
      }
      set_deadline(SteadyClock::now() + srv.opts.idle_timeout);  // a client that stops reading
      sock().async_wait(tcp::socket::wait_write, [self = shared_from_this()](const error_code& ec) {
        if (self->st == St::closed) return;
        if (ec) {
          self->close();
          return;
        }
        self->flush();
      });
      return;
    }
    set_deadline(SteadyClock::now() + srv.opts.idle_timeout);
    asio::async_write(*tls, asio::buffer(out.data() + out_off, out.size() - out_off),
                      [self = shared_from_this()](const error_code& ec, size_t) {
                        if (self->st == St::closed) return;
                        if (ec) {
                          self->close();
                          return;
                        }
                        self->out_off = self->out.size();
                        self->written();
                      });
  }

  void written() {
    out.clear();
    out_off = 0;
    if (!queued.empty()) {
      out.swap(queued);
      flush();
      return;
    }
    writing = false;
    if (st == St::handling && ex.phase != Exchange::Phase::finishing) set_deadline(kNoDeadline);
    if (ex.phase == Exchange::Phase::finishing) end_exchange();
  }

  void log_exchange(bool aborted) {
    if (!srv.opts.access_log || ex.phase == Exchange::Phase::none) return;
    AccessLogEntry e;
    e.remote = remote;
    e.method = ex.method;
    e.path = ex.path;
    e.status = ex.status;
    e.bytes = ex.bytes;
    e.duration_s = std::chrono::duration<double>(SteadyClock::now() - ex.received).count();
    e.aborted = aborted;
    try {
      srv.opts.access_log(e);
    } catch (...) {
      // The log sink must not take the connection down.
    }
  }

  void end_exchange() {
    log_exchange(false);
    ex.phase = Exchange::Phase::none;
    ex.on_close = nullptr;
    if (!keep_alive || loop->stopping.load()) {
      close();
      return;
    }
    parser.reset();
    st = St::wait;
    set_deadline(SteadyClock::now() + srv.opts.idle_timeout);
    if (pending_in.empty()) {
      do_read();
    } else {
      // A pipelined request: parse it from the loop, not from inside this response's call chain.
      asio::post(loop->ioc, [self = shared_from_this()] {
        if (self->st == St::wait) self->process_input();
      });
    }
  }
};

struct WriterImpl final : ResponseWriter, std::enable_shared_from_this<WriterImpl> {
  std::shared_ptr<ServerConn> conn;
  std::shared_ptr<SLoop> loop;
  std::uint64_t id;
  std::atomic<bool> closed_{false};

  WriterImpl(std::shared_ptr<ServerConn> c, std::uint64_t i) : conn(std::move(c)), loop(conn->loop), id(i) {}
  ~WriterImpl() override {
    if (loop->stopped.load()) return;
    auto c = conn;
    auto i = id;
    if (t_sloop == loop.get()) c->abandoned(i);
    else asio::post(loop->ioc, [c, i] { c->abandoned(i); });
  }

  template <typename F>
  void run(F&& f) {
    if (loop->stopped.load(std::memory_order_acquire)) return;
    if (t_sloop == loop.get()) f();
    else asio::post(loop->ioc, [self = shared_from_this(), f = std::forward<F>(f)]() mutable { f(); });
  }

  void respond(int status, std::string body, std::string content_type, Headers extra) override {
    run([c = conn, i = id, status, body = std::move(body), ct = std::move(content_type),
         extra = std::move(extra)]() mutable { c->respond(i, status, std::move(body), ct, extra); });
  }
  void begin_stream(int status, std::string content_type, Headers extra) override {
    run([c = conn, i = id, status, ct = std::move(content_type), extra = std::move(extra)] {
      c->begin_stream(i, status, ct, extra);
    });
  }
  void write(std::string bytes) override {
    run([c = conn, i = id, b = std::move(bytes)] { c->write_chunk(i, b); });
  }
  void finish() override {
    run([c = conn, i = id] { c->finish_stream(i); });
  }
  bool closed() const override { return closed_.load(std::memory_order_acquire); }
  bool stopping() const override { return loop->stopping.load(std::memory_order_acquire); }
  void on_close(std::function<void()> fn) override {
    run([c = conn, i = id, fn = std::move(fn)]() mutable {
      if (c->ex.id != i) return;
      if (c->st == ServerConn::St::closed) fn();
      else c->ex.on_close = std::move(fn);
    });
  }
  void post(std::function<void()> fn) override {
    if (loop->stopped.load()) return;
    asio::post(loop->ioc, [c = conn, fn = std::move(fn)] {
      if (c->st != ServerConn::St::closed) fn();
    });
  }
  void post_after(Millis delay, std::function<void()> fn) override {
    run([c = conn, delay, fn = std::move(fn)]() mutable {
      if (c->st == ServerConn::St::closed) return;
      auto t = std::make_shared<asio::steady_timer>(c->loop->ioc, delay);
      c->user_timers.push_back(t);
      if (c->user_timers.size() > 64) {
        // Forget fired timers so a long stream does not accumulate them.
        std::erase_if(c->user_timers, [](const auto& p) { return p.use_count() == 1; });
      }
      t->async_wait([c, t, fn = std::move(fn)](const error_code& ec) {
        if (!ec && c->st != ServerConn::St::closed) fn();
      });
    });
  }
};

void ServerConn::close() {
  if (st == St::closed) return;
  bool in_exchange = ex.phase != Exchange::Phase::none;
  st = St::closed;
  error_code ec;
  sock().close(ec);
  timer.cancel();
  for (auto& t : user_timers) t->cancel();
  user_timers.clear();
  loop->conns.erase(this);
  (over_limit ? srv.overflow_open : srv.open).fetch_sub(1, std::memory_order_relaxed);
  if (in_exchange) {
    if (auto w = ex.writer.lock()) w->closed_.store(true, std::memory_order_release);
    log_exchange(true);
    if (ex.on_close) {
      auto fn = std::move(ex.on_close);
      ex.on_close = nullptr;
      try {
        fn();
      } catch (...) {
      }
    }
    ex.phase = Exchange::Phase::none;
  }
}

void ServerConn::dispatch(TimePoint now) {
  srv.requests.fetch_add(1, std::memory_order_relaxed);
  ServerRequest req;
  auto& head = parser.head();
  req.method = std::move(head.method);
  req.target = std::move(head.target);
  auto q = req.target.find('?');
  req.path = req.target.substr(0, q);
  if (q != std::string::npos) req.query = req.target.substr(q + 1);
  req.headers = std::move(head.headers);
  req.body = std::move(parser.body());
  req.remote = remote;
  req.received = now;
  keep_alive = parser.keep_alive() && !over_limit;
  begin_exchange(now, req.method, req.path);
  ex.head_request = req.method == "HEAD";
  if (over_limit) {
    respond(ex.id, 503, json_error_body(503, "too many connections"), "application/json", {});
    return;
  }
  const Handler* handler = nullptr;
  auto it = srv.routes.find(req.path);
  std::string allow;
  if (it != srv.routes.end()) {
    for (const auto& r : it->second) {
      if (r.method == req.method || r.method == "*" || (ex.head_request && r.method == "GET")) {
        handler = &r.handler;
        break;
      }
      allow += (allow.empty() ? "" : ", ") + r.method;
    }
  }
  if (!handler) {
    if (it == srv.routes.end()) respond(ex.id, 404, json_error_body(404, "no route for " + req.path), "application/json", {});
    else respond(ex.id, 405, json_error_body(405, req.method + " is not allowed on " + req.path), "application/json", {{"Allow", allow}});
    return;
  }
  auto writer = std::make_shared<WriterImpl>(shared_from_this(), ex.id);
  ex.writer = writer;
  try {
    (*handler)(req, writer);
  } catch (const std::exception& e) {
    if (ex.phase == Exchange::Phase::fresh) {
      keep_alive = false;
      respond(ex.id, 500, json_error_body(500, std::string("handler failed: ") + e.what()), "application/json", {});
    } else if (ex.phase == Exchange::Phase::streaming) {
      close();
    }
  }
  // Still running (streaming or answering later): watch for a disconnect meanwhile.
  if (st == St::handling && ex.phase != Exchange::Phase::none) do_read();
}

void run_server_loop(SLoop* loop) {
  t_sloop = loop;
  for (;;) {
    try {
      loop->ioc.run();
      break;
    } catch (...) {
      // A posted function threw: keep serving.
    }
  }
  t_sloop = nullptr;
}

void reject_over_limit(tcp::socket& s) {
  static const char k503[] =
      "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: application/json\r\n"
      "Content-Length: 84\r\n\r\n"
      "{\"error\":{\"message\":\"too many connections\",\"type\":\"server_error\",\"code\":503}}   ";
  error_code ec;
  s.non_blocking(true, ec);
  s.write_some(asio::buffer(k503, sizeof k503 - 1), ec);
  s.close(ec);
}

void accept_next(Server::Impl* srv) {
  auto target = srv->loops[srv->next_loop++ % srv->loops.size()];
  srv->acceptor->async_accept(target->ioc, [srv, target](const error_code& ec, tcp::socket s) {
    if (ec == asio::error::operation_aborted || !srv->acceptor || !srv->acceptor->is_open()) return;
    if (!ec) {
      bool over = srv->open.load() >= srv->opts.max_connections;
      if (target->stopping.load() || (over && srv->overflow_open.load() >= 1024)) {
        srv->rejected.fetch_add(1, std::memory_order_relaxed);
        reject_over_limit(s);
      } else {
        // Over the limit, the request is still read so that the 503 is not lost to a reset.
        if (over) srv->rejected.fetch_add(1, std::memory_order_relaxed);
        else srv->accepted.fetch_add(1, std::memory_order_relaxed);
        (over ? srv->overflow_open : srv->open).fetch_add(1, std::memory_order_relaxed);
        asio::post(target->ioc, [srv, target, over, s = std::move(s)]() mutable {
          auto c = std::make_shared<ServerConn>(target, *srv, std::move(s));
          c->over_limit = over;
          c->start(SteadyClock::now());
        });
      }
    }
    accept_next(srv);
  });
}

}  // namespace

// ---------------------------------------------------------------- Server
Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) { impl_->opts = std::move(options); }

Server::~Server() { stop(); }

void Server::route(std::string method, std::string path, Handler handler) {
  impl_->routes[std::move(path)].push_back({std::move(method), std::move(handler)});
}

core::Status Server::start() {
  auto& o = impl_->opts;
  std::string where = o.host + ":" + std::to_string(o.port);
  if (impl_->started) return core::make_error(core::ErrorKind::internal, where, "start() once", "a second call");
  try {
    if (!o.tls_cert_pem.empty() || !o.tls_key_pem.empty()) {
      auto ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
      ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
      ctx->use_certificate_chain(asio::buffer(o.tls_cert_pem));
      ctx->use_private_key(asio::buffer(o.tls_key_pem), ssl::context::pem);
      impl_->ssl_ctx = std::move(ctx);
    }
  } catch (const std::exception& e) {
    return core::make_error(core::ErrorKind::input, "TLS certificate/key", "a PEM certificate and key", e.what());
  }
  int n = o.threads < 1 ? 1 : o.threads;
  for (int i = 0; i < n; ++i) impl_->loops.push_back(std::make_shared<SLoop>());
  error_code ec;
  auto addr = asio::ip::make_address(o.host, ec);
  if (ec) {
    return core::make_error(core::ErrorKind::usage, "--host", "an IP address such as 127.0.0.1", o.host);
  }
  auto acc = std::make_unique<tcp::acceptor>(impl_->loops[0]->ioc);
  tcp::endpoint ep(addr, o.port);
  acc->open(ep.protocol(), ec);
  if (!ec) acc->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acc->bind(ep, ec);
  if (!ec) acc->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    acc.reset();  // before its io_context
    impl_->loops.clear();
    return core::make_error(core::ErrorKind::network, where, "a free address to listen on", ec.message());
  }
  impl_->port = acc->local_endpoint().port();
  impl_->acceptor = std::move(acc);
  accept_next(impl_.get());
  for (auto& l : impl_->loops) l->thread = std::thread(run_server_loop, l.get());
  impl_->started = true;
  return core::ok_status();
}

std::uint16_t Server::port() const { return impl_->port; }

std::string Server::base_url() const {
  std::string host = impl_->opts.host.find(':') != std::string::npos ? "[" + impl_->opts.host + "]" : impl_->opts.host;
  return std::string(impl_->ssl_ctx ? "https://" : "http://") + host + ":" + std::to_string(impl_->port);
}

void Server::stop() {
  auto* im = impl_.get();
  if (!im->started || im->stopped) return;
  im->stopped = true;
  asio::post(im->loops[0]->ioc, [im] {
    error_code ec;
    im->acceptor->close(ec);
  });
  for (auto& l : im->loops) {
    SLoop* loop = l.get();
    asio::post(loop->ioc, [loop] {
      loop->stopping = true;
      std::vector<ServerConn*> conns(loop->conns.begin(), loop->conns.end());
      for (ServerConn* c : conns) {
        if (c->st != ServerConn::St::handling) c->close();
        else c->keep_alive = false;  // finish this response, then close
      }
    });
  }
  auto wait_open = [im](Millis bound) {
    auto until = SteadyClock::now() + bound;
    while (im->open.load() + im->overflow_open.load() > 0 && SteadyClock::now() < until)
      std::this_thread::sleep_for(Millis(2));
  };
  wait_open(im->opts.shutdown_grace);
  for (auto& l : im->loops) {
    SLoop* loop = l.get();
    asio::post(loop->ioc, [loop] {
      std::vector<ServerConn*> conns(loop->conns.begin(), loop->conns.end());
      for (ServerConn* c : conns) c->close();  // past the grace period: cut
    });
  }
  wait_open(Millis(1000));
  for (auto& l : im->loops) {
    l->stopped.store(true, std::memory_order_release);
    l->work.reset();
    l->ioc.stop();
  }
  for (auto& l : im->loops) {
    if (l->thread.joinable()) l->thread.join();
  }
  // Run what is still queued (completions of closed sockets) so it releases its references.
  for (auto& l : im->loops) {
    t_sloop = l.get();
    l->ioc.restart();
    try {
      l->ioc.poll();
    } catch (...) {
    }
    t_sloop = nullptr;
  }
  im->acceptor.reset();
}

ServerStats Server::stats() const {
  ServerStats s;
  s.connections_accepted = impl_->accepted.load();
  s.connections_rejected = impl_->rejected.load();
  s.requests = impl_->requests.load();
  s.timeouts = impl_->timeouts.load();
  s.bad_requests = impl_->bad.load();
  s.open_connections = impl_->open.load();
  return s;
}

}  // namespace llmtriage::net
