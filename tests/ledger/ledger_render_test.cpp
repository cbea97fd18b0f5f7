// The ledger's terminal text: a change that leaves verdict and KV pool as they are is not a remedy.
#include "ledger/ledger_render.h"

#include <gtest/gtest.h>

using namespace llmtriage;

TEST(LedgerRender, ChangesWithoutEffectAreNotListedAsRemedies) {
  ledger::LedgerReport r;
  r.model_id = "m";
  r.gpu_name = "H100-SXM";
  r.num_gpus = 1;
  r.verdict = ledger::Verdict::weights_do_not_fit;
  r.kv_cache_tokens = 0;
  r.remedies = {
      {"--max-num-seqs", "1024", "256", "activation peak 1.95 -> 1.76 GiB: +0 KV tokens", ledger::Verdict::weights_do_not_fit, 0},
      {"--tensor-parallel-size", "1", "4", "the smallest TP that fits", ledger::Verdict::fits, 431296},
  };
  const std::string t = ledger::render_text(r);
  const size_t rem = t.find("Remedies (each changes one variable):\n  --tensor-parallel-size 1 -> 4: the smallest TP that fits\n");
  const size_t nil = t.find("No effect on the verdict or the KV pool (not remedies here):\n  --max-num-seqs 1024 -> 256:");
  ASSERT_NE(rem, std::string::npos) << t;
  ASSERT_NE(nil, std::string::npos) << t;
  EXPECT_LT(rem, nil);
}
