#pragma once
// Paged KV cache: a pool of fixed-size blocks, prefix caching by chained block hashes, and LRU
// eviction of free cached blocks — the vLLM V1 KVCacheManager model.
//
// A block is either in use (ref_count > 0) or free (ref_count == 0, on the free queue). A free
// block may still hold a cached hash: a later request with the same prefix takes it back from
// the free queue instead of recomputing it ("touch"). New blocks come from the head of the free
// queue (least recently freed first); a freed request's blocks go to the tail in reverse order,
// so its last blocks are evicted first (vLLM: vllm/v1/core/kv_cache_manager.py, free()).
//
// Counters (units: tokens, as vLLM V1 exposes them):
//   prefix_queries_tokens = prompt tokens looked up; prefix_hits_tokens = tokens found cached;
//   hit rate = hits / queries.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/request.h"

namespace llmtriage::sim {

// Open-addressing map from a block hash (never 0) to a block id: linear probing, backward-shift
// deletion, fixed capacity >= 2x the pool (a block is in the map at most once). It replaces
// std::unordered_map on the per-token hot path (registration and eviction of blocks).
class BlockHashMap {
 public:
  explicit BlockHashMap(int64_t max_entries);
  int32_t find(uint64_t h) const;          // -1 when absent
  void insert_if_absent(uint64_t h, int32_t b);
  void erase_if(uint64_t h, int32_t b);    // only when it maps to b
  template <typename F> void for_each(F f) const {
    for (size_t i = 0; i < keys_.size(); ++i) if (keys_[i]) f(keys_[i], vals_[i]);
  }

 private:
  size_t slot(uint64_t h) const { return static_cast<size_t>((h * 0x9e3779b97f4a7c15ULL) >> shift_); }
  std::vector<uint64_t> keys_;
  std::vector<int32_t> vals_;
  size_t mask_;
  int shift_;
};

class KvCache {
 public:
  KvCache(int64_t num_blocks, int block_size, bool prefix_caching);

  int block_size() const { return block_size_; }
  int64_t num_blocks() const { return num_blocks_; }
  int64_t num_free() const { return num_free_; }
  // Blocks that may be handed out: free minus those withheld by a "KV pool shrunk" fault.
  int64_t num_available() const { return num_free_ > withheld_ ? num_free_ - withheld_ : 0; }
  // The pool the engine can use: all blocks minus the withheld ones. A real engine has no
  // withheld blocks: its pool is sized once at startup (vLLM determine_available_memory ->
  // num_gpu_blocks), so a pool that lost memory shows as a smaller num_gpu_blocks. This is the
  // pool size the simulated engine reports (vllm:cache_config_info num_gpu_blocks, capacity).
  int64_t num_usable() const { return num_blocks_ > withheld_ ? num_blocks_ - withheld_ : 0; }
  // Fraction of the usable pool in use, 0..1 (vLLM BlockPool.get_usage: 1 - free / total, over
  // the pool it has; cached free blocks count as free). Blocks still held when a fault withholds
  // more than is free make it 1, not more.
  double usage() const {
    const int64_t usable = num_usable();
    if (usable <= 0) return 1.0;
    const double used = static_cast<double>(num_blocks_ - num_free_);
    return std::min(1.0, used / static_cast<double>(usable));
  }
  void set_withheld(int64_t blocks) { withheld_ = blocks; }
  void set_prefix_caching(bool on) { prefix_caching_ = on; }
  bool prefix_caching() const { return prefix_caching_; }

  // Hash of block `index` of `r` (chained: depends on every block before it).
  uint64_t block_hash(const SimRequest& r, int32_t index, uint64_t prev) const;

  // Longest run of leading full blocks of r's current tokens already cached, leaving at least
  // one token to compute (vLLM never hits the last token: it must produce logits). Appends the
  // block ids to `out`; returns the number of hit tokens. No state changes.
  int32_t find_cached_prefix(const SimRequest& r, std::vector<int32_t>& out) const;

  // Blocks r needs from the free queue to hold `total_tokens` tokens, given it will take over
  // `hits` cached blocks (those currently free also leave the free queue).
  int64_t blocks_needed(const SimRequest& r, int32_t total_tokens, const std::vector<int32_t>& hits) const;

  // Takes over `hits` (touch) and allocates fresh blocks so r can hold `total_tokens` tokens.
  // Returns false, changing nothing, when not enough blocks are available.
  bool allocate(SimRequest& r, int32_t total_tokens, const std::vector<int32_t>& hits);

  // Registers r's newly filled full blocks (up to num_computed tokens) in the prefix map.
  void cache_full_blocks(SimRequest& r);

  // Releases every block r holds.
  void free(SimRequest& r);

  // Counters.
  uint64_t prefix_queries_tokens = 0;
  uint64_t prefix_hits_tokens = 0;
  void count_lookup(int32_t queried, int32_t hit) {
    prefix_queries_tokens += static_cast<uint64_t>(queried);
    prefix_hits_tokens += static_cast<uint64_t>(hit);
  }

  // Consistency check for tests and debug builds: the free queue holds exactly the blocks with
  // ref_count 0, the counts agree, and every map entry points at a block carrying that hash.
  // Returns "" when consistent, else what is wrong.
  std::string check() const;
  int32_t ref_count(int32_t block) const { return ref_[static_cast<size_t>(block)]; }

 private:
  void push_tail(int32_t b);
  void unlink(int32_t b);
  int32_t pop_head();

  int64_t num_blocks_;
  int block_size_;
  bool prefix_caching_;
  int64_t num_free_ = 0;
  int64_t withheld_ = 0;
  std::vector<int32_t> ref_;
  std::vector<uint64_t> hash_;   // 0 = not cached
  std::vector<int32_t> prev_, next_;  // free queue links (-1 = none); valid when ref_ == 0
  int32_t head_ = -1, tail_ = -1;
  BlockHashMap map_;
};

}  // namespace llmtriage::sim
