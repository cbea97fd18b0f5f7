// llama.cpp /props, /slots and /v1/models "meta", as a real llama-server b10470 returns them
// (tests/data/collect/llamacpp_b10470_*.json, captured from the test peer; the model path was cut
// to its file name), and bodies that are not what the endpoint should return.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "collect/llamacpp_server.h"
#include "collect/snapshot_render.h"
#include "core/files.h"

namespace llmtriage::collect {
namespace {

std::string data(const std::string& name) {
  auto t = core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/collect/" + name);
  EXPECT_TRUE(t.ok()) << name;
  return t.ok() ? *t : std::string();
}

TEST(LlamaCppServer, PropsGiveSlotsAndPerSlotContext) {
  auto p = parse_llamacpp_props(data("llamacpp_b10470_props.json"), "http://127.0.0.1:1/props");
  ASSERT_TRUE(p.ok()) << p.error().message();
  EXPECT_EQ(p->total_slots, 4);
  EXPECT_EQ(p->ctx_per_slot, 2048);  // -c 8192 -np 4, kv_unified false
  EXPECT_EQ(p->build, "b10470-34af94cd9");
  EXPECT_EQ(p->model_path, "tiny.gguf");
  EXPECT_EQ(p->model_ftype, "F16");
  auto models = nlohmann::json::parse(data("llamacpp_b10470_v1_models.json"));
  merge_llamacpp_models_meta(models, *p);
  EXPECT_EQ(p->ctx_train, 4096);
  EXPECT_EQ(p->n_params, 18745600);
  EXPECT_EQ(p->model_bytes, 37495808);
}

TEST(LlamaCppServer, SlotsGiveBusySlotsAndProgress) {
  auto s = parse_llamacpp_slots(data("llamacpp_b10470_slots_busy.json"), 12.5, "u");
  ASSERT_TRUE(s.ok()) << s.error().message();
  ASSERT_EQ(s->slots.size(), 4u);
  EXPECT_EQ(s->busy(), 4);
  EXPECT_DOUBLE_EQ(s->t_s, 12.5);
  EXPECT_EQ(s->slots[0].n_ctx, 2048);
  ASSERT_TRUE(s->slots[0].n_decoded);
  EXPECT_GT(*s->slots[0].n_decoded, 0);
  ASSERT_TRUE(s->slots[0].n_remain);
  ASSERT_TRUE(s->slots[0].n_prompt_tokens);
}

TEST(LlamaCppServer, FreshServerSlotsHaveOnlyIdContextAndState) {
  auto s = parse_llamacpp_slots(R"([{"id":0,"n_ctx":2048,"speculative":false,"is_processing":false},
                                     {"id":1,"n_ctx":2048,"speculative":false,"is_processing":false}])",
                                0, "u");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->busy(), 0);
  EXPECT_FALSE(s->slots[1].n_decoded);
}

TEST(LlamaCppServer, WrongBodiesAreErrorsThatSayWhatWasFound) {
  auto a = parse_llamacpp_props("<html>not found</html>", "http://h/props");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message().find("not JSON"), std::string::npos) << a.error().message();
  EXPECT_NE(a.error().message().find("http://h/props"), std::string::npos);
  auto b = parse_llamacpp_props(R"({"version":"0.9"})", "u");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message().find("without total_slots"), std::string::npos) << b.error().message();
  auto c = parse_llamacpp_slots(R"({"error":{"code":501,"message":"This server does not support slots endpoint."}})", 0, "u");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message().find("object"), std::string::npos) << c.error().message();
  // Negative or absurd counts are not taken.
  auto d = parse_llamacpp_props(R"({"total_slots":-3,"default_generation_settings":{"n_ctx":1e300}})", "u");
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->total_slots);
  EXPECT_FALSE(d->ctx_per_slot);
}

TEST(LlamaCppServer, JsonRoundTrip) {
  auto p = parse_llamacpp_props(data("llamacpp_b10470_props.json"), "u");
  ASSERT_TRUE(p.ok());
  ServerProps q = server_props_from_json(to_json(*p));
  EXPECT_EQ(q.total_slots, p->total_slots);
  EXPECT_EQ(q.ctx_per_slot, p->ctx_per_slot);
  EXPECT_EQ(q.build, p->build);
  auto s = parse_llamacpp_slots(data("llamacpp_b10470_slots_busy.json"), 3, "u");
  ASSERT_TRUE(s.ok());
  SlotsSample t = slots_sample_from_json(to_json(*s));
  ASSERT_EQ(t.slots.size(), s->slots.size());
  EXPECT_EQ(t.busy(), 4);
  EXPECT_EQ(t.slots[2].n_decoded, s->slots[2].n_decoded);
  EXPECT_DOUBLE_EQ(t.t_s, 3);
}

// `snapshot show` says what the server said of itself: slots, their context, who is busy.
TEST(LlamaCppServer, SnapshotShowsSlotsAndTheirProgress) {
  Snapshot snap;
  snap.engine = core::EngineKind::llamacpp;
  auto p = parse_llamacpp_props(data("llamacpp_b10470_props.json"), "u");
  ASSERT_TRUE(p.ok());
  snap.server = *p;
  auto sl = parse_llamacpp_slots(data("llamacpp_b10470_slots_busy.json"), 1, "u");
  ASSERT_TRUE(sl.ok());
  snap.slots.push_back(*sl);
  const std::string text = render_snapshot_text(snap);
  EXPECT_NE(text.find("server: 4 slots of 2048 tokens each"), std::string::npos) << text;
  EXPECT_NE(text.find("busy mean 4.0, max 4 of 4"), std::string::npos) << text;
  EXPECT_NE(text.find("slot 0: prompt"), std::string::npos) << text;
}

}  // namespace
}  // namespace llmtriage::collect
