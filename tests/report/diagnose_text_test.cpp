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

// A live diagnosis: the precaution of keeping the snapshot reads as a sentence above the fixes,
// not as fix #1 with a from/to ("capture before restart restart now -> keep ...").
TEST(DiagnoseText, PrecautionIsASentenceAboveTheNumberedFixes) {
  auto r = report_test::saturated_report();
  diagnose::Remedy keep{"capture before restart", "", "keep /var/tmp/llmtriage-snapshot-20261203T061500Z.json",
                        "the evidence of this incident survives the restart (metrics, engine args, logs, GPU state)",
                        "qualitative", {}};
  keep.kind = diagnose::Remedy::Kind::precaution;
  r.findings[0].remedies.insert(r.findings[0].remedies.begin(), keep);
  const std::string t = report::render_text(r);
  size_t first = pos(t, "\n  First, capture before restart: keep /var/tmp/llmtriage-snapshot-20261203T061500Z.json. The\n"
                        "  evidence of this incident survives the restart (metrics, engine args, logs, GPU state).\n");
  size_t fix = pos(t, "Fix: one change at a time, in this order\n    1. max-num-seqs 256 -> 128\n");
  EXPECT_LT(first, fix);
  EXPECT_EQ(t.find("restart now"), std::string::npos) << t;
  EXPECT_EQ(t.find(". capture before restart"), std::string::npos) << t;
  // The path is said once.
  EXPECT_EQ(t.find("Snapshot kept at"), std::string::npos) << t;
}

// A change the simulator predicts to do nothing (688 ms -> 688 ms, within +-30%) or to harm is
// not a fix: it is never numbered, and never first.
TEST(DiagnoseText, NilOrWorseRemediesAreNotOfferedAsFixes) {
  auto r = report_test::saturated_report();
  diagnose::Remedy nil{"max-num-batched-tokens", "8192", "16384", "P99 TTFT 688 ms -> 688 ms", "sim", 0.3};
  nil.predicted = diagnose::PredictedValue{"P99 TTFT", "s", 0.688, 0.688, false, 0.3};
  diagnose::Remedy worse{"max-num-seqs", "256", "512", "P99 TTFT 688 ms -> 2.1 s", "sim", 0.3};
  worse.predicted = diagnose::PredictedValue{"P99 TTFT", "s", 0.688, 2.1, false, 0.3};
  auto& rem = r.findings[0].remedies;
  rem = {nil, worse, rem[0]};
  diagnose::order_remedies(rem);
  report::TextOptions wide;
  wide.width = 140;
  const std::string t = report::render_text(r, wide);
  size_t fix = pos(t, "    1. max-num-seqs 256 -> 128\n");
  size_t not_fix = pos(t, "  Not offered as fixes\n"
                          "    - max-num-batched-tokens 8192 -> 16384: no predicted effect: P99 TTFT 688 ms -> 688 ms (sim, +-30%)\n");
  pos(t, "    - max-num-seqs 256 -> 512: predicted worse: P99 TTFT 688 ms -> 2.1 s (sim, +-30%)\n");
  EXPECT_LT(fix, not_fix);
  EXPECT_EQ(t.find("2. max-num-batched-tokens"), std::string::npos) << t;
  // Only nil remedies: no numbered fix at all, and the other findings' one-line fix skips them too.
  r.findings[0].remedies = {nil};
  r.findings[1].remedies = {nil};
  const std::string u = report::render_text(r);
  pos(u, "No remedy with a predicted effect was found.");
  EXPECT_EQ(u.find("1. max-num-batched-tokens"), std::string::npos) << u;
  EXPECT_EQ(u.find("fix: max-num-batched-tokens"), std::string::npos) << u;
}

// Flags read yes/no and thresholds against a baseline read as factors, not in the value's unit.
TEST(DiagnoseText, FlagsAndBaselineFactorsReadAsAPersonSaysThem) {
  auto r = report_test::saturated_report();
  r.findings[0].evidence = {
      {"throttle_power", 1, "0/1", 1, "==", "dcgm", ""},
      {"input_len_mean", 3000, "tokens", 1.5, ">= x baseline", "records", "baseline 1200 tokens (records)"},
      {"output_len_mean", 100, "tokens", 1.5, "<= baseline /", "records", ""},
      {"ttft_p50_s", 16.89, "s", std::nullopt, "", "records", ""},
  };
  const std::string t = report::render_text(r);
  pos(t, "- throttle_power = yes (threshold == yes)");
  pos(t, "- input_len_mean = 3000 tokens (threshold >= 1.5x baseline): baseline 1200 tokens (records)");
  pos(t, "- output_len_mean = 100 tokens (threshold <= baseline / 1.5)");
  pos(t, "- ttft_p50_s = 16.9 s");
  EXPECT_EQ(t.find("0/1"), std::string::npos) << t;
  EXPECT_EQ(t.find("e+0"), std::string::npos) << t;
}

// Green is for healthy only: no cause located with a symptom seen, or with a layer not judged,
// is not good news.
TEST(DiagnoseText, NoCauseLocatedIsGreenOnlyWhenHealthy) {
  report::TextOptions o;
  o.color = true;
  diagnose::Report r;
  r.symptoms = {diagnose::Symptom::ttft_spike};
  r.layers = {{diagnose::Layer::load, diagnose::LayerVerdict::State::cleared,
               {{"request_rate", 3.2, "req/s", std::nullopt, "", "records", ""}}, ""}};
  const std::string green = "\033[32mno cause located";
  EXPECT_EQ(report::render_text(r, o).find(green), std::string::npos);
  pos(report::render_text(r, o), "\033[33mno cause located\033[0m");
  r.symptoms.clear();
  r.layers.push_back({diagnose::Layer::operator_hardware, diagnose::LayerVerdict::State::not_judged, {}, "no GPU telemetry"});
  EXPECT_EQ(report::render_text(r, o).find(green), std::string::npos);
  r.layers.pop_back();
  pos(report::render_text(r, o), green);  // no symptom, every layer judged and cleared
}

// Input quoted back (a log line, an input's error) cannot put control bytes on the terminal, and
// an input that failed is said once, on its Inputs line, not again under Missing evidence.
TEST(DiagnoseText, QuotedInputIsEscapedAndAFailedInputIsSaidOnce) {
  auto r = report_test::saturated_report();
  r.findings[0].evidence = {{"log", std::nullopt, "", std::nullopt, "", "vllm.log:3", "bad \x1b[2J\xff line"}};
  r.inputs.push_back({"this machine", "gpu", false, "no NVIDIA GPU visible on this machine; details: llmtriage snapshot show s.json"});
  r.missing = {"this machine (gpu) could not be read: no NVIDIA GPU visible on this machine; details: llmtriage snapshot show s.json",
               "load: not judged against a baseline"};
  const std::string t = report::render_text(r);
  pos(t, "- log: bad \\x1b[2J\\xff line  [vllm.log:3]");
  EXPECT_EQ(t.find('\x1b'), std::string::npos);
  size_t first = pos(t, "no NVIDIA GPU visible");
  EXPECT_EQ(t.find("no NVIDIA GPU visible", first + 1), std::string::npos) << t;
  pos(t, "FAIL gpu           this machine: no NVIDIA GPU visible on this machine;");
  pos(t, "Missing evidence\n  - load: not judged against a baseline\n");
}
