// Real excerpts of each engine's runtime log (tests/data/logs/*.log, sources in README.md) ->
// timeline samples and events with the numbers the lines state.
#include <gtest/gtest.h>

#include <set>

#include <string>

#include "ingest/engine_log.h"

using namespace llmtriage;
using core::EventKind;

namespace {

ingest::EngineLogResult parse(const std::string& name) {
  auto r = ingest::parse_engine_log_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/logs/" + name);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : ingest::EngineLogResult{};
}

const core::Event* first(const ingest::EngineLogResult& r, EventKind k) {
  for (const auto& e : r.events)
    if (e.kind == k) return &e;
  return nullptr;
}

int count(const ingest::EngineLogResult& r, EventKind k) {
  int n = 0;
  for (const auto& e : r.events) n += e.kind == k;
  return n;
}

}  // namespace

TEST(EngineLogFixtures, VllmV1StatsTracebackAndDeath) {
  auto r = parse("vllm_v1_runtime.log");
  EXPECT_EQ(r.engine, core::EngineKind::vllm);
  ASSERT_EQ(r.timeline.size(), 5u);
  const auto& s = r.timeline[3];
  EXPECT_EQ(s.engine_index, "0");
  EXPECT_DOUBLE_EQ(*s.prompt_throughput_tok_s, 18032.5);
  EXPECT_DOUBLE_EQ(*s.generation_throughput_tok_s, 589.8);
  EXPECT_DOUBLE_EQ(*s.running, 21);
  EXPECT_DOUBLE_EQ(*s.waiting, 23);
  EXPECT_NEAR(*s.kv_usage, 0.959, 1e-12);
  EXPECT_DOUBLE_EQ(*s.prefix_cache_hit_rate, 0.0);
  EXPECT_FALSE(s.swapped.has_value());
  // 10 s apart, relative timeline (vLLM prints no year)
  EXPECT_EQ(r.time_base, "relative");
  EXPECT_DOUBLE_EQ(r.timeline[1].t_s - r.timeline[0].t_s, 10.0);

  // The 7-line traceback is one event carrying the OOM numbers.
  EXPECT_EQ(count(r, EventKind::oom), 1);
  const core::Event* oom = first(r, EventKind::oom);
  ASSERT_NE(oom, nullptr);
  EXPECT_TRUE(oom->source.ends_with("vllm_v1_runtime.log:7")) << oom->source;  // the "Traceback" line
  EXPECT_NEAR(oom->fields.at("tried_to_allocate_gib"), 786.0 / 1024, 1e-12);
  EXPECT_DOUBLE_EQ(oom->fields.at("total_capacity_gib"), 79.11);
  EXPECT_NEAR(oom->fields.at("free_gib"), 140.75 / 1024, 1e-12);
  EXPECT_DOUBLE_EQ(oom->fields.at("allocated_gib"), 68.83);
  EXPECT_NEAR(oom->fields.at("reserved_unallocated_gib"), 331.08 / 1024, 1e-12);
  EXPECT_NEAR(oom->fields.at("reserved_gib"), 68.83 + 331.08 / 1024, 1e-12);
  EXPECT_EQ(oom->labels.at("exception"), "torch.OutOfMemoryError");
  EXPECT_NE(oom->labels.at("traceback").find("sampler.py"), std::string::npos);
  EXPECT_EQ(r.traceback_lines, 7);
  EXPECT_EQ(count(r, EventKind::engine_dead), 1);
  EXPECT_EQ(r.lines_unknown, 0);
}

