#pragma once
// Request router in front of N replicas.
//  round_robin; least_outstanding (fewest requests in flight, lowest index on ties);
//  prefix_affinity (consistent hashing of the prompt's prefix key on a ring with virtual nodes,
//  so requests sharing a system prompt land where their blocks are cached); random (seeded).
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "sim/rng.h"

namespace llmtriage::sim {

enum class RouterKind { round_robin, least_outstanding, prefix_affinity, random };
const char* to_string(RouterKind k);
core::Result<RouterKind> router_kind_from_string(const std::string& s);

class Router {
 public:
  Router(RouterKind kind, int replicas, uint64_t seed);
  // prefix_key: the shared-prefix group key, or the request's own key when it has none.
  // no_affinity: a fault turned affinity off (prefix_affinity behaves as round robin).
  int route(uint64_t prefix_key, const std::vector<int64_t>& outstanding, bool no_affinity);

 private:
  RouterKind kind_;
  int n_;
  uint64_t rr_ = 0;
  Rng rng_;
  std::vector<std::pair<uint64_t, int>> ring_;
};

}  // namespace llmtriage::sim
