// Iteration tables (in the style of TensorRT-LLM's capacitySchedulerTest): drive the engine step
// by step and assert what each step scheduled, preempted and left in the KV pool.
#include "sim/scheduler.h"

#include <gtest/gtest.h>

#include "helpers.h"
#include "sim/rng.h"

using namespace llmtriage::sim;
using simtest::cell;
using simtest::tiny_config;

TEST(Scheduler, DecodeFirstThenFcfsUnderTokenBudgetAndMaxSeqs) {
  Engine e(tiny_config(100, 4, /*budget*/ 10, /*max_seqs*/ 2, /*chunked*/ true));
  e.add(8, 3);
  e.add(8, 3);
  e.add(4, 1);
  const std::vector<std::string> table = {
      "0:8 1:2",  // r0 whole prompt, r1 gets the 2 tokens left (chunk); r2 blocked by max_num_seqs
      "0:1 1:6",  // decode first, then r1's remaining prompt
      "0:1 1:1",  // r0 finishes (3 tokens)
      "1:1 2:4",  // r1 finishes; r2 admitted and finishes on its first token
  };
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(cell(e.step()), table[i]) << "step " << i + 1;
    EXPECT_EQ(e.check_invariants(), "") << "step " << i + 1;
  }
  EXPECT_EQ(e.request(0).state, ReqState::finished);
  EXPECT_EQ(e.request(1).state, ReqState::finished);
  EXPECT_EQ(e.request(2).state, ReqState::finished);
  EXPECT_EQ(e.request(2).num_output, 1);
  EXPECT_TRUE(e.step().seqs.empty());
  EXPECT_EQ(e.kv().num_free(), 100);
}

TEST(Scheduler, WithoutChunkingAPromptWaitsForAStepWithRoomForAllOfIt) {
  Engine e(tiny_config(100, 4, 10, 8, /*chunked*/ false));
  e.add(6, 4);
  e.add(8, 1);
  EXPECT_EQ(cell(e.step()), "0:6");      // 8 > 4 left: r1 waits, unchunked
  EXPECT_EQ(cell(e.step()), "0:1 1:8");  // 1 decode + 8 fit in 10
  EXPECT_EQ(e.request(1).state, ReqState::finished);
}

TEST(Scheduler, PreemptsTheMostRecentlyAdmittedAndRecomputesIt) {
  // 5 blocks of 4 tokens. Two requests of 8 prompt + 8 output tokens cannot both grow.
  Engine e(tiny_config(5, 4, 1000, 100, true));
  e.add(8, 8);
  e.add(8, 8);
  struct Row { int from, to; std::string sched; int64_t free_blocks; int waiting; };
  const std::vector<Row> table = {
      {1, 1, "0:8 1:8", 1, 0},  // both prompts: 2 blocks each
      {2, 2, "0:1", 2, 1},      // r0 takes a 3rd block; r1 cannot: r1 (newest) preempted, its 2 blocks freed
      {3, 5, "0:1", 2, 1},      // r1 needs 3 blocks to recompute 9 tokens; 2 free: waits
      {6, 7, "0:1", 1, 1},      // r0 crosses into its 4th block
      {8, 8, "0:1", 5, 1},      // r0's 8th token: finished, all blocks back
      {9, 9, "1:9", 2, 0},      // r1 recomputes prompt + its 1 generated token
  };
  int step = 0;
  for (const auto& row : table) {
    for (; step < row.to; ) {
      ++step;
      const std::string c = cell(e.step());
      EXPECT_EQ(c, row.sched) << "step " << step;
      EXPECT_EQ(e.kv().num_free(), row.free_blocks) << "step " << step;
      EXPECT_EQ(static_cast<int>(e.num_waiting()), row.waiting) << "step " << step;
      EXPECT_EQ(e.check_invariants(), "") << "step " << step;
    }
  }
  EXPECT_EQ(e.preemptions_total(), 1u);
  EXPECT_EQ(e.request(1).preemptions, 1u);
  EXPECT_EQ(e.request(1).num_output, 2);
  EXPECT_EQ(e.request(0).preemptions, 0u);
}

