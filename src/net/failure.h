#pragma once
// Typed failure categories of a request. Every client failure is one of these (never an
// exception, never a hang); a core::Error made by net carries the category name as the first
// token of its `found` field so that net::failure_of() recovers it from a plain core::Error.
#include <string>
#include <string_view>

#include "core/error.h"

namespace llmtriage::net {

enum class Failure {
  none,
  bad_url,             // not an http:// or https:// URL
  dns,                 // host name did not resolve
  connect_refused,     // ECONNREFUSED: nothing listens there
  connect,             // other connect errors (unreachable, ...)
  tls,                 // handshake or certificate failure (e.g. TLS to a plain-HTTP port)
  timeout_connect,     // resolve + connect + handshake took longer than Timeouts::connect
  timeout_first_byte,  // no response byte within Timeouts::first_byte after the request was sent
  timeout_idle,        // gap between reads longer than Timeouts::idle
  timeout_total,       // the whole request took longer than Timeouts::total
  reset,               // connection reset or closed before the response was complete
  malformed_http,      // bad status line, header, chunk size or framing
  too_large,           // headers or buffered body over the configured limit
  sse_truncated,       // the stream ended inside an SSE event (no blank line after it)
  http_status,         // a complete response with status >= 400 (fetch only, unless allowed)
  cancelled,           // cancelled by the caller or by client shutdown
};

const char* to_string(Failure f);
bool is_timeout(Failure f);

// A core::Error of kind `network` whose `found` starts with "<category>: ".
core::Error make_failure(Failure f, std::string where, std::string expected, std::string found,
                         std::string detail = {});

// The category of an error made by net; Failure::none for any other error.
Failure failure_of(const core::Error& e);

}  // namespace llmtriage::net
