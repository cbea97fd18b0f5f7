// Fidelity regression guard on the fit set (tests/data/sim/published_cases.jsonl, docs/accuracy.md
// "Simulator"): the constants were fitted on these cases, so the issue's targets -- median
// |error| <= 10% on throughput and TPOT, <= 20% on TTFT -- must hold here. The held-out set has its
// own guard (fidelity_heldout_slow_test.cpp).
#include "sim/fidelity.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace llmtriage::sim;

TEST(Fidelity, FitSetMedianErrorsMeetTheIssueTargets) {
  auto rs = run_cases(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/sim/published_cases.jsonl");
  ASSERT_TRUE(rs.ok()) << rs.error().message();
  for (const auto& r : *rs) EXPECT_TRUE(r.error.empty()) << r.id << ": " << r.error;
  EXPECT_LE(median_abs_error(*rs, "throughput"), 0.10);
  EXPECT_LE(median_abs_error(*rs, "tpot"), 0.10);
  EXPECT_LE(median_abs_error(*rs, "ttft"), 0.20);
  for (const auto& r : *rs) {
    // The offline TensorRT-LLM 8B FP8 rows (H100, H200) are within 5%.
    if (r.id == "pub-013" || r.id == "pub-019") {
      ASSERT_EQ(r.metrics.size(), 1u);
      EXPECT_LT(std::fabs(r.metrics[0].rel_error()), 0.05) << r.id;
    }
    // Low-load TTFT of SGLang and vLLM 0.6 (8B A100, 70B TP4 H100): the eager-prefill term and the
    // prefill-first SGLang batches put all four within 12% (they were -22%..+2% without them).
    if (r.id == "pub-001" || r.id == "pub-002" || r.id == "pub-005" || r.id == "pub-006")
      for (const auto& m : r.metrics)
        if (metric_family(m.metric) == "ttft") {
          EXPECT_LT(std::fabs(m.rel_error()), 0.12) << r.id << " " << m.metric;
        }
  }
}
