#include <unistd.h>
// `llmtriage ledger` black-box: the real binary, its exit codes, text, JSON and error messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace {

struct CliRun {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

CliRun ledger(const std::string& args) {
  const auto dir = std::filesystem::temp_directory_path();
  // ctest runs tests of this file in parallel processes: names carry the pid.
  const std::string tag = std::to_string(::getpid());
  const std::string out = (dir / ("llmtriage_ledger_out_" + tag + ".txt")).string(),
                    err = (dir / ("llmtriage_ledger_err_" + tag + ".txt")).string();
  const std::string cmd = std::string(LLMTRIAGE_BINARY) + " ledger " + args + " >" + out + " 2>" + err;
  int status = std::system(cmd.c_str());
  CliRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

std::string write_temp(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

const std::string kLog = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/ledger/vllm-0.19-llama-3.1-8b-32k.log";

TEST(LedgerCli, DemoCommandFitsAndShowsEveryLineWithItsSource) {
  CliRun r = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100-SXM --max-model-len 131072 --typical-len 3000");
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* s : {"Weights", "Activation peak", "Non-torch memory", "CUDA graphs", "KV cache pool", "KV cache tokens",
                        "Max concurrency @ 131072", "Max concurrency @ 3000", "vllm/v1/worker/gpu_worker.py",
                        "Verdict: fits", "Remedies"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(LedgerCli, JsonHasTheDocumentedKeys) {
  CliRun r = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --max-model-len 8192 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"total_gib", "usable_gib", "weights_gib", "activation_gib", "non_torch_gib", "cuda_graph_gib",
                        "kv_cache_gib", "kv_bytes_per_token", "kv_cache_tokens", "num_blocks", "max_concurrency", "verdict",
                        "remedies"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["verdict"], "fits");
  EXPECT_EQ(j["kv_bytes_per_token"], 131072);
  EXPECT_TRUE(j["remedies"].is_array());
}

TEST(LedgerCli, FindingsExitOne) {
  CliRun big = ledger("--model meta-llama/Llama-3.3-70B-Instruct --gpu H100 --max-model-len 8192 --json");
  EXPECT_EQ(big.code, 1);
  EXPECT_EQ(nlohmann::json::parse(big.out)["verdict"], "weights_do_not_fit");
  CliRun len = ledger("--gpu H100 --engine-version 0.11.0 --engine-args \"vllm serve Qwen/Qwen3-32B --max-model-len=32k "
                   "--gpu-memory-utilization 0.9\"");
  EXPECT_EQ(len.code, 1);
  EXPECT_NE(len.out.find("max_model_len_exceeds_kv"), std::string::npos) << len.out;
  EXPECT_NE(len.out.find("--max-model-len 32000 -> "), std::string::npos) << len.out;
}

TEST(LedgerCli, InputErrorsExitTwoAndSayWhere) {
  CliRun tp = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --tensor-parallel-size 3");
  EXPECT_EQ(tp.code, 2);
  EXPECT_NE(tp.err.find("--tensor-parallel-size: expected a divisor of the model's 32 attention heads, found 3"),
            std::string::npos) << tp.err;
  CliRun gpu = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H1OO");
  EXPECT_EQ(gpu.code, 2);
  EXPECT_NE(gpu.err.find("Closest catalog names: H100-SXM"), std::string::npos) << gpu.err;
  EXPECT_NE(gpu.err.find("--gpu-mem-gib"), std::string::npos) << gpu.err;
  CliRun util = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --gpu-memory-utilization 1.5");
  EXPECT_EQ(util.code, 2);
  EXPECT_NE(util.err.find("--gpu-memory-utilization"), std::string::npos) << util.err;
  EXPECT_NE(util.err.find("1.5"), std::string::npos) << util.err;
  CliRun len = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --max-model-len -4");
  EXPECT_EQ(len.code, 2);
  std::string cfg = write_temp("llmtriage_broken_config.json",
                               R"({"architectures":["LlamaForCausalLM"],"hidden_size":64,"vocab_size":10,"num_attention_heads":4})");
  CliRun model = ledger("--model " + cfg + " --gpu H100");
  EXPECT_EQ(model.code, 2);
  EXPECT_NE(model.err.find("num_hidden_layers"), std::string::npos) << model.err;
  EXPECT_NE(model.err.find(cfg), std::string::npos) << model.err;
  CliRun none = ledger("--gpu H100");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("--model"), std::string::npos);
}

TEST(LedgerCli, ConfigFileAndFlagsOverrideIt) {
  std::string cfg = write_temp("llmtriage_ledger.conf",
                               "# a deployment\nmodel: meta-llama/Llama-3.1-8B-Instruct\ngpu: H100-SXM\n"
                               "tensor-parallel-size: 2\nmax_model_len = 16384\n");
  CliRun r = ledger("--config " + cfg + " --max-model-len 8192 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["settings"]["tensor_parallel_size"], 2);
  EXPECT_EQ(j["settings"]["max_model_len"], 8192);
  std::string bad = write_temp("llmtriage_ledger_bad.conf", "model: meta-llama/Llama-3.1-8B-Instruct\nfavourite-colour: blue\n");
  CliRun e = ledger("--config " + bad + " --gpu H100");
  EXPECT_EQ(e.code, 2);
  EXPECT_NE(e.err.find(bad + ":2"), std::string::npos) << e.err;
}

TEST(LedgerCli, FromLogPutsEngineAndLedgerSideBySide) {
  CliRun r = ledger("--gpu H100 --from-log " + kLog + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // Model, settings and version came from the log itself.
  EXPECT_EQ(j["model"], "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(j["settings"]["max_model_len"], 32768);
  EXPECT_EQ(j["engine_version"], "0.19.0");
  bool tokens = false;
  for (const auto& c : j["from_log"]["comparison"]) {
    if (c["key"] == "kv_tokens") {
      tokens = true;
      EXPECT_EQ(c["engine"], 476016);
      EXPECT_LT(std::fabs(c["diff_pct"].get<double>()), 1.0);
    }
  }
  EXPECT_TRUE(tokens);
  EXPECT_TRUE(j["from_log"]["engine_started"].get<bool>());
  CliRun text = ledger("--gpu H100 --from-log " + kLog);
  EXPECT_NE(text.out.find("KV tokens"), std::string::npos);
  EXPECT_NE(text.out.find("476016"), std::string::npos) << text.out;
}

TEST(LedgerCli, FromLogV0TakesTheGpuCapacityFromTheLog) {
  const std::string v0 = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/ledger/vllm-v0-llama-3.1-8b-rtx3090.log";
  CliRun r = ledger("--model meta-llama/Llama-3.1-8B-Instruct --engine vllm-v0 --max-model-len 20000 --from-log " + v0 + " --json");
  ASSERT_LE(r.code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["total_gib"].get<double>(), 23.58);  // no --gpu: the capacity the log states
  bool kv = false;
  for (const auto& c : j["from_log"]["comparison"])
    if (c["key"] == "kv_cache_gib") {
      kv = true;
      EXPECT_LT(std::fabs(c["diff_pct"].get<double>()), 5.0) << c.dump();
    }
  EXPECT_TRUE(kv) << r.out;
}

TEST(LedgerCli, FromLogWithEngineOomIsAFinding) {
  std::string log = write_temp("llmtriage_oom.log",
                               "INFO 11-20 10:00:00 [gpu_model_runner.py:2602] Model loading took 14.99 GiB memory and 7.3 seconds\n"
                               "ERROR 11-20 10:00:05 [core.py:700] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                               "2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.\n");
  CliRun r = ledger("--model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --max-model-len 8192 --from-log " + log);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("startup: engine failed"), std::string::npos) << r.out;
}

// The peer's tiny model as llama-server runs it with -c 8192 -np 4 (its startup log: 2048 cells
// per slot, "llama_kv_cache: size = 16.00 MiB"), host-only: no --gpu needed.
TEST(LedgerCli, GgufModelOnLlamaCpp) {
  const char* model = std::getenv("LLMTRIAGE_LLAMA_MODEL");
  if (!model || !*model) GTEST_SKIP() << "LLMTRIAGE_LLAMA_MODEL unset: no real GGUF to read";
  CliRun r = ledger(std::string("--model ") + model + " --engine llamacpp --ctx-size 8192 --parallel 4 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["engine_settings"]["cells_per_slot"], "2048");
  EXPECT_EQ(j["kv_cache_tokens"], 8192);
  bool kv = false;
  for (const auto& l : j["lines"])
    if (l["key"] == "kv_cache_gib") {
      kv = true;
      EXPECT_EQ(l["unit"], "MiB");
      EXPECT_DOUBLE_EQ(l["value"].get<double>(), 16.0);
    }
  EXPECT_TRUE(kv) << r.out;
  for (const auto& m : j["remedies"]) EXPECT_NE(m["flag"], "--kv-cache-dtype") << m.dump();
  // The engine's own buffers (llama-server b10470 -lv 4 startup lines) beside the ledger's.
  std::string log = write_temp("llmtriage_tiny_startup.log",
                               "0.00.067.907 I load_tensors:   CPU_Mapped model buffer size =    35.76 MiB\n"
                               "0.00.068.436 I llama_context: n_ctx                 = 8192\n"
                               "0.00.068.550 I llama_kv_cache:        CPU KV buffer size =    16.00 MiB\n"
                               "0.00.077.492 I sched_reserve:        CPU compute buffer size =     6.51 MiB\n");
  CliRun cmp = ledger(std::string("--model ") + model + " --engine llamacpp --ctx-size 8192 --parallel 4 --json --from-log " + log);
  ASSERT_EQ(cmp.code, 0) << cmp.out << cmp.err;
  auto jc = nlohmann::json::parse(cmp.out, nullptr, false);
  ASSERT_FALSE(jc.is_discarded()) << cmp.out;
  std::set<std::string> keys;
  for (const auto& c : jc["from_log"]["comparison"]) {
    keys.insert(c["key"].get<std::string>());
    EXPECT_LT(std::abs(c["diff_pct"].get<double>()), 0.5) << c.dump();
  }
  EXPECT_EQ(keys, (std::set<std::string>{"weights_cpu_gib", "kv_cache_cpu_gib", "compute_buffer_cpu_gib", "n_ctx_tokens"}));
  CliRun text = ledger(std::string("--model ") + model + " --engine llamacpp --ctx-size 8192 --parallel 4 --typical-len 3000");
  EXPECT_EQ(text.code, 1) << text.err;  // a 3000-token request is cut at the 2048-cell slot
  EXPECT_NE(text.out.find("-c 8192 -> 12288"), std::string::npos) << text.out;
}

TEST(LedgerCli, HelpHasAWorkedExample) {
  CliRun r = ledger("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("llmtriage ledger --model"), std::string::npos);
  EXPECT_NE(r.out.find("--engine-args"), std::string::npos);
}

}  // namespace
