// queue_from_records (scheduling_records.cpp): TTFT up with TPOT flat against a baseline.
#include <gtest/gtest.h>

#include "diagnose_capacity/capacity_helpers.h"

namespace llmtriage::diagnose {
namespace {

using testing::Case;

TEST(QueueFromRecords, TtftUpTpotFlatSameLoadIsAQueue) {
  Case c;
  c.set({{"ttft_p50_s", 16.9}, {"tpot_p50_s", 0.012}, {"request_rate", 10}, {"input_len_mean", 1000}}, "records (test)");
  c.base({{"ttft_p50_s", 0.42}, {"tpot_p50_s", 0.0118}, {"request_rate", 10}, {"input_len_mean", 1000}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "queue_from_records");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->explanation.find("40.2x"), std::string::npos) << f->explanation;
  EXPECT_LT(f->confidence, 0.6);  // the signature alone: no server reading of the queue
  EXPECT_EQ(r.verdict.state, LayerVerdict::State::at_fault);
}

TEST(QueueFromRecords, NotWhenTheStepGotSlowerOrTheLoadChanged) {
  {
    Case c;  // TPOT tripled too: slower steps (hardware, batch), not a queue
    c.set({{"ttft_p50_s", 2}, {"tpot_p50_s", 0.036}});
    c.base({{"ttft_p50_s", 0.4}, {"tpot_p50_s", 0.012}});
    EXPECT_FALSE(testing::has(analyze_scheduling(c.ctx()), "queue_from_records"));
  }
  {
    Case c;  // twice the requests: the load layer's finding
    c.set({{"ttft_p50_s", 2}, {"tpot_p50_s", 0.012}, {"request_rate", 20}});
    c.base({{"ttft_p50_s", 0.4}, {"tpot_p50_s", 0.012}, {"request_rate", 10}});
    EXPECT_FALSE(testing::has(analyze_scheduling(c.ctx()), "queue_from_records"));
  }
  {
    Case c;  // the prefix cache stopped hitting: the prefill grew, another rule names it
    c.set({{"ttft_p50_s", 2}, {"tpot_p50_s", 0.012}, {"prefix_cache_hit_rate", 0.0}});
    c.base({{"ttft_p50_s", 0.4}, {"tpot_p50_s", 0.012}, {"prefix_cache_hit_rate", 0.6}});
    EXPECT_FALSE(testing::has(analyze_scheduling(c.ctx()), "queue_from_records"));
  }
  {
    Case c;  // 2 ms of jitter on a 1 ms TTFT is no queue (the absolute floor)
    c.set({{"ttft_p50_s", 0.003}, {"tpot_p50_s", 0.012}});
    c.base({{"ttft_p50_s", 0.001}, {"tpot_p50_s", 0.012}});
    EXPECT_FALSE(testing::has(analyze_scheduling(c.ctx()), "queue_from_records"));
  }
}

TEST(QueueFromRecords, AServerReadingOfTheQueueRaisesConfidenceAndNamesTheLimit) {
  Case c;
  c.set({{"ttft_p50_s", 5}, {"tpot_p50_s", 0.012}, {"waiting_max", 30}, {"kv_usage_max", 0.97}});
  c.base({{"ttft_p50_s", 0.4}, {"tpot_p50_s", 0.012}});
  // waiting_max alone (p50 below the deep-queue threshold) leaves the records rule to speak.
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "queue_from_records");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->explanation.find("KV pool reached 97%"), std::string::npos) << f->explanation;
  EXPECT_GE(f->confidence, 0.55);
}


TEST(PrefixCachingOff, TheEnginesOwnSettingAgainstTheBaselinesHitsIsTheCause) {
  // sim serve's prefix_cache_off (or --no-enable-prefix-caching): cache_config_info says False,
  // the baseline hit 66% of prompt tokens.
  Case c;
  c.set({{"prefix_caching", 0}, {"prefix_cache_hit_rate", 0}, {"ttft_p50_s", 0.08}, {"tpot_p50_s", 0.024}});
  c.base({{"prefix_caching", 1}, {"prefix_cache_hit_rate", 0.66}, {"ttft_p50_s", 0.03}, {"tpot_p50_s", 0.013}});
  const LayerResult r = analyze_scheduling(c.ctx());
  const Finding* f = testing::get(r, "prefix_caching_off");
  ASSERT_NE(f, nullptr);
  EXPECT_GE(f->confidence, 0.7);
  ASSERT_FALSE(f->remedies.empty());
  EXPECT_EQ(f->remedies[0].change, "enable-prefix-caching");
  EXPECT_EQ(f->remedies[0].to, "on");
  // Caching on, or a baseline that never hit: not this cause.
  Case on;
  on.set({{"prefix_caching", 1}, {"prefix_cache_hit_rate", 0}});
  on.base({{"prefix_caching", 1}, {"prefix_cache_hit_rate", 0.66}});
  EXPECT_FALSE(testing::has(analyze_scheduling(on.ctx()), "prefix_caching_off"));
  Case never;
  never.set({{"prefix_caching", 0}});
  EXPECT_FALSE(testing::has(analyze_scheduling(never.ctx()), "prefix_caching_off"));
}

}  // namespace
}  // namespace llmtriage::diagnose