TEST(Scheduler, GuaranteedNoEvictAdmitsOnlyWhatCanFinishAndNeverPreempts) {
  Engine e(tiny_config(5, 4, 1000, 100, true, false, "trtllm"));
  e.add(8, 8);
  e.add(8, 8);
  for (int step = 1; step <= 8; ++step) {
    EXPECT_EQ(cell(e.step()), "0:" + std::string(step == 1 ? "8" : "1")) << "step " << step;
    EXPECT_EQ(e.check_invariants(), "");
  }
  EXPECT_EQ(e.request(0).state, ReqState::finished);
  EXPECT_EQ(cell(e.step()), "1:8");
  EXPECT_EQ(e.preemptions_total(), 0u);
}

TEST(Scheduler, PrefillFirstV0RunsPrefillsAloneAndPausesDecodes) {
  Engine e(tiny_config(100, 4, 64, 8, false, false, "vllm-v0"));
  e.add(8, 3);
  EXPECT_EQ(cell(e.step()), "0:8");
  e.add(16, 2);
  EXPECT_EQ(cell(e.step()), "1:16");  // r0's decode waits behind the new prefill
  EXPECT_EQ(cell(e.step()), "0:1 1:1");
}

TEST(Scheduler, RejectsPromptPlusMaxTokensAboveMaxModelLen) {
  auto cfg = tiny_config(100, 4, 64, 8, true);
  cfg.max_model_len = 32;
  Engine e(cfg);
  EXPECT_EQ(e.add(30, 3), -1);
  EXPECT_EQ(e.add(29, 3), 1);
  EXPECT_EQ(e.request(0).state, ReqState::rejected);
}

TEST(Scheduler, PrefixHitsSkipComputeOfTheSharedBlocks) {
  Engine e(tiny_config(100, 4, 1000, 8, true, /*prefix caching*/ true));
  e.add(20, 1, /*key*/ 5, /*group*/ 77, /*shared*/ 16);
  EXPECT_EQ(cell(e.step()), "0:20");
  e.add(20, 1, 6, 77, 16);
  EXPECT_EQ(cell(e.step()), "1:4");  // 16 shared tokens = 4 cached blocks
  EXPECT_EQ(e.request(1).prefix_hit_tokens, 16);
}

TEST(Scheduler, RandomLoadKeepsEveryInvariantAndFinishesEverything) {
  for (bool prefix : {false, true}) {
    for (const char* engine : {"vllm", "vllm-v0", "trtllm"}) {
      auto cfg = tiny_config(40, 4, 48, 6, std::string(engine) != "vllm-v0", prefix, engine);
      cfg.max_model_len = 120;
      if (std::string(engine) == "vllm-v0") cfg.scheduler.max_num_batched_tokens = 160;
      Engine e(cfg);
      Rng rng(42);
      int added = 0;
      for (int step = 0; step < 3000; ++step) {
        if (added < 200 && rng.uniform() < 0.3) {
          const auto p = static_cast<int32_t>(rng.uniform_int(1, 60));
          const auto o = static_cast<int32_t>(rng.uniform_int(1, 40));
          e.add(p, o, 0, rng.uniform() < 0.5 ? 9 : 0, 12);
          ++added;
        }
        if (added > 0 && rng.uniform() < 0.01) e.abort(static_cast<int32_t>(rng.uniform_int(0, added - 1)));
        e.step();
        ASSERT_EQ(e.check_invariants(), "") << engine << " prefix=" << prefix << " step " << step;
      }
      for (int i = 0; i < added; ++i) {
        const auto s = e.request(i).state;
        EXPECT_TRUE(s == ReqState::finished || s == ReqState::aborted || s == ReqState::rejected)
            << engine << " request " << i << " is " << to_string(s);
      }
      EXPECT_EQ(e.kv().num_free(), 40) << engine;
    }
  }
}
