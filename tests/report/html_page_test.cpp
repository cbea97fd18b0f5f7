// The HTML report page: self-contained (no network reference, no external script), the embedded
// JSON parses back to the numbers drawn, and each chart's SVG is there when its data is.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include <nlohmann/json.hpp>

#include "report/html_report.h"
#include "report/sample_report.h"

namespace llmtriage::report {
namespace {

// The embedded data element's content, parsed.
nlohmann::json embedded(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
  const size_t a = html.find(open);
  EXPECT_NE(a, std::string::npos);
  if (a == std::string::npos) return nullptr;
  const size_t b = html.find("</script>", a);
  EXPECT_NE(b, std::string::npos);
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TimelineData timeline() {
  TimelineData t;
  t.source = "snap.json";
  for (int i = 0; i < 10; ++i) {
    core::EngineSample s;
    s.t_s = 1'700'000'000 + i * 5.0;
    s.running = 8 + i;
    s.waiting = i > 5 ? 30 : 0;
    s.kv_usage = 0.5 + 0.05 * i;
    s.preemptions_total = i > 6 ? 3 * (i - 6) : 0;
    s.prompt_tokens_total = 1000.0 * i * i;
    s.generation_tokens_total = 500.0 * i;
    // 20 first tokens per interval: 10 under 100 ms, 8 more under 500 ms, 2 under 1 s.
    s.ttft_s.upper_bounds = {0.1, 0.5, 1, INFINITY};
    s.ttft_s.cumulative_counts = {10.0 * i, 18.0 * i, 20.0 * i, 20.0 * i};
    s.ttft_s.count = 20.0 * i;
    t.engine.push_back(s);
    core::GpuSample g;
    g.t_s = s.t_s;
    g.sm_clock_mhz = i > 6 ? 1400 : 1980;
    g.max_sm_clock_mhz = 1980;
    g.power_w = 690;
    g.power_limit_w = 700;
    t.gpu.push_back(g);
    t.slots.push_back({s.t_s, i % 4, 4});
  }
  return t;
}

LatencyRun run(const char* label, bool baseline, double scale, int n) {
  LatencyRun r{label, baseline, std::string(label) + "/", {}};
  for (int i = 0; i < n; ++i) {
    core::RequestRecord q;
    q.id = std::to_string(i);
    q.ttft_s = scale * (0.02 + 0.001 * (i % 97) + (i % 50 == 0 ? 2.0 : 0));
    q.output_tokens = 1 + i % 128;
    q.e2e_s = *q.ttft_s + 0.02 * (*q.output_tokens - 1);
    r.requests.push_back(q);
  }
  core::RequestRecord failed;
  failed.status = core::RequestStatus::error;
  failed.error_category = "http_503";
  r.requests.push_back(failed);
  return r;
}

HtmlReport full() {
  HtmlReport h;
  h.title = "incident <1> & \"quotes\"";
  h.generated_by = "llmtriage test";
  h.sources = {"diag.json", "snap.json", "runs/a", "runs/b"};
  h.diagnosis = report_test::saturated_report();
  h.timeline = timeline();
  h.runs = {run("a", true, 1, 500), run("b", false, 3, 500)};
  h.slo.ttft_s = 0.5;
  h.slo.tpot_s = 0.05;
  return h;
}

TEST(HtmlPage, SelfContainedNoNetworkNoExternalScript) {
  const std::string html = render_html(full());
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  const std::regex remote(R"re((src|href)\s*=\s*["']?\s*(https?:)?//)re", std::regex::icase);
  EXPECT_FALSE(std::regex_search(html, remote)) << "a src/href reaches the network";
  EXPECT_EQ(html.find("<link"), std::string::npos);        // no external stylesheet
  EXPECT_EQ(html.find("@import"), std::string::npos);
  for (size_t u = html.find("url("); u != std::string::npos; u = html.find("url(", u + 1))  // CSS fetching nothing:
    EXPECT_EQ(html.compare(u, 5, "url(#"), 0) << html.substr(u, 40);  // only a clip path's id in this page
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(count(html, "<script"), 2u);  // the data, and our own script inline
  EXPECT_EQ(html.find("{{"), std::string::npos) << "a template placeholder was left";
  // The title is escaped, not markup.
  EXPECT_NE(html.find("incident &lt;1&gt; &amp; &quot;quotes&quot;"), std::string::npos);
}

TEST(HtmlPage, EmbeddedJsonRoundTrips) {
  const HtmlReport h = full();
  const std::string html = render_html(h);
  const nlohmann::json d = embedded(html);
  ASSERT_TRUE(d.is_object());
  EXPECT_EQ(d["format"], kHtmlDataFormat);
  EXPECT_EQ(d["version"], kHtmlDataVersion);
  EXPECT_EQ(d["title"], h.title);
  EXPECT_EQ(d["sources"].size(), 4u);
  // The diagnosis as docs/diagnose-json.md documents it.
  EXPECT_EQ(d["diagnosis"]["format"], "llmtriage-diagnosis");
  EXPECT_EQ(d["diagnosis"]["findings"][0]["id"], "kv_pool_saturated");
  EXPECT_DOUBLE_EQ(d["diagnosis"]["findings"][0]["evidence"][0]["value"].get<double>(), 42);
  // The layer strip: five layers, their states.
  ASSERT_EQ(d["layers"].size(), 5u);
  EXPECT_EQ(d["layers"][0]["state"], "cleared");
  EXPECT_EQ(d["layers"][1]["state"], "located");
  EXPECT_EQ(d["layers"][1]["finding"], "kv_pool_saturated");
  EXPECT_EQ(d["layers"][2]["state"], "not_judged");
  // The timeline: running as given, rates from counter differences.
  const auto& series = d["timeline"]["series"];
  auto find = [&](const std::string& id) {
    for (const auto& s : series)
      if (s["id"] == id) return s;
    return nlohmann::json();
  };
  ASSERT_FALSE(find("running").is_null());
  EXPECT_EQ(find("running")["v"][3], 11);
  EXPECT_DOUBLE_EQ(find("running")["t_s"][3].get<double>(), 15);
  // prompt tokens 1000 i^2 every 5 s: between i=2 and i=3, 5000 / 5 = 1000 tok/s.
  EXPECT_DOUBLE_EQ(find("prompt_tok_s")["v"][2].get<double>(), 1000);
  EXPECT_DOUBLE_EQ(find("prompt_tok_s")["t_s"][2].get<double>(), 15);
  EXPECT_DOUBLE_EQ(find("generation_tok_s")["v"][0].get<double>(), 100);
  EXPECT_EQ(find("slots_busy")["v"][2], 2);
  EXPECT_DOUBLE_EQ(find("gpu0_sm_clock")["v"][9].get<double>(), 1400);
  // TTFT per interval from histogram differences, as PromQL's histogram_quantile reads them.
  EXPECT_NEAR(find("ttft_p50")["v"][0].get<double>(), 0.1, 1e-12);
  EXPECT_NEAR(find("ttft_p99")["v"][0].get<double>(), 0.95, 1e-12);
  EXPECT_EQ(find("ttft_p99")["v"].size(), 9u);
  ASSERT_EQ(d["timeline"]["preemptions"].size(), 3u);
  EXPECT_DOUBLE_EQ(d["timeline"]["preemptions"][0]["count"].get<double>(), 3);
  // The latency runs: quantiles of the records drawn, failed requests left out of them.
  const auto& runs = d["latency"]["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["baseline"], true);
  EXPECT_EQ(runs[0]["requests"], 501);
  EXPECT_EQ(runs[0]["failed"], 1);
  const auto& ttft = runs[1]["metrics"]["ttft_s"];
  EXPECT_EQ(ttft["count"], 500);
  std::vector<double> v;
  for (const auto& q : h.runs[1].requests)
    if (q.ttft_s) v.push_back(*q.ttft_s);
  std::sort(v.begin(), v.end());
  EXPECT_DOUBLE_EQ(ttft["max"].get<double>(), v.back());
  EXPECT_NEAR(ttft["p50"].get<double>(), v[249] + (v[250] - v[249]) * 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(d["latency"]["slo"]["ttft_s"].get<double>(), 0.5);
  EXPECT_TRUE(d["latency"]["slo"]["e2e_s"].is_null());
  // The CDF points: ascending in value and share, ending at 1.
  const auto& cdf = ttft["cdf"];
  ASSERT_GT(cdf.size(), 2u);
  EXPECT_DOUBLE_EQ(cdf.back()[1].get<double>(), 1.0);
  for (size_t i = 1; i < cdf.size(); ++i) EXPECT_LE(cdf[i - 1][0].get<double>(), cdf[i][0].get<double>());
}

TEST(HtmlPage, EachChartIsThereWhenItsDataIs) {
  const std::string html = render_html(full());
  EXPECT_NE(html.find("class=\"layer-strip\""), std::string::npos);
  EXPECT_EQ(count(html, "class=\"layer state-"), 5u);
  // The events lane carries kv_pool_saturated's onset (its first reading over its thresholds).
  for (const char* lane : {"lane-latency", "lane-requests", "lane-kv", "lane-tokens", "lane-clock", "lane-power", "lane-events"})
    EXPECT_NE(html.find(std::string("id=\"") + lane + "\""), std::string::npos) << lane;
  EXPECT_EQ(count(html, "<svg class=\"chart lane\""), 7u);
  EXPECT_NE(html.find("kv_pool_saturated begins: the first reading with"), std::string::npos);
  EXPECT_NE(html.find("SLO 500 ms</text>"), std::string::npos);  // on the TTFT lane and the TTFT CDF
  for (const char* m : {"cdf-ttft_s", "cdf-tpot_s", "cdf-e2e_s"}) EXPECT_NE(html.find(m), std::string::npos) << m;
  EXPECT_NE(html.find("class=\"slo\""), std::string::npos);  // the SLO line
  EXPECT_NE(html.find("p99 "), std::string::npos);
  EXPECT_NE(html.find("id=\"finding-kv_pool_saturated\""), std::string::npos);
  EXPECT_NE(html.find("max-num-seqs 256 -&gt; 128"), std::string::npos);  // the remedy, as the text report words it
  // SVG is balanced.
  EXPECT_EQ(count(html, "<svg "), count(html, "</svg>"));
  EXPECT_EQ(count(html, "<g "), count(html, "</g>"));
}

TEST(HtmlPage, WhatIsMissingIsSaidNotDrawnEmpty) {
  HtmlReport h;
  h.generated_by = "llmtriage test";
  h.runs = {run("only", false, 1, 50)};
  TimelineData t = timeline();
  t.gpu.clear();
  h.timeline = t;
  const std::string html = render_html(h);
  const nlohmann::json d = embedded(html);
  EXPECT_TRUE(d["diagnosis"].is_null());
  EXPECT_TRUE(d["layers"].is_null());
  EXPECT_EQ(html.find("class=\"layer-strip\""), std::string::npos);
  EXPECT_EQ(html.find("lane-clock"), std::string::npos);
  EXPECT_NE(html.find("no GPU lanes"), std::string::npos);
  EXPECT_NE(html.find("no diagnosis among the inputs"), std::string::npos);
  EXPECT_NE(html.find("cdf-ttft_s"), std::string::npos);
  EXPECT_EQ(html.find("class=\"slo\""), std::string::npos);  // no SLO given: no line
  // Nothing at all: still a valid page with its JSON.
  const std::string empty = render_html(HtmlReport{});
  EXPECT_TRUE(embedded(empty).is_object());
  EXPECT_EQ(empty.find("<svg"), std::string::npos);
}

TEST(HtmlPage, LayerStripSaysSuspectedWhenOnlySuspectedFindingsSitInALayer) {
  HtmlReport h = full();
  diagnose::Finding s;
  s.id = "fp8_kv_quality";
  s.layer = diagnose::Layer::numeric_parameter;
  s.severity = diagnose::Severity::info;
  s.status = "suspected";
  s.title = "KV cache in fp8 may degrade outputs";
  s.evidence = {{"kv_cache_dtype_fp8", 1, "0/1", std::nullopt, "", "engine args", ""}};
  h.diagnosis->findings.push_back(s);
  const std::string html = render_html(h);
  const auto layers = embedded(html)["layers"];
  EXPECT_EQ(layers[3]["layer"], "numeric_parameter");
  EXPECT_EQ(layers[3]["state"], "suspected");
  EXPECT_EQ(layers[3]["line"], "KV cache in fp8 may degrade outputs — kv_cache_dtype_fp8 = yes");
  // The word is on the page, not only the colour.
  EXPECT_NE(html.find("<span class=\"layer-state\">suspected</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"layer-state\">not judged</span>"), std::string::npos);
}

TEST(HtmlPage, RequestsAreDotsOnTheTtftLaneWhereTheClocksOverlap) {
  HtmlReport h = full();
  const double t0 = h.timeline->engine.front().t_s;
  h.timeline->requests = {{t0 + 1, 0.2}, {t0 + 30, 1.5}, {t0 - 5, 0.1}, {t0 + 999, 0.1}};  // two outside
  std::string html = render_html(h);
  EXPECT_EQ(embedded(html)["timeline"]["requests_drawn"], 2);
  EXPECT_EQ(count(html, "class=\"req-dot\""), 2u);
  EXPECT_NE(html.find("request sent at 30 s: TTFT 1.5"), std::string::npos) << html.substr(html.find("request sent at"), 120);
  // Many requests: one stroke per pixel column instead of a dot each.
  h.timeline->requests.clear();
  for (int i = 0; i < 20000; ++i) h.timeline->requests.push_back({t0 + i * 45.0 / 20000, 0.05 + (i % 100) * 0.01});
  html = render_html(h);
  EXPECT_EQ(count(html, "class=\"req-dot\""), 0u);
  const size_t strokes = count(html, "class=\"req-range\"");
  EXPECT_GT(strokes, 500u);
  EXPECT_LE(strokes, 1100u);  // at most one per pixel column of the lane
}

TEST(HtmlPage, InputTextCannotBreakOutOfTheDataScript) {
  HtmlReport h = full();
  h.diagnosis->findings[0].title = "</script><script>alert(1)</script><!--";
  const std::string html = render_html(h);
  EXPECT_EQ(count(html, "<script"), 2u);
  EXPECT_EQ(embedded(html)["diagnosis"]["findings"][0]["title"], h.diagnosis->findings[0].title);
}

TEST(HtmlPage, HundredThousandRequestsStaySmall) {
  HtmlReport h;
  h.runs = {run("big", false, 1, 100000)};
  h.slo.ttft_s = 0.5;
  const std::string html = render_html(h);
  EXPECT_LT(html.size(), 400u * 1024) << "decimation should keep the CDFs to a few points per pixel column";
  EXPECT_EQ(embedded(html)["latency"]["runs"][0]["metrics"]["ttft_s"]["count"], 100000);
}

}  // namespace
}  // namespace llmtriage::report
