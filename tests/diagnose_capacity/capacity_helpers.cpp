#include "diagnose_capacity/capacity_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace llmtriage::diagnose::testing {

void expect_row(const Row& row, const LayerResult& r, Layer layer) {
  auto got = ids(r);
  auto want = row.expect;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_EQ(r.verdict.state, row.state) << to_string(r.verdict.state) << " " << r.verdict.why;
  for (const auto& f : r.findings) {
    EXPECT_EQ(f.layer, layer) << f.id;
    EXPECT_FALSE(f.evidence.empty()) << f.id;
    EXPECT_FALSE(f.remedies.empty()) << f.id;
  }
  if (r.verdict.state == LayerVerdict::State::cleared) {
    EXPECT_FALSE(r.verdict.evidence.empty());
  }
}

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
