// Launch settings as pasted (ingest/launch_text.h): one table of inputs and the keys read.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "ingest/launch_text.h"

namespace d = llmtriage::ingest;

TEST(LaunchText, ReadsEveryFormOperatorsPaste) {
  struct Row {
    const char* text;
    std::map<std::string, std::string> want;
  } rows[] = {
      {"vllm serve zai-org/GLM-4.7-Flash --kv-cache-dtype fp8 --trust-remote-code --max-model-len 8192",
       {{"kv-cache-dtype", "fp8"}, {"trust-remote-code", ""}, {"max-model-len", "8192"}, {"model", "zai-org/GLM-4.7-Flash"}}},
      {"VLLM_USE_V1=1 python3 -m vllm.entrypoints.openai.api_server --model /data/m -tp 2 --enforce-eager",
       {{"VLLM_USE_V1", "1"}, {"model", "/data/m"}, {"tensor-parallel-size", "2"}, {"enforce-eager", ""}}},
      {"./main -m /nvme2/models/codellama70b.gguf -ngl 40 -t 1 -i",
       {{"model", "/nvme2/models/codellama70b.gguf"}, {"n-gpu-layers", "40"}, {"threads", "1"}}},
      {"llama-server -m ... -c 1024 -np 4", {{"ctx-size", "1024"}, {"parallel", "4"}}},
      {"OLLAMA_NUM_PARALLEL=64 ollama serve", {{"OLLAMA_NUM_PARALLEL", "64"}}},
      {"FROM gemma2\nPARAMETER num_ctx 1024", {{"modelfile-from", "gemma2"}, {"num-ctx", "1024"}}},
      {"gpu_layers: 0", {{"gpu-layers", "0"}}},
      {"args: [\"--max-model-len\", \"4096\", \"--gpu-memory-utilization=0.85\"]",
       {{"max-model-len", "4096"}, {"gpu-memory-utilization", "0.85"}}},
      {"--cuda-graph-sizes 16 32 48 --max-num-seqs 1024 -O '{\"full_cuda_graph\": true}'",
       {{"cuda-graph-sizes", "16"}, {"max-num-seqs", "1024"}, {"compilation-config", "{\"full_cuda_graph\": true}"}}},
      {"docker run --gpus all -p 8000:8000 vllm/vllm-openai --model x --max_num_seqs=8",
       {{"max-num-seqs", "8"}, {"model", "x"}}},
      {"--speculative-config '{\"method\": \"eagle3\"}'", {{"speculative-config", "{\"method\": \"eagle3\"}"}}},
      // Outside a YAML list a comma is part of the value.
      {"llama-server -ts 3,1 -ngl 99", {{"tensor-split", "3,1"}, {"n-gpu-layers", "99"}}},
      {"- --max-model-len=8192", {{"max-model-len", "8192"}}},
      // Python keyword arguments of an offline engine: snake case, call punctuation, True a switch.
      {"llm = LLM(model=\"mistralai/Mixtral-8x7B-Instruct-v0.1\", tensor_parallel_size=4, trust_remote_code=True, enforce_eager=True)",
       {{"model", "mistralai/Mixtral-8x7B-Instruct-v0.1"}, {"tensor-parallel-size", "4"}, {"enforce-eager", ""}}},
      {"tensor_parallel_size=4, trust_remote_code=True, enforce_eager=True", {{"tensor-parallel-size", "4"}, {"enforce-eager", ""}}},
      // A shell variable holding the server's flags.
      {"PARAMS=\"-ngl 99 -c 4096 --repeat-penalty 1.5\"\n$BIN -m $MODEL $PARAMS",
       {{"n-gpu-layers", "99"}, {"ctx-size", "4096"}, {"repeat-penalty", "1.5"}}},
      // llama-server's environment twins of its flags (common/arg.cpp set_env).
      {"LLAMA_ARG_N_GPU_LAYERS=0 LLAMA_ARG_THREADS=48 LLAMA_ARG_N_PARALLEL=2 LLAMA_ARG_NUMA=numactl ./llama-server -m x.gguf",
       {{"n-gpu-layers", "0"}, {"threads", "48"}, {"parallel", "2"}, {"numa", "numactl"}, {"LLAMA_ARG_THREADS", "48"}}},
      // A systemd unit's Environment= line (how Ollama's service is configured).
      {"Environment=\"OLLAMA_HOST=0.0.0.0\" \"OLLAMA_NUM_PARALLEL=2\"", {{"OLLAMA_HOST", "0.0.0.0"}, {"OLLAMA_NUM_PARALLEL", "2"}}},
      // Pasted through a word processor: an em dash for "--"; prose punctuation after a value.
      {"\xE2\x80\x94max-num-batched-tokens=512", {{"max-num-batched-tokens", "512"}}},
      {"OLLAMA_NUM_PARALLEL=1, set OLLAMA_MAX_QUEUE=1", {{"OLLAMA_NUM_PARALLEL", "1"}, {"OLLAMA_MAX_QUEUE", "1"}}},
      // A variable as typed in a thread, spaces around '='.
      {"OLLAMA_NUM_PARALLEL = 4", {{"OLLAMA_NUM_PARALLEL", "4"}}},
      // The command line wins over the environment.
      {"LLAMA_ARG_CTX_SIZE=4096 llama-server -c 8192", {{"ctx-size", "8192"}}},
  };
  for (const auto& r : rows) {
    auto s = d::read_launch_text(r.text);
    for (const auto& [k, v] : r.want) {
      ASSERT_TRUE(s.has(k)) << r.text << ": no " << k;
      EXPECT_EQ(*s.get(k), v) << r.text << ": " << k;
    }
  }
}

