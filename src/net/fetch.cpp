#include "net/fetch.h"

#include "net/url.h"

namespace llmtriage::net {

core::Result<Response> require_success(Response response, const std::string& url) {
  if (response.status < 400) return response;
  std::string excerpt = response.body.substr(0, 200);
  for (char& c : excerpt) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return make_failure(Failure::http_status, redact_url(url), "a status below 400",
                      "HTTP " + std::to_string(response.status) +
                          (response.reason.empty() ? "" : " " + response.reason),
                      excerpt.empty() ? "" : "body: " + excerpt);
}

core::Result<Response> fetch(const Request& request, const ClientOptions& options,
                             const FetchOptions& fetch_options) {
  Client client(options, 1);
  auto r = client.fetch(request);
  if (!r || fetch_options.accept_error_status) return r;
  return require_success(std::move(*r), request.url);
}

}  // namespace llmtriage::net
