// The official OpenAI Node client (npm `openai`, installed by this test into a temp folder,
// never committed) streams a chat completion and a completion from `llmtriage sim serve`.
// Needs Node.js and a reachable npm registry; without them the test FAILS with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/serve_process.h"

namespace llmtriage::serve_test {

namespace {
std::string read_all(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

TEST(NodeOpenAiClient, StreamsChatAndCompletionWithUsageAndFinishReason) {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(LLMTRIAGE_SOURCE_DIR) / "tests/serve/node";
  char tmpl[] = "/tmp/llmtriage-node-test-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const fs::path dir = tmpl;
  fs::copy_file(src / "package.json", dir / "package.json");
  fs::copy_file(src / "client_test.mjs", dir / "client_test.mjs");
  ASSERT_EQ(std::system("node --version > /dev/null 2>&1"), 0) << "Node.js is not installed: this test needs `node`";
  const std::string install = "cd '" + dir.string() + "' && timeout 300 npm install --no-audit --no-fund --loglevel=error > npm.log 2>&1";
  const int rc = std::system(install.c_str());
  ASSERT_EQ(rc, 0) << "npm install of the `openai` package failed (is the npm registry reachable?):\n"
                   << read_all((dir / "npm.log").string());

  ServeProcess server({"--served-model-name", "sim-llama"});
  ASSERT_TRUE(server.ok()) << server.startup_output();
  const std::string run = "cd '" + dir.string() + "' && BASE_URL='" + server.url() +
                          "' MODEL=sim-llama timeout 120 node client_test.mjs > out.log 2>&1";
  const int node_rc = std::system(run.c_str());
  const std::string out = read_all((dir / "out.log").string());
  EXPECT_EQ(node_rc, 0) << out;
  EXPECT_NE(out.find("\"ok\":true"), std::string::npos) << out;
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace llmtriage::serve_test
