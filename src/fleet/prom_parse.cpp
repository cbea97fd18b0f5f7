#include "fleet/prom_parse.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace llmtriage::fleet {

namespace {

using json = nlohmann::json;
using core::ErrorKind;

core::Error prom_error(ErrorKind kind, const std::string& where, std::string expected, const std::string& category,
                       const std::string& found, std::string detail = {}) {
  return core::make_error(kind, where, std::move(expected), category + ": " + found, std::move(detail));
}

// The first character that is not JSON whitespace ('\0' when none).
char first_char(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c;
  }
  return '\0';
}

// The error envelope of a failed call, by the API's errorType
// (web/api/v1/api.go: bad_data 400, execution 422, canceled/timeout 503, internal 500...).
core::Error api_error(const std::string& where, int http_status, const std::string& type, const std::string& message) {
  const std::string msg = excerpt(message, 300);
  const std::string http = http_status > 0 ? fmt::format("HTTP {}", http_status) : std::string("status \"error\"");
  if (type == "bad_data") {
    return prom_error(ErrorKind::input, where, "a PromQL query and parameters the store accepts", type, msg,
                      http + ": the PromQL is wrong (syntax, an unknown function or metric type, a bad selector) "
                             "or a parameter is (time, step, range); the store rejected it before running it");
  }
  if (type == "execution") {
    return prom_error(ErrorKind::input, where, "a query the store can execute", type, msg,
                      http + ": the store could not evaluate the query (too many samples or series for its "
                             "limits, or a many-to-many match); narrow --window, raise --step or tighten --selector");
  }
  if (type == "timeout" || type == "canceled") {
    return prom_error(ErrorKind::network, where, "an answer within the store's query timeout", type, msg,
                      http + ": the store gave up on the query (its own timeout or load); narrow --window, "
                             "raise --step, or raise the timeout");
  }
  if (type == "unavailable") {
    return prom_error(ErrorKind::network, where, "a store ready to answer", type, msg,
                      http + ": the store is overloaded or not ready (still replaying its WAL?)");
  }
  // Another or a garbled errorType: the category stays a plain token; the raw type is quoted.
  bool token = !type.empty() && type.size() <= 40;
  for (char c : type) token = token && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  return prom_error(ErrorKind::network, where, "a successful API response", token ? type : std::string("unknown"),
                    token || type.empty() ? msg : fmt::format("errorType \"{}\": {}", excerpt(type, 40), msg), http);
}

core::Error non_json(const std::string& where, int http_status, std::string_view content_type, std::string_view body) {
  std::string found = content_type.empty() ? std::string("a body") : fmt::format("{}", content_type);
  found += fmt::format(" (HTTP {}) starting \"{}\"", http_status, excerpt(body, 80));
  if (body.empty()) found = fmt::format("an empty body (HTTP {})", http_status);
  std::string detail;
  if (http_status >= 400) {
    detail = fmt::format("HTTP {}: the store, or a proxy in front of it, answered without the API's error "
                         "envelope",
                         http_status);
  } else {
    detail = "Is --prometheus pointing at Grafana, a login page or a proxy? Give the base URL of a "
             "Prometheus-compatible HTTP API, the part before /api/v1 (http://prometheus:9090, "
             "https://thanos.example/prefix)";
  }
  // An error status without an envelope (a proxy's 502 page) is the network's problem, not the input's.
  const bool http_error = http_status >= 400;
  return prom_error(http_error ? ErrorKind::network : ErrorKind::input, where,
                    "a Prometheus API JSON envelope ({\"status\": ..., \"data\": ...})",
                    http_error ? fmt::format("http_{}", http_status) : std::string("non_json"), found,
                    std::move(detail));
}

core::Error bad_response(const std::string& where, std::string expected, const std::string& found) {
  return prom_error(ErrorKind::input, where, std::move(expected), "bad_response", found,
                    "the store's answer breaks the Prometheus HTTP API format");
}

void append_strings(const json& arr, std::vector<std::string>& out) {
  if (!arr.is_array()) return;
  for (const auto& w : arr) out.push_back(w.is_string() ? w.get<std::string>() : w.dump());
}

