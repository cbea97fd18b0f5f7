// A request's exchange on its connection: the phase timers, writing the request, reading and
// parsing the response (body, SSE events), and the endings (complete, fail) that report it.
#include <array>
#include <exception>
#include <string>

#include "net/client_impl.h"

namespace llmtriage::net::detail {
namespace {

std::string ms_text(Millis ms) { return std::to_string(ms.count()) + " ms"; }

}  // namespace

// ------------------------------------------------------------ timers

void Op::set_phase(Phase p, TimePoint now) {
  phase = p;
  Millis d = p == Phase::connect ? to.connect : p == Phase::first_byte ? to.first_byte : to.idle;
  phase_deadline = after(d, now);
  arm_timer();
}

void Op::arm_timer() {
  TimePoint next = std::min(phase_deadline, total_deadline);
  if (next == kNever) {
    timer.cancel();
    return;
  }
  timer.expires_at(next);
  timer.async_wait([self = shared_from_this()](const error_code& ec) { self->on_timer(ec); });
}

void Op::on_timer(const error_code& ec) {
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

std::string Op::progress_text() const {
  if (!got_bytes) return "no response byte";
  if (!parser.head_done()) return "an incomplete response head";
  return "after " + std::to_string(parser.body_bytes()) + " body bytes";
}

// ------------------------------------------------------------ write, read
void Op::send() {
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

void Op::on_sent(const error_code& ec) {
  if (finished) return;
  if (ec) {
    on_read_error(ec);
    return;
  }
  out.timing.sent = SteadyClock::now();
  phase_deadline = after(to.first_byte, out.timing.sent);
  read();
}

void Op::read() {
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

void Op::on_body(std::string_view bytes) {
  if (finished) return;  // failed inside this feed (too_large, a throwing handler)
  if (!head_reported) report_head();
  if (h.on_event && !sse_body()) {
    // An error status answers with a document (OpenAI's {"error": ...}), not events: keep its
    // head for the caller to read, never fail it as a truncated stream.
    constexpr size_t kErrorBodyKeep = 64 * 1024;
    if (out.body.size() < kErrorBodyKeep) out.body.append(bytes.substr(0, kErrorBodyKeep - out.body.size()));
  } else if (h.on_event) {
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

void Op::report_head() {
  head_reported = true;
  out.status = parser.head().status;
  out.reason = parser.head().reason;
  out.headers = parser.head().headers;
  if (h.on_head) h.on_head(parser.head());
}

void Op::on_bytes(std::string_view data) {
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

void Op::on_read_error(const error_code& ec) {
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
void Op::complete() {
  if (h.on_event && sse_body() && sse.truncated()) {
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

void Op::fail(Failure f, std::string expected, std::string found, std::string detail) {
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

void Op::end() {
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

}  // namespace llmtriage::net::detail
