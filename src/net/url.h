#pragma once
// http(s) URL split into the parts a client needs. No percent-decoding: the target is sent as
// given. User info (user:pass@) is accepted but never echoed: redacted() drops it.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace llmtriage::net {

struct Url {
  bool tls = false;        // https
  std::string host;        // without brackets for IPv6 literals
  std::uint16_t port = 0;  // explicit or 80/443
  std::string target;      // path + query, at least "/"
  std::string userinfo;    // user:pass, if any (sent as Basic auth by nobody; kept for redaction)

  // "http://host:port/target" without user info, for messages and logs.
  std::string redacted() const;
  // Host header value: host, or host:port when the port is not the scheme's default.
  std::string host_header() const;
};

core::Result<Url> parse_url(std::string_view text);

// The URL for messages: user info removed, query string kept only up to 80 characters.
std::string redact_url(std::string_view text);

}  // namespace llmtriage::net
