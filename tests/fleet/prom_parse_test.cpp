// parse_query_response and the envelope parsers behind PromClient: a table of response bodies ->
// the series and points read, or the exact error (every malformed form pinned), plus real
// Prometheus 2.42 responses (tests/data/fleet/README.md).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fleet/prom_client.h"
#include "fleet/prom_parse.h"
#include "support/prometheus_process.h"

namespace llmtriage::fleet {
namespace {

const std::string kWhere = "http://p:9090/api/v1/query, query \"up\"";

std::string fixture(const std::string& name) {
  return test_support::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/fleet/" + name);
}

struct Good {
  const char* name;
  std::string body;
  std::string result_type;
  size_t series;
  size_t points;       // over all series
  double first_value;  // series[0].points[0].second (NaN compared as NaN)
  size_t warnings;
};

class PromParseGood : public ::testing::TestWithParam<Good> {};

TEST_P(PromParseGood, ReadsSeriesAndPoints) {
  const Good& g = GetParam();
  auto r = parse_query_response(g.body, 200, kWhere);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->result_type, g.result_type);
  EXPECT_EQ(r->series.size(), g.series);
  size_t points = 0;
  for (const auto& s : r->series) points += s.points.size();
  EXPECT_EQ(points, g.points);
  if (g.series > 0 && !r->series[0].points.empty()) {
    const double v = r->series[0].points[0].second;
    if (std::isnan(g.first_value)) {
      EXPECT_TRUE(std::isnan(v)) << v;
    } else {
      EXPECT_EQ(v, g.first_value);
    }
  }
  EXPECT_EQ(r->warnings.size() + r->infos.size(), g.warnings);
}

const double kNaN = std::nan("");
const double kInf = HUGE_VAL;

INSTANTIATE_TEST_SUITE_P(
    Table, PromParseGood,
    ::testing::Values(
        Good{"vector", R"({"status":"success","data":{"resultType":"vector","result":[
              {"metric":{"__name__":"up","job":"a"},"value":[1700000000.5,"1"]},
              {"metric":{"__name__":"up","job":"b"},"value":[1700000000.5,"0"]}]}})",
             "vector", 2, 2, 1, 0},
        Good{"matrix", R"({"status":"success","data":{"resultType":"matrix","result":[
              {"metric":{"job":"a"},"values":[[1,"1.5"],[2,"2.5"],[3,"3.5"]]}]}})",
             "matrix", 1, 3, 1.5, 0},
        Good{"empty vector", R"({"status":"success","data":{"resultType":"vector","result":[]}})", "vector", 0, 0, 0, 0},
        Good{"null result", R"({"status":"success","data":{"resultType":"matrix","result":null}})", "matrix", 0, 0, 0, 0},
        Good{"scalar", R"({"status":"success","data":{"resultType":"scalar","result":[1700000000,"42"]}})", "scalar", 1,
             1, 42, 0},
        Good{"string keeps its text in a label", R"({"status":"success","data":{"resultType":"string","result":[1,"hello"]}})",
             "string", 1, 1, kNaN, 0},
        Good{"NaN", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]}]}})",
             "vector", 1, 1, kNaN, 0},
        Good{"plus Inf", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"+Inf"]}]}})",
             "vector", 1, 1, kInf, 0},
        Good{"minus Inf", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"-Inf"]}]}})",
             "vector", 1, 1, -kInf, 0},
        Good{"exponent", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1e-05"]}]}})",
             "vector", 1, 1, 1e-05, 0},
        Good{"bare JSON number value (some stores)",
             R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,0.25]}]}})", "vector",
             1, 1, 0.25, 0},
        Good{"no metric field", R"({"status":"success","data":{"resultType":"vector","result":[{"value":[1,"7"]}]}})",
             "vector", 1, 1, 7, 0},
        Good{"warnings and infos (partial response)",
             R"({"status":"success","warnings":["store-gateway 3 unreachable: partial data"],"infos":["PromQL info: metric might not be a counter"],
                 "data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]}]}})",
             "vector", 1, 1, 1, 2},
        Good{"native histogram in a vector: skipped, noted",
             R"({"status":"success","data":{"resultType":"vector","result":[
                 {"metric":{"__name__":"h"},"histogram":[1,{"count":"10","sum":"3.5","buckets":[[0,"0.5","1","3"]]}]},
                 {"metric":{"__name__":"g"},"value":[1,"2"]}]}})",
             "vector", 1, 1, 2, 1},
        Good{"native histograms in a matrix: skipped, float points kept",
             R"({"status":"success","data":{"resultType":"matrix","result":[
                 {"metric":{"__name__":"h"},"values":[[1,"5"]],"histograms":[[2,{"count":"1","sum":"1"}],[3,{"count":"2","sum":"2"}]]}]}})",
             "matrix", 1, 1, 5, 1},
        Good{"unknown fields ignored",
             R"({"status":"success","stats":{"timings":{}},"data":{"resultType":"vector","extra":1,"result":[{"metric":{},"value":[1,"3"],"x":[1]}]}})",
             "vector", 1, 1, 3, 0},
        Good{"leading whitespace", " \n{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}", "vector", 0, 0,
             0, 0},
        Good{"real Prometheus 2.42 vector", fixture("prometheus_2.42_query_vector.json"), "vector", 2, 2, 385, 0},
        Good{"real Prometheus 2.42 matrix", fixture("prometheus_2.42_query_range_matrix.json"), "matrix", 2, 12, 336, 0},
        Good{"real Prometheus 2.42 scalar", fixture("prometheus_2.42_query_scalar.json"), "scalar", 1, 1, 1796290018, 0}),
    [](const ::testing::TestParamInfo<Good>& i) {
      std::string n;
      for (char c : std::string(i.param.name)) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return n;
    });

