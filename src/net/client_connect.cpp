// A request's way to a usable connection: an idle pooled one if it is still alive, otherwise
// name resolution, TCP connect and the TLS handshake (SNI, certificate checks).
#include <string>
#include <vector>

#include "net/client_impl.h"

namespace llmtriage::net::detail {

// ------------------------------------------------------------ start, connect
void Op::begin() {
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

void Op::connect() {
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

void Op::do_connect(std::vector<tcp::endpoint> eps) {
  asio::async_connect(conn->sock(), eps,
                      [self = shared_from_this()](const error_code& ec, const tcp::endpoint&) {
                        self->on_connect(ec);
                      });
}

void Op::on_connect(const error_code& ec) {
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

}  // namespace llmtriage::net::detail
