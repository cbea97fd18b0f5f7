// The client's event loops, connection pool and per-request state machine (Asio lives here).
#include "net/client.h"

#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <future>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "net/http_parser.h"
#include "net/url.h"

namespace llmtriage::net {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using TimePoint = SteadyClock::time_point;
constexpr TimePoint kNever = TimePoint::max();

struct Loop;
thread_local Loop* t_loop = nullptr;  // the loop this thread runs, if any

std::string ms_text(Millis ms) { return std::to_string(ms.count()) + " ms"; }

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

}  // namespace

struct Client::Impl {
  ClientOptions opts;
  std::unique_ptr<ssl::context> ssl_ctx;
  std::string ssl_setup_error;
  std::vector<std::unique_ptr<Loop>> loops;
  std::atomic<size_t> next{0};
  std::atomic<size_t> in_flight{0};
  std::atomic<std::uint64_t> opened{0};
};

namespace {

enum class Phase { connect, first_byte, body };

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
  bool leftover = false;

  Op(Loop& l, Client::Impl& i, Request r, StreamHandlers hs, Url u)
      : loop(l), impl(i), req(std::move(r)), h(std::move(hs)), url(std::move(u)),
        to(req.timeouts ? *req.timeouts : i.opts.timeouts), timer(l.ioc),
        parser(i.opts.max_header_bytes) {
    key = std::string(url.tls ? "s|" : "p|") + url.host + "|" + std::to_string(url.port);
  }

  std::string where() const { return std::string(to_string(req.method)) + " " + url.redacted(); }

  // ------------------------------------------------------------ timers
  TimePoint after(Millis d, TimePoint from) const { return d.count() > 0 ? from + d : kNever; }

  void set_phase(Phase p, TimePoint now) {
    phase = p;
    Millis d = p == Phase::connect ? to.connect : p == Phase::first_byte ? to.first_byte : to.idle;
    phase_deadline = after(d, now);
    arm_timer();
  }

  void arm_timer() {
    TimePoint next = std::min(phase_deadline, total_deadline);
    if (next == kNever) {
      timer.cancel();
      return;
    }
    timer.expires_at(next);
    timer.async_wait([self = shared_from_this()](const error_code& ec) { self->on_timer(ec); });
  }

  void on_timer(const error_code& ec) {
    if (ec || finished) return;
    TimePoint now = SteadyClock::now();
    if (now >= total_deadline) {
      fail(Failure::timeout_total, "a complete response within " + ms_text(to.total),
           progress_text());
    } else if (now >= phase_deadline) {
      switch (phase) {
        case Phase::connect:
          fail(Failure::timeout_connect, "a connection within " + ms_text(to.connect),
               resolver ? "name resolution or connect still pending" : "connect or TLS handshake still pending");
          break;
        case Phase::first_byte:
          fail(Failure::timeout_first_byte,
               "a first response byte within " + ms_text(to.first_byte) + " of sending the request",
               "no byte");
          break;
        case Phase::body:
          fail(Failure::timeout_idle, "the next bytes within " + ms_text(to.idle),
               "a stall " + progress_text());
          break;
      }
    } else {
      arm_timer();  // an idle deadline moved forward since the timer was set
    }
  }

  std::string progress_text() const {
    if (!got_bytes) return "no response byte";
    if (!parser.head_done()) return "an incomplete response head";
    return "after " + std::to_string(parser.body_bytes()) + " body bytes";
  }

  // ------------------------------------------------------------ start, connect
  void begin() {
    if (loop.shutting_down) {
      fail(Failure::cancelled, "a running client", "the client shutting down");
      return;
    }
    loop.live.insert(shared_from_this());
    total_deadline = after(to.total, out.timing.start);
    auto it = loop.idle.find(key);
    while (it != loop.idle.end() && !it->second.empty()) {
      std::unique_ptr<Conn> c = std::move(it->second.back());
      it->second.pop_back();
      if (c->looks_alive()) {
        conn = std::move(c);
        out.timing.reused_connection = true;
        out.timing.connected = SteadyClock::now();
        send();
        return;
      }
      c->close();
    }
    connect();
  }

