// The ledger's remedies as diagnose remedies: one that leaves verdict and KV pool exactly as they
// are carries a prediction of no effect, so reports do not offer it as a fix.
#include "diagnose/remedy_ledger.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(RemedyLedger, AChangeThatLeavesVerdictAndPoolAsTheyAreIsNoEffect) {
  diagnose::LedgerContext lc;
  lc.report.verdict = ledger::Verdict::weights_do_not_fit;
  lc.report.kv_cache_tokens = 0;
  lc.report.remedies = {
      {"--max-num-seqs", "1024", "256", "+0 KV tokens", ledger::Verdict::weights_do_not_fit, 0},
      {"--tensor-parallel-size", "1", "4", "the smallest TP that fits", ledger::Verdict::fits, 431296},
  };
  const auto rem = diagnose::ledger_remedies(lc);
  ASSERT_EQ(rem.size(), 2u);
  EXPECT_EQ(rem[0].change, "max-num-seqs");
  EXPECT_EQ(diagnose::outcome(rem[0]), diagnose::Outcome::no_effect);
  EXPECT_FALSE(diagnose::listed_as_fix(rem[0]));
  EXPECT_EQ(diagnose::outcome(rem[1]), diagnose::Outcome::not_predicted);
  EXPECT_TRUE(diagnose::listed_as_fix(rem[1]));
}
