#include "net/failure.h"

#include <array>

namespace llmtriage::net {

const char* to_string(Failure f) {
  switch (f) {
    case Failure::none: return "none";
    case Failure::bad_url: return "bad_url";
    case Failure::dns: return "dns";
    case Failure::connect_refused: return "connect_refused";
    case Failure::connect: return "connect";
    case Failure::tls: return "tls";
    case Failure::timeout_connect: return "timeout_connect";
    case Failure::timeout_first_byte: return "timeout_first_byte";
    case Failure::timeout_idle: return "timeout_idle";
    case Failure::timeout_total: return "timeout_total";
    case Failure::reset: return "reset";
    case Failure::malformed_http: return "malformed_http";
    case Failure::too_large: return "too_large";
    case Failure::sse_truncated: return "sse_truncated";
    case Failure::http_status: return "http_status";
    case Failure::cancelled: return "cancelled";
  }
  return "none";
}

bool is_timeout(Failure f) {
  return f == Failure::timeout_connect || f == Failure::timeout_first_byte ||
         f == Failure::timeout_idle || f == Failure::timeout_total;
}

core::Error make_failure(Failure f, std::string where, std::string expected, std::string found,
                         std::string detail) {
  std::string tagged = to_string(f);
  if (!found.empty()) tagged += ": " + found;
  return core::make_error(core::ErrorKind::network, std::move(where), std::move(expected),
                          std::move(tagged), std::move(detail));
}

Failure failure_of(const core::Error& e) {
  if (e.kind != core::ErrorKind::network) return Failure::none;
  std::string_view found = e.found;
  auto colon = found.find(':');
  std::string_view head = found.substr(0, colon);
  for (int i = 1; i <= static_cast<int>(Failure::cancelled); ++i) {
    auto f = static_cast<Failure>(i);
    if (head == to_string(f)) return f;
  }
  return Failure::none;
}

}  // namespace llmtriage::net
