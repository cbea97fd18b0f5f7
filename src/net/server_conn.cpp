// The connection state machine: timers, reading, exchanges and writing on one loop thread.
#include <chrono>
#include <cstdio>
#include <string>

#include "net/server_impl.h"
#include "net/server_util.h"

namespace llmtriage::net::detail {

// ------------------------------------------------------------ timers
void ServerConn::set_deadline(TimePoint tp) {
  deadline = tp;
  if (tp < armed_at) {
    armed_at = tp;
    timer.expires_at(tp);
    timer.async_wait([self = shared_from_this()](const error_code& ec) { self->on_timer(ec); });
  }
}
void ServerConn::on_timer(const error_code& ec) {
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
void ServerConn::start(TimePoint now) {
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

// ------------------------------------------------------------ reading
void ServerConn::do_read() {
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

void ServerConn::on_read(const error_code& ec, std::string_view data) {
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

void ServerConn::feed(std::string_view data) {
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

void ServerConn::process_input() {
  if (pending_in.empty()) {
    do_read();
    return;
  }
  std::string in;
  in.swap(pending_in);
  feed(in);
}

// ------------------------------------------------------------ exchanges
void ServerConn::begin_exchange(TimePoint received, std::string method, std::string path) {
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

void ServerConn::reject(int status, const std::string& why) {
  begin_exchange(SteadyClock::now(), parser.head().method.empty() ? "-" : parser.head().method, "-");
  respond(ex.id, status, json_error_body(status, why), "application/json", {});
}

void ServerConn::respond(std::uint64_t id, int status, std::string body, std::string_view ct, const Headers& extra) {
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

void ServerConn::begin_stream(std::uint64_t id, int status, std::string_view ct, const Headers& extra) {
  if (id != ex.id || ex.phase != Exchange::Phase::fresh || st == St::closed) return;
  std::string bytes;
  append_response_head(bytes, status, ct, extra, -1, keep_alive && !loop->stopping.load());
  ex.status = status;
  ex.phase = Exchange::Phase::streaming;
  enqueue(std::move(bytes));
}

void ServerConn::write_chunk(std::uint64_t id, std::string_view data) {
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

void ServerConn::finish_stream(std::uint64_t id) {
  if (id != ex.id || ex.phase != Exchange::Phase::streaming || st == St::closed) return;
  ex.phase = Exchange::Phase::finishing;
  if (!keep_alive || loop->stopping.load()) keep_alive = false;
  enqueue("0\r\n\r\n");
}

// The writer was dropped: answer 500 if nothing was sent, cut an unfinished stream.
void ServerConn::abandoned(std::uint64_t id) {
  if (id != ex.id || st == St::closed) return;
  if (ex.phase == Exchange::Phase::fresh) {
    keep_alive = false;
    respond(id, 500, json_error_body(500, "the handler returned no response"), "application/json", {});
  } else if (ex.phase == Exchange::Phase::streaming) {
    close();
  }
}

// ------------------------------------------------------------ writing
void ServerConn::enqueue(std::string bytes) {
  if (writing) {
    queued.append(bytes);
    return;
  }
  if (out.empty()) out = std::move(bytes);
  else out.append(bytes);
  flush();
}

void ServerConn::flush() {
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

void ServerConn::written() {
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

void ServerConn::log_exchange(bool aborted) {
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

void ServerConn::end_exchange() {
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

}  // namespace llmtriage::net::detail