TEST(EngineLogFixtures, VllmV0StatsPrefixLinePreemptionOldOomAbort) {
  auto r = parse("vllm_v0_runtime.log");
  EXPECT_EQ(r.engine, core::EngineKind::vllm_v0);
  ASSERT_EQ(r.timeline.size(), 3u);  // the prefix-cache line merges into its stats line
  EXPECT_DOUBLE_EQ(*r.timeline[0].generation_throughput_tok_s, 18.5);
  EXPECT_DOUBLE_EQ(*r.timeline[0].swapped, 0);
  EXPECT_DOUBLE_EQ(*r.timeline[0].waiting, 0);
  EXPECT_DOUBLE_EQ(*r.timeline[0].kv_usage, 0.2);
  EXPECT_DOUBLE_EQ(*r.timeline[1].prefix_cache_hit_rate, 0.0);
  EXPECT_FALSE(r.timeline[2].prefix_cache_hit_rate.has_value());
  const core::Event* p = first(r, EventKind::preemption);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->labels.at("mode"), "recompute");
  EXPECT_DOUBLE_EQ(p->fields.at("cumulative_preemptions"), 1);
  const core::Event* oom = first(r, EventKind::oom);
  ASSERT_NE(oom, nullptr);
  EXPECT_DOUBLE_EQ(oom->fields.at("tried_to_allocate_gib"), 2.0);
  EXPECT_DOUBLE_EQ(oom->fields.at("total_capacity_gib"), 23.69);
  EXPECT_DOUBLE_EQ(oom->fields.at("allocated_gib"), 20.47);
  EXPECT_DOUBLE_EQ(oom->fields.at("free_gib"), 1.68);
  EXPECT_DOUBLE_EQ(oom->fields.at("reserved_gib"), 20.98);
  EXPECT_EQ(count(r, EventKind::request_aborted), 1);
  // Dates without a year across 01-09 .. 12-16 stay in order.
  for (size_t i = 1; i < r.timeline.size(); ++i) EXPECT_GE(r.timeline[i].t_s, r.timeline[i - 1].t_s);
}

TEST(EngineLogFixtures, Sglang) {
  auto r = parse("sglang.log");
  EXPECT_EQ(r.engine, core::EngineKind::sglang);
  EXPECT_EQ(r.time_base, "unix");
  auto m = ingest::merged_startup_fields(r);
  EXPECT_DOUBLE_EQ(m.at("weights_gib"), 14.99);
  EXPECT_DOUBLE_EQ(m.at("kv_tokens"), 367404);
  EXPECT_DOUBLE_EQ(m.at("kv_cache_gib"), 16.46);
  EXPECT_DOUBLE_EQ(m.at("max_running_requests"), 4096);
  EXPECT_DOUBLE_EQ(m.at("context_len_tokens"), 131072);
  ASSERT_EQ(r.timeline.size(), 2u);
  EXPECT_NEAR(*r.timeline[0].prefix_cache_hit_rate, 35.0 / 2227.0, 1e-12);
  EXPECT_DOUBLE_EQ(*r.timeline[1].running, 233);
  EXPECT_DOUBLE_EQ(*r.timeline[1].waiting, 317);
  EXPECT_DOUBLE_EQ(*r.timeline[1].kv_usage, 0.82);
  EXPECT_DOUBLE_EQ(*r.timeline[1].generation_throughput_tok_s, 4594.01);
  EXPECT_DOUBLE_EQ(r.timeline[1].t_s - r.timeline[0].t_s, 10.0);
  const core::Event* p = first(r, EventKind::preemption);
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->fields.at("retracted_reqs"), 3);
  EXPECT_DOUBLE_EQ(p->fields.at("new_token_ratio"), 0.65);
}

TEST(EngineLogFixtures, TgiArgsBudgetAndPrefillOomWithTimeZone) {
  auto r = parse("tgi.log");
  EXPECT_EQ(r.engine, core::EngineKind::tgi);
  const core::Event* a = first(r, EventKind::engine_args);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->labels.at("form"), "tgi_args");
  EXPECT_NE(a->labels.at("args").find("max_batch_total_tokens: 16000"), std::string::npos);
  EXPECT_DOUBLE_EQ(ingest::merged_startup_fields(r).at("kv_tokens"), 425472);
  const core::Event* oom = first(r, EventKind::oom);
  ASSERT_NE(oom, nullptr);
  EXPECT_EQ(oom->labels.at("cause"), "prefill_oom");
  EXPECT_DOUBLE_EQ(oom->fields.at("prefill_tokens"), 4096);
  // 10:27:00+02:00 is 08:27:00Z: before the 10:26:51Z line.
  EXPECT_DOUBLE_EQ(*oom->t_s, 1714465620.0);
}