  void connect() {
    set_phase(Phase::connect, SteadyClock::now());
    if (url.tls && !impl.ssl_ctx) {
      fail(Failure::tls, "a usable TLS setup", impl.ssl_setup_error);
      return;
    }
    conn = std::make_unique<Conn>(loop.ioc, url.tls ? impl.ssl_ctx.get() : nullptr);
    error_code ec;
    auto addr = asio::ip::make_address(url.host, ec);
    if (!ec) {
      do_connect({tcp::endpoint(addr, url.port)});
      return;
    }
    resolver = std::make_unique<tcp::resolver>(loop.ioc);
    resolver->async_resolve(
        url.host, std::to_string(url.port),
        [self = shared_from_this()](const error_code& ec, tcp::resolver::results_type results) {
          if (self->finished) return;
          if (ec) {
            self->fail(Failure::dns, "a resolvable host name", "'" + self->url.host + "': " + ec.message());
            return;
          }
          std::vector<tcp::endpoint> eps;
          for (const auto& r : results) eps.push_back(r.endpoint());
          self->resolver.reset();
          self->do_connect(std::move(eps));
        });
  }

  void do_connect(std::vector<tcp::endpoint> eps) {
    asio::async_connect(conn->sock(), eps,
                        [self = shared_from_this()](const error_code& ec, const tcp::endpoint&) {
                          self->on_connect(ec);
                        });
  }

  void on_connect(const error_code& ec) {
    if (finished) return;
    if (ec) {
      bool refused = ec == asio::error::connection_refused;
      fail(refused ? Failure::connect_refused : Failure::connect,
           "a server accepting connections on " + url.host_header(), ec.message());
      return;
    }
    impl.opened.fetch_add(1, std::memory_order_relaxed);
    error_code ignore;
    conn->sock().set_option(tcp::no_delay(true), ignore);
    if (!conn->tls) {
      conn->sock().non_blocking(true, ignore);
      out.timing.connected = SteadyClock::now();
      send();
      return;
    }
    auto& s = *conn->tls;
    error_code addr_ec;
    asio::ip::make_address(url.host, addr_ec);
    if (addr_ec) SSL_set_tlsext_host_name(s.native_handle(), url.host.c_str());  // SNI: names only
    if (!impl.opts.insecure_tls) {
      s.set_verify_mode(ssl::verify_peer);
      s.set_verify_callback(ssl::host_name_verification(url.host));
    } else {
      s.set_verify_mode(ssl::verify_none);
    }
    s.async_handshake(ssl::stream_base::client, [self = shared_from_this()](const error_code& ec) {
      if (self->finished) return;
      if (ec) {
        std::string what = ec.message();
        long v = SSL_get_verify_result(self->conn->tls->native_handle());
        if (v != X509_V_OK) what += std::string(" (certificate: ") + X509_verify_cert_error_string(v) + ")";
        self->fail(Failure::tls, "a TLS handshake with " + self->url.host_header(), what,
                   self->impl.opts.insecure_tls ? "" : "--insecure skips certificate checks");
        return;
      }
      self->out.timing.connected = SteadyClock::now();
      self->send();
    });
  }

