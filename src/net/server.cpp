// The server's listener and event loops: accepting, spreading connections over the loops, start
// and graceful stop (Asio lives in src/net .cpp files only; see server_impl.h).
#include "net/server.h"

#include <atomic>
#include <thread>
#include <vector>

#include "net/server_impl.h"

namespace llmtriage::net {
namespace detail {

thread_local SLoop* t_sloop = nullptr;

namespace {

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
}  // namespace detail

// ---------------------------------------------------------------- Server
Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) { impl_->opts = std::move(options); }

Server::~Server() { stop(); }

void Server::route(std::string method, std::string path, Handler handler) {
  impl_->routes[std::move(path)].push_back({std::move(method), std::move(handler)});
}

core::Status Server::start() {
  using namespace detail;
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
  using namespace detail;
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