TEST(EngineLogFixtures, LlamaCppJournaldComposeAndOldFormats) {
  auto r = parse("llamacpp.log");
  EXPECT_EQ(r.engine, core::EngineKind::llamacpp);
  EXPECT_EQ(count(r, EventKind::context_truncated), 2);
  const core::Event* t = first(r, EventKind::context_truncated);
  EXPECT_DOUBLE_EQ(t->fields.at("n_ctx_tokens"), 4096);
  EXPECT_DOUBLE_EQ(t->fields.at("n_prompt_tokens"), 2982);
  EXPECT_EQ(count(r, EventKind::kv_cache_full), 2);
  auto m = ingest::merged_startup_fields(r);
  EXPECT_DOUBLE_EQ(m.at("kv_cache_gib"), 1.0);
  EXPECT_NEAR(m.at("weights_gib"), 4403.49 / 1024, 1e-12);
  const core::Event* oom = first(r, EventKind::oom);
  ASSERT_NE(oom, nullptr);
  EXPECT_EQ(oom->labels.at("cause"), "cuda_malloc");
  EXPECT_DOUBLE_EQ(oom->fields.at("tried_to_allocate_gib"), 1.0);
  EXPECT_EQ(r.lines_unknown, 0);
}

TEST(EngineLogFixtures, Ollama) {
  auto r = parse("ollama.log");
  EXPECT_EQ(r.engine, core::EngineKind::ollama);
  auto m = ingest::merged_startup_fields(r);
  EXPECT_DOUBLE_EQ(m.at("kv_cache_gib"), 9.5);
  EXPECT_DOUBLE_EQ(m.at("weights_gib"), 385.0);
  EXPECT_DOUBLE_EQ(m.at("available_gib"), 23.3);
  EXPECT_DOUBLE_EQ(m.at("layers_offload"), 5);
  const core::Event* t = first(r, EventKind::context_truncated);
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->fields.at("n_ctx_tokens"), 2048);
  EXPECT_DOUBLE_EQ(t->fields.at("n_prompt_tokens"), 5065);
  EXPECT_EQ(count(r, EventKind::kv_cache_full), 1);
  EXPECT_EQ(count(r, EventKind::warning), 1);  // the invalid env var warning
}

// A shift discards tokens (truncation); "context shift is disabled" and "... or enable context
// shift" are refusals of a request that does not fit its slot: not truncation events (the
// signatures read them as the slot's context).
TEST(EngineLogFixtures, LlamaCppContextShiftRefusalsAreNotShifts) {
  auto r = ingest::parse_engine_log_text(
      "slot context shift | n_keep = 1 n_left = 3998 n_discard = 1999 n_ctx=4000 n_past=3999\n"
      "44.54.717.867 E srv                send_error: task 2 | error = context shift is disabled\n"
      "73.17.574.546 E srv                send_error: task 3 | error = the request exceeds the available context size. "
      "try increasing the context size or enable context shift\n");
  EXPECT_EQ(count(r, EventKind::context_truncated), 1);
  std::set<std::string> sigs;
  for (const auto& e : r.signature_events)
    if (auto it = e.labels.find("signature"); it != e.labels.end()) sigs.insert(it->second);
  EXPECT_TRUE(sigs.count("llamacpp_context_shift_disabled"));
  EXPECT_TRUE(sigs.count("llamacpp_exceeds_ctx"));
}