  // ------------------------------------------------------------ write, read
  void send() {
    if (head_out.empty()) {
      head_out.reserve(256 + req.body.size());
      head_out += to_string(req.method);
      head_out += ' ';
      head_out += url.target;
      head_out += " HTTP/1.1\r\nHost: ";
      head_out += url.host_header();
      head_out += "\r\nUser-Agent: ";
      head_out += impl.opts.user_agent;
      head_out += "\r\nAccept: */*\r\n";
      if (!impl.opts.keep_alive) head_out += "Connection: close\r\n";
      if (!req.bearer_token.empty()) head_out += "Authorization: Bearer " + req.bearer_token + "\r\n";
      for (const auto& hd : req.headers) head_out += hd.name + ": " + hd.value + "\r\n";
      if (!req.body.empty() || req.method == Method::post || req.method == Method::put) {
        if (!req.body.empty() && !find_header(req.headers, "content-type"))
          head_out += "Content-Type: " + req.content_type + "\r\n";
        head_out += "Content-Length: " + std::to_string(req.body.size()) + "\r\n";
      }
      head_out += "\r\n";
    }
    parser.reset(req.method == Method::head);
    set_phase(Phase::first_byte, SteadyClock::now());
    std::array<asio::const_buffer, 2> bufs{asio::buffer(head_out), asio::buffer(req.body)};
    auto done = [self = shared_from_this()](const error_code& ec, size_t) { self->on_sent(ec); };
    if (conn->tls) asio::async_write(*conn->tls, bufs, std::move(done));
    else asio::async_write(conn->sock(), bufs, std::move(done));
  }

  void on_sent(const error_code& ec) {
    if (finished) return;
    if (ec) {
      on_read_error(ec);
      return;
    }
    out.timing.sent = SteadyClock::now();
    phase_deadline = after(to.first_byte, out.timing.sent);
    read();
  }

  void read() {
    if (conn->tls) {
      if (tls_buf.empty()) tls_buf.resize(16 * 1024);
      conn->tls->async_read_some(asio::buffer(tls_buf),
                                 [self = shared_from_this()](const error_code& ec, size_t n) {
                                   if (self->finished) return;
                                   if (ec) self->on_read_error(ec);
                                   else self->on_bytes(std::string_view(self->tls_buf.data(), n));
                                 });
      return;
    }
    conn->sock().async_wait(tcp::socket::wait_read, [self = shared_from_this()](const error_code& ec) {
      if (self->finished) return;
      if (ec) {
        self->on_read_error(ec);
        return;
      }
      error_code rec;
      auto& buf = self->loop.rbuf;
      size_t n = self->conn->sock().read_some(asio::buffer(buf), rec);
      if (rec == asio::error::would_block || rec == asio::error::try_again) self->read();
      else if (rec) self->on_read_error(rec);
      else self->on_bytes(std::string_view(buf.data(), n));
    });
  }

  void on_body(std::string_view bytes) override {
    if (finished) return;  // failed inside this feed (too_large, a throwing handler)
    if (!head_reported) report_head();
    if (h.on_event) {
      bool ok = sse.feed(bytes, [this](const SseEvent& ev) {
        ++out.events;
        h.on_event(ev, arrived);
      });
      if (!ok) fail(Failure::too_large, "SSE events under the size limit", sse.error());
    } else if (h.on_data) {
      h.on_data(bytes, arrived);
    } else {
      if (out.body.size() + bytes.size() > impl.opts.max_body_bytes) {
        fail(Failure::too_large, "a body of at most " + std::to_string(impl.opts.max_body_bytes) + " bytes",
             "more");
        return;
      }
      out.body.append(bytes);
    }
  }

  void report_head() {
    head_reported = true;
    out.status = parser.head().status;
    out.reason = parser.head().reason;
    out.headers = parser.head().headers;
    if (h.on_head) h.on_head(parser.head());
  }

  void on_bytes(std::string_view data) {
    arrived = SteadyClock::now();
    if (!got_bytes) {
      got_bytes = true;
      out.timing.first_byte = arrived;
      phase = Phase::body;
    }
    phase_deadline = after(to.idle, arrived);  // lazily re-armed in on_timer
    size_t used = 0;
    try {
      used = parser.feed(data, *this);
      if (!finished && parser.head_done() && !head_reported) report_head();
    } catch (const std::exception& e) {
      fail(Failure::cancelled, "stream handlers that do not throw", std::string("a handler threw: ") + e.what());
      return;
    }
    if (finished) return;
    if (parser.failed()) {
      fail(parser.error().kind, "a well-formed HTTP/1.1 response", parser.error().what);
      return;
    }
    if (parser.done()) {
      leftover = used < data.size();
      complete();
      return;
    }
    read();
  }

