#pragma once
// Asynchronous HTTP/1.1 client: keep-alive pool per host, http and https, streaming bodies with
// per-read steady_clock timestamps, SSE events, separately settable timeouts, cancellation.
// One event-loop thread runs thousands of requests; `threads` > 1 runs that many loops and
// spreads requests round-robin. Every callback of a request runs on its loop thread.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/error.h"
#include "core/result.h"
#include "net/failure.h"
#include "net/http.h"
#include "net/sse.h"

namespace llmtriage::net {

struct ClientOptions {
  Timeouts timeouts;
  bool insecure_tls = false;  // skip certificate and host-name verification (--insecure)
  std::string ca_file;        // PEM file of trusted CAs; empty = the system store
  size_t max_header_bytes = 64 * 1024;
  size_t max_body_bytes = 256u << 20;  // buffered bodies only; streamed bodies are unlimited
  size_t max_idle_per_host = 256;      // pooled keep-alive connections kept per host
  bool keep_alive = true;
  std::string user_agent = "llmtriage";
  size_t read_buffer_bytes = 256 * 1024;  // one buffer per loop, shared by its plain reads
};

// How a request ended. Exactly one per request.
struct Outcome {
  Failure failure = Failure::none;
  core::Error error;  // meaningful when failure != none; never contains the bearer token
  int status = 0;     // HTTP status when a head arrived
  std::string reason;
  Headers headers;
  // The body when no on_data / on_event handler was given; also, with on_event, the body of a
  // response whose status is not 2xx (an error document, not an SSE stream; up to 64 KiB kept).
  std::string body;
  std::uint64_t body_bytes = 0;  // body bytes received (after de-chunking)
  std::uint64_t events = 0;      // SSE events delivered
  Timing timing;
  bool ok() const { return failure == Failure::none; }
};

struct StreamHandlers {
  // The response head; called once, before any data.
  std::function<void(const ResponseHead&)> on_head;
  // Body bytes (de-chunked) with the instant the read that carried them completed.
  std::function<void(std::string_view bytes, SteadyClock::time_point arrived)> on_data;
  // If set, the body is parsed as SSE and each complete event is delivered with the arrival
  // instant of the read that completed it. A stream that ends inside an event fails with
  // Failure::sse_truncated.
  std::function<void(const SseEvent& event, SteadyClock::time_point arrived)> on_event;
  // Always called exactly once, last.
  std::function<void(const Outcome&)> on_done;
};

// Cancels one request (thread-safe; no-op once it finished). The request ends with
// Failure::cancelled. Do not use after the Client is destroyed.
class RequestHandle {
 public:
  RequestHandle() = default;
  void cancel() const;
  bool valid() const { return static_cast<bool>(cancel_); }

 private:
  friend class Client;
  std::function<void()> cancel_;
};

class Client {
 public:
  explicit Client(ClientOptions options = {}, int threads = 1);
  // Cancels what is in flight (each gets on_done with Failure::cancelled) and joins the loops.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Starts a request (thread-safe). Handlers run on the request's loop thread.
  RequestHandle start(Request request, StreamHandlers handlers);
  // Blocking: the whole response, or an Error whose category is failure_of(error). A status
  // >= 400 is returned as a Response, not an error (see net::fetch for the stricter form).
  // Must not be called from a loop thread.
  core::Result<Response> fetch(Request request);

  // Runs fn on loop 0 (now, or at a steady_clock instant): lets a load generator schedule
  // arrivals on the same thread that runs the requests.
  void post(std::function<void()> fn);
  void post_at(SteadyClock::time_point when, std::function<void()> fn);

  size_t in_flight() const;         // started and not yet done
  std::uint64_t connections_opened() const;  // new TCP connections (pool misses)
  const ClientOptions& options() const;

  struct Impl;  // opaque (Asio state lives in client_impl.h, private to src/net)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmtriage::net
