#include "sim/kv_cache.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "sim/rng.h"

namespace llmtriage::sim {

const char* to_string(ReqState s) {
  switch (s) {
    case ReqState::pending: return "pending";
    case ReqState::waiting: return "waiting";
    case ReqState::running: return "running";
    case ReqState::finished: return "finished";
    case ReqState::rejected: return "rejected";
    case ReqState::aborted: return "aborted";
  }
  return "?";
}

BlockHashMap::BlockHashMap(int64_t max_entries) {
  size_t cap = 16;
  int bits = 4;
  while (cap < static_cast<size_t>(max_entries) * 2) { cap <<= 1; ++bits; }
  keys_.assign(cap, 0);
  vals_.assign(cap, -1);
  mask_ = cap - 1;
  shift_ = 64 - bits;
}

int32_t BlockHashMap::find(uint64_t h) const {
  for (size_t i = slot(h);; i = (i + 1) & mask_) {
    if (keys_[i] == h) return vals_[i];
    if (keys_[i] == 0) return -1;
  }
}

void BlockHashMap::insert_if_absent(uint64_t h, int32_t b) {
  for (size_t i = slot(h);; i = (i + 1) & mask_) {
    if (keys_[i] == h) return;
    if (keys_[i] == 0) { keys_[i] = h; vals_[i] = b; return; }
  }
}

void BlockHashMap::erase_if(uint64_t h, int32_t b) {
  size_t i = slot(h);
  for (;; i = (i + 1) & mask_) {
    if (keys_[i] == 0) return;
    if (keys_[i] == h) break;
  }
  if (vals_[i] != b) return;
  // Backward-shift deletion: pull later entries of the probe run into the hole.
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
    const size_t home = slot(keys_[j]);
    // Move j into the hole when its home is not cyclically in (hole, j].
    const bool in_between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!in_between) {
      keys_[hole] = keys_[j];
      vals_[hole] = vals_[j];
      hole = j;
    }
  }
  keys_[hole] = 0;
  vals_[hole] = -1;
}

KvCache::KvCache(int64_t num_blocks, int block_size, bool prefix_caching)
    : num_blocks_(num_blocks < 1 ? 1 : num_blocks),
      block_size_(block_size < 1 ? 1 : block_size),
      prefix_caching_(prefix_caching),
      map_(num_blocks < 1 ? 1 : num_blocks) {
  const auto n = static_cast<size_t>(num_blocks_);
  ref_.assign(n, 0);
  hash_.assign(n, 0);
  prev_.assign(n, -1);
  next_.assign(n, -1);
  for (int32_t b = 0; b < static_cast<int32_t>(num_blocks_); ++b) push_tail(b);
}

void KvCache::push_tail(int32_t b) {
  prev_[b] = tail_;
  next_[b] = -1;
  if (tail_ >= 0) next_[tail_] = b; else head_ = b;
  tail_ = b;
  ++num_free_;
}

void KvCache::unlink(int32_t b) {
  if (prev_[b] >= 0) next_[prev_[b]] = next_[b]; else head_ = next_[b];
  if (next_[b] >= 0) prev_[next_[b]] = prev_[b]; else tail_ = prev_[b];
  prev_[b] = next_[b] = -1;
  --num_free_;
}

int32_t KvCache::pop_head() {
  const int32_t b = head_;
  assert(b >= 0);
  unlink(b);
  if (hash_[b] != 0) {  // evict: the cached content is lost
    map_.erase_if(hash_[b], b);
    hash_[b] = 0;
  }
  return b;
}

uint64_t KvCache::block_hash(const SimRequest& r, int32_t index, uint64_t prev) const {
  const bool shared = r.group_key != 0 &&
                      static_cast<int64_t>(index + 1) * block_size_ <= r.shared_prefix_len;
  uint64_t content = shared ? r.group_key : r.content_key;
  if (r.token_keys) {
    const size_t end = static_cast<size_t>(index + 1) * static_cast<size_t>(block_size_);
    if (end <= r.token_keys->size()) {  // a full prompt block: its tokens decide
      content = 0x9e3779b97f4a7c15ULL;
      for (size_t k = end - static_cast<size_t>(block_size_); k < end; ++k) content = mix64(content, (*r.token_keys)[k]);
    }
  }
  // Blocks holding generated tokens differ between the n samples of one prompt.
  if (r.sample != 0 && static_cast<int64_t>(index + 1) * block_size_ > r.prompt_len) content = mix64(content, r.sample);
  return mix64(prev, mix64(content, static_cast<uint64_t>(index) + 1)) | 1;  // never 0
}