// Parses the envelope; on success returns the document (data is doc["data"]).
core::Result<json> parse_envelope(std::string_view body, int http_status, const std::string& where,
                                  std::string_view content_type, std::vector<std::string>& warnings,
                                  std::vector<std::string>* infos) {
  if (first_char(body) != '{') return non_json(where, http_status, content_type, body);
  json doc;
  try {
    doc = json::parse(body.begin(), body.end());
  } catch (const json::parse_error& e) {
    return bad_response(where, "a Prometheus API JSON envelope",
                        fmt::format("invalid JSON at byte {} of {} (HTTP {}; a cut or truncated answer?)", e.byte,
                                    body.size(), http_status));
  } catch (const json::exception&) {
    return bad_response(where, "a Prometheus API JSON envelope",
                        fmt::format("invalid JSON (HTTP {})", http_status));
  }
  if (!doc.is_object()) return bad_response(where, "a JSON object", excerpt(doc.dump(), 80));
  const auto st = doc.find("status");
  if (st == doc.end() || !st->is_string()) {
    return bad_response(where, "a \"status\" field (\"success\" or \"error\")",
                        st == doc.end() ? "none" : excerpt(st->dump(), 40));
  }
  if (auto w = doc.find("warnings"); w != doc.end()) append_strings(*w, warnings);
  if (auto i = doc.find("infos"); i != doc.end()) append_strings(*i, infos ? *infos : warnings);
  const std::string status = st->get<std::string>();
  if (status == "error" || http_status >= 400) {
    std::string type, message;
    if (auto t = doc.find("errorType"); t != doc.end() && t->is_string()) type = t->get<std::string>();
    if (auto m = doc.find("error"); m != doc.end() && m->is_string()) message = m->get<std::string>();
    if (status != "error") message = fmt::format("status \"{}\" with HTTP {}", status, http_status);
    return api_error(where, http_status, type, message);
  }
  if (status != "success") return bad_response(where, "status \"success\" or \"error\"", "\"" + excerpt(status, 40) + "\"");
  if (doc.find("data") == doc.end()) return bad_response(where, "a \"data\" field", "none");
  return doc;
}

// [timestamp, "value"] -> a point. False (and `why`) when it is not one.
bool parse_point(const json& p, std::pair<double, double>& out, std::string& why) {
  if (!p.is_array() || p.size() != 2) {
    why = fmt::format("{} (not a [timestamp, \"value\"] pair)", excerpt(p.dump(), 60));
    return false;
  }
  if (!p[0].is_number()) {
    why = fmt::format("timestamp {} (not a number)", excerpt(p[0].dump(), 40));
    return false;
  }
  out.first = p[0].get<double>();
  if (p[1].is_number()) {
    out.second = p[1].get<double>();
    return true;
  }
  if (p[1].is_string() && parse_prom_value(p[1].get_ref<const std::string&>(), out.second)) return true;
  why = fmt::format("value {} (not a number, \"NaN\", \"+Inf\" or \"-Inf\")", excerpt(p[1].dump(), 40));
  return false;
}

std::string labels_text(const Labels& labels) {
  std::string s = "{";
  for (const auto& [k, v] : labels) {
    if (s.size() > 1) s += ",";
    s += k + "=\"" + v + "\"";
  }
  return excerpt(s + "}", 120);
}

core::Result<Labels> parse_labels_object(const json& m, const std::string& where) {
  if (!m.is_object()) return bad_response(where, "a label object {\"name\": \"value\"}", excerpt(m.dump(), 60));
  Labels labels;
  for (auto it = m.begin(); it != m.end(); ++it) {
    labels.emplace_hint(labels.end(), it.key(), it->is_string() ? it->get<std::string>() : it->dump());
  }
  return labels;
}

