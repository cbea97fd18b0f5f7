#pragma once
// One blocking request, for scrapers: net::fetch(request, options).
//   net::Request req;
//   req.url = "http://127.0.0.1:8000/metrics";
//   req.bearer_token = token;               // never logged, never in an Error
//   net::ClientOptions opt;
//   opt.timeouts.total = std::chrono::seconds(5);
//   auto r = net::fetch(req, opt);
//   if (!r) { net::failure_of(r.error()) == net::Failure::timeout_first_byte ... }
// For many requests over a window keep a net::Client and call Client::fetch (keep-alive reuse).
#include "core/result.h"
#include "net/client.h"
#include "net/http.h"

namespace llmtriage::net {

struct FetchOptions {
  bool accept_error_status = false;  // false: status >= 400 is Failure::http_status
};

// A complete response with status < 400, or an Error of kind network whose category is
// net::failure_of(error). Creates a short-lived client (no connection reuse).
core::Result<Response> fetch(const Request& request, const ClientOptions& options = {},
                             const FetchOptions& fetch_options = {});

// Turns a >= 400 response into Failure::http_status (body excerpt in the detail).
core::Result<Response> require_success(Response response, const std::string& url);

}  // namespace llmtriage::net