int32_t KvCache::find_cached_prefix(const SimRequest& r, std::vector<int32_t>& out) const {
  if (!prefix_caching_) return 0;
  const int32_t max_blocks = (r.num_tokens() - 1) / block_size_;
  uint64_t prev = 0;
  int32_t i = 0;
  for (; i < max_blocks; ++i) {
    const uint64_t h = block_hash(r, i, prev);
    const int32_t b = map_.find(h);
    if (b < 0) break;
    out.push_back(b);
    prev = h;
  }
  return i * block_size_;
}

int64_t KvCache::blocks_needed(const SimRequest& r, int32_t total_tokens,
                               const std::vector<int32_t>& hits) const {
  const int64_t want = (static_cast<int64_t>(total_tokens) + block_size_ - 1) / block_size_;
  int64_t fresh = want - static_cast<int64_t>(r.blocks.size()) - static_cast<int64_t>(hits.size());
  if (fresh < 0) fresh = 0;
  int64_t touched_free = 0;
  for (int32_t b : hits) touched_free += ref_[b] == 0 ? 1 : 0;
  return fresh + touched_free;
}

bool KvCache::allocate(SimRequest& r, int32_t total_tokens, const std::vector<int32_t>& hits) {
  if (blocks_needed(r, total_tokens, hits) > num_available()) return false;
  for (int32_t b : hits) {
    if (ref_[b] == 0) unlink(b);
    ++ref_[b];
    r.blocks.push_back(b);
  }
  if (!hits.empty()) r.num_cached_blocks = static_cast<int32_t>(r.blocks.size());
  const size_t want = (static_cast<size_t>(total_tokens) + block_size_ - 1) / block_size_;
  while (r.blocks.size() < want) {
    const int32_t b = pop_head();
    ref_[b] = 1;
    r.blocks.push_back(b);
  }
  return true;
}

void KvCache::cache_full_blocks(SimRequest& r) {
  if (!prefix_caching_) return;
  const int32_t full = std::min<int32_t>(r.num_computed / block_size_, static_cast<int32_t>(r.blocks.size()));
  uint64_t prev = r.num_cached_blocks > 0 ? hash_[r.blocks[r.num_cached_blocks - 1]] : 0;
  for (int32_t i = r.num_cached_blocks; i < full; ++i) {
    const int32_t b = r.blocks[i];
    const uint64_t h = block_hash(r, i, prev);
    hash_[b] = h;                 // kept even when a twin block owns the map entry: the chain needs it
    map_.insert_if_absent(h, b);
    prev = h;
  }
  if (full > r.num_cached_blocks) r.num_cached_blocks = full;
}

void KvCache::free(SimRequest& r) {
  for (auto it = r.blocks.rbegin(); it != r.blocks.rend(); ++it) {
    const int32_t b = *it;
    assert(ref_[b] > 0);
    if (--ref_[b] == 0) push_tail(b);
  }
  r.blocks.clear();
  r.num_cached_blocks = 0;
}

std::string KvCache::check() const {
  int64_t zero = 0, walked = 0;
  for (int32_t b = 0; b < static_cast<int32_t>(num_blocks_); ++b) {
    if (ref_[b] < 0) return "block " + std::to_string(b) + " has a negative ref count";
    zero += ref_[b] == 0 ? 1 : 0;
  }
  for (int32_t b = head_; b >= 0; b = next_[b]) {
    if (ref_[b] != 0) return "block " + std::to_string(b) + " is on the free queue while in use";
    if (++walked > num_blocks_) return "free queue has a cycle";
  }
  if (walked != zero || walked != num_free_)
    return "free queue holds " + std::to_string(walked) + " blocks, " + std::to_string(zero) +
           " have ref 0, counter says " + std::to_string(num_free_);
  std::string bad;
  map_.for_each([&](uint64_t h, int32_t b) {
    if (bad.empty() && hash_[b] != h) bad = "prefix map entry points at block " + std::to_string(b) + " with another hash";
    if (bad.empty() && map_.find(h) != b) bad = "prefix map entry for block " + std::to_string(b) + " is unreachable";
  });
  return bad;
}

}  // namespace llmtriage::sim