  void on_read_error(const error_code& ec) {
    bool eof = ec == asio::error::eof || ec == ssl::error::stream_truncated;
    if (eof && got_bytes && parser.finish_eof()) {
      leftover = true;  // close-delimited: the connection is spent
      complete();
      return;
    }
    if (!got_bytes && out.timing.reused_connection && !retried) {
      // The server closed an idle pooled connection as we reused it: reconnect once.
      retried = true;
      out.timing.reused_connection = false;
      conn->close();
      conn.reset();
      connect();
      return;
    }
    std::string what = eof ? "connection closed by the peer" : ec.message();
    fail(Failure::reset, "a complete response", what + " " + progress_text());
  }

  // ------------------------------------------------------------ endings
  void complete() {
    if (h.on_event && sse.truncated()) {
      fail(Failure::sse_truncated, "every SSE event ended by a blank line",
           "the stream ended inside an event after " + std::to_string(out.events) + " events");
      return;
    }
    finished = true;
    timer.cancel();
    out.timing.done = SteadyClock::now();
    out.body_bytes = parser.body_bytes();
    bool reusable = impl.opts.keep_alive && parser.keep_alive() && !leftover && !loop.shutting_down;
    if (reusable) {
      auto& pool = loop.idle[key];
      if (pool.size() < impl.opts.max_idle_per_host) pool.push_back(std::move(conn));
    }
    if (conn) conn->close();
    end();
  }

  void fail(Failure f, std::string expected, std::string found, std::string detail = {}) {
    if (finished) return;
    finished = true;
    timer.cancel();
    if (resolver) resolver->cancel();
    if (conn) conn->close();
    out.failure = f;
    out.error = make_failure(f, where(), std::move(expected), std::move(found), std::move(detail));
    out.timing.done = SteadyClock::now();
    out.body_bytes = parser.body_bytes();
    end();
  }

  void end() {
    auto self = shared_from_this();
    loop.live.erase(self);
    impl.in_flight.fetch_sub(1, std::memory_order_relaxed);
    if (h.on_done) {
      try {
        h.on_done(out);
      } catch (...) {
        // A throwing completion handler must not take the loop down.
      }
    }
    h = StreamHandlers{};  // drop captured state now, not when the last handler unwinds
  }
};

void run_loop(Loop* loop) {
  t_loop = loop;
  for (;;) {
    try {
      loop->ioc.run();
      break;
    } catch (...) {
      // A posted function threw: keep the loop alive.
    }
  }
  t_loop = nullptr;
}

}  // namespace

// ---------------------------------------------------------------- Client
void RequestHandle::cancel() const {
  if (cancel_) cancel_();
}

Client::Client(ClientOptions options, int threads) : impl_(std::make_unique<Impl>()) {
  impl_->opts = std::move(options);
  try {
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3);
    if (!impl_->opts.ca_file.empty()) ctx->load_verify_file(impl_->opts.ca_file);
    else ctx->set_default_verify_paths();
    impl_->ssl_ctx = std::move(ctx);
  } catch (const std::exception& e) {
    impl_->ssl_setup_error = "CA file '" + impl_->opts.ca_file + "' unusable: " + e.what();
  }
  if (threads < 1) threads = 1;
  for (int i = 0; i < threads; ++i) {
    auto loop = std::make_unique<Loop>();
    loop->impl = impl_.get();
    loop->rbuf.resize(impl_->opts.read_buffer_bytes);
    impl_->loops.push_back(std::move(loop));
  }
  for (auto& loop : impl_->loops) loop->thread = std::thread(run_loop, loop.get());
}

