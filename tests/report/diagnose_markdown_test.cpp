// The Markdown report: same order as the terminal, evidence as tables whose cells cannot break
// the table, fixes as a numbered list.
#include "report/diagnose_markdown.h"

#include <gtest/gtest.h>

#include "report/report_helpers.h"
#include "report/sample_report.h"

using namespace llmtriage;

using report_test::pos;

TEST(DiagnoseMarkdown, SectionsInOrder) {
  const std::string m = report::render_markdown(report_test::saturated_report());
  size_t a = pos(m, "## Verdict\n\n**KV pool saturated: requests queue for KV blocks**\n");
  size_t b = pos(m, "### Fix — one change at a time, in this order\n\n1. **max-num-seqs 256 -> 128** — P99 TTFT 12.4 s -> 1.9 s (sim, +-30%)\n2. **gpu-memory-utilization 0.85 -> 0.92**");
  size_t c = pos(m, "## Other findings\n\n### 2. Gateway timeout shorter than the P99 TTFT");
  size_t d = pos(m, "## Cleared\n\n### load\n");
  size_t e = pos(m, "## Not judged\n\n- **operator/hardware**: no GPU telemetry");
  size_t f = pos(m, "## Inputs\n");
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_LT(c, d);
  EXPECT_LT(d, e);
  EXPECT_LT(e, f);
  pos(m, "`kv_pool_saturated` · scheduling/capacity layer · ttft_spike · **warning** · confidence 0.85");
  pos(m, "TTFT/TPOT/ITL as defined in docs/metrics.md.");
}

TEST(DiagnoseMarkdown, EvidenceTableCellsAreEscaped) {
  const std::string m = report::render_markdown(report_test::saturated_report());
  pos(m, "| indicator | value | threshold | source |\n|---|---|---|---|\n");
  pos(m, "| waiting_p50 | 42 requests | > 4 requests | metrics:vllm:num_requests_waiting over 30 s |\n");
  pos(m, "| kv_usage_max | 99% | >= 90% | metrics:vllm:kv_cache_usage_perc |\n");
  // The '|' inside the quoted log line is escaped, so the row keeps four cells.
  pos(m, "| log | Sequence group 12 is preempted \\| RECOMPUTE |  | vllm.log:120 |\n");
  pos(m, "| log | missing.log | **failed** | cannot open: No such file or directory |\n");
}

TEST(DiagnoseMarkdown, EmptyReport) {
  diagnose::Report r;
  const std::string m = report::render_markdown(r);
  pos(m, "## Verdict\n\nNo cause located.\n");
  EXPECT_EQ(m.find("## Other findings"), std::string::npos);
}

TEST(DiagnoseMarkdown, PrecautionAboveFixesAndNilRemediesNotNumbered) {
  auto r = report_test::saturated_report();
  diagnose::Remedy keep{"capture before restart", "", "keep /tmp/s.json", "the evidence survives the restart",
                        "qualitative", {}};
  keep.kind = diagnose::Remedy::Kind::precaution;
  diagnose::Remedy nil{"max-num-batched-tokens", "8192", "16384", "P99 TTFT 688 ms -> 688 ms", "sim", 0.3};
  nil.predicted = diagnose::PredictedValue{"P99 TTFT", "s", 0.688, 0.688, false, 0.3};
  auto& rem = r.findings[0].remedies;
  rem.insert(rem.begin(), keep);
  rem.push_back(nil);
  const std::string m = report::render_markdown(r);
  size_t a = pos(m, "First, capture before restart: keep /tmp/s.json. The evidence survives the restart.\n\n1. **max-num-seqs 256 -> 128**");
  size_t b = pos(m, "Not offered as fixes:\n\n- max-num-batched-tokens 8192 -> 16384 — no predicted effect: P99 TTFT 688 ms -> 688 ms (sim, +-30%)\n");
  EXPECT_LT(a, b);
  EXPECT_EQ(m.find("4. **max-num-batched-tokens"), std::string::npos) << m;
  EXPECT_EQ(m.find("Snapshot kept at"), std::string::npos) << m;
}
