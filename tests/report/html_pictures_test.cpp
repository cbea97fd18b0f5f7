// The pictures of one command's result (report::LedgerPicture, CapacityPicture, AbBoard) drawn
// into the page: each SVG present when given and absent otherwise, the embedded JSON carrying the
// numbers drawn, the cases that change the drawing (a KV pool short of memory, CUDA graphs in the
// headroom, a failing and a client-bound load, a comparison without a verdict), input text escaped.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/html_report.h"

namespace llmtriage::report {
namespace {

nlohmann::json picture_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
  const size_t a = html.find(open), b = html.find("</script>", a);
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

LedgerPicture ledger(double kv_gib, bool graphs_in_headroom) {
  LedgerPicture l;
  l.title = "model <script>alert(1)</script> on H100";
  l.total_gib = 80;
  l.usable_gib = 72;
  l.utilization = 0.9;
  l.blocks = {{"weights_gib", "Weights", 60, false, 60.5},
              {"cuda_graph_gib", "CUDA graphs", 1, graphs_in_headroom, std::nullopt},
              {"activation_gib", "Activation peak", 2, false, std::nullopt},
              {"non_torch_gib", "Non-torch", 0.5, false, std::nullopt},
              {"kv_cache_gib", "KV pool", kv_gib, false, std::nullopt}};
  l.verdict = kv_gib > 0 ? "fits" : "no_kv_memory";
  l.verdict_detail = "detail";
  return l;
}

TEST(HtmlPictures, NoPictureNoSvgAndNullData) {
  HtmlReport h;
  const std::string html = render_html(h);
  for (const char* cls : {"ledger-waterfall", "capacity", "ab-board"})
    EXPECT_EQ(html.find(std::string("<svg class=\"chart ") + cls), std::string::npos) << cls;
  const auto d = picture_data(html);
  for (const char* k : {"ledger", "capacity", "ab"}) EXPECT_TRUE(d[k].is_null()) << k;
}

TEST(HtmlPictures, LedgerWaterfallPlacesEachBlockAfterThePrevious) {
  HtmlReport h;
  h.ledger = ledger(8.5, false);
  const std::string html = render_html(h);
  EXPECT_NE(html.find("<svg class=\"chart ledger-waterfall\""), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos) << "input text is escaped";
  EXPECT_NE(html.find("60.00 GiB (log 60.50)"), std::string::npos) << "the engine's number beside the ledger's";
  EXPECT_EQ(html.find("no diagnosis among the inputs"), std::string::npos) << "a ledger page never has one";
  const auto l = picture_data(html)["ledger"];
  ASSERT_EQ(l["blocks"].size(), 5u);
  const double starts[] = {0, 60, 61, 63, 63.5};
  for (size_t i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(l["blocks"][i]["start_gib"].get<double>(), starts[i]) << i;
  EXPECT_DOUBLE_EQ(l["left_gib"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(l["headroom_gib"].get<double>(), 8);
  EXPECT_DOUBLE_EQ(l["blocks"][0]["measured_gib"].get<double>(), 60.5);
  EXPECT_TRUE(l["blocks"][1]["measured_gib"].is_null());
}

TEST(HtmlPictures, LedgerGraphsInTheHeadroomAndAPoolShortOfMemory) {
  HtmlReport h;
  h.ledger = ledger(-2, true);
  const std::string html = render_html(h);
  const auto l = picture_data(html)["ledger"];
  EXPECT_DOUBLE_EQ(l["blocks"][1]["start_gib"].get<double>(), 72) << "CUDA graphs start at the usable share's end";
  EXPECT_DOUBLE_EQ(l["blocks"][2]["start_gib"].get<double>(), 60) << "the next usable block follows the weights";
  EXPECT_DOUBLE_EQ(l["blocks"][4]["start_gib"].get<double>(), 62.5);
  EXPECT_NE(html.find("short by 2.00 GiB"), std::string::npos);
  EXPECT_NE(html.find("lg-short"), std::string::npos);
  EXPECT_NE(html.find("sev-warning"), std::string::npos) << "a ledger that does not fit is not green";
}

TEST(HtmlPictures, LedgerWithoutGpuMemoryDrawsNothing) {
  HtmlReport h;
  h.ledger = ledger(1, false);
  h.ledger->total_gib = 0;
  const std::string html = render_html(h);
  EXPECT_EQ(html.find("<svg class=\"chart ledger-waterfall"), std::string::npos);
  EXPECT_TRUE(picture_data(html)["ledger"].is_null());
}

TEST(HtmlPictures, CapacityCurveMarksTheAnswerFailuresAndTheClient) {
  HtmlReport h;
  CapacityPicture& c = h.capacity.emplace();
  c.by = "rate";
  c.unit = "req/s";
  c.slo = "ttft=500ms,tpot=50ms";
  c.ttft_slo_ms = 500;
  c.tpot_slo_ms = 50;
  c.capacity = 4;
  c.failing_above = 8;
  c.knee = 4;
  c.curve = {{1, 3, 100, 100, 100, 1, 120, 20, 900, 1.0, true, false, false},
             {2, 3, 100, 99.5, 100, 2, 150, 24, 1000, 2.0, true, false, false},
             {4, 3, 99.2, 98, 100, 3.9, 300, 35, 1500, 3.95, true, false, false},
             {8, 1, 40, 40, 40, 3.1, 4000, 90, 9000, 6.0, false, true, true}};
  const std::string html = render_html(h);
  ASSERT_NE(html.find("<svg class=\"chart capacity\""), std::string::npos);
  EXPECT_NE(html.find("capacity 4 req/s"), std::string::npos);
  EXPECT_NE(html.find("fails at 8 req/s"), std::string::npos);
  EXPECT_NE(html.find("cap-fail"), std::string::npos) << "a failing load is an open dot";
  EXPECT_NE(html.find("client-bound"), std::string::npos);
  EXPECT_NE(html.find("TTFT SLO 500 ms"), std::string::npos);
  EXPECT_NE(html.find("TPOT SLO 50 ms"), std::string::npos);
  EXPECT_NE(html.find("cap-diagonal"), std::string::npos) << "a rate search draws realised against offered";
  const auto d = picture_data(html)["capacity"];
  EXPECT_DOUBLE_EQ(d["capacity"].get<double>(), 4);
  ASSERT_EQ(d["curve"].size(), 4u);
  EXPECT_DOUBLE_EQ(d["curve"][3]["realized_load"].get<double>(), 6);
  EXPECT_DOUBLE_EQ(d["curve"][2]["ttft_p99_ms"].get<double>(), 300);
  EXPECT_FALSE(d["curve"][3]["pass"].get<bool>());
}

TEST(HtmlPictures, AbBoardColoursVerdictsAndGreysARefusal) {
  HtmlReport h;
  AbBoard& b = h.ab.emplace();
  b.variable = "max_num_seqs: 256 -> 128";
  b.verdict_given = true;
  b.rows = {{"ttft_p99_ms", 200, 150, -50, -70, -30, -25, "better"},
            {"tpot_p50_ms", 20, 24, 4, 2, 6, 20, "worse"},
            {"output_throughput_tok_s", 1000, 1010, 10, -20, 40, 1, "no significant change"}};
  std::string html = render_html(h);
  ASSERT_NE(html.find("<svg class=\"chart ab-board\""), std::string::npos);
  EXPECT_NE(html.find("max_num_seqs: 256 -&gt; 128"), std::string::npos) << "the variable changed, in the title";
  for (const char* cls : {"ab-row ab-better", "ab-row ab-worse", "ab-row ab-same"}) EXPECT_NE(html.find(cls), std::string::npos) << cls;
  EXPECT_NE(html.find("TTFT p99"), std::string::npos);
  auto d = picture_data(html)["ab"];
  ASSERT_EQ(d["metrics"].size(), 3u);
  EXPECT_DOUBLE_EQ(d["metrics"][0]["lo"].get<double>(), -70);
  EXPECT_EQ(d["metrics"][1]["verdict"], "worse");
  b.verdict_given = false;
  b.refusals = {"request sets differ"};
  html = render_html(h);
  EXPECT_EQ(html.find("ab-row ab-better"), std::string::npos) << "no verdict: no colour";
  EXPECT_NE(html.find("ab-row ab-none"), std::string::npos);
  EXPECT_NE(html.find("No verdict</b>: request sets differ"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::report
