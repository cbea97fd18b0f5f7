// Numbers with their units, thresholds and remedies as every renderer words them.
#include "report/diagnose_format.h"

#include <gtest/gtest.h>

using namespace llmtriage;
using report::format_value;

TEST(DiagnoseFormat, ValuesCarryTheirUnit) {
  struct Case {
    double v;
    const char* unit;
    const char* want;
  };
  const Case cases[] = {
      {0.993, "fraction", "99%"},   {0.052, "fraction", "5.2%"},   {1.0, "fraction", "100%"},
      {0.0452, "s", "45.2 ms"},     {0.0009, "s", "0.9 ms"},       {12.4, "s", "12.4 s"},
      {2, "s", "2 s"},              {41234, "tokens", "41234 tokens"}, {612.44, "W", "612.4 W"},
      {1980, "MHz", "1980 MHz"},    {42, "requests", "42 requests"}, {3.14159, "req/s", "3.14 req/s"},
      {1, "bool", "yes"},           {0, "bool", "no"},             {7, "", "7"},
      {0, "requests", "0 requests"}, {1, "requests", "1 request"}, {0.25, "1/s", "0.25/s"},
  };
  for (const auto& c : cases) EXPECT_EQ(format_value(c.v, c.unit), c.want) << c.v << " " << c.unit;
}

TEST(DiagnoseFormat, EvidenceNamesValueThresholdAndOp) {
  diagnose::EvidenceItem e{"waiting_p50", 42, "requests", 4, ">", "metrics", ""};
  EXPECT_EQ(report::format_evidence(e), "waiting_p50 = 42 requests (threshold > 4 requests)");
  diagnose::EvidenceItem line{"log", std::nullopt, "", std::nullopt, "", "vllm.log:9", "CUDA out of memory"};
  EXPECT_EQ(report::format_evidence(line), "log: CUDA out of memory");
}

TEST(DiagnoseFormat, RemedyChangeAndEffect) {
  diagnose::Remedy r{"max-num-seqs", "256", "128", "P99 TTFT 12.4 s -> 1.9 s", "sim", 0.3};
  EXPECT_EQ(report::format_change(r), "max-num-seqs 256 -> 128");
  EXPECT_EQ(report::format_effect(r), "P99 TTFT 12.4 s -> 1.9 s (sim, +-30%)");
  diagnose::Remedy q{"enable-chunked-prefill", "", "true", "", "", std::nullopt};
  EXPECT_EQ(report::format_change(q), "enable-chunked-prefill -> true");
  EXPECT_EQ(report::format_effect(q), "effect not predicted (qualitative)");
}

// The basis and its band are said once, not again after an effect that already names them.
TEST(DiagnoseFormat, EffectNamesItsBasisOnce) {
  diagnose::Remedy sim{"max-num-seqs", "256", "128", "P99 TTFT 12.4 s -> 1.9 s (sim what-if, +-30%; sim baseline 11 s)", "sim", 0.3};
  EXPECT_EQ(report::format_effect(sim), "P99 TTFT 12.4 s -> 1.9 s (sim what-if, +-30%; sim baseline 11 s)");
  diagnose::Remedy led{"kv-cache-dtype", "auto", "fp8", "KV pool 421k -> 843k tokens (ledger); twice the tokens", "ledger", 0.05};
  EXPECT_EQ(report::format_effect(led), "KV pool 421k -> 843k tokens (ledger); twice the tokens (+-5%)");
  diagnose::Remedy plain{"replicas", "1", "2", "half the load per replica", "qualitative", std::nullopt};
  EXPECT_EQ(report::format_effect(plain), "half the load per replica (qualitative)");
}

TEST(DiagnoseFormat, LayerTitlesAreWhatAPersonSays) {
  EXPECT_STREQ(report::layer_title(diagnose::Layer::scheduling_capacity), "scheduling/capacity");
  EXPECT_STREQ(report::layer_title(diagnose::Layer::numeric_parameter), "numeric/parameters");
  EXPECT_EQ(report::format_explains(0.7).value(), "explains ~70% of the symptom");
  EXPECT_FALSE(report::format_explains(std::nullopt).has_value());
}
