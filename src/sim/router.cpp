#include "sim/router.h"

#include <algorithm>

namespace llmtriage::sim {

const char* to_string(RouterKind k) {
  switch (k) {
    case RouterKind::round_robin: return "round-robin";
    case RouterKind::least_outstanding: return "least-outstanding";
    case RouterKind::prefix_affinity: return "prefix-affinity";
    case RouterKind::random: return "random";
  }
  return "?";
}

core::Result<RouterKind> router_kind_from_string(const std::string& s) {
  for (RouterKind k : {RouterKind::round_robin, RouterKind::least_outstanding, RouterKind::prefix_affinity, RouterKind::random})
    if (s == to_string(k)) return k;
  return core::make_error(core::ErrorKind::usage, "--router",
                          "one of round-robin, least-outstanding, prefix-affinity, random", "'" + s + "'");
}

Router::Router(RouterKind kind, int replicas, uint64_t seed)
    : kind_(kind), n_(std::max(1, replicas)), rng_(seed ^ 0x5eedULL) {
  constexpr int kVirtual = 64;  // virtual nodes per replica: keeps the load split within a few %
  for (int r = 0; r < n_; ++r)
    for (int v = 0; v < kVirtual; ++v) ring_.emplace_back(mix64(static_cast<uint64_t>(r) + 1, static_cast<uint64_t>(v) + 1), r);
  std::sort(ring_.begin(), ring_.end());
}

int Router::route(uint64_t prefix_key, const std::vector<int64_t>& outstanding, bool no_affinity) {
  if (n_ == 1) return 0;
  switch (kind_) {
    case RouterKind::prefix_affinity:
      if (!no_affinity) {
        const uint64_t h = mix64(prefix_key, 0x9f1d);
        auto it = std::lower_bound(ring_.begin(), ring_.end(), std::make_pair(h, -1));
        if (it == ring_.end()) it = ring_.begin();
        return it->second;
      }
      return static_cast<int>(rr_++ % static_cast<uint64_t>(n_));
    case RouterKind::round_robin: return static_cast<int>(rr_++ % static_cast<uint64_t>(n_));
    case RouterKind::least_outstanding: {
      int best = 0;
      for (int r = 1; r < n_; ++r)
        if (outstanding[static_cast<size_t>(r)] < outstanding[static_cast<size_t>(best)]) best = r;
      return best;
    }
    case RouterKind::random: return static_cast<int>(rng_.uniform_int(0, n_ - 1));
  }
  return 0;
}

}  // namespace llmtriage::sim
