// Routing a parsed request to its handler, and the ResponseWriter that handler answers through.
#include <exception>
#include <string>

#include "net/server_impl.h"
#include "net/server_util.h"

namespace llmtriage::net::detail {

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

// ---------------------------------------------------------------- WriterImpl
WriterImpl::~WriterImpl() {
  if (loop->stopped.load()) return;
  auto c = conn;
  auto i = id;
  if (t_sloop == loop.get()) c->abandoned(i);
  else asio::post(loop->ioc, [c, i] { c->abandoned(i); });
}

void WriterImpl::respond(int status, std::string body, std::string content_type, Headers extra) {
  run([c = conn, i = id, status, body = std::move(body), ct = std::move(content_type),
       extra = std::move(extra)]() mutable { c->respond(i, status, std::move(body), ct, extra); });
}

void WriterImpl::begin_stream(int status, std::string content_type, Headers extra) {
  run([c = conn, i = id, status, ct = std::move(content_type), extra = std::move(extra)] {
    c->begin_stream(i, status, ct, extra);
  });
}

void WriterImpl::write(std::string bytes) {
  run([c = conn, i = id, b = std::move(bytes)] { c->write_chunk(i, b); });
}

void WriterImpl::finish() {
  run([c = conn, i = id] { c->finish_stream(i); });
}

void WriterImpl::on_close(std::function<void()> fn) {
  run([c = conn, i = id, fn = std::move(fn)]() mutable {
    if (c->ex.id != i) return;
    if (c->st == ServerConn::St::closed) fn();
    else c->ex.on_close = std::move(fn);
  });
}

void WriterImpl::post(std::function<void()> fn) {
  if (loop->stopped.load()) return;
  asio::post(loop->ioc, [c = conn, fn = std::move(fn)] {
    if (c->st != ServerConn::St::closed) fn();
  });
}

void WriterImpl::post_after(Millis delay, std::function<void()> fn) {
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

}  // namespace llmtriage::net::detail
