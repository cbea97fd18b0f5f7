// libFuzzer target: the Prometheus HTTP API response parsers (query/query_range envelope,
// /api/v1/series, /api/v1/labels) on arbitrary bytes, as a 200 and as an error status, for every
// expected resultType. Any crash, hang or sanitizer report, an error without a category
// (prom_error_type), a result that breaks its own shape, or a body on which the fast path and
// the general reader disagree is a bug.
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "fleet/prom_client.h"
#include "fleet/prom_parse.h"

using namespace llmtriage::fleet;

static bool same_value(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

static bool same_result(const PromResult& a, const PromResult& b) {
  if (a.result_type != b.result_type || a.warnings != b.warnings || a.infos != b.infos) return false;
  if (a.series.size() != b.series.size()) return false;
  for (size_t i = 0; i < a.series.size(); ++i) {
    const auto& x = a.series[i];
    const auto& y = b.series[i];
    if (x.labels != y.labels || x.points.size() != y.points.size()) return false;
    for (size_t j = 0; j < x.points.size(); ++j) {
      if (!same_value(x.points[j].first, y.points[j].first) || !same_value(x.points[j].second, y.points[j].second)) {
        return false;
      }
    }
  }
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  const int status = size % 3 == 0 ? 400 : 200;
  for (Expect expect : {Expect::any, Expect::instant, Expect::range}) {
    auto r = parse_query_body(body, status, "fuzz", "application/json", expect);
    if (r.ok()) {
      if (status >= 400) std::abort();  // an error status is never a result
      const auto& t = r->result_type;
      if (t != "vector" && t != "matrix" && t != "scalar" && t != "string") std::abort();
      if ((t == "scalar" || t == "string") && r->series.size() != 1) std::abort();
      if (expect == Expect::range && t == "string") std::abort();
      if (t == "scalar" && r->series[0].points.size() != 1) std::abort();
      if (t == "string" && r->series[0].labels.count("value") != 1) std::abort();
    } else {
      if (prom_error_type(r.error()).empty()) std::abort();
      if (r.error().message().empty()) std::abort();
    }
  }
  PromResult fast;
  if (parse_query_fast(body, fast)) {
    auto general = parse_query_general(body, 200, "fuzz", "", Expect::any);
    if (!general.ok() || !same_result(fast, *general)) std::abort();
  }
  auto q = parse_query_response(body, status, "fuzz");
  if (!q.ok() && prom_error_type(q.error()).empty()) std::abort();
  std::vector<std::string> warnings;
  auto s = parse_series_body(body, status, "fuzz", "", warnings);
  if (!s.ok() && prom_error_type(s.error()).empty()) std::abort();
  auto l = parse_labels_body(body, status, "fuzz", "", warnings);
  if (!l.ok() && prom_error_type(l.error()).empty()) std::abort();
  double v = 0;
  (void)parse_prom_value(body, v);
  return 0;
}
