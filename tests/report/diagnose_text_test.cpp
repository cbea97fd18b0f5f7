// The terminal report: verdict first, numbered single-variable fixes with predicted effects,
// units on every number, colors only when asked, paragraphs wrapped, definitions named.
#include "report/diagnose_text.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/report_helpers.h"
#include "report/sample_report.h"

using namespace llmtriage;

using report_test::pos;

TEST(DiagnoseText, VerdictFirstThenOthersClearedNotJudgedInputs) {
  const std::string t = report::render_text(report_test::saturated_report());
  size_t verdict = pos(t, "VERDICT  KV pool saturated: requests queue for KV blocks");
  size_t others = pos(t, "Other findings (1)");
  size_t cleared = pos(t, "Cleared");
  size_t nj = pos(t, "Not judged");
  size_t inputs = pos(t, "Inputs");
  EXPECT_LT(verdict, others);
  EXPECT_LT(others, cleared);
  EXPECT_LT(cleared, nj);
  EXPECT_LT(nj, inputs);
  pos(t, "kv_pool_saturated · scheduling/capacity layer · ttft_spike · warning · confidence 0.85 · explains ~70% of the symptom");
  pos(t, "symptom: ttft_spike (detected from the evidence)");
}

TEST(DiagnoseText, FixIsANumberedListWithPredictedEffects) {
  const std::string t = report::render_text(report_test::saturated_report());
  size_t a = pos(t, "    1. max-num-seqs 256 -> 128\n       predicted: P99 TTFT 12.4 s -> 1.9 s (sim, +-30%)\n");
  size_t b = pos(t, "    2. gpu-memory-utilization 0.85 -> 0.92\n       predicted: KV pool 41234 -> 58000 tokens (ledger)\n");
  size_t c = pos(t, "    3. replicas 1 -> 2\n       predicted: effect not predicted (qualitative)\n");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  pos(t, "Next measurement: vllm:num_requests_waiting");
}

TEST(DiagnoseText, EveryNumberHasItsUnitAndSource) {
  const std::string t = report::render_text(report_test::saturated_report());
  pos(t, "- waiting_p50 = 42 requests (threshold > 4 requests)  [metrics:vllm:num_requests_waiting over 30 s]");
  pos(t, "- kv_usage_max = 99% (threshold >= 90%)");
  pos(t, "- ttft_p99_s = 45 ms (threshold < 2 s)");
  pos(t, "- log: Sequence group 12 is preempted | RECOMPUTE  [vllm.log:120]");
  pos(t, "- gateway_timeout_s = 10 s (threshold < 12.4 s)");
  pos(t, "fix: gateway timeout 10 s -> 30 s");
}

TEST(DiagnoseText, NotJudgedSaysWhyAndInputsSayWhatFailed) {
  const std::string t = report::render_text(report_test::saturated_report());
  pos(t, "operator/hardware: no GPU telemetry: give --dcgm URL or --observe power_w=...");
  pos(t, "numeric/parameters: no sampled outputs (--outputs FILE)");
  pos(t, "ok   snapshot      snap.json: 6 scrape(s) of vllm");
  pos(t, "FAIL log           missing.log: cannot open: No such file or directory");
  pos(t, "Snapshot kept at /var/tmp/llmtriage-snapshot-20261203T061500Z.json");
  pos(t, "TTFT/TPOT/ITL as defined in docs/metrics.md");
}

TEST(DiagnoseText, MissingEvidenceDoesNotRepeatTheNotJudgedLayers) {
  auto r = report_test::saturated_report();
  r.missing = {"operator_hardware: not judged: no GPU telemetry", "load: not judged against a baseline"};
  const std::string t = report::render_text(r);
  EXPECT_EQ(t.find("not judged: no GPU telemetry"), std::string::npos) << t;
  pos(t, "Missing evidence\n  - load: not judged against a baseline\n");
}

TEST(DiagnoseText, ColorsOnlyWhenAsked) {
  const std::string plain = report::render_text(report_test::saturated_report());
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  report::TextOptions o;
  o.color = true;
  const std::string colored = report::render_text(report_test::saturated_report(), o);
  EXPECT_NE(colored.find("\033[33mwarning\033[0m"), std::string::npos);
  EXPECT_NE(colored.find("\033[1mVERDICT\033[0m"), std::string::npos);
}

TEST(DiagnoseText, HeadingsGroupOtherFindingsByLayer) {
  report::TextOptions o;
  o.headings = true;
  const std::string t = report::render_text(report_test::saturated_report(), o);
  pos(t, "── Other findings (1) ─");
  pos(t, " gateway/client\n  2. [info] Gateway timeout shorter than the P99 TTFT\n");
  pos(t, "── Cleared ─");
}

TEST(DiagnoseText, ParagraphsAreWrapped) {
  auto r = report_test::saturated_report();
  r.findings[0].explanation = std::string(40, 'x');
  for (int i = 0; i < 60; ++i) r.findings[0].explanation += " word" + std::to_string(i);
  report::TextOptions o;
  o.width = 60;
  const std::string t = report::render_text(r, o);
  std::istringstream in(t);
  std::string line;
  int explanation_lines = 0;
  while (std::getline(in, line)) {
    if (line.find("word") == std::string::npos) continue;
    ++explanation_lines;
    EXPECT_LE(line.size(), 60u) << line;
  }
  EXPECT_GT(explanation_lines, 4);
}

TEST(DiagnoseText, OnlyInfoFindingsAreALeadNotAVerdict) {
  auto r = report_test::saturated_report();
  r.findings.erase(r.findings.begin());
  const std::string t = report::render_text(r);
  size_t v = pos(t, "VERDICT  no cause located at warning or above; the strongest lead:");
  size_t l = pos(t, "LEAD  Gateway timeout shorter than the P99 TTFT");
  EXPECT_LT(v, l);
}

TEST(DiagnoseText, NoFindingIsNotACleanBillWhenLayersWereNotJudged) {
  diagnose::Report r;
  r.symptoms_detected = true;
  r.layers = {{diagnose::Layer::load, diagnose::LayerVerdict::State::cleared,
               {{"request_rate", 3.2, "req/s", std::nullopt, "", "records", ""}}, ""},
              {diagnose::Layer::operator_hardware, diagnose::LayerVerdict::State::not_judged, {}, "no GPU telemetry"}};
  const std::string t = report::render_text(r);
  pos(t, "VERDICT  no cause located");
  pos(t, "1 layer(s) could not be judged for lack of evidence (below): this is not a clean bill of health.");
  pos(t, "- request_rate = 3.2 req/s  [records]");
  pos(t, "symptom: none seen (detected from the evidence)");
  EXPECT_EQ(t.find("Snapshot kept"), std::string::npos);
}
