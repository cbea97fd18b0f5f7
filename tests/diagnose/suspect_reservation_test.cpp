// "The GPU is full because the engine reserved it" (diagnose/suspect_reservation.cpp): the KV pool
// an engine takes at startup, said only when nothing fails and no other symptom is reported.
#include <gtest/gtest.h>

#include "diagnose/diagnose.h"
#include "ingest/engine_log.h"

namespace d = llmtriage::diagnose;
namespace ingest = llmtriage::ingest;

namespace {

// Verbatim TensorRT-LLM runtime lines (https://github.com/NVIDIA/TensorRT-LLM/issues/1400).
const char* kTrtllmPool =
    "[TensorRT-LLM][INFO] Allocate 69524783104 bytes for k/v cache. \n"
    "[TensorRT-LLM][INFO] Using 132608 tokens in paged KV cache.\n";

d::DiagnoseInput with_log(const std::string& text, const std::string& gpu) {
  d::DiagnoseInput in;
  auto r = ingest::parse_engine_log_text(text);
  for (auto* l : {&r.events, &r.signature_events})
    for (auto& e : *l) in.now.events.push_back(e);
  in.now.deployment.gpu = gpu;
  in.gpu_as_given = gpu;
  in.what_if = false;
  return in;
}

const d::Finding* find(const d::Report& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

}  // namespace

TEST(SuspectReservation, FullGpuWithThePoolLineAndNoFailureIsTheReservation) {
  auto in = with_log(kTrtllmPool, "A100");
  in.observations.now = {{"gpu_mem_used_gib", 73}};
  const auto rep = d::diagnose(in);
  ASSERT_FALSE(rep.findings.empty());
  const auto& f = rep.findings.front();
  EXPECT_EQ(f.id, "kv_pool_preallocated");
  EXPECT_EQ(f.layer, d::Layer::scheduling_capacity);
  EXPECT_EQ(f.status, "suspected");
  ASSERT_EQ(f.evidence.size(), 2u);
  EXPECT_EQ(f.evidence[0].indicator, "kv_pool_share_of_gpu");  // 64.8 GiB of 78.8
  EXPECT_NEAR(f.evidence[0].value.value_or(0), 0.82, 0.01);
  EXPECT_EQ(f.evidence[1].indicator, "gpu_mem_used_share");
  ASSERT_FALSE(f.remedies.empty());
  EXPECT_NE(f.remedies.front().change.find("free_gpu_memory_fraction"), std::string::npos) << f.remedies.front().change;
  EXPECT_NE(f.explanation.find("with no symptom given"), std::string::npos) << f.explanation;
}

TEST(SuspectReservation, AFailureIsNotAReservation) {
  auto in = with_log(std::string(kTrtllmPool) +
                         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB\n",
                     "A100");
  in.observations.now = {{"gpu_mem_used_gib", 79}};
  const auto rep = d::diagnose(in);
  ASSERT_FALSE(rep.findings.empty());
  EXPECT_NE(rep.findings.front().id, "kv_pool_preallocated");
}

TEST(SuspectReservation, AReportedSymptomIsJudgedByTheOtherCauses) {
  auto in = with_log(kTrtllmPool, "A100");
  in.observations.now = {{"gpu_mem_used_gib", 73}};
  in.symptoms = {d::Symptom::tpot_high};
  EXPECT_EQ(find(d::diagnose(in), "kv_pool_preallocated"), nullptr);
}

TEST(SuspectReservation, AHalfEmptyGpuArguesAgainst) {
  d::DiagnoseInput in;
  in.now.deployment.gpu = "H100";
  in.what_if = false;
  in.observations.now = {{"gpu_mem_used_gib", 20}};
  // A reading against the cause and none for it: not listed.
  EXPECT_EQ(find(d::diagnose(in), "kv_pool_preallocated"), nullptr);
}
