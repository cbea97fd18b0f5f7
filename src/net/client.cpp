// The client's event loops and its public API: starting requests on a loop, the blocking fetch,
// posted work and shutdown (Asio lives in src/net .cpp files only; see client_impl.h).
#include "net/client.h"

#include <future>
#include <thread>

#include "net/client_impl.h"

namespace llmtriage::net {
namespace detail {

thread_local Loop* t_loop = nullptr;

namespace {

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
}  // namespace detail

// ---------------------------------------------------------------- Client
void RequestHandle::cancel() const {
  if (cancel_) cancel_();
}

Client::Client(ClientOptions options, int threads) : impl_(std::make_unique<Impl>()) {
  using namespace detail;
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
  using namespace detail;
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
  using namespace detail;
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
  // Started from one of this loop's own handlers (a closed loop launching the next request from
  // the last one's on_done): begin at once rather than behind every event already queued, which
  // under 1000 streams delays the write by milliseconds. begin() can end a request synchronously
  // only while shutting down or without a TLS context; those go through post, so on_done never
  // runs inside start().
  if (loop.ioc.get_executor().running_in_this_thread() && !loop.shutting_down && (!op->url.tls || impl_->ssl_ctx)) {
    op->begin();
    return handle;
  }
  asio::post(loop.ioc, [op] { op->begin(); });
  return handle;
}

core::Result<Response> Client::fetch(Request request) {
  using namespace detail;
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

void Client::post(std::function<void()> fn) { detail::asio::post(impl_->loops[0]->ioc, std::move(fn)); }

void Client::post_at(SteadyClock::time_point when, std::function<void()> fn) {
  using namespace detail;
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
