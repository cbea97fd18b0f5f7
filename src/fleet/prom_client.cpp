#include "fleet/prom_client.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>
#include <zlib.h>

#include "fleet/prom_parse.h"
#include "net/client.h"
#include "net/failure.h"
#include "net/url.h"

namespace llmtriage::fleet {

namespace {

using Clock = std::chrono::steady_clock;
using Params = std::vector<std::pair<std::string, std::string>>;

// Beyond this a GET's query string risks proxies' URL limits (commonly 8 KiB): such a call is sent
// as a form-encoded POST, which every Prometheus-compatible API accepts on these endpoints.
constexpr size_t kMaxGetQueryBytes = 6000;
// The query text quoted in errors.
constexpr size_t kQuotedQueryChars = 200;

// application/x-www-form-urlencoded value: unreserved characters kept, the rest %XX (space as
// %20, which both query strings and form bodies decode).
void append_encoded(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
}

std::string encode_params(const Params& params) {
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += '&';
    append_encoded(out, k);
    out += '=';
    append_encoded(out, v);
  }
  return out;
}

// Unix seconds with millisecond precision, the API's float form.
std::string unix_s(double t) { return fmt::format("{:.3f}", t); }

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A gzip body (Content-Encoding: gzip), inflated up to `max` bytes (a bomb is an error, as an
// oversized plain body is).
core::Result<std::string> gunzip(std::string_view in, size_t max, const std::string& where) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
    return core::make_error(core::ErrorKind::internal, where, "zlib to initialise", "inflateInit2 failed");
  }
  std::string out;
  out.resize(std::min(max, std::max<size_t>(in.size() * 8, 64 * 1024)));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  size_t have = 0;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (have == out.size()) {
      if (out.size() >= max) break;
      out.resize(std::min(max, out.size() * 2));
    }
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + have);
    zs.avail_out = static_cast<uInt>(out.size() - have);
    rc = inflate(&zs, Z_NO_FLUSH);
    have = out.size() - zs.avail_out;
    if (rc != Z_OK && rc != Z_STREAM_END) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    if (have >= max) {
      return core::make_error(core::ErrorKind::input, where, fmt::format("a response of at most {} bytes", max),
                              fmt::format("bad_response: a gzip body inflating past {} bytes", max),
                              "narrow --window, raise --step or tighten --selector");
    }
    return core::make_error(core::ErrorKind::input, where, "a gzip body (Content-Encoding: gzip)",
                            fmt::format("bad_response: a corrupt or truncated gzip stream ({} bytes in; {})", in.size(),
                                        zs.msg ? zs.msg : "ended early"),
                            "the store's answer breaks the Prometheus HTTP API format");
  }
  out.resize(have);
  return out;
}

bool retryable(net::Failure f) {
  switch (f) {
    case net::Failure::connect_refused:
    case net::Failure::connect:
    case net::Failure::timeout_connect:
    case net::Failure::timeout_first_byte:
    case net::Failure::timeout_idle:
    case net::Failure::timeout_total:
    case net::Failure::reset:
      return true;
    case net::Failure::none:
    case net::Failure::bad_url:
    case net::Failure::dns:
    case net::Failure::tls:
    case net::Failure::malformed_http:
    case net::Failure::too_large:
    case net::Failure::sse_truncated:
    case net::Failure::http_status:
    case net::Failure::cancelled:
      return false;
  }
  return false;
}

}  // namespace

struct PromClient::Impl {
  explicit Impl(const PromClientOptions& o) : client(client_options(o)) {
    base = o.base_url;
    while (!base.empty() && base.back() == '/') base.pop_back();
    // For messages: the base URL without user info (and never a token: that travels in a header).
    auto u = net::parse_url(base.empty() ? std::string("/") : base);
    shown_base = u ? u->redacted() : net::redact_url(base);
    while (!shown_base.empty() && shown_base.back() == '/') shown_base.pop_back();
  }

  static net::ClientOptions client_options(const PromClientOptions& o) {
    net::ClientOptions c;
    // query_timeout bounds the whole exchange; the first-byte and idle limits are left to it.
    c.timeouts.connect = o.connect_timeout;
    c.timeouts.first_byte = net::Millis{0};
    c.timeouts.idle = net::Millis{0};
    c.timeouts.total = o.query_timeout;
    c.insecure_tls = o.insecure_tls;
    c.ca_file = o.ca_file;
    c.max_body_bytes = o.max_body_bytes;
    c.max_idle_per_host = 4;
    return c;
  }

