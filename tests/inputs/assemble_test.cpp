// Assembling a diagnosis' evidence (inputs/assemble.h) from real files: what each input adds to
// the deployment and the evidence, and the InputNote that says so; inputs that cannot be used
// are notes, never errors; secrets never reach a note or the kept snapshot.
#include "inputs/assemble.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
namespace in = llmtriage::inputs;

namespace {

const std::string kData = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/diagnose_cli";
const std::string kModel = "meta-llama/Llama-3.1-8B-Instruct";

const llmtriage::core::InputNote* note_of(const llmtriage::core::Evidence& ev, const std::string& kind) {
  for (const auto& n : ev.inputs)
    if (n.kind == kind) return &n;
  return nullptr;
}

}  // namespace

TEST(InputsAssemble, BenchFolderGivesRecordsScrapesAndItsConfig) {
  in::Sources s;
  s.benches = {kData + "/bench_run"};
  auto a = in::assemble(s);
  ASSERT_TRUE(a.ok()) << a.error().message();
  const auto& d = a->now.deployment;
  EXPECT_EQ(d.model, kModel);
  EXPECT_EQ(d.engine, llmtriage::core::EngineKind::vllm);
  EXPECT_EQ(d.settings.block_size, 16);
  EXPECT_EQ(d.settings.max_num_seqs, 64);
  EXPECT_DOUBLE_EQ(d.settings.gpu_memory_utilization.value_or(0), 0.9);
  EXPECT_EQ(a->now.requests.size(), 6u);
  EXPECT_EQ(a->now.engine_samples.size(), 3u);
  EXPECT_TRUE(a->any_evidence);
  EXPECT_FALSE(a->live);
  EXPECT_FALSE(a->baseline);
}

TEST(InputsAssemble, LaunchTextSetsTheDeploymentAndSaysWhatItRead) {
  in::Sources s;
  s.engine_args = "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --max-num-seqs 32";
  s.gpu = "H100";
  auto a = in::assemble(s);
  ASSERT_TRUE(a.ok()) << a.error().message();
  const auto& d = a->now.deployment;
  EXPECT_EQ(d.model, kModel);  // from the command line when --model is not given
  EXPECT_EQ(d.engine, llmtriage::core::EngineKind::vllm);
  EXPECT_EQ(d.settings.max_model_len, 8192);
  EXPECT_EQ(d.settings.max_num_seqs, 32);
  const auto* n = note_of(a->now, "engine_args");
  ASSERT_TRUE(n);
  EXPECT_TRUE(n->ok);
  EXPECT_NE(n->note.find("vllm command line"), std::string::npos) << n->note;
  EXPECT_NE(n->note.find("max-model-len"), std::string::npos) << n->note;
  ASSERT_TRUE(note_of(a->now, "model"));
  EXPECT_EQ(note_of(a->now, "model")->note, "in the catalog");
  ASSERT_TRUE(note_of(a->now, "gpu"));
  EXPECT_TRUE(note_of(a->now, "gpu")->ok);
}

TEST(InputsAssemble, UnknownNamesAndUnreadableFilesAreNotesNotErrors) {
  in::Sources s;
  s.model = "qwen2.5:32b-instruct-q4_K_M";  // an Ollama tag: not in the catalog, but the name says things
  s.gpu = "Zorblax 9000";
  s.engine_args = "OLLAMA_CONTEXT_LENGTH=4096 frobnicate";
  s.logs = {"/nonexistent/engine.log"};
  s.baseline_logs = {"/nonexistent/healthy.log"};
  auto a = in::assemble(s);
  ASSERT_TRUE(a.ok()) << a.error().message();
  const auto* m = note_of(a->now, "model");
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->ok) << m->note;
  EXPECT_NE(m->note.find("read from the name"), std::string::npos) << m->note;
  const auto* g = note_of(a->now, "gpu");
  ASSERT_TRUE(g);
  EXPECT_FALSE(g->ok);
  const auto* e = note_of(a->now, "engine_args");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->ok) << e->note;  // the KEY=VALUE line was read
  EXPECT_NE(e->note.find("not understood: frobnicate"), std::string::npos) << e->note;
  const auto* l = note_of(a->now, "log");
  ASSERT_TRUE(l);
  EXPECT_FALSE(l->ok);
  // A baseline with nothing usable is no baseline; its notes stay, marked as the baseline's.
  EXPECT_FALSE(a->baseline);
  EXPECT_TRUE(note_of(a->now, "baseline log"));
  bool warned_log = false;
  for (const auto& w : a->warnings) warned_log |= w.rfind("log /nonexistent/engine.log", 0) == 0;
  EXPECT_TRUE(warned_log);
  EXPECT_TRUE(a->any_evidence);  // names and launch text are evidence for the suspects
}

TEST(InputsAssemble, LiveEndpointDownIsANoteAndSecretsNeverAppear) {
  const fs::path snap = fs::temp_directory_path() / ("llmtriage-assemble-" + std::to_string(::getpid()) + ".json");
  in::Sources s;
  // Port 1 on loopback: nothing listens, every scrape is refused at once.
  s.endpoint = "http://ops:hunter22secret@127.0.0.1:1/?token=tok-abcdef123";
  s.api_key = "sk-live-0123456789";
  s.window_s = 0.3;
  s.interval_s = 0.1;
  s.no_local_gpu = true;
  s.keep_snapshot = snap.string();
  auto a = in::assemble(s);
  ASSERT_TRUE(a.ok()) << a.error().message();
  EXPECT_TRUE(a->live);
  const auto* ep = note_of(a->now, "endpoint");
  ASSERT_TRUE(ep);
  EXPECT_FALSE(ep->ok);
  EXPECT_NE(ep->note.find("no scrape succeeded"), std::string::npos) << ep->note;
  std::string all;
  for (const auto& n : a->now.inputs) all += n.source + " " + n.note + "\n";
  for (const auto& w : a->warnings) all += w + "\n";
  std::ifstream f(snap);
  std::stringstream kept;
  kept << f.rdbuf();
  fs::remove(snap);
  EXPECT_FALSE(kept.str().empty()) << "the snapshot is kept even when every scrape failed";
  for (const std::string secret : {"hunter22secret", "tok-abcdef123", "sk-live-0123456789"}) {
    EXPECT_EQ(all.find(secret), std::string::npos) << secret << " in\n" << all;
    EXPECT_EQ(kept.str().find(secret), std::string::npos) << secret << " in the kept snapshot";
  }
}

TEST(InputsAssemble, MalformedEndpointUrlIsTheOnlyError) {
  in::Sources s;
  s.endpoint = "not a url at all";
  s.window_s = 0.1;
  s.interval_s = 0.1;
  s.no_local_gpu = true;
  s.keep_snapshot = (fs::temp_directory_path() / "llmtriage-assemble-bad-url.json").string();
  auto a = in::assemble(s);
  EXPECT_FALSE(a.ok());
  fs::remove(s.keep_snapshot);
}