// Kits pass the engine's flags as environment variables of the same name: a flag name finds its
// upper-case twin, never the other way round, and a flag given as a flag wins.
TEST(LaunchText, AFlagNameFindsItsEnvironmentVariableTwin) {
  auto s = d::read_launch_text("MAX_MODEL_LEN=1000000 MAX_NUM_SEQS=4 ./serve.sh");
  EXPECT_EQ(s.number({"max-model-len"}), 1000000);
  EXPECT_EQ(s.number({"max-num-seqs"}), 4);
  EXPECT_FALSE(s.has("MAX-NUM-SEQS"));
  auto both = d::read_launch_text("MAX_NUM_SEQS=4 vllm serve m --max-num-seqs 64");
  EXPECT_EQ(both.number({"max-num-seqs"}), 64);
  auto flag = d::read_launch_text("vllm serve m --max-num-seqs 8");
  EXPECT_FALSE(flag.has("MAX_NUM_SEQS"));
  // NVIDIA NIM's prefixed variables configure the engine inside it.
  auto nim = d::read_launch_text("docker run -e NIM_MAX_NUM_SEQS=4 -e NIM_MAX_MODEL_LEN=8192 nvcr.io/nim/meta/llama3-8b");
  EXPECT_EQ(nim.number({"max-num-seqs"}), 4);
  EXPECT_EQ(nim.number({"max-model-len"}), 8192);
}

// An Ollama option on a line of its own, as Open WebUI's advanced parameters show it.
TEST(LaunchText, AnOllamaOptionOnItsOwnLineIsRead) {
  EXPECT_EQ(d::read_launch_text("num_gpu 2").number({"num-gpu"}), 2);
  EXPECT_EQ(d::read_launch_text("num_ctx 8192\nnum_thread 8").number({"num-ctx"}), 8192);
  // Not an option name, or not a number: left alone.
  EXPECT_FALSE(d::read_launch_text("temperature_x 2").has("temperature-x"));
  EXPECT_FALSE(d::read_launch_text("num_gpu all").has("num-gpu"));
}

TEST(LaunchText, NumbersAndUnparsedWordsNeverFail) {
  auto s = d::read_launch_text("--max-model-len 32k --foo bar 'unterminated");
  EXPECT_EQ(s.number({"max-model-len"}), 32000);
  EXPECT_FALSE(s.number({"foo"}));
  EXPECT_FALSE(s.number({"missing"}));
  auto odd = d::read_launch_text("\"\" -- - = =x \\");
  (void)odd;  // no exception, whatever the input
  auto w = d::read_launch_text("lmdeploy serve api_server /mnt/m --model-name my_model_abc somethingodd");
  EXPECT_EQ(*w.get("model-name"), "my_model_abc");
  ASSERT_FALSE(w.unparsed.empty());
  EXPECT_EQ(w.unparsed.back(), "somethingodd");
  // A request URL in a pasted curl line is not the model.
  auto curl = d::read_launch_text("curl -X POST my_ip:8000/v2/models/ensemble/generate_stream -d '{}'");
  EXPECT_FALSE(curl.has("model"));
  EXPECT_NE(std::find(curl.unparsed.begin(), curl.unparsed.end(), "my_ip:8000/v2/models/ensemble/generate_stream"),
            curl.unparsed.end());
  auto curl2 = d::read_launch_text("curl http://localhost:11434/api/generate -d x");
  EXPECT_FALSE(curl2.has("model"));
  // A False keyword argument is the default: not a setting.
  auto f = d::read_launch_text("LLM(model='m', enforce_eager=False, enable_prefix_caching=None)");
  EXPECT_FALSE(f.has("enforce-eager"));
  EXPECT_FALSE(f.has("enable-prefix-caching"));
}