  // "http://host:9090/api/v1/query_range, query \"rate(x[5m])\"": names the call in errors.
  std::string where(const std::string& path, const std::string& what) const {
    return what.empty() ? shown_base + path : shown_base + path + ", " + what;
  }

  net::Client client;
  std::string base;
  std::string shown_base;
};

namespace {

struct Sent {
  net::Response response;
  std::string content_type;
};

// One API call with retries; counts queries, retries, failures, bytes and store time.
core::Result<Sent> call(PromClient::Impl& impl, const PromClientOptions& opt, PromStats& stats,
                        const std::string& path, const Params& params, const std::string& where) {
  ++stats.queries;
  const std::string encoded = encode_params(params);
  net::Request req;
  if (encoded.size() > kMaxGetQueryBytes) {
    req.method = net::Method::post;
    req.url = impl.base + path;
    req.body = encoded;
    req.content_type = "application/x-www-form-urlencoded";
  } else {
    req.method = net::Method::get;
    req.url = impl.base + path + (encoded.empty() ? "" : "?" + encoded);
  }
  req.headers.push_back({"Accept", "application/json"});
  if (opt.gzip) req.headers.push_back({"Accept-Encoding", "gzip"});
  req.bearer_token = opt.bearer_token;
  const int attempts = 1 + std::max(0, opt.max_retries);
  for (int attempt = 0;; ++attempt) {
    const auto t0 = Clock::now();
    auto r = impl.client.fetch(req);
    stats.store_seconds += seconds_since(t0);
    const bool last = attempt + 1 >= attempts;
    if (!r) {
      core::Error e = std::move(r).error();
      const net::Failure f = net::failure_of(e);
      if (!last && retryable(f)) {
        ++stats.retries;
        std::this_thread::sleep_for(std::chrono::milliseconds(100 << std::min(attempt, 3)));
        continue;
      }
      ++stats.failures;
      // net names the URL with its (encoded) query string; ours names the endpoint and the query.
      e.where = where;
      if (net::is_timeout(f)) {
        e.detail = fmt::format("no complete answer within {} ms (query timeout) after {} attempt(s); narrow "
                               "--window, raise --step, or raise the timeout",
                               opt.query_timeout.count(), attempt + 1);
      } else if (f == net::Failure::too_large) {
        e.detail = fmt::format("the answer exceeds {} bytes; narrow --window, raise --step or tighten --selector",
                               opt.max_body_bytes);
      } else if (attempt > 0) {
        e.detail += fmt::format("{}after {} attempts", e.detail.empty() ? "" : "; ", attempt + 1);
      }
      return e;
    }
    stats.bytes += static_cast<int64_t>(r->body.size());
    const int st = r->status;
    if (!last && st >= 502 && st <= 504) {
      ++stats.retries;
      std::this_thread::sleep_for(std::chrono::milliseconds(100 << std::min(attempt, 3)));
      continue;
    }
    Sent s;
    if (const std::string* ct = r->header("Content-Type")) s.content_type = *ct;
    const std::string* ce = r->header("Content-Encoding");
    if (ce && net::iequals(*ce, "gzip")) {
      // Our CPU, not the store's: counted with parsing.
      const auto t1 = Clock::now();
      auto plain = gunzip(r->body, opt.max_body_bytes, where);
      stats.parse_seconds += seconds_since(t1);
      if (!plain) {
        ++stats.failures;
        return std::move(plain).error();
      }
      r->body = std::move(*plain);
    }
    stats.bytes_decoded += static_cast<int64_t>(r->body.size());
    s.response = std::move(*r);
    return s;
  }
}

std::string quoted(const std::string& promql) {
  return "query \"" + excerpt(promql, kQuotedQueryChars) + "\"";
}

std::string matchers(const std::vector<std::string>& match) {
  std::string s;
  for (const auto& m : match) s += (s.empty() ? "" : " ") + m;
  return s.empty() ? std::string() : "match[] " + excerpt(s, kQuotedQueryChars);
}

std::string timeout_param(const PromClientOptions& opt) {
  // A little under our own limit, so that the store's typed timeout error arrives before we cut
  // the connection. Seconds as a float: every Prometheus-compatible API parses that form.
  const double s = std::max(0.001, 0.9 * static_cast<double>(opt.query_timeout.count()) / 1000.0);
  return fmt::format("{:.3f}", s);
}

}  // namespace

