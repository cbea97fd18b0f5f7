// Name matching shared by the catalogs (catalog/names.h): normalization and model identity.
#include "catalog/names.h"

#include <gtest/gtest.h>

namespace c = llmtriage::catalog;

TEST(CatalogNames, NormalizeModelIdLowercasesAndKeepsTheOrg) {
  EXPECT_EQ(c::normalize_model_id("Meta-Llama/Llama_3.1 8B/"), "meta-llama/llama-3.1-8b");
}

TEST(CatalogNames, SameModelComparesIdsAndPaths) {
  EXPECT_TRUE(c::same_model("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/llama-3.1-8b-instruct"));
  EXPECT_TRUE(c::same_model("/models/Llama-3.1-8B-Instruct/", "meta-llama/Llama-3.1-8B-Instruct"));
  EXPECT_TRUE(c::same_model("Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"));
  EXPECT_FALSE(c::same_model("Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"));
  EXPECT_FALSE(c::same_model("meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B-Instruct"));
}

TEST(CatalogNames, ClosestRanksContainedNamesFirst) {
  const auto near = c::closest("h100", {"a100-80gb", "h100-sxm", "h200"}, 2);
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near.front(), "h100-sxm");
}