struct Bad {
  const char* name;
  std::string body;
  int status;
  std::string category;  // prom_error_type()
  core::ErrorKind kind;
  std::string message;   // the whole message, pinned
};

class PromParseBad : public ::testing::TestWithParam<Bad> {};

TEST_P(PromParseBad, ExactError) {
  const Bad& b = GetParam();
  auto r = parse_query_response(b.body, b.status, kWhere);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(prom_error_type(r.error()), b.category);
  EXPECT_EQ(r.error().kind, b.kind);
  EXPECT_EQ(r.error().message(), b.message);
}

const std::string kW = "http://p:9090/api/v1/query, query \"up\": ";

INSTANTIATE_TEST_SUITE_P(
    Table, PromParseBad,
    ::testing::Values(
        Bad{"bad_data", fixture("prometheus_2.42_error_bad_data.json"), 400, "bad_data", core::ErrorKind::input,
            kW + "expected a PromQL query and parameters the store accepts, found bad_data: invalid parameter \"query\": "
                 "1:12: parse error: unclosed left parenthesis. HTTP 400: the PromQL is wrong (syntax, an unknown "
                 "function or metric type, a bad selector) or a parameter is (time, step, range); the store rejected "
                 "it before running it"},
        Bad{"execution", R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory in query execution"})",
            422, "execution", core::ErrorKind::input,
            kW + "expected a query the store can execute, found execution: query processing would load too many "
                 "samples into memory in query execution. HTTP 422: the store could not evaluate the query (too many "
                 "samples or series for its limits, or a many-to-many match); narrow --window, raise --step or "
                 "tighten --selector"},
        Bad{"timeout", R"({"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"})", 503,
            "timeout", core::ErrorKind::network,
            kW + "expected an answer within the store's query timeout, found timeout: query timed out in expression "
                 "evaluation. HTTP 503: the store gave up on the query (its own timeout or load); narrow --window, "
                 "raise --step, or raise the timeout"},
        Bad{"error envelope with HTTP 200", R"({"status":"error","errorType":"unavailable","error":"too many queries"})", 200,
            "unavailable", core::ErrorKind::network,
            kW + "expected a store ready to answer, found unavailable: too many queries. HTTP 200: the store is "
                 "overloaded or not ready (still replaying its WAL?)"},
        Bad{"error without errorType", R"({"status":"error"})", 500, "unknown", core::ErrorKind::network,
            kW + "expected a successful API response, found unknown: . HTTP 500"},
        Bad{"garbled errorType (found by the fuzzer)", R"({"status":"error","errorType":"execmany samples"})", 200,
            "unknown", core::ErrorKind::network,
            kW + "expected a successful API response, found unknown: errorType \"execmany samples\": . HTTP 200"},
        Bad{"HTML (Grafana)", "<!DOCTYPE html>\n<html lang=\"en\"><head><title>Grafana</title>", 200, "non_json",
            core::ErrorKind::input,
            kW + "expected a Prometheus API JSON envelope ({\"status\": ..., \"data\": ...}), found non_json: a body "
                 "(HTTP 200) starting \"<!DOCTYPE html> <html lang=\"en\"><head><title>Grafana</title>\". Is "
                 "--prometheus pointing at Grafana, a login page or a proxy? Give the base URL of a "
                 "Prometheus-compatible HTTP API, the part before /api/v1 (http://prometheus:9090, "
                 "https://thanos.example/prefix)"},
        Bad{"proxy 502 page", "<html><body>Bad Gateway</body></html>", 502, "http_502", core::ErrorKind::network,
            kW + "expected a Prometheus API JSON envelope ({\"status\": ..., \"data\": ...}), found http_502: a body "
                 "(HTTP 502) starting \"<html><body>Bad Gateway</body></html>\". HTTP 502: the store, or a proxy in "
                 "front of it, answered without the API's error envelope"},
        Bad{"empty body", "", 200, "non_json", core::ErrorKind::input,
            kW + "expected a Prometheus API JSON envelope ({\"status\": ..., \"data\": ...}), found non_json: an "
                 "empty body (HTTP 200). Is --prometheus pointing at Grafana, a login page or a proxy? Give the base "
                 "URL of a Prometheus-compatible HTTP API, the part before /api/v1 (http://prometheus:9090, "
                 "https://thanos.example/prefix)"},
        Bad{"truncated JSON", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"val)", 200,
            "bad_response", core::ErrorKind::input,
            kW + "expected a Prometheus API JSON envelope, found bad_response: invalid JSON at byte 78 of 77 (HTTP "
                 "200; a cut or truncated answer?). the store's answer breaks the Prometheus HTTP API format"},
        Bad{"no status", R"({"data":{}})", 200, "bad_response", core::ErrorKind::input,
            kW + "expected a \"status\" field (\"success\" or \"error\"), found bad_response: none. the store's "
                 "answer breaks the Prometheus HTTP API format"},
        Bad{"odd status", R"({"status":"partial","data":{}})", 200, "bad_response", core::ErrorKind::input,
            kW + "expected status \"success\" or \"error\", found bad_response: \"partial\". the store's answer "
                 "breaks the Prometheus HTTP API format"},
        Bad{"no data", R"({"status":"success"})", 200, "bad_response", core::ErrorKind::input,
            kW + "expected a \"data\" field, found bad_response: none. the store's answer breaks the Prometheus "
                 "HTTP API format"},
        Bad{"no resultType", R"({"status":"success","data":{"result":[]}})", 200, "bad_response", core::ErrorKind::input,
            kW + "expected a \"resultType\" in data, found bad_response: none. the store's answer breaks the "
                 "Prometheus HTTP API format"},
        Bad{"unknown resultType", R"({"status":"success","data":{"resultType":"table","result":[]}})", 200, "bad_response",
            core::ErrorKind::input,
            kW + "expected resultType vector, matrix, scalar or string, found bad_response: \"table\". the store's "
                 "answer breaks the Prometheus HTTP API format"},
        Bad{"value not a number", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"job":"a"},"value":[1,"abc"]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected numeric samples, found bad_response: series 0 {job=\"a\"}: value \"abc\" (not a number, "
                 "\"NaN\", \"+Inf\" or \"-Inf\"). the store's answer breaks the Prometheus HTTP API format"},
        Bad{"value null", R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2,null]]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected numeric samples, found bad_response: series 0 {} point 1: value null (not a number, "
                 "\"NaN\", \"+Inf\" or \"-Inf\"). the store's answer breaks the Prometheus HTTP API format"},
        Bad{"value with trailing text", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1.5x"]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected numeric samples, found bad_response: series 0 {}: value \"1.5x\" (not a number, \"NaN\", "
                 "\"+Inf\" or \"-Inf\"). the store's answer breaks the Prometheus HTTP API format"},
        Bad{"timestamp a string", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":["1","1"]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected numeric samples, found bad_response: series 0 {}: timestamp \"1\" (not a number). the "
                 "store's answer breaks the Prometheus HTTP API format"},
        Bad{"point not a pair", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected numeric samples, found bad_response: series 0 {}: [1] (not a [timestamp, \"value\"] pair). "
                 "the store's answer breaks the Prometheus HTTP API format"},
        Bad{"result not an array", R"({"status":"success","data":{"resultType":"vector","result":{}}})", 200, "bad_response",
            core::ErrorKind::input,
            kW + "expected \"result\" as an array of series, found bad_response: {}. the store's answer breaks the "
                 "Prometheus HTTP API format"},
        Bad{"metric not an object", R"({"status":"success","data":{"resultType":"vector","result":[{"metric":"up","value":[1,"1"]}]}})",
            200, "bad_response", core::ErrorKind::input,
            kW + "expected a label object {\"name\": \"value\"}, found bad_response: \"up\". the store's answer "
                 "breaks the Prometheus HTTP API format"},
        Bad{"scalar malformed", R"({"status":"success","data":{"resultType":"scalar","result":[1]}})", 200, "bad_response",
            core::ErrorKind::input,
            kW + "expected a scalar result [timestamp, \"value\"], found bad_response: [1]. the store's answer breaks "
                 "the Prometheus HTTP API format"},
        Bad{"top level array", R"([1,2])", 200, "non_json", core::ErrorKind::input,
            kW + "expected a Prometheus API JSON envelope ({\"status\": ..., \"data\": ...}), found non_json: a body "
                 "(HTTP 200) starting \"[1,2]\". Is --prometheus pointing at Grafana, a login page or a proxy? Give "
                 "the base URL of a Prometheus-compatible HTTP API, the part before /api/v1 "
                 "(http://prometheus:9090, https://thanos.example/prefix)"}),
    [](const ::testing::TestParamInfo<Bad>& i) {
      std::string n;
      for (char c : std::string(i.param.name)) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return n;
    });

// The fast path (prom_fast.cpp) and the general reader agree wherever the fast path answers, and
// it does answer for the real Prometheus bodies and the plain table rows.
TEST_P(PromParseGood, FastPathAgreesWithTheGeneralReader) {
  const Good& g = GetParam();
  PromResult fast;
  const bool took = parse_query_fast(g.body, fast);
  const std::string name = g.name;
  // The rows the fast path leaves alone: null result, string result, bare-number values, native histograms.
  const bool plain = name != "null result" && name.rfind("string", 0) != 0 && name.rfind("bare JSON", 0) != 0 &&
                     name.rfind("native histogram", 0) != 0;
  EXPECT_EQ(took, plain) << name;
  if (!took) return;
  auto general = parse_query_general(g.body, 200, kWhere, "", Expect::any);
  ASSERT_TRUE(general.ok());
  EXPECT_EQ(fast.result_type, general->result_type);
  EXPECT_EQ(fast.warnings, general->warnings);
  EXPECT_EQ(fast.infos, general->infos);
  ASSERT_EQ(fast.series.size(), general->series.size());
  for (size_t i = 0; i < fast.series.size(); ++i) {
    EXPECT_EQ(fast.series[i].labels, general->series[i].labels);
    ASSERT_EQ(fast.series[i].points.size(), general->series[i].points.size());
    for (size_t j = 0; j < fast.series[i].points.size(); ++j) {
      const auto& [ft, fv] = fast.series[i].points[j];
      const auto& [gt, gv] = general->series[i].points[j];
      EXPECT_EQ(ft, gt);
      EXPECT_TRUE(fv == gv || (std::isnan(fv) && std::isnan(gv))) << fv << " vs " << gv;
    }
  }
}

TEST(PromParse, FastPathLeavesOddBodiesToTheGeneralReader) {
  PromResult out;
  for (const char* body : {
           R"({"status":"success","data":{"result":[],"resultType":"vector"}})",               // result first
           R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"\u00e9"},"value":[1,"1"]}]}})",
           R"({"status":"success","data":{"resultType":"vector","result":[{"value":[1,"1"],"value":[2,"2"]}]}})",
           R"({"status":"success","data":{"resultType":"vector","result":[{"value":[1,"1"]}]}} x)",
           R"({"status":"success","data":{"resultType":"vector","result":[{"value":[01,"1"]}]}})",
           R"({"status":"error","errorType":"bad_data","error":"x"})",
       }) {
    EXPECT_FALSE(parse_query_fast(body, out)) << body;
  }
}