PromClient::PromClient(PromClientOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_)) {}

PromClient::~PromClient() = default;

namespace {

core::Result<PromResult> finish_query(PromStats& stats, core::Result<Sent> sent, const std::string& where,
                                      Expect expect) {
  if (!sent) return std::move(sent).error();
  const auto t0 = Clock::now();
  auto r = parse_query_body(sent->response.body, sent->response.status, where, sent->content_type, expect);
  stats.parse_seconds += seconds_since(t0);
  if (!r) {
    ++stats.failures;
    return r;
  }
  stats.series += static_cast<int64_t>(r->series.size());
  for (const auto& s : r->series) stats.points += static_cast<int64_t>(s.points.size());
  if (!r->warnings.empty() || !r->infos.empty()) ++stats.warned;
  return r;
}

}  // namespace

core::Result<PromResult> PromClient::query(const std::string& promql, std::optional<double> at_s) {
  const std::string path = "/api/v1/query";
  const std::string where = impl_->where(path, quoted(promql));
  Params p{{"query", promql}};
  if (at_s) p.emplace_back("time", unix_s(*at_s));
  if (options_.query_timeout.count() > 0) p.emplace_back("timeout", timeout_param(options_));
  return finish_query(stats_, call(*impl_, options_, stats_, path, p, where), where, Expect::instant);
}

core::Result<PromResult> PromClient::query_range(const std::string& promql, double start_s, double end_s,
                                                 double step_s) {
  const std::string path = "/api/v1/query_range";
  const std::string where = impl_->where(path, quoted(promql));
  if (!(step_s > 0) || !(end_s >= start_s)) {
    ++stats_.queries;
    ++stats_.failures;
    return core::make_error(core::ErrorKind::usage, where, "start <= end and a step > 0",
                            fmt::format("start {} end {} step {}", unix_s(start_s), unix_s(end_s), step_s));
  }
  Params p{{"query", promql}, {"start", unix_s(start_s)}, {"end", unix_s(end_s)}, {"step", fmt::format("{:.3f}", step_s)}};
  if (options_.query_timeout.count() > 0) p.emplace_back("timeout", timeout_param(options_));
  return finish_query(stats_, call(*impl_, options_, stats_, path, p, where), where, Expect::range);
}

core::Result<std::vector<Labels>> PromClient::series(const std::vector<std::string>& match, double start_s,
                                                     double end_s) {
  const std::string path = "/api/v1/series";
  const std::string where = impl_->where(path, matchers(match));
  if (match.empty()) {
    ++stats_.queries;
    ++stats_.failures;
    return core::make_error(core::ErrorKind::usage, where, "at least one series selector (match[])", "none");
  }
  Params p;
  for (const auto& m : match) p.emplace_back("match[]", m);
  p.emplace_back("start", unix_s(start_s));
  p.emplace_back("end", unix_s(end_s));
  auto sent = call(*impl_, options_, stats_, path, p, where);
  if (!sent) return std::move(sent).error();
  const auto t0 = Clock::now();
  std::vector<std::string> warnings;
  auto r = parse_series_body(sent->response.body, sent->response.status, where, sent->content_type, warnings);
  stats_.parse_seconds += seconds_since(t0);
  if (!r) {
    ++stats_.failures;
    return r;
  }
  stats_.series += static_cast<int64_t>(r->size());
  if (!warnings.empty()) ++stats_.warned;
  return r;
}

core::Result<std::vector<std::string>> PromClient::labels(const std::vector<std::string>& match,
                                                          std::optional<double> start_s, std::optional<double> end_s) {
  const std::string path = "/api/v1/labels";
  const std::string where = impl_->where(path, matchers(match));
  Params p;
  for (const auto& m : match) p.emplace_back("match[]", m);
  if (start_s) p.emplace_back("start", unix_s(*start_s));
  if (end_s) p.emplace_back("end", unix_s(*end_s));
  auto sent = call(*impl_, options_, stats_, path, p, where);
  if (!sent) return std::move(sent).error();
  const auto t0 = Clock::now();
  std::vector<std::string> warnings;
  auto r = parse_labels_body(sent->response.body, sent->response.status, where, sent->content_type, warnings);
  stats_.parse_seconds += seconds_since(t0);
  if (!r) {
    ++stats_.failures;
    return r;
  }
  if (!warnings.empty()) ++stats_.warned;
  return r;
}

}  // namespace llmtriage::fleet
