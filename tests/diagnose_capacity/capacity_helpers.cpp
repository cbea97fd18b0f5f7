#include "diagnose_capacity/capacity_helpers.h"

namespace llmtriage::diagnose::testing {

std::vector<std::string> ids(const LayerResult& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings) out.push_back(f.id);
  return out;
}

bool has(const LayerResult& r, const std::string& id) { return get(r, id) != nullptr; }

const Finding* get(const LayerResult& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace llmtriage::diagnose::testing
