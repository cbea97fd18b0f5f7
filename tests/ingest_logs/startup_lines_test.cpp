// Real startup lines of many vLLM/SGLang versions (tests/data/logs/startup_lines.jsonl, each with
// its source URL) -> startup_memory / max_len_exceeds_kv / oom events with the stated numbers.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "ingest/engine_log.h"

using namespace llmtriage;

namespace {

// Puts each excerpt line behind the prefix its engine writes (excerpts often dropped it).
std::string with_prefix(const std::string& engine, const std::string& line) {
  if (engine == "sglang") return "[2025-03-01 10:00:00 TP0] " + line;
  if (line.rfind("INFO ", 0) == 0) return line;
  bool err = line.find("Error") != std::string::npos || line.find("larger than") != std::string::npos;
  std::string level = err ? "ERROR" : "INFO";
  if (line.rfind("[", 0) == 0) return level + " 03-01 10:00:00 " + line;
  return "(EngineCore_DP0 pid=279) " + level + " 03-01 10:00:00 [gpu_worker.py:1] " + line;
}

std::optional<double> find_field(const ingest::EngineLogResult& r, const std::string& key) {
  auto merged = ingest::merged_startup_fields(r);
  if (auto it = merged.find(key); it != merged.end()) return it->second;
  for (const auto& e : r.events)
    if (auto it = e.fields.find(key); it != e.fields.end()) return it->second;
  return std::nullopt;
}

}  // namespace

TEST(StartupLines, EveryStatedNumberIsExtractedWithAndWithoutPrefix) {
  std::ifstream in(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/logs/startup_lines.jsonl");
  ASSERT_TRUE(in) << "missing fixture";
  std::string row;
  int cases = 0;
  while (std::getline(in, row)) {
    auto c = nlohmann::json::parse(row);
    for (bool prefixed : {true, false}) {
      std::string text;
      for (const auto& l : c["lines"]) {
        std::string s = l.get<std::string>();
        text += (prefixed ? with_prefix(c["engine"], s) : s) + "\n";
      }
      auto r = ingest::parse_engine_log_text(text, {.source_name = c["case"]});
      SCOPED_TRACE(c["case"].get<std::string>() + (prefixed ? " prefixed" : " bare") + "\n" + text);
      EXPECT_EQ(r.lines_malformed, 0);
      for (const auto& [k, v] : c["expected"].items()) {
        auto got = find_field(r, k);
        ASSERT_TRUE(got.has_value()) << "field " << k;
        EXPECT_NEAR(*got, v.get<double>(), 1e-9) << "field " << k;
      }
      ++cases;
    }
  }
  EXPECT_GE(cases, 60);
}

TEST(StartupLines, RefusalsBecomeTheirOwnEventKinds) {
  auto r = ingest::parse_engine_log_text(
      "ERROR 05-01 10:00:00 [core.py:1] ValueError: To serve at least one request with the "
      "models's max seq len (262144), (24.0 GiB KV cache is needed, which is larger than the "
      "available KV cache memory (3.18 GiB). Based on the available memory, the estimated maximum "
      "model length is 34736. Try increasing `gpu_memory_utilization` or decreasing "
      "`max_model_len` when initializing the engine.\n"
      "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens "
      "that can be stored in KV cache (24320). Try increasing `gpu_memory_utilization`.\n"
      "ValueError: Free memory on device cuda:1 (60.33/79.19 GiB) on startup is less than desired "
      "GPU memory utilization (0.95, 75.23 GiB). Decrease GPU memory utilization.\n");
  ASSERT_EQ(r.events.size(), 3u);
  const auto& a = r.events[0];
  EXPECT_EQ(a.kind, core::EventKind::max_len_exceeds_kv);
  EXPECT_DOUBLE_EQ(a.fields.at("max_model_len_tokens"), 262144);
  EXPECT_DOUBLE_EQ(a.fields.at("kv_needed_gib"), 24.0);
  EXPECT_DOUBLE_EQ(a.fields.at("kv_cache_gib"), 3.18);
  EXPECT_DOUBLE_EQ(a.fields.at("estimated_max_model_len_tokens"), 34736);
  EXPECT_DOUBLE_EQ(*a.t_s, 0.0);  // no year: relative timeline starting at the first stamp
  const auto& b = r.events[1];
  EXPECT_EQ(b.kind, core::EventKind::max_len_exceeds_kv);
  EXPECT_DOUBLE_EQ(b.fields.at("max_model_len_tokens"), 32768);
  EXPECT_DOUBLE_EQ(b.fields.at("kv_tokens"), 24320);
  const auto& c = r.events[2];
  EXPECT_EQ(c.kind, core::EventKind::oom);
  EXPECT_EQ(c.labels.at("cause"), "free_memory_below_requested");
  EXPECT_DOUBLE_EQ(c.fields.at("free_gib"), 60.33);
  EXPECT_DOUBLE_EQ(c.fields.at("total_capacity_gib"), 79.19);
  EXPECT_DOUBLE_EQ(c.fields.at("gpu_memory_utilization"), 0.95);
  EXPECT_DOUBLE_EQ(c.fields.at("requested_gib"), 75.23);
}
