#pragma once
// Plain HTTP/1.1 value types shared by the client (net/client.h, net/fetch.h) and the server
// (net/server.h). No Asio or Beast type appears here: callers see std types only.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llmtriage::net {

using SteadyClock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

enum class Method { get, post, head, put, del };
const char* to_string(Method m);  // "GET", "POST", ...

struct Header {
  std::string name;
  std::string value;
};
using Headers = std::vector<Header>;

// Case-insensitive lookup; the first match, or nullptr.
const std::string* find_header(const Headers& headers, std::string_view name);
bool iequals(std::string_view a, std::string_view b);

// Per-request timeouts, each separately settable. Zero disables that limit.
struct Timeouts {
  Millis connect{5000};      // name resolution + TCP connect + TLS handshake
  Millis first_byte{30000};  // request fully written -> first response byte
  Millis idle{30000};        // longest gap between two reads once the response started
  Millis total{0};           // the whole request, connect included
};

struct Request {
  Method method = Method::get;
  std::string url;            // http://host[:port]/path?query or https://...
  Headers headers;            // extra headers; Host, Content-Length and User-Agent are added
  std::string body;
  std::string content_type = "application/json";  // sent only when body is non-empty
  // Sent as "Authorization: Bearer <token>". Never logged, never copied into an Error.
  std::string bearer_token;
  std::optional<Timeouts> timeouts;  // overrides ClientOptions::timeouts for this request
};

// Steady-clock instants of one request's life (unset ones equal time_point{}).
struct Timing {
  SteadyClock::time_point start;       // start() was called
  SteadyClock::time_point connected;   // TCP (+TLS) ready, or a pooled connection taken
  SteadyClock::time_point sent;        // request fully written
  SteadyClock::time_point first_byte;  // first response byte arrived
  SteadyClock::time_point done;        // response complete or failed
  bool reused_connection = false;
};

struct ResponseHead {
  int status = 0;
  std::string reason;
  Headers headers;
  const std::string* header(std::string_view name) const { return find_header(headers, name); }
};

struct Response {
  int status = 0;
  std::string reason;
  Headers headers;
  std::string body;
  Timing timing;
  const std::string* header(std::string_view name) const { return find_header(headers, name); }
};

}  // namespace llmtriage::net
