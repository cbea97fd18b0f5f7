// Live snapshots against real HTTP servers on loopback (net::Server): a healthy vLLM-like
// endpoint behind an API key, one that disappears mid-window, one that hangs, and the binary
// end to end. The evidence captured before a failure must always be written.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "collect/capture.h"
#include "collect/snapshot.h"
#include "core/files.h"
#include "net/server.h"

using namespace llmtriage;
namespace fs = std::filesystem;

namespace {

const std::string kKey = "secret-key-123456";

// A vLLM V1 endpoint whose counters advance on every scrape.
struct FakeVllm {
  net::Server server;
  std::atomic<int> scrapes{0};
  std::atomic<bool> hang{false};
  std::mutex held_mu;
  std::vector<std::shared_ptr<net::ResponseWriter>> held;  // hanging responses

  FakeVllm() {
    server.route("GET", "/metrics", [this](net::ServerRequest& req, std::shared_ptr<net::ResponseWriter> w) {
      const std::string* auth = req.header("Authorization");
      if (!auth || *auth != "Bearer " + kKey) {
        w->respond(401, "{\"error\":\"unauthorized\"}");
        return;
      }
      if (hang) {
        std::lock_guard<std::mutex> lock(held_mu);
        held.push_back(w);  // never answered
        return;
      }
      int n = ++scrapes;
      std::ostringstream m;
      m << "# TYPE vllm:num_requests_running gauge\n"
        << "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} " << 4 + n << "\n"
        << "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} " << n << "\n"
        << "vllm:kv_cache_usage_perc{engine=\"0\",model_name=\"m\"} 0.25\n"
        << "# TYPE vllm:prompt_tokens_total counter\n"
        << "vllm:prompt_tokens_total{engine=\"0\",model_name=\"m\"} " << 1000 * n << "\n"
        << "vllm:prompt_tokens_created{engine=\"0\",model_name=\"m\"} 1.76e9\n"
        << "vllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} " << 500 * n << "\n";
      w->respond(200, m.str(), "text/plain; version=0.0.4; charset=utf-8");
    });
    server.route("GET", "/version", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
      w->respond(200, "{\"version\":\"0.10.0\"}");
    });
    server.route("GET", "/v1/models", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
      w->respond(200, "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"owned_by\":\"vllm\","
                      "\"root\":\"meta-llama/Llama-3.1-8B-Instruct\",\"max_model_len\":8192}]}");
    });
    EXPECT_TRUE(server.start().ok());
  }
};

