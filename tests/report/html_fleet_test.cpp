// The fleet's small multiples (report::fleet_small_multiples via render_html): one row per
// replica in the order given, a shared y range per column in its unit, outlier cells and the rows
// that differ marked, the median behind each sparkline, the numbers in the embedded JSON and the
// table, input text escaped. A golden SVG of a fixed picture guards the drawing
// (LLMTRIAGE_UPDATE_GOLDEN=1 rewrites it; look at the difference before committing it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/html_report.h"
#include "support/golden.h"

namespace llmtriage::report {
namespace {

nlohmann::json embedded_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
  const size_t a = html.find(open), b = html.find("</script>", a);
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

FleetPicture::Cell ramp(double from, double to, int n = 7) {
  FleetPicture::Cell c;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    c.t_s.push_back(10.0 * i);
    c.v.push_back(from + (to - from) * i / (n - 1));
    sum += c.v.back();
  }
  c.value = sum / n;
  return c;
}

FleetPicture picture() {
  FleetPicture p;
  p.t0_unix_s = 1733212800;
  p.t1_s = 60;
  p.step_s = 10;
  p.columns = {{"waiting", "waiting", "requests", true, "num_requests_waiting"},
               {"kv_usage", "KV usage", "fraction", true, "kv usage"},
               {"ttft_p99", "TTFT p99", "s", false, "histogram ends"}};
  FleetPicture::Row hot{"pod-<b>hot</b>", 7.5, "waiting", true, {"replica_outlier"}, {ramp(0, 40), ramp(0.3, 0.95), {}}};
  hot.cells[0].outlier = true;
  hot.cells[0].outlier_text = "outlier: waiting 20 requests vs fleet median 0 (robust z +inf)";
  hot.cells[2].value = 2.5;
  FleetPicture::Row calm{"pod-calm", 0, "", false, {}, {ramp(0, 0), ramp(0.3, 0.3), {}}};
  calm.cells[2].value = 0.25;
  p.rows = {hot, calm};
  p.median = {ramp(0, 0), ramp(0.3, 0.4), {}};
  p.notes = {"latency quantiles are one number per replica"};
  return p;
}

std::string svg_of(const std::string& html, const std::string& cls) {
  const size_t a = html.find("<svg class=\"chart " + cls + "\"");
  if (a == std::string::npos) return "";
  return html.substr(a, html.find("</svg>", a) + 6 - a);
}

TEST(HtmlFleet, RowsInOrderOutliersMarkedNumbersEmbedded) {
  HtmlReport h;
  h.fleet = picture();
  const std::string html = render_html(h);
  const std::string svg = svg_of(html, "fleet-grid");
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(html.find("<b>hot</b>"), std::string::npos) << "input text is escaped";
  EXPECT_LT(svg.find("pod-&lt;b&gt;hot"), svg.find("pod-calm")) << "rows in the order given";
  EXPECT_NE(svg.find("y 0 – 40 requests"), std::string::npos) << "the shared y range in its unit";
  EXPECT_NE(svg.find("y 0% – 100%"), std::string::npos);
  EXPECT_NE(svg.find("class=\"fleet-cell outlier\" data-col=\"waiting\""), std::string::npos);
  EXPECT_EQ(svg.find("class=\"fleet-cell outlier\" data-col=\"kv_usage\""), std::string::npos);
  EXPECT_NE(svg.find("z 7.5 · replica_outlier"), std::string::npos);
  EXPECT_NE(svg.find(">20<"), std::string::npos) << "the window's mean beside the sparkline, its unit in the head";
  EXPECT_NE(svg.find("spark-median"), std::string::npos);
  EXPECT_NE(svg.find(">2.5 s<"), std::string::npos) << "the window's TTFT p99 as a number";
  EXPECT_NE(svg.find(">60 s<"), std::string::npos) << "the time axis: the window's length";
  EXPECT_NE(html.find("<td class=\"outlier\">20 requests</td>"), std::string::npos) << "the table";
  const auto d = embedded_data(html)["fleet"];
  ASSERT_EQ(d["rows"].size(), 2u);
  EXPECT_EQ(d["rows"][0]["replica"], "pod-<b>hot</b>");
  EXPECT_DOUBLE_EQ(d["rows"][0]["cells"]["waiting"]["value"].get<double>(), 20);
  EXPECT_TRUE(d["rows"][0]["cells"]["waiting"]["outlier"].get<bool>());
  EXPECT_DOUBLE_EQ(d["rows"][1]["cells"]["ttft_p99"]["value"].get<double>(), 0.25);
  EXPECT_EQ(d["t_s"].size(), 7u) << "one time grid for every sparkline";
  EXPECT_EQ(d["median"]["kv_usage"].size(), 7u);
  EXPECT_DOUBLE_EQ(d["rows"][0]["cells"]["waiting"]["v"][6].get<double>(), 40);
  EXPECT_FALSE(d["rows"][0]["cells"]["ttft_p99"].contains("v")) << "a number column has no readings per step";
  EXPECT_FALSE(d["median"].contains("ttft_p99")) << "a number column has no median line";
}

TEST(HtmlFleet, NoFleetNoGridAndNullData) {
  HtmlReport h;
  const std::string html = render_html(h);
  EXPECT_TRUE(svg_of(html, "fleet-grid").empty());
  EXPECT_TRUE(embedded_data(html)["fleet"].is_null());
}

TEST(HtmlFleet, GoldenSvg) {
  HtmlReport h;
  h.fleet = picture();
  const std::string svg = svg_of(render_html(h), "fleet-grid") + "\n";
  golden::expect_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/report/fleet_small_multiples.svg", svg, "the drawing");
}

// A fleet of 100 replicas over 240 steps (the gather's cap) with seven sparkline columns stays a
// page a browser opens at once (3.1 MB measured): each sparkline keeps its lowest and highest point
// per pixel column, the median line is drawn once per column, the JSON has one time grid.
TEST(HtmlFleet, HundredReplicasStaySmall) {
  FleetPicture p;
  p.t1_s = 2400;
  p.step_s = 10;
  for (const char* id : {"running", "waiting", "kv_usage", "request_rate", "generation_tok_s", "sm_clock_ratio", "power_w"})
    p.columns.push_back({id, id, id == std::string("kv_usage") || id == std::string("sm_clock_ratio") ? "fraction" : "requests",
                         true, ""});
  for (int r = 0; r < 100; ++r) {
    FleetPicture::Row row;
    row.replica = "vllm-" + std::to_string(r) + ".prod.svc.cluster.local:8000";
    for (size_t c = 0; c < p.columns.size(); ++c) {
      FleetPicture::Cell cell;
      for (int i = 0; i < 240; ++i) {
        cell.t_s.push_back(10.0 * i);
        cell.v.push_back(0.5 + 0.4 * ((i * 7919 + r * 31 + static_cast<int>(c)) % 101) / 101.0);
      }
      cell.value = 0.7;
      row.cells.push_back(cell);
    }
    p.rows.push_back(row);
  }
  p.median = p.rows.front().cells;
  HtmlReport h;
  h.fleet = p;
  const std::string html = render_html(h);
  std::cout << "100 replicas x 240 steps x 7 sparklines: " << html.size() << " bytes\n";
  EXPECT_LT(html.size(), 3'500'000u);
}

}  // namespace
}  // namespace llmtriage::report
