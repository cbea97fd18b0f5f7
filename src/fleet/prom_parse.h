#pragma once
// Internal to fleet: the Prometheus HTTP API's JSON envelope
// ({"status", "data", "errorType", "error", "warnings", "infos"},
// https://prometheus.io/docs/prometheus/latest/querying/api/#format-overview) and the `data` of
// /api/v1/series and /api/v1/labels. parse_query_response (prom_client.h) is built on these.
//
// Every error's `found` starts with a category token ("bad_data: ...", "non_json: ...") that
// prom_error_type() (prom_client.h) reads back, the way net::failure_of() does for net's errors.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "fleet/prom_client.h"

namespace llmtriage::fleet {

// Which resultType a call expects; a convertible surprise (a matrix for an instant query, a
// vector for a range query) is accepted with a warning, an unusable one is an error.
enum class Expect { any, instant, range };

// parse_query_response with the response's Content-Type (named in non-JSON errors) and the
// resultType the call expects.
core::Result<PromResult> parse_query_body(std::string_view body, int http_status, const std::string& where,
                                          std::string_view content_type, Expect expect);

// The same through the general reader only (a JSON document; every malformed form named).
// parse_query_body tries parse_query_fast first and falls back to this.
core::Result<PromResult> parse_query_general(std::string_view body, int http_status, const std::string& where,
                                             std::string_view content_type, Expect expect);

// One pass over a successful vector/matrix/scalar envelope in the usual shape, without building a
// document (prom_fast.cpp). False when the body is anything else: `out` is then unspecified and
// the general reader must run. Where it returns true, its result equals the general reader's.
bool parse_query_fast(std::string_view body, PromResult& out);

// /api/v1/series: data is an array of label objects. Store warnings are appended to `warnings`.
core::Result<std::vector<Labels>> parse_series_body(std::string_view body, int http_status, const std::string& where,
                                                    std::string_view content_type, std::vector<std::string>& warnings);

// /api/v1/labels: data is an array of strings.
core::Result<std::vector<std::string>> parse_labels_body(std::string_view body, int http_status,
                                                         const std::string& where, std::string_view content_type,
                                                         std::vector<std::string>& warnings);

// A sample value as the API writes it: a decimal string, "NaN", "+Inf", "-Inf" (a bare JSON
// number is accepted too). False for anything else.
bool parse_prom_value(std::string_view text, double& out);

// At most `max` characters of `text` (control characters shown as spaces), "..." when cut.
std::string excerpt(std::string_view text, size_t max);

}  // namespace llmtriage::fleet
