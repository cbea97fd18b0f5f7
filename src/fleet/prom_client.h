#pragma once
// A client of the Prometheus HTTP API (/api/v1/query, /api/v1/query_range, /api/v1/series,
// /api/v1/labels), as Prometheus, Thanos, Mimir and VictoriaMetrics serve it
// (https://prometheus.io/docs/prometheus/latest/querying/api/). Blocking calls over one
// keep-alive net::Client; every failure is a typed core::Error naming the URL (without the
// bearer token) and the query; every call is counted with the time spent waiting on the store,
// so `fleet` can report how many queries it made and how the time splits.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace llmtriage::fleet {

using Labels = std::map<std::string, std::string>;

// One series of a result: its labels and its points (unix seconds, value). An instant vector has
// one point per series; a matrix has many. Values "NaN", "+Inf", "-Inf" are kept as doubles.
struct PromSeries {
  Labels labels;
  std::vector<std::pair<double, double>> points;
};

struct PromResult {
  std::string result_type;            // "vector", "matrix", "scalar" (one series, no labels), "string"
  std::vector<PromSeries> series;
  std::vector<std::string> warnings;  // the store's own warnings (partial responses, Thanos/Mimir)
  std::vector<std::string> infos;     // Prometheus >= 2.45 "infos"
};

struct PromClientOptions {
  std::string base_url;               // "http://127.0.0.1:9090" or with a path prefix ("https://thanos/api-prefix")
  std::string bearer_token;           // sent as Authorization: Bearer; never logged or reported
  bool insecure_tls = false;
  std::string ca_file;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds query_timeout{30000};  // whole request; also sent as the API's `timeout` parameter
  size_t max_body_bytes = 256u << 20;
  int max_retries = 1;                // on connect/reset/5xx/timeout: retried once, then an error
  bool gzip = true;                   // Accept-Encoding: gzip: ~7x fewer bytes on range results, but CPU on
                                      // the store (docs/benchmarks.md, "fleet at scale")
};

// What the client has done so far.
struct PromStats {
  int64_t queries = 0;          // API calls made (retries count separately below)
  int64_t retries = 0;
  int64_t failures = 0;
  int64_t bytes = 0;            // response bytes as received (compressed when the store gzips)
  int64_t bytes_decoded = 0;    // response bytes after decompression (= bytes when not compressed)
  int64_t series = 0;           // series returned
  int64_t points = 0;           // points returned
  double store_seconds = 0;     // wall time waiting on the store (request sent -> response parsed excluded)
  double parse_seconds = 0;     // wall time inflating (gzip) and parsing JSON responses
  int64_t warned = 0;           // responses that carried the store's warnings (partial data) or a
                                // surprise llmtriage noted (resultType, skipped native histograms)
};

// Calls block and are counted in stats(): use one PromClient from one thread at a time.
// A call's query string beyond 6000 bytes (long regex alternations) goes as a form-encoded POST.
// Retried (max_retries, 100/200/400 ms apart): connect failures, resets, our timeouts, HTTP
// 502/503/504. Never retried: 400 bad_data, 422 execution, malformed answers.
class PromClient {
 public:
  explicit PromClient(PromClientOptions options);
  ~PromClient();
  PromClient(const PromClient&) = delete;
  PromClient& operator=(const PromClient&) = delete;

  // Instant query at time `at_s` (unix seconds; now when absent).
  core::Result<PromResult> query(const std::string& promql, std::optional<double> at_s = {});
  // Range query over [start_s, end_s] at `step_s`.
  core::Result<PromResult> query_range(const std::string& promql, double start_s, double end_s, double step_s);
  // Label sets of the series matching any selector over [start_s, end_s].
  core::Result<std::vector<Labels>> series(const std::vector<std::string>& match, double start_s, double end_s);
  // Label names (optionally restricted to series matching the selectors).
  core::Result<std::vector<std::string>> labels(const std::vector<std::string>& match = {},
                                                std::optional<double> start_s = {}, std::optional<double> end_s = {});

  const PromStats& stats() const { return stats_; }
  const PromClientOptions& options() const { return options_; }

  struct Impl;

 private:
  PromClientOptions options_;
  PromStats stats_;
  std::unique_ptr<Impl> impl_;
};

// Parses one API response body (the JSON envelope {"status", "data", "errorType", "error",
// "warnings", "infos"}) for a query or query_range call. `where` names the URL and query for
// errors. Exposed for data-driven tests and the fuzz target.
core::Result<PromResult> parse_query_response(const std::string& body, int http_status, const std::string& where);

// The category of an error made by this client: the API's errorType for an error envelope
// ("bad_data" = the PromQL or a parameter is wrong, "execution", "timeout", "canceled",
// "unavailable", "internal", "not_found"), "non_json" (the URL is not a Prometheus API, e.g.
// Grafana), "bad_response" (an envelope that breaks the API's format), "unexpected_type" (a
// resultType the call cannot use), "http_<status>" (an error status with no envelope), or net's
// failure name ("timeout_total", "connect_refused", "reset"...). Empty for other errors.
std::string prom_error_type(const core::Error& error);

}  // namespace llmtriage::fleet
