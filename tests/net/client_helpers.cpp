#include "net/client_helpers.h"

namespace llmtriage::net::testing {

ClientOptions quick_client(Millis total) {
  ClientOptions o;
  o.timeouts.connect = Millis(2000);
  o.timeouts.first_byte = Millis(2000);
  o.timeouts.idle = Millis(2000);
  o.timeouts.total = total;
  return o;
}

Request get_request(const std::string& url) {
  Request r;
  r.url = url;
  return r;
}

}  // namespace llmtriage::net::testing