// A vector's or matrix's result array. Native-histogram samples are counted and skipped.
core::Status parse_series_array(const json& result, const std::string& where, PromResult& out,
                                int64_t& histogram_samples, int64_t& histogram_series) {
  if (result.is_null()) return core::ok_status();
  if (!result.is_array()) return bad_response(where, "\"result\" as an array of series", excerpt(result.dump(), 60));
  out.series.reserve(result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    const json& s = result[i];
    if (!s.is_object()) return bad_response(where, "a series object {\"metric\", \"value(s)\"}", excerpt(s.dump(), 60));
    PromSeries series;
    if (auto m = s.find("metric"); m != s.end()) {
      auto labels = parse_labels_object(*m, where);
      if (!labels) return std::move(labels).error();
      series.labels = std::move(*labels);
    }
    std::string why;
    if (auto v = s.find("value"); v != s.end()) {
      std::pair<double, double> p;
      if (!parse_point(*v, p, why)) {
        return bad_response(where, "numeric samples", fmt::format("series {} {}: {}", i, labels_text(series.labels), why));
      }
      series.points.push_back(p);
    }
    if (auto vs = s.find("values"); vs != s.end()) {
      if (!vs->is_array()) return bad_response(where, "\"values\" as an array of points", excerpt(vs->dump(), 60));
      series.points.reserve(series.points.size() + vs->size());
      for (size_t j = 0; j < vs->size(); ++j) {
        std::pair<double, double> p;
        if (!parse_point((*vs)[j], p, why)) {
          return bad_response(where, "numeric samples",
                              fmt::format("series {} {} point {}: {}", i, labels_text(series.labels), j, why));
        }
        series.points.push_back(p);
      }
    }
    int64_t hist = 0;
    if (auto h = s.find("histogram"); h != s.end()) ++hist;
    if (auto hs = s.find("histograms"); hs != s.end()) hist += hs->is_array() ? static_cast<int64_t>(hs->size()) : 1;
    if (hist > 0) {
      histogram_samples += hist;
      ++histogram_series;
    }
    if (!series.points.empty() || hist == 0) out.series.push_back(std::move(series));
  }
  return core::ok_status();
}

}  // namespace

std::string excerpt(std::string_view text, size_t max) {
  std::string out;
  const size_t n = std::min(text.size(), max);
  out.reserve(n + 3);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    out += c < 0x20 ? ' ' : static_cast<char>(c);
  }
  if (text.size() > max) out += "...";
  return out;
}