Client::~Client() {
  for (auto& lp : impl_->loops) {
    Loop* loop = lp.get();
    asio::post(loop->ioc, [loop] {
      loop->shutting_down = true;
      auto live = loop->live;  // fail() erases from the set
      for (const auto& op : live) op->fail(Failure::cancelled, "a running client", "the client shutting down");
      for (auto& [key, conns] : loop->idle)
        for (auto& c : conns) c->close();
      loop->idle.clear();
      loop->ioc.stop();  // pending user timers are dropped, not run
    });
  }
  for (auto& loop : impl_->loops) {
    if (loop->thread.joinable()) loop->thread.join();
  }
  // Handlers still queued hold Op references; destroying each io_context releases them.
  for (auto& loop : impl_->loops) {
    loop->live.clear();
    loop->idle.clear();
  }
  impl_->loops.clear();
}

RequestHandle Client::start(Request request, StreamHandlers handlers) {
  auto url = parse_url(request.url);
  Loop& loop = *impl_->loops[impl_->next.fetch_add(1, std::memory_order_relaxed) % impl_->loops.size()];
  impl_->in_flight.fetch_add(1, std::memory_order_relaxed);
  RequestHandle handle;
  if (!url) {
    auto err = url.error();
    asio::post(loop.ioc, [this, err, h = std::move(handlers)]() {
      Outcome out;
      out.failure = Failure::bad_url;
      out.error = err;
      out.timing.start = out.timing.done = SteadyClock::now();
      impl_->in_flight.fetch_sub(1, std::memory_order_relaxed);
      if (h.on_done) h.on_done(out);
    });
    return handle;
  }
  auto op = std::make_shared<Op>(loop, *impl_, std::move(request), std::move(handlers), std::move(*url));
  op->out.timing.start = SteadyClock::now();
  std::weak_ptr<Op> weak = op;
  asio::io_context* ioc = &loop.ioc;
  handle.cancel_ = [weak, ioc] {
    if (weak.expired()) return;
    asio::post(*ioc, [weak] {
      if (auto o = weak.lock()) o->fail(Failure::cancelled, "the request to run", "cancelled by the caller");
    });
  };
  asio::post(loop.ioc, [op] { op->begin(); });
  return handle;
}

core::Result<Response> Client::fetch(Request request) {
  std::string where = std::string(to_string(request.method)) + " " + redact_url(request.url);
  if (t_loop) {
    return core::make_error(core::ErrorKind::internal, where, "fetch() called off the event loop",
                            "a call from a loop thread (it would deadlock)");
  }
  auto done = std::make_shared<std::promise<Outcome>>();
  auto fut = done->get_future();
  StreamHandlers h;
  h.on_done = [done](const Outcome& o) { done->set_value(o); };
  start(std::move(request), std::move(h));
  Outcome o = fut.get();
  if (!o.ok()) return o.error;
  Response r;
  r.status = o.status;
  r.reason = std::move(o.reason);
  r.headers = std::move(o.headers);
  r.body = std::move(o.body);
  r.timing = o.timing;
  return r;
}

void Client::post(std::function<void()> fn) { asio::post(impl_->loops[0]->ioc, std::move(fn)); }

void Client::post_at(SteadyClock::time_point when, std::function<void()> fn) {
  Loop* loop = impl_->loops[0].get();
  asio::post(loop->ioc, [loop, when, fn = std::move(fn)]() mutable {
    auto t = std::make_shared<asio::steady_timer>(loop->ioc, when);
    t->async_wait([t, fn = std::move(fn)](const error_code& ec) {
      if (!ec) fn();
    });
  });
}

size_t Client::in_flight() const { return impl_->in_flight.load(std::memory_order_relaxed); }
std::uint64_t Client::connections_opened() const { return impl_->opened.load(std::memory_order_relaxed); }
const ClientOptions& Client::options() const { return impl_->opts; }

}  // namespace llmtriage::net