size_t ok_count(const collect::Snapshot& s) {
  size_t n = 0;
  for (const auto& sc : s.scrapes) n += sc.ok;
  return n;
}

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("llmtriage_live_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace

TEST(SnapshotLive, HealthyEndpointOverAWindow) {
  FakeVllm srv;
  collect::LiveOptions o;
  o.endpoint = srv.server.base_url();
  o.api_key = kKey;
  o.window_s = 1.0;
  o.interval_s = 0.25;
  o.capture.read_local_gpus = false;
  o.capture.engine_args = "vllm serve m --api-key " + kKey + " --max-model-len 8192";
  int progress_calls = 0;
  o.on_progress = [&](const collect::Snapshot& s) {
    ++progress_calls;
    EXPECT_FALSE(s.complete);
  };
  auto s = collect::capture_live(o);
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(s->scrapes.size(), 5u);
  EXPECT_EQ(ok_count(*s), 5u);
  EXPECT_EQ(progress_calls, 5);
  EXPECT_EQ(s->engine, core::EngineKind::vllm);
  EXPECT_EQ(s->engine_version, "0.10.0");
  ASSERT_EQ(s->models.size(), 1u);
  EXPECT_EQ(s->models[0].root, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(s->models[0].max_model_len, 8192);
  EXPECT_EQ(s->endpoint, srv.server.base_url() + "/metrics");
  ASSERT_EQ(s->window.size(), 1u);
  // 1000 prompt tokens per scrape, scrapes ~0.25 s apart: about 4000 tok/s.
  ASSERT_TRUE(s->window[0].prompt_tok_s);
  EXPECT_GT(*s->window[0].prompt_tok_s, 2000);
  EXPECT_LT(*s->window[0].prompt_tok_s, 8000);
  EXPECT_EQ(s->window[0].waiting_max, 5);

  auto path = temp_file("healthy.json");
  ASSERT_TRUE(collect::write_snapshot(path.string(), *s, kKey).ok());
  std::string text = core::read_file(path.string()).value();
  EXPECT_EQ(text.find(kKey), std::string::npos) << "the API key leaked into the snapshot";
  EXPECT_NE(text.find("--api-key <redacted>"), std::string::npos);
  fs::remove(path);
}

TEST(SnapshotLive, EndpointThatDisappearsMidWindowStillLeavesTheEvidence) {
  auto srv = std::make_unique<FakeVllm>();
  collect::LiveOptions o;
  o.endpoint = srv->server.base_url() + "/metrics";
  o.api_key = kKey;
  o.window_s = 1.0;
  o.interval_s = 0.2;
  o.capture.read_local_gpus = false;
  auto path = temp_file("dying.json");
  o.on_progress = [&](const collect::Snapshot& s) {
    ASSERT_TRUE(collect::write_snapshot(path.string(), s, kKey).ok());
    if (s.scrapes.size() == 2) srv->server.stop();  // the engine dies (OOM, restart...)
  };
  auto s = collect::capture_live(o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->scrapes.size(), 6u);
  EXPECT_EQ(ok_count(*s), 2u);
  size_t metric_failures = 0;
  for (const auto& f : s->failures) metric_failures += f.what == "metrics";
  EXPECT_EQ(metric_failures, 4u);
  EXPECT_FALSE(s->scrapes.back().ok);
  EXPECT_NE(s->scrapes.back().error.find("connect"), std::string::npos) << s->scrapes.back().error;
  // What was captured before the failure is intact, also in the file written along the way.
  auto back = collect::read_snapshot(path.string());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->scrapes.size(), 6u);
  EXPECT_EQ(ok_count(*back), 2u);
  EXPECT_FALSE(back->scrapes[0].raw.empty());
  EXPECT_EQ(back->window.at(0).scrapes, 2);
  fs::remove(path);
}

TEST(SnapshotLive, HangingEndpointIsTimedOutAndRecorded) {
  FakeVllm srv;
  srv.hang = true;
  collect::LiveOptions o;
  o.endpoint = srv.server.base_url();
  o.api_key = kKey;
  o.window_s = 0.6;
  o.interval_s = 0.6;  // request timeout is capped at the interval
  o.capture.read_local_gpus = false;
  auto s = collect::capture_live(o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->scrapes.size(), 2u);
  EXPECT_EQ(ok_count(*s), 0u);
  EXPECT_NE(s->scrapes[0].error.find("timeout"), std::string::npos) << s->scrapes[0].error;
}

// A token in the endpoint's query string must not reach the snapshot through a failure text
// (net's errors quote the URL they requested).
TEST(SnapshotLive, FailureTextsCarryNoQueryToken) {
  FakeVllm srv;
  srv.hang = true;
  collect::LiveOptions o;
  o.endpoint = srv.server.base_url() + "/metrics?token=s3cr3t-query-value&x=1";
  o.api_key = kKey;
  o.window_s = 0;
  o.interval_s = 0.5;
  o.capture.read_local_gpus = false;
  auto s = collect::capture_live(o);
  ASSERT_TRUE(s.ok());
  const std::string all = collect::to_json(*s).dump();
  EXPECT_EQ(all.find("s3cr3t-query-value"), std::string::npos) << all.substr(0, 2000);
  EXPECT_EQ(all.find(kKey), std::string::npos);
  ASSERT_FALSE(s->failures.empty());
}

TEST(SnapshotLive, WrongKeyIsAnHttpFailureNotACrash) {
  FakeVllm srv;
  collect::LiveOptions o;
  o.endpoint = srv.server.base_url();
  o.api_key = "wrong";
  o.window_s = 0;
  o.capture.read_local_gpus = false;
  auto s = collect::capture_live(o);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->scrapes.size(), 1u);
  EXPECT_EQ(s->scrapes[0].error, "HTTP status 401");
}

TEST(SnapshotLive, BinaryWritesTheFileAndExitsTwoWhenNothingCouldBeRead) {
  FakeVllm srv;
  auto good = temp_file("bin_good.json");
  std::string cmd = std::string(LLMTRIAGE_BINARY) + " snapshot --endpoint " + srv.server.base_url() +
                    " --window 0.4s --interval 0.2s --no-local-gpu --out " + good.string() +
                    " > /dev/null 2>&1";
  ::setenv("LLMTRIAGE_API_KEY", kKey.c_str(), 1);
  int rc = std::system(cmd.c_str());
  ::unsetenv("LLMTRIAGE_API_KEY");
  EXPECT_EQ(WEXITSTATUS(rc), 0);
  auto j = nlohmann::json::parse(core::read_file(good.string()).value());
  EXPECT_EQ(j["scrapes"].size(), 3u);
  EXPECT_EQ(j["engine"]["kind"], "vllm");
  EXPECT_EQ(core::read_file(good.string()).value().find(kKey), std::string::npos);

  std::string base = srv.server.base_url();
  srv.server.stop();
  auto dead = temp_file("bin_dead.json");
  std::string cmd2 = std::string(LLMTRIAGE_BINARY) + " snapshot --endpoint " + base +
                     " --window 0 --no-local-gpu --out " + dead.string() + " > /dev/null 2>&1";
  rc = std::system(cmd2.c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 2);
  auto d = collect::read_snapshot(dead.string());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->scrapes.size(), 1u);
  EXPECT_FALSE(d->scrapes[0].ok);
  EXPECT_FALSE(d->failures.empty());

  std::string show = std::string(LLMTRIAGE_BINARY) + " snapshot show " + dead.string() + " > /dev/null";
  EXPECT_EQ(WEXITSTATUS(std::system(show.c_str())), 0);
  fs::remove(good);
  fs::remove(dead);
}
