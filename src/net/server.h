#pragma once
// HTTP/1.1 server for the simulated engine and tests: router by method + exact path, whole or
// streamed responses (chunked transfer, SSE), body/header limits, header-read and idle timeouts
// (slow-loris safe), max connections, graceful shutdown within a bound, 127.0.0.1 by default,
// one access-log entry per request (never any header, so never Authorization).
//
// Threading: `threads` event loops; each connection lives on one loop and its handler runs there.
// A handler may answer at once or keep the ResponseWriter and write later from any thread or
// from a timer on the connection's loop (writer->post_after): the simulator pushes tokens at
// simulated times that way. Calls on one writer must come from one thread at a time.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "net/http.h"

namespace llmtriage::net {

struct ServerRequest {
  std::string method;  // "GET", "POST", ... as sent
  std::string target;  // "/v1/completions?stream=true"
  std::string path;    // "/v1/completions"
  std::string query;   // "stream=true"
  Headers headers;
  std::string body;
  std::string remote;  // "127.0.0.1:53412"
  SteadyClock::time_point received;  // when the whole request had arrived
  const std::string* header(std::string_view name) const { return find_header(headers, name); }
};

// The handler's half of one exchange. Thread-safe as documented above.
class ResponseWriter {
 public:
  virtual ~ResponseWriter() = default;
  // A whole response with Content-Length.
  virtual void respond(int status, std::string body, std::string content_type = "application/json",
                       Headers extra = {}) = 0;
  // A streamed response (Transfer-Encoding: chunked); then write()/send_event(), then finish().
  virtual void begin_stream(int status, std::string content_type, Headers extra = {}) = 0;
  // begin_stream(200, "text/event-stream") with Cache-Control: no-cache.
  void begin_sse(Headers extra = {});
  virtual void write(std::string bytes) = 0;
  // One SSE event: "event: <type>\n" (if any) + one "data: " line per line of data + "\n".
  void send_event(std::string_view data, std::string_view type = {});
  virtual void finish() = 0;
  // True once the client went away (the stream is cut; stop producing).
  virtual bool closed() const = 0;
  // True once the server is shutting down: finish soon, the grace period is running.
  virtual bool stopping() const = 0;
  // Called once on the connection's loop if the client goes away before finish().
  virtual void on_close(std::function<void()> fn) = 0;
  // Runs fn on the connection's loop, now or after a delay (cancelled if the client goes away).
  virtual void post(std::function<void()> fn) = 0;
  virtual void post_after(Millis delay, std::function<void()> fn) = 0;
};

// Gets the parsed request (it may move from it) and the writer. A handler that throws gets a 500;
// a writer dropped without a response sends a 500 (or cuts an unfinished stream).
using Handler = std::function<void(ServerRequest& request, std::shared_ptr<ResponseWriter> writer)>;

struct AccessLogEntry {
  std::string remote;
  std::string method;
  std::string path;  // without the query string (it may carry keys)
  int status = 0;
  std::uint64_t bytes = 0;  // response body bytes sent
  double duration_s = 0;    // request received -> response done
  bool aborted = false;     // the client went away or the server cut the stream
};
// `127.0.0.1:5000 "GET /metrics" 200 1234B 0.52ms` (+ " aborted").
std::string format_access_log(const AccessLogEntry& e);

struct ServerOptions {
  std::string host = "127.0.0.1";  // loopback unless asked otherwise
  std::uint16_t port = 0;          // 0: any free port (see Server::port())
  int threads = 1;
  size_t max_header_bytes = 16 * 1024;  // -> 431
  size_t max_body_bytes = 8u << 20;     // -> 413
  Millis header_timeout{10000};  // first request byte -> complete head; also the wait for a new
                                 // connection's first byte (slow-loris bound) -> 408 + close
  Millis idle_timeout{60000};    // keep-alive wait between requests, gaps in a body, and a
                                 // client that stops reading a response
  size_t max_connections = 10000;     // beyond: 503 and close
  Millis shutdown_grace{5000};        // stop(): in-flight responses get this long, then are cut
  std::function<void(const AccessLogEntry&)> access_log;  // null: no log
  std::string tls_cert_pem;  // both set: serve HTTPS
  std::string tls_key_pem;
};

struct ServerStats {
  std::uint64_t connections_accepted = 0;
  std::uint64_t connections_rejected = 0;  // over max_connections
  std::uint64_t requests = 0;
  std::uint64_t timeouts = 0;       // connections closed by header/idle timeouts
  std::uint64_t bad_requests = 0;   // 400/413/431/501 from the parser
  size_t open_connections = 0;
};

class Server {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Register before start(). Method "*" matches any method.
  void route(std::string method, std::string path, Handler handler);
  // Binds and starts the loops. Error kind network with the address on failure.
  core::Status start();
  std::uint16_t port() const;
  std::string base_url() const;  // "http://127.0.0.1:PORT"
  // Stops accepting, closes idle connections, lets in-flight responses run for up to
  // shutdown_grace, cuts the rest, joins the loops. Idempotent; call from outside the loops.
  void stop();
  ServerStats stats() const;

  struct Impl;  // opaque (Asio state lives in server_impl.h, private to src/net)

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace llmtriage::net