TEST(PromParse, NamesTheContentTypeOfANonJsonBody) {
  auto r = parse_query_body("<html>", 200, kWhere, "text/html; charset=UTF-8", Expect::instant);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().found.find("non_json: text/html; charset=UTF-8 (HTTP 200) starting \"<html>\""), std::string::npos)
      << r.error().found;
}

TEST(PromParse, MatrixForAnInstantQueryIsAcceptedAndNoted) {
  const std::string body = R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1,"1"],[2,"2"]]}]}})";
  auto r = parse_query_body(body, 200, kWhere, "application/json", Expect::instant);
  ASSERT_TRUE(r.ok()) << r.error().message();
  ASSERT_EQ(r->series.size(), 1u);
  EXPECT_EQ(r->series[0].points.size(), 2u);
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0],
            "llmtriage: expected resultType vector for an instant query, found matrix (1 series kept with all their "
            "points; a bare range selector such as x[5m] returns a matrix)");
}

TEST(PromParse, VectorForARangeQueryIsAcceptedAndNotedAStringIsNot) {
  const std::string vec = R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"1"]}]}})";
  auto r = parse_query_body(vec, 200, kWhere, "application/json", Expect::range);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_NE(r->warnings[0].find("expected resultType matrix for a range query, found vector"), std::string::npos);
  const std::string str = R"({"status":"success","data":{"resultType":"string","result":[1,"x"]}})";
  auto s = parse_query_body(str, 200, kWhere, "application/json", Expect::range);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(prom_error_type(s.error()), "unexpected_type");
}

