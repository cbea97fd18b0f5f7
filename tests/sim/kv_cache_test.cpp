// Paged KV cache: allocation, prefix hits by block hash, LRU eviction order of free cached
// blocks, withheld blocks, and the consistency check.
#include "sim/kv_cache.h"

#include <gtest/gtest.h>

using namespace llmtriage::sim;

namespace {
SimRequest kv_req(int32_t prompt, uint64_t key, uint64_t group = 0, int32_t shared = 0) {
  SimRequest r;
  r.prompt_len = prompt;
  r.max_output = 4;
  r.content_key = key;
  r.group_key = group;
  r.shared_prefix_len = shared;
  return r;
}
void compute_all(KvCache& kv, SimRequest& r) {
  r.num_computed = r.num_tokens();
  kv.cache_full_blocks(r);
}
}  // namespace

TEST(KvCache, AllocatesCeilTokensOverBlockSizeAndFreesBack) {
  KvCache kv(10, 16, false);
  SimRequest r = kv_req(33, 7);
  ASSERT_TRUE(kv.allocate(r, 33, {}));
  EXPECT_EQ(r.blocks.size(), 3u);  // ceil(33/16)
  EXPECT_EQ(kv.num_free(), 7);
  EXPECT_NEAR(kv.usage(), 0.3, 1e-12);
  kv.free(r);
  EXPECT_EQ(kv.num_free(), 10);
  EXPECT_EQ(kv.check(), "");
}

TEST(KvCache, RefusesWithoutChangingStateWhenPoolIsShort) {
  KvCache kv(4, 16, false);
  SimRequest a = kv_req(48, 1), b = kv_req(40, 2);
  ASSERT_TRUE(kv.allocate(a, 48, {}));
  EXPECT_FALSE(kv.allocate(b, 40, {}));  // needs 3, 1 free
  EXPECT_TRUE(b.blocks.empty());
  EXPECT_EQ(kv.num_free(), 1);
  EXPECT_EQ(kv.check(), "");
}

TEST(KvCache, SamePrefixHitsFullBlocksButNeverTheLastToken) {
  KvCache kv(32, 16, true);
  SimRequest a = kv_req(64, 11);
  ASSERT_TRUE(kv.allocate(a, 64, {}));
  compute_all(kv, a);
  kv.free(a);
  // A retry of the same request: 64 prompt tokens = 4 full blocks, but the last token must be
  // computed, so only 3 blocks (48 tokens) hit.
  SimRequest b = kv_req(64, 11);
  std::vector<int32_t> hits;
  EXPECT_EQ(kv.find_cached_prefix(b, hits), 48);
  EXPECT_EQ(hits.size(), 3u);
  // Another request shares nothing.
  SimRequest c = kv_req(64, 12);
  std::vector<int32_t> none;
  EXPECT_EQ(kv.find_cached_prefix(c, none), 0);
}

TEST(KvCache, SharedPrefixGroupHitsOnlyTheSharedBlocks) {
  KvCache kv(64, 16, true);
  SimRequest a = kv_req(100, 1, /*group*/ 99, /*shared*/ 40);
  ASSERT_TRUE(kv.allocate(a, 100, {}));
  compute_all(kv, a);
  SimRequest b = kv_req(100, 2, 99, 40);
  std::vector<int32_t> hits;
  EXPECT_EQ(kv.find_cached_prefix(b, hits), 32);  // 2 full blocks inside the 40 shared tokens
  // Taking over blocks that are in use by `a` shares them (ref 2), consuming no free block.
  const int64_t free_before = kv.num_free();
  EXPECT_EQ(kv.blocks_needed(b, 100, hits), 5);  // 7 blocks total - 2 shared
  ASSERT_TRUE(kv.allocate(b, 100, hits));
  EXPECT_EQ(kv.num_free(), free_before - 5);
  EXPECT_EQ(kv.ref_count(hits[0]), 2);
  EXPECT_EQ(kv.check(), "");
}

TEST(KvCache, EvictsLeastRecentlyFreedFirstAndTheTailOfARequestBeforeItsHead) {
  KvCache kv(8, 16, true);
  SimRequest a = kv_req(64, 1), b = kv_req(64, 2);
  ASSERT_TRUE(kv.allocate(a, 64, {}));
  compute_all(kv, a);
  ASSERT_TRUE(kv.allocate(b, 64, {}));
  compute_all(kv, b);
  kv.free(a);  // a's blocks freed first: evicted first, its last block before its first
  kv.free(b);
  SimRequest c = kv_req(16, 3);  // one fresh block evicts a's last block
  ASSERT_TRUE(kv.allocate(c, 16, {}));
  SimRequest a2 = kv_req(64, 1);
  std::vector<int32_t> hits;
  EXPECT_EQ(kv.find_cached_prefix(a2, hits), 48);  // blocks 0..2 of a survive (3 is gone anyway)
  SimRequest d = kv_req(48, 4);  // three more evictions: a's blocks 2, 1, 0 go next
  ASSERT_TRUE(kv.allocate(d, 48, {}));
  hits.clear();
  EXPECT_EQ(kv.find_cached_prefix(a2, hits), 0);
  SimRequest b2 = kv_req(64, 2);
  hits.clear();
  EXPECT_EQ(kv.find_cached_prefix(b2, hits), 48);  // b, freed later, is intact
  EXPECT_EQ(kv.check(), "");
}

TEST(KvCache, WithheldBlocksAreNotHandedOut) {
  KvCache kv(10, 16, false);
  kv.set_withheld(8);
  EXPECT_EQ(kv.num_available(), 2);
  SimRequest r = kv_req(48, 1);
  EXPECT_FALSE(kv.allocate(r, 48, {}));
  kv.set_withheld(0);
  EXPECT_TRUE(kv.allocate(r, 48, {}));
}

TEST(KvCache, UsageIsOverTheUsablePoolWhenBlocksAreWithheld) {
  // A kv_pool_shrink fault of factor 0.7 withholds 70 of 100 blocks; 20 in use are two thirds of
  // the 30 the engine can use, not 20% of blocks it cannot (the pool the engine reports is 30).
  KvCache kv(100, 16, false);
  SimRequest r = kv_req(20 * 16, 1);
  ASSERT_TRUE(kv.allocate(r, 20 * 16, {}));
  EXPECT_DOUBLE_EQ(kv.usage(), 0.2);
  kv.set_withheld(70);
  EXPECT_EQ(kv.num_usable(), 30);
  EXPECT_NEAR(kv.usage(), 20.0 / 30, 1e-12);
  kv.set_withheld(90);  // more withheld than is free: the usable pool is over-full, usage caps at 1
  EXPECT_DOUBLE_EQ(kv.usage(), 1.0);
  EXPECT_EQ(kv.num_available(), 0);
}

TEST(KvCache, PrefixCachingOffNeverHits) {
  KvCache kv(32, 16, false);
  SimRequest a = kv_req(64, 11);
  ASSERT_TRUE(kv.allocate(a, 64, {}));
  compute_all(kv, a);
  kv.free(a);
  SimRequest b = kv_req(64, 11);
  std::vector<int32_t> hits;
  EXPECT_EQ(kv.find_cached_prefix(b, hits), 0);
}
