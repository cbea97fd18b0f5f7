// The remedy flag table (data/engines/remedy_flags.jsonl): it parses, every engine of every row
// has a knob or says it has none with what to do instead, every entry cites its source, and a
// remedy translated for llama.cpp or Ollama never names another engine's flag.
#include <gtest/gtest.h>

#include <set>

#include "ledger/remedy_flags.h"

namespace llmtriage::ledger {
namespace {

const std::vector<RemedyFlagRow>& table() {
  const auto& t = remedy_flags();
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message());
  static const std::vector<RemedyFlagRow> empty;
  return t.ok() ? *t : empty;
}

TEST(RemedyFlags, EveryRowNamesEveryEngineWithASource) {
  ASSERT_GE(table().size(), 10u);
  std::set<std::string> vars;
  for (const auto& r : table()) {
    EXPECT_TRUE(vars.insert(r.variable).second) << "twice: " << r.variable;
    for (const auto& e : remedy_flag_engines()) {
      auto it = r.engines.find(e);
      ASSERT_NE(it, r.engines.end()) << r.variable << " lacks " << e;
      EXPECT_FALSE(it->second.source.empty()) << r.variable << "." << e;
      if (!it->second.exists()) {
        EXPECT_FALSE(it->second.note.empty()) << r.variable << "." << e;
      }
    }
  }
  // The variables the remedies use.
  for (const char* v : {"max_num_seqs", "max_model_len", "kv_cache_dtype", "gpu_memory_utilization", "tensor_parallel_size",
                        "enable_chunked_prefill", "max_num_batched_tokens", "replicas", "gpu_layers", "threads", "kv_unified"})
    EXPECT_TRUE(vars.count(v)) << v;
}

TEST(RemedyFlags, LlamaCppAndOllamaNeverGetAVllmFlag) {
  std::set<std::string> vllm_flags;
  for (const auto& r : table()) vllm_flags.insert(r.engines.at("vllm").flag);
  for (const auto& r : table()) {
    const std::string vflag = r.engines.at("vllm").flag;
    for (auto engine : {core::EngineKind::llamacpp, core::EngineKind::ollama}) {
      // Asked by the vLLM flag name, as the diagnosis' remedies are written.
      LocalRemedy l = localize_remedy(vflag != "none" ? vflag : r.variable, engine, "fp8", 4);
      ASSERT_TRUE(l.known) << r.variable;
      if (l.exists) {
        EXPECT_FALSE(vllm_flags.count(l.flag)) << r.variable << " -> " << l.flag;
      } else {
        EXPECT_FALSE(l.note.empty());
      }
    }
  }
}

struct Case {
  const char* asked;  // a variable or any engine's flag
  core::EngineKind engine;
  const char* to;
  int64_t slots;
  const char* flag;
  const char* to_after;
};

TEST(RemedyFlags, TranslatesFlagsValuesAndUnits) {
  using core::EngineKind;
  for (const Case& c : {
           Case{"kv-cache-dtype", EngineKind::llamacpp, "fp8", 0, "--cache-type-k/--cache-type-v", "q8_0"},
           Case{"--kv-cache-dtype", EngineKind::ollama, "fp8", 0, "OLLAMA_KV_CACHE_TYPE", "q8_0"},
           Case{"--max-num-seqs", EngineKind::llamacpp, "8", 0, "-np", "8"},
           Case{"max-running-requests", EngineKind::ollama, "2", 0, "OLLAMA_NUM_PARALLEL", "2"},
           Case{"--max-model-len", EngineKind::llamacpp, "4096", 4, "-c", "16384"},  // -c = slots x context
           Case{"--max-model-len", EngineKind::llamacpp, "4096", 0, "-c", "4096 x slots (-np)"},
           Case{"max-model-len", EngineKind::ollama, "4096", 4, "num_ctx", "4096"},  // per request
           Case{"-np", EngineKind::vllm, "4", 0, "--max-num-seqs", "4"},
           Case{"--gpu-memory-utilization", EngineKind::sglang, "0.8", 0, "--mem-fraction-static", "0.8"},
           Case{"--gpu-memory-utilization", EngineKind::tgi, "0.8", 0, "--cuda-memory-fraction", "0.8"},
           Case{"tensor-parallel-size", EngineKind::trtllm, "2", 0, "--tp_size", "2"},
           Case{"--cache-type-k", EngineKind::vllm, "fp8", 0, "--kv-cache-dtype", "fp8"},
           Case{"ngl", EngineKind::ollama, "20", 0, "num_gpu", "20"},
           Case{"--gpu-memory-utilization", EngineKind::llamacpp, "0.8", 0, "none", "0.8"},
       }) {
    LocalRemedy l = localize_remedy(c.asked, c.engine, c.to, c.slots);
    EXPECT_TRUE(l.known) << c.asked;
    EXPECT_EQ(l.flag, c.flag) << c.asked << " on " << core::to_string(c.engine);
    EXPECT_EQ(l.to, c.to_after) << c.asked << " on " << core::to_string(c.engine);
  }
  EXPECT_FALSE(localize_remedy("no-such-knob", core::EngineKind::vllm).known);
  EXPECT_FALSE(localize_remedy("--max-num-seqs", core::EngineKind::unknown).known);
  EXPECT_EQ(engine_flag("max_num_seqs", core::EngineKind::unknown, "--max-num-seqs"), "--max-num-seqs");
}

TEST(RemedyFlags, MalformedRowsAreErrorsWithTheLine) {
  auto no_source = parse_remedy_flags(
      "# header\n{\"variable\":\"x\",\"meaning\":\"m\",\"engines\":{\"vllm\":{\"flag\":\"--x\"}}}\n", "t.jsonl");
  ASSERT_FALSE(no_source.ok());
  EXPECT_EQ(no_source.error().where, "t.jsonl:2");
  EXPECT_EQ(no_source.error().expected, "x.vllm: a \"source\"");
  auto missing_engine = parse_remedy_flags(
      "{\"variable\":\"x\",\"meaning\":\"m\",\"engines\":{\"vllm\":{\"flag\":\"--x\",\"source\":\"s\"}}}", "t.jsonl");
  ASSERT_FALSE(missing_engine.ok());
  EXPECT_EQ(missing_engine.error().expected, "x: an entry for sglang");
  auto none_without_note = parse_remedy_flags(
      "{\"variable\":\"x\",\"meaning\":\"m\",\"engines\":{\"vllm\":{\"flag\":\"none\",\"source\":\"s\"}}}", "t.jsonl");
  ASSERT_FALSE(none_without_note.ok());
  EXPECT_NE(none_without_note.error().expected.find("what to do instead"), std::string::npos);
  EXPECT_FALSE(parse_remedy_flags("{not json}\n", "t.jsonl").ok());
}

}  // namespace
}  // namespace llmtriage::ledger