TEST(PromParse, StringResultKeepsItsText) {
  auto r = parse_query_response(R"({"status":"success","data":{"resultType":"string","result":[5,"hello"]}})", 200, kWhere);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->series[0].labels.at("value"), "hello");
  EXPECT_EQ(r->series[0].points[0].first, 5);
}

TEST(PromParse, LabelsOfARealVector) {
  auto r = parse_query_response(fixture("prometheus_2.42_query_vector.json"), 200, kWhere);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->series[1].labels.at("__name__"), "prometheus_tsdb_head_series");
  EXPECT_EQ(r->series[1].labels.at("instance"), "127.0.0.1:19391");
  EXPECT_EQ(r->series[1].points[0].first, 1796290018);
}

TEST(PromParse, SeriesAndLabelsEndpoints) {
  std::vector<std::string> warnings;
  auto s = parse_series_body(R"({"status":"success","warnings":["partial"],"data":[{"__name__":"up","job":"a"},{"__name__":"up","job":"b"}]})",
                             200, kWhere, "application/json", warnings);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->size(), 2u);
  EXPECT_EQ((*s)[1].at("job"), "b");
  EXPECT_EQ(warnings, std::vector<std::string>{"partial"});
  auto l = parse_labels_body(R"({"status":"success","data":["__name__","job"]})", 200, kWhere, "", warnings);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(*l, (std::vector<std::string>{"__name__", "job"}));
  auto bad = parse_labels_body(R"({"status":"success","data":["a",1]})", 200, kWhere, "", warnings);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(prom_error_type(bad.error()), "bad_response");
}

TEST(PromParse, ValueSpellings) {
  double v = 0;
  EXPECT_TRUE(parse_prom_value("0.5", v));
  EXPECT_EQ(v, 0.5);
  EXPECT_TRUE(parse_prom_value("-2", v));
  EXPECT_EQ(v, -2);
  EXPECT_TRUE(parse_prom_value("1.7976931348623157e+308", v));
  for (const char* bad : {"", "abc", "1,5", " 1", "1 ", "inf", "nan", "0x10", "+", "--1"}) {
    EXPECT_FALSE(parse_prom_value(bad, v)) << bad;
  }
}

TEST(PromParse, ErrorTypeOfOtherErrorsIsEmpty) {
  EXPECT_EQ(prom_error_type(core::make_error(core::ErrorKind::input, "x", "y", "plain text")), "");
  EXPECT_EQ(prom_error_type(core::make_error(core::ErrorKind::input, "x", "y", "Found: z")), "");
}

}  // namespace
}  // namespace llmtriage::fleet