bool parse_prom_value(std::string_view text, double& out) {
  if (text == "NaN") {
    out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (text == "+Inf" || text == "Inf") {
    out = std::numeric_limits<double>::infinity();
    return true;
  }
  if (text == "-Inf") {
    out = -std::numeric_limits<double>::infinity();
    return true;
  }
  if (text.empty()) return false;
  const char* b = text.data();
  const char* e = b + text.size();
  if (*b == '+') ++b;  // Go's strconv.FormatFloat never writes it, other stores might
  if (b == e || !((*b >= '0' && *b <= '9') || *b == '-' || *b == '.')) return false;  // no "inf"/"nan" spellings
  auto [p, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && p == e;
}

namespace {

// The general reader: the whole body as a JSON document, every malformed form named.
core::Status parse_query_dom(std::string_view body, int http_status, const std::string& where,
                             std::string_view content_type, PromResult& out, int64_t& hist_samples,
                             int64_t& hist_series) {
  auto doc = parse_envelope(body, http_status, where, content_type, out.warnings, &out.infos);
  if (!doc) return std::move(doc).error();
  const json& data = (*doc)["data"];
  if (!data.is_object()) return bad_response(where, "\"data\" as an object {\"resultType\", \"result\"}", excerpt(data.dump(), 60));
  const auto rt = data.find("resultType");
  if (rt == data.end() || !rt->is_string()) {
    return bad_response(where, "a \"resultType\" in data", rt == data.end() ? "none" : excerpt(rt->dump(), 40));
  }
  out.result_type = rt->get<std::string>();
  const auto res = data.find("result");
  if (res == data.end()) return bad_response(where, "a \"result\" in data", "none");
  if (out.result_type == "vector" || out.result_type == "matrix") {
    if (auto st = parse_series_array(*res, where, out, hist_samples, hist_series); !st) return std::move(st).error();
  } else if (out.result_type == "scalar" || out.result_type == "string") {
    // [timestamp, "value"]: one series without labels. A string result keeps its text in the
    // label "value" and NaN as the point's value.
    if (!res->is_array() || res->size() != 2 || !(*res)[0].is_number()) {
      return bad_response(where, "a " + out.result_type + " result [timestamp, \"value\"]", excerpt(res->dump(), 60));
    }
    PromSeries s;
    if (out.result_type == "scalar") {
      std::pair<double, double> p;
      std::string why;
      if (!parse_point(*res, p, why)) return bad_response(where, "a numeric scalar", why);
      s.points.push_back(p);
    } else {
      s.labels["value"] = (*res)[1].is_string() ? (*res)[1].get<std::string>() : (*res)[1].dump();
      s.points.emplace_back((*res)[0].get<double>(), std::numeric_limits<double>::quiet_NaN());
    }
    out.series.push_back(std::move(s));
  } else {
    return bad_response(where, "resultType vector, matrix, scalar or string", "\"" + excerpt(out.result_type, 40) + "\"");
  }
  return core::ok_status();
}

// What both readers share: notes on skipped native histograms and on resultType surprises.
core::Result<PromResult> finish_result(PromResult out, const std::string& where, Expect expect, int64_t hist_samples,
                                       int64_t hist_series) {
  if (hist_samples > 0) {
    out.warnings.push_back(fmt::format(
        "llmtriage: skipped {} native-histogram sample(s) in {} series (classic _bucket series are read instead; "
        "query histogram_quantile over the _bucket series)",
        hist_samples, hist_series));
  }
  // resultType surprises: what can be used is used, and said.
  if (expect == Expect::instant && out.result_type == "matrix") {
    out.warnings.push_back(fmt::format(
        "llmtriage: expected resultType vector for an instant query, found matrix ({} series kept with all their "
        "points; a bare range selector such as x[5m] returns a matrix)",
        out.series.size()));
  } else if (expect == Expect::range && out.result_type != "matrix") {
    if (out.result_type == "string") {
      return prom_error(ErrorKind::input, where, "resultType matrix for a range query", "unexpected_type",
                        "string", "a string expression has no range; query a numeric expression");
    }
    out.warnings.push_back(fmt::format(
        "llmtriage: expected resultType matrix for a range query, found {} (kept as {} series of one point each)",
        out.result_type, out.series.size()));
  }
  return out;
}

}  // namespace

core::Result<PromResult> parse_query_general(std::string_view body, int http_status, const std::string& where,
                                             std::string_view content_type, Expect expect) {
  PromResult out;
  int64_t hist_samples = 0, hist_series = 0;
  if (auto st = parse_query_dom(body, http_status, where, content_type, out, hist_samples, hist_series); !st) {
    return std::move(st).error();
  }
  return finish_result(std::move(out), where, expect, hist_samples, hist_series);
}

core::Result<PromResult> parse_query_body(std::string_view body, int http_status, const std::string& where,
                                          std::string_view content_type, Expect expect) {
  if (http_status < 400) {
    PromResult fast;
    if (parse_query_fast(body, fast)) return finish_result(std::move(fast), where, expect, 0, 0);
  }
  return parse_query_general(body, http_status, where, content_type, expect);
}

core::Result<std::vector<Labels>> parse_series_body(std::string_view body, int http_status, const std::string& where,
                                                    std::string_view content_type, std::vector<std::string>& warnings) {
  auto doc = parse_envelope(body, http_status, where, content_type, warnings, nullptr);
  if (!doc) return std::move(doc).error();
  const json& data = (*doc)["data"];
  std::vector<Labels> out;
  if (data.is_null()) return out;
  if (!data.is_array()) return bad_response(where, "\"data\" as an array of label sets", excerpt(data.dump(), 60));
  out.reserve(data.size());
  for (const auto& m : data) {
    auto labels = parse_labels_object(m, where);
    if (!labels) return std::move(labels).error();
    out.push_back(std::move(*labels));
  }
  return out;
}

core::Result<std::vector<std::string>> parse_labels_body(std::string_view body, int http_status,
                                                         const std::string& where, std::string_view content_type,
                                                         std::vector<std::string>& warnings) {
  auto doc = parse_envelope(body, http_status, where, content_type, warnings, nullptr);
  if (!doc) return std::move(doc).error();
  const json& data = (*doc)["data"];
  std::vector<std::string> out;
  if (data.is_null()) return out;
  if (!data.is_array()) return bad_response(where, "\"data\" as an array of label names", excerpt(data.dump(), 60));
  out.reserve(data.size());
  for (const auto& n : data) {
    if (!n.is_string()) return bad_response(where, "label names as strings", excerpt(n.dump(), 40));
    out.push_back(n.get<std::string>());
  }
  return out;
}

core::Result<PromResult> parse_query_response(const std::string& body, int http_status, const std::string& where) {
  return parse_query_body(body, http_status, where, {}, Expect::any);
}

std::string prom_error_type(const core::Error& error) {
  const auto colon = error.found.find(':');
  if (colon == std::string::npos) return {};
  std::string head = error.found.substr(0, colon);
  for (char c : head) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return {};
  }
  return head;
}

}  // namespace llmtriage::fleet
