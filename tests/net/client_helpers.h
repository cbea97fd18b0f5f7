#pragma once
// Client-side shorthands the loopback round-trip and server tests share.
#include <string>

#include "net/client.h"

namespace llmtriage::net::testing {

// 2 s to connect, to the first byte and between reads; `total` bounds the whole request (0: none).
ClientOptions quick_client(Millis total = Millis(0));
// A GET of `url` with no body.
Request get_request(const std::string& url);

}  // namespace llmtriage::net::testing
