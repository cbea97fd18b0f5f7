// `llmtriage diagnose`, black box: the built binary on real files. What the user sees: exit codes,
// one stderr line per input that could not be used, the diagnosis going on with the rest, the
// JSON/Markdown/terminal outputs, and an error naming every input when nothing could be read.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/diagnose_inputs.h"
#include "collect/capture.h"
#include "collect/snapshot.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kData = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/diagnose_cli";
const std::string kModel = "meta-llama/Llama-3.1-8B-Instruct";

struct Result {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("llmtriage_diag_" + std::to_string(::getpid()) + "_" + name);
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the binary with NO_COLOR unset and stdout/stderr to files (not a TTY).
Result run_diagnose(const std::vector<std::string>& args) {
  static int n = 0;
  const fs::path out = temp_path("out" + std::to_string(n)), err = temp_path("err" + std::to_string(n++));
  std::string cmd = "env -u NO_COLOR " + quote(LLMTRIAGE_BINARY) + " diagnose";
  for (const auto& a : args) cmd += " " + quote(a);
  cmd += " >" + quote(out.string()) + " 2>" + quote(err.string());
  int st = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

json parse(const Result& r) {
  auto j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  return j;
}

const json* input_of(const json& j, const std::string& kind, const std::string& source_part) {
  for (const auto& i : j["inputs"])
    if (i["kind"] == kind && i["source"].get<std::string>().find(source_part) != std::string::npos) return &i;
  return nullptr;
}

}  // namespace

TEST(DiagnoseCmd, HelpHasAWorkedExample) {
  Result r = run_diagnose({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("llmtriage diagnose --snapshot snap.json --log vllm.log"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--baseline-records"), std::string::npos);
  EXPECT_NE(r.out.find("--observe"), std::string::npos);
}

TEST(DiagnoseCmd, NoInputIsAUsageError) {
  Result r = run_diagnose({});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("llmtriage diagnose: error: diagnose: expected at least one input, found none"), std::string::npos)
      << r.err;
}

TEST(DiagnoseCmd, BadFlagValuesAreUsageErrorsNamingTheKnownValues) {
  Result r = run_diagnose({"--observe", "waiting=3", "--symptom", "slow"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--symptom: expected one of startup_oom, runtime_oom_or_preemption, ttft_spike"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("found 'slow'"), std::string::npos);

  r = run_diagnose({"--observe", "queue_depth=3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--observe: expected a known observation name, found queue_depth"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kv_usage"), std::string::npos);

  r = run_diagnose({"--observe-file", kData + "/observe_bad.txt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("observe_bad.txt:2"), std::string::npos) << r.err;

  r = run_diagnose({"--observe", "waiting=3", "--color", "sometimes"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--color: expected auto, always or never, found sometimes"), std::string::npos) << r.err;

  r = run_diagnose({"--observe", "waiting=3", "--json", "--markdown"});
  EXPECT_EQ(r.code, 2);
}

TEST(DiagnoseCmd, NothingReadableNamesEveryInputAndWhy) {
  Result r = run_diagnose({"--log", "/nonexistent/vllm.log", "--records", "/nonexistent/req.jsonl", "--snapshot",
               kData + "/observe.txt"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("error: no evidence could be read from any input:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("log /nonexistent/vllm.log: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("records /nonexistent/req.jsonl: "), std::string::npos);
  EXPECT_NE(r.err.find("snapshot " + kData + "/observe.txt: "), std::string::npos);
}

TEST(DiagnoseCmd, ALogOfUnknownLinesIsReadAndShownNotAnInputError) {
  // What an operator pastes may be another program's words only (a client's exception): the file
  // was read, its lines are listed under Inputs, and the diagnosis goes on (not exit 2).
  const fs::path p = temp_path("client_only.log");
  {
    std::ofstream o(p);
    o << "some.client.Exception: [StatusCode.UNIMPLEMENTED]\nan unheard-of message from a program we do not know\n";
  }
  Result r = run_diagnose({"--log", p.string(), "--json"});
  fs::remove(p);
  EXPECT_NE(r.code, 2) << r.err << r.out;
  json j = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out << r.err;
  bool listed = false;
  for (const auto& in : j["inputs"])
    listed = listed || in.dump().find("an unheard-of message") != std::string::npos;
  EXPECT_TRUE(listed) << j["inputs"].dump(1);
}

TEST(DiagnoseCmd, AnUnreadableInputIsReportedAndTheDiagnosisGoesOn) {
  Result r = run_diagnose({"--records", std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/bench.jsonl", "--records",
               "/nonexistent/more.jsonl", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.err.find("llmtriage diagnose: warning: records /nonexistent/more.jsonl: "), std::string::npos) << r.err;
  json j = parse(r);
  EXPECT_EQ(j["format"], "llmtriage-diagnosis");
  const json* good = input_of(j, "records", "records/bench.jsonl");
  const json* bad = input_of(j, "records", "/nonexistent/more.jsonl");
  ASSERT_TRUE(good && bad) << j["inputs"].dump(1);
  EXPECT_TRUE((*good)["ok"].get<bool>());
  EXPECT_NE((*good)["note"].get<std::string>().find("7 records (llmtriage), 3 lines rejected (first issues: line 8: number_as_string"), std::string::npos)
      << (*good)["note"];
  EXPECT_FALSE((*bad)["ok"].get<bool>());
  EXPECT_EQ(j["exit_code"], r.code);
  // The load layer had records to judge: it is not "not judged".
  for (const auto& nj : j["not_judged"]) EXPECT_NE(nj["layer"], "load");
}

TEST(DiagnoseCmd, UnknownModelAndWorkstationGpuAreReportedNotFatal) {
  Result r = run_diagnose({"--model", "llama3:8b", "--gpu", "Quadro RTX 4000", "--observe", "waiting=2", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.err.find("warning: model --model llama3:8b: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: gpu --gpu Quadro RTX 4000: "), std::string::npos) << r.err;
  json j = parse(r);
  const json* m = input_of(j, "model", "llama3:8b");
  const json* g = input_of(j, "gpu", "Quadro RTX 4000");
  ASSERT_TRUE(m && g) << j["inputs"].dump(1);
  // Not in the catalogs, but what the names state is read and used (and said); the ledger is not.
  EXPECT_TRUE((*m)["ok"].get<bool>());
  EXPECT_NE((*m)["note"].get<std::string>().find("ledger is left out"), std::string::npos);
  EXPECT_NE((*m)["note"].get<std::string>().find("size 8B"), std::string::npos) << (*m)["note"];
  EXPECT_TRUE((*g)["ok"].get<bool>());
  EXPECT_NE((*g)["note"].get<std::string>().find("left out"), std::string::npos) << (*g)["note"];
  // A name that states nothing is still reported, and still not fatal.
  Result n = run_diagnose({"--model", "zzz", "--gpu", "qqq", "--observe", "waiting=2", "--json"});
  ASSERT_TRUE(n.code == 0 || n.code == 1) << n.err;
  json k = parse(n);
  const json* nm = input_of(k, "model", "zzz");
  ASSERT_TRUE(nm);
  EXPECT_FALSE((*nm)["ok"].get<bool>());
}

TEST(DiagnoseCmd, ALogOfAnotherModelIsNotUsed) {
  const std::string log = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/ledger/vllm-0.19-llama-3.1-8b-32k.log";
  Result r = run_diagnose({"--log", log, "--model", "Qwen/Qwen2.5-7B-Instruct", "--gpu", "H100-SXM", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.err.find("it is from model 'meta-llama/Llama-3.1-8B-Instruct', --model says 'Qwen/Qwen2.5-7B-Instruct': not used"),
            std::string::npos)
      << r.err;
  json j = parse(r);
  const json* l = input_of(j, "log", "vllm-0.19");
  ASSERT_TRUE(l);
  EXPECT_FALSE((*l)["ok"].get<bool>());
  // The same log with its own model is read.
  r = run_diagnose({"--log", log, "--model", kModel, "--gpu", "H100-SXM", "--json"});
  j = parse(r);
  l = input_of(j, "log", "vllm-0.19");
  ASSERT_TRUE(l);
  EXPECT_TRUE((*l)["ok"].get<bool>()) << (*l)["note"];
  EXPECT_NE((*l)["note"].get<std::string>().find("vllm log"), std::string::npos);
}

TEST(DiagnoseCmd, BenchFolderGivesRecordsScrapesAndConfig) {
  Result r = run_diagnose({"--bench", kData + "/bench_run", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  json j = parse(r);
  const json* s = input_of(j, "bench", "bench_run/summary.json");
  const json* rec = input_of(j, "bench records", "bench_run/records.jsonl");
  const json* met = input_of(j, "bench metrics", "bench_run/metrics.jsonl");
  ASSERT_TRUE(s && rec && met) << j["inputs"].dump(1);
  EXPECT_NE((*s)["note"].get<std::string>().find("6 completed, 0 failed; 21.6 output tok/s"), std::string::npos) << (*s)["note"];
  EXPECT_NE((*rec)["note"].get<std::string>().find("6 records (llmtriage)"), std::string::npos) << (*rec)["note"];
  EXPECT_EQ((*met)["note"], "3 of 4 scrape(s) read, 1 failed (connection refused)");
  EXPECT_TRUE((*met)["ok"].get<bool>());
}

TEST(DiagnoseCmd, GatherPutsReadingsFilesFirstAndCountsThemAsEvidence) {
  const fs::path p = temp_path("readings.txt");
  {
    std::ofstream o(p);
    o << "# from the dashboard\n\ngateway_timeout_s=30  # the proxy's\n";
  }
  llmtriage::cli::DiagnoseFlags f;
  f.observe_files = {p.string()};
  f.benches = {kData + "/bench_run"};
  auto g = llmtriage::cli::gather_inputs(f);
  fs::remove(p);
  ASSERT_TRUE(g.ok()) << g.error().message();
  ASSERT_FALSE(g->input.now.inputs.empty());
  EXPECT_EQ(g->input.now.inputs.front().kind, "observe");
  EXPECT_EQ(g->input.now.inputs.front().note, "1 reading");
  EXPECT_EQ(g->input.observations.now.size(), 1u);
  EXPECT_EQ(g->input.now.requests.size(), 6u);
  EXPECT_TRUE(g->any_evidence);
}

TEST(DiagnoseCmd, OutputsInEveryShapeAreRead) {
  Result r = run_diagnose({"--outputs", kData + "/outputs.jsonl", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  json j = parse(r);
  const json* o = input_of(j, "outputs", "outputs.jsonl");
  ASSERT_TRUE(o);
  EXPECT_EQ((*o)["note"], "4 response texts");
  // With outputs, the numeric/parameter layer is judged.
  for (const auto& nj : j["not_judged"]) EXPECT_NE(nj["layer"], "numeric_parameter") << nj.dump();
}

TEST(DiagnoseCmd, SnapshotFileIsRead) {
  llmtriage::collect::CaptureOptions co;
  co.read_local_gpus = false;
  auto snap = llmtriage::collect::snapshot_from_files(
      {std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/synthetic_vllm_v1_0.11_two_models_dp2.prom"}, co);
  ASSERT_TRUE(snap.ok()) << snap.error().message();
  const fs::path p = temp_path("snap.json");
  ASSERT_TRUE(llmtriage::collect::write_snapshot(p.string(), *snap).ok());
  // Its series carry served names ("a", "b"): aliases, which never contradict --model.
  Result r = run_diagnose({"--snapshot", p.string(), "--model", kModel, "--json"});
  fs::remove(p);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  json j = parse(r);
  const json* s = input_of(j, "snapshot", p.filename().string());
  ASSERT_TRUE(s) << j["inputs"].dump(1);
  EXPECT_TRUE((*s)["ok"].get<bool>());
  EXPECT_NE((*s)["note"].get<std::string>().find("1 scrape(s) of vllm"), std::string::npos) << (*s)["note"];
}

TEST(DiagnoseCmd, ObservationsAloneAreEvidenceAndTheExitCodeFollowsTheFindings) {
  Result r = run_diagnose({"--observe-file", kData + "/observe.txt", "--symptom", "ttft_spike", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  json j = parse(r);
  EXPECT_EQ(j["symptoms"], json::array({"ttft_spike"}));
  EXPECT_EQ(j["symptoms_detected"], false);
  bool warning = false;
  for (const auto& f : j["findings"]) warning |= f["severity"] != "info";
  EXPECT_EQ(r.code, warning ? 1 : 0);
  const json* o = input_of(j, "observe", "observe.txt");
  ASSERT_TRUE(o);
  EXPECT_EQ((*o)["note"], "5 readings");
}

TEST(DiagnoseCmd, TerminalAndMarkdownOutputs) {
  const std::vector<std::string> in = {"--records", std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/bench.jsonl"};
  auto args = in;
  Result plain = run_diagnose(args);
  EXPECT_NE(plain.out.find("VERDICT"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("TTFT/TPOT/ITL as defined in docs/metrics.md"), std::string::npos);
  EXPECT_EQ(plain.out.find('\033'), std::string::npos) << "colors on a file";
  args.push_back("--color");
  args.push_back("always");
  Result colored = run_diagnose(args);
  EXPECT_NE(colored.out.find("\033[1mVERDICT\033[0m"), std::string::npos);
  args = in;
  args.push_back("--markdown");
  Result md = run_diagnose(args);
  EXPECT_EQ(md.out.rfind("# llmtriage diagnosis\n", 0), 0u) << md.out;
  EXPECT_NE(md.out.find("## Inputs"), std::string::npos);
  EXPECT_EQ(md.code, plain.code);
}

TEST(DiagnoseCmd, BaselineReachesTheLoadLayer) {
  const std::string recs = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/records/";
  Result r = run_diagnose({"--records", recs + "vllm_bench.json", "--baseline-records", recs + "bench.jsonl", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  json j = parse(r);
  const json* b = input_of(j, "baseline records", "bench.jsonl");
  ASSERT_TRUE(b) << j["inputs"].dump(1);
  EXPECT_TRUE((*b)["ok"].get<bool>());
  // A shift can only be found against a baseline: the two files' lengths differ.
  bool shift = false;
  for (const auto& f : j["findings"]) shift |= f["layer"] == "load" && f["id"].get<std::string>().ends_with("_shift");
  EXPECT_TRUE(shift) << j["findings"].dump(1);

  // A baseline that cannot be read is reported; the diagnosis runs without one.
  r = run_diagnose({"--records", recs + "vllm_bench.json", "--baseline-records", "/nonexistent/base.jsonl", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_NE(r.err.find("warning: baseline records /nonexistent/base.jsonl: "), std::string::npos) << r.err;
  j = parse(r);
  b = input_of(j, "baseline records", "/nonexistent/base.jsonl");
  ASSERT_TRUE(b) << j["inputs"].dump(1);
  EXPECT_FALSE((*b)["ok"].get<bool>());
}

TEST(DiagnoseCmd, SecretsNeverAppearInTheReportTheWarningsOrTheKeptSnapshot) {
  const fs::path snap = temp_path("secret_snap.json");
  // Nothing listens on port 1: the capture fails at once, and its errors quote the URL.
  Result r = run_diagnose({"--endpoint", "http://user:hunter2pw@127.0.0.1:1/metrics?token=tok4567", "--api-key", "sk-SECRET999",
                  "--window", "0s", "--no-local-gpu", "--keep-snapshot", snap.string(), "--observe", "waiting=1",
                  "--engine-args", "vllm serve " + kModel + " --api-key sk-ENGINE777", "--json"});
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  const std::string kept = slurp(snap);
  fs::remove(snap);
  ASSERT_FALSE(kept.empty());
  for (const char* secret : {"hunter2pw", "tok4567", "sk-SECRET999", "sk-ENGINE777"}) {
    EXPECT_EQ(r.out.find(secret), std::string::npos) << secret << " in the report";
    EXPECT_EQ(r.err.find(secret), std::string::npos) << secret << " on stderr: " << r.err;
    EXPECT_EQ(kept.find(secret), std::string::npos) << secret << " in the kept snapshot";
  }
  // The endpoint is still named, with its secrets replaced.
  EXPECT_NE(r.err.find("endpoint http://127.0.0.1:1/metrics?token=<redacted>: no scrape succeeded"), std::string::npos)
      << r.err;
}

// No GPU on the machine that captured: said once, short, on its Inputs line — no stderr warning,
// not again under Missing evidence; NVML's and nvidia-smi's own errors stay in the snapshot.
TEST(DiagnoseCmd, NoGpuOnTheCapturingMachineIsSaidOnce) {
  llmtriage::collect::CaptureOptions co;
  co.read_local_gpus = false;
  auto snap = llmtriage::collect::snapshot_from_files(
      {std::string(LLMTRIAGE_TEST_DATA_DIR) + "/metrics/synthetic_vllm_v1_0.11_two_models_dp2.prom"}, co);
  ASSERT_TRUE(snap.ok()) << snap.error().message();
  snap->gpu_source = "none";
  snap->gpu_note = "no NVIDIA GPU visible on this machine (libnvidia-ml.so.1: expected the NVIDIA driver's NVML "
                   "library, found libnvidia-ml.so.1: cannot open shared object file; nvidia-smi: expected nvidia-smi "
                   "listing a GPU, found no nvidia-smi): GPU readings skipped";
  const fs::path p = temp_path("nogpu.json");
  ASSERT_TRUE(llmtriage::collect::write_snapshot(p.string(), *snap).ok());
  Result r = run_diagnose({"--snapshot", p.string(), "--model", kModel});
  fs::remove(p);
  ASSERT_TRUE(r.code == 0 || r.code == 1) << r.err;
  EXPECT_EQ(r.err.find("gpu"), std::string::npos) << r.err;
  const size_t first = r.out.find("no NVIDIA GPU visible on this machine");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("no NVIDIA GPU visible", first + 1), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libnvidia-ml"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; details: llmtriage snapshot show "), std::string::npos) << r.out;
}
