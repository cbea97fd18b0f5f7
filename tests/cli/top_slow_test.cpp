// `llmtriage top` as a person sees it: the real binary in a tmux pane against `sim serve` with a
// deep-queue fault under load (the screen shows the queue and the scheduling layer's verdict; `s`
// writes a snapshot; `q` exits and gives the terminal back), and as scripts see it (--json,
// --once off a terminal; a peer that hangs or sends garbage is shown as such, never a freeze).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "net/server.h"
#include "support/serve_process.h"
#include "support/shell_run.h"

using namespace llmtriage;
namespace fs = std::filesystem;

namespace {

const std::string kBin = LLMTRIAGE_BINARY;

bool have_tmux() { return shell_test::run_shell("tmux -V >/dev/null 2>&1").code == 0; }

struct Tmux {
  std::string sock = "llmtriage-top-test-" + std::to_string(::getpid());
  std::string run(const std::string& args) const { return shell_test::run_shell("tmux -L " + sock + " " + args + " 2>&1").out; }
  std::string pane() const { return run("capture-pane -p -t top"); }
  ~Tmux() { shell_test::run_shell("tmux -L " + sock + " kill-server >/dev/null 2>&1"); }
};

// Polls the pane until `ok` holds or 30 s pass; returns the last capture.
template <class F>
std::string wait_pane(const Tmux& t, F ok) {
  std::string p;
  for (int i = 0; i < 150; ++i) {
    p = t.pane();
    if (ok(p)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return p;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Load {
  std::string pid;
  Load(const std::string& url, const fs::path& dir) {
    pid = shell_test::run_shell(kBin + " bench --endpoint " + url +
                                " --model meta-llama/Llama-3.1-8B-Instruct --rate 40 --num-requests 1000"
                                " --input-len 1500 --output-len 300 --out " + (dir / "bench").string() +
                                " >/dev/null 2>&1 & echo $!").out;
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  }
  ~Load() {
    if (!pid.empty()) shell_test::run_shell("kill " + pid + " 2>/dev/null; wait " + pid + " 2>/dev/null");
  }
};

fs::path scratch(const char* name) {
  fs::path d = fs::temp_directory_path() / (std::string("llmtriage-top-") + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(TopTmux, ShowsTheQueueAndTheLayerLineAndQuitsOnQ) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed (apt-get install tmux)";
  fs::path dir = scratch("tmux");
  serve_test::ServeProcess serve({"ttft-spike-deep-queue"}, false);
  ASSERT_TRUE(serve.ok()) << serve.startup_output();
  Load load(serve.url(), dir);
  Tmux t;
  std::string cmd = kBin + " top --endpoint " + serve.url() + " --no-local-gpu --snapshot-dir " + dir.string() +
                    " --engine-args \"--max-num-seqs 64\"; echo $? > " + (dir / "rc").string();
  t.run("new-session -d -x 120 -y 40 -s top '" + cmd + "'");
  // The queue builds: waiting above zero, and the scheduling layer judged at fault.
  std::string p = wait_pane(t, [](const std::string& s) {
    return s.find("waiting 0") == std::string::npos && s.find("waiting -") == std::string::npos &&
           s.find("scheduling/capacity  warning") != std::string::npos;
  });
  std::ofstream(dir / "pane.txt") << p;
  std::cout << "captured pane (" << (dir / "pane.txt").string() << "):\n" << p << "\n";
  EXPECT_NE(p.find("llmtriage top  " + serve.url() + "/metrics  vllm"), std::string::npos) << p;
  EXPECT_NE(p.find("queue    running "), std::string::npos) << p;
  EXPECT_NE(p.find(" / 64 (max-num-seqs)   waiting "), std::string::npos) << p;
  EXPECT_NE(p.find("the concurrency)"), std::string::npos) << p;
  EXPECT_NE(p.find("scheduling/capacity  warning"), std::string::npos) << p;
  EXPECT_NE(p.find("TTFT"), std::string::npos) << p;
  EXPECT_NE(p.find("q quit  p pause  s snapshot"), std::string::npos) << p;
  EXPECT_EQ(p.find("STALE"), std::string::npos) << p;

  t.run("send-keys -t top p");
  p = wait_pane(t, [](const std::string& s) { return s.find("PAUSED") != std::string::npos; });
  EXPECT_NE(p.find("p resume"), std::string::npos) << p;
  t.run("send-keys -t top p");
  p = wait_pane(t, [](const std::string& s) { return s.find("PAUSED") == std::string::npos; });
  EXPECT_EQ(p.find("PAUSED"), std::string::npos) << p;

  t.run("send-keys -t top s");
  p = wait_pane(t, [](const std::string& s) { return s.find(" written to ") != std::string::npos; });
  EXPECT_NE(p.find("snapshot of the last"), std::string::npos) << p;
  bool wrote = false;
  for (const auto& e : fs::directory_iterator(dir))
    wrote = wrote || e.path().filename().string().rfind("llmtriage-top-", 0) == 0;
  EXPECT_TRUE(wrote) << "no snapshot file in " << dir;

  t.run("send-keys -t top q");
  for (int i = 0; i < 100 && !fs::exists(dir / "rc"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(dir / "rc")) << "top did not exit on q:\n" << t.pane();
  EXPECT_EQ(read_all(dir / "rc"), "0\n");
  fs::remove_all(dir);
}

TEST(TopTmux, CtrlCExitsAndGivesTheTerminalBack) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed (apt-get install tmux)";
  fs::path dir = scratch("ctrlc");
  serve_test::ServeProcess serve({});
  ASSERT_TRUE(serve.ok()) << serve.startup_output();
  Tmux t;
  std::string cmd = kBin + " top --endpoint " + serve.url() + " --no-local-gpu; echo $? > " + (dir / "rc").string() +
                    "; stty -a > " + (dir / "stty").string();
  t.run("new-session -d -x 120 -y 40 -s top '" + cmd + "'");
  std::string p = wait_pane(t, [](const std::string& s) { return s.find("queue    running") != std::string::npos; });
  ASSERT_NE(p.find("queue    running"), std::string::npos) << p;
  t.run("send-keys -t top C-c");
  for (int i = 0; i < 100 && !fs::exists(dir / "stty"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_TRUE(fs::exists(dir / "rc")) << "top did not exit on Ctrl-C:\n" << t.pane();
  EXPECT_EQ(read_all(dir / "rc"), "0\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::string stty = read_all(dir / "stty");
  EXPECT_EQ(stty.find("-icanon"), std::string::npos) << stty;  // line editing back
  EXPECT_EQ(stty.find("-echo "), std::string::npos) << stty;   // echo back
  fs::remove_all(dir);
}

TEST(TopJson, OneFramePerIntervalForScripts) {
  serve_test::ServeProcess serve({});
  ASSERT_TRUE(serve.ok()) << serve.startup_output();
  auto r = shell_test::run_shell(kBin + " top --endpoint " + serve.url() + " --no-local-gpu --json --count 3 --interval 200ms");
  EXPECT_EQ(r.code, 0) << r.out;
  std::istringstream in(r.out);
  std::string line;
  int frames = 0;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << line;
    EXPECT_EQ(j["format"], "llmtriage-top-frame");
    EXPECT_EQ(j["engine"], "vllm");
    EXPECT_TRUE(j["scheduling"].contains("running")) << line;
    EXPECT_EQ(j["layers"].size(), 5u) << line;
    ++frames;
  }
  EXPECT_EQ(frames, 3);
}

TEST(TopOnce, APeerThatHangsOrSendsGarbageIsShownNotWaitedFor) {
  net::ServerOptions so;
  so.shutdown_grace = std::chrono::milliseconds(100);
  net::Server server(so);
  std::mutex mu;
  std::vector<std::shared_ptr<net::ResponseWriter>> held;
  server.route("GET", "/metrics", [&](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    std::lock_guard<std::mutex> lock(mu);
    held.push_back(w);  // never answered
  });
  server.route("GET", "/garbage/metrics", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, "<html>502 Bad Gateway</html>\n\x01\x02 not prometheus {{{\n", "text/html");
  });
  ASSERT_TRUE(server.start().ok());
  const std::string base = server.base_url();

  auto t0 = std::chrono::steady_clock::now();
  auto hung = shell_test::run_shell(kBin + " top --endpoint " + base + " --once --no-local-gpu --interval 500ms 2>&1");
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(hung.code, 2) << hung.out;
  EXPECT_LT(took, 15) << "a hanging peer held top for " << took << " s";
  EXPECT_NE(hung.out.find("NO DATA; last scrape failed:"), std::string::npos) << hung.out;
  EXPECT_NE(hung.out.find("0 ok, 2 failed"), std::string::npos) << hung.out;

  auto bad = shell_test::run_shell(kBin + " top --endpoint " + base + "/garbage/metrics --once --no-local-gpu --interval 200ms 2>&1");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("last scrape failed:"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("no inference-engine series"), std::string::npos) << bad.out;
  server.stop();
}

// `top` watching a drill: the drill prints where each run's sim serve listens (--port 0: a free
// one), and top against it says the engine is simulated at a time scale and gives rates per
// virtual second (sim serve's llmtriage_sim_time_scale), the units of the drill's own report.
TEST(TopTmux, WatchesADrillLiveAtItsAnnouncedAddress) {
  if (!have_tmux()) GTEST_SKIP() << "tmux is not installed (apt-get install tmux)";
  fs::path dir = scratch("drill");
  const std::string pid = shell_test::run_shell(kBin + " drill ttft-spike-deep-queue --no-remedy --target-wall 30 --port 0 >" +
                                                (dir / "out").string() + " 2>" + (dir / "err").string() + " & echo $!").out;
  struct Kill {
    std::string pid;
    ~Kill() { shell_test::run_shell("kill " + pid + " 2>/dev/null; wait " + pid + " 2>/dev/null"); }
  } kill{pid.substr(0, pid.find_first_of(" \n"))};
  std::string url;
  for (int i = 0; i < 300 && url.empty(); ++i) {
    const std::string err = read_all(dir / "err");
    const std::string key = "run A served at ";
    if (size_t at = err.find(key); at != std::string::npos) url = err.substr(at + key.size(), err.find(' ', at + key.size()) - at - key.size());
    else std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_EQ(url.rfind("http://127.0.0.1:", 0), 0u) << read_all(dir / "err");
  EXPECT_NE(read_all(dir / "err").find("(watch it live: llmtriage top --endpoint " + url + ")"), std::string::npos);
  Tmux t;
  t.run("new-session -d -x 120 -y 40 -s top '" + kBin + " top --endpoint " + url + " --no-local-gpu'");
  std::string p = wait_pane(t, [](const std::string& s) {
    return s.find("clock    simulated engine at") != std::string::npos && s.find("tok/s") != std::string::npos &&
           s.find("(over ") != std::string::npos && s.find("scheduling/capacity  warning") != std::string::npos;
  });
  std::ofstream(dir / "pane.txt") << p;
  std::cout << "captured pane (" << (dir / "pane.txt").string() << "):\n" << p << "\n";
  EXPECT_NE(p.find("clock    simulated engine at"), std::string::npos) << p;
  EXPECT_NE(p.find("x wall time: rates, windows and latencies below are virtual seconds"), std::string::npos) << p;
  EXPECT_NE(p.find("scheduling/capacity  warning"), std::string::npos) << p;
  EXPECT_EQ(p.find("STALE"), std::string::npos) << p;
  t.run("send-keys -t top q");
  fs::remove_all(dir);
}

// --record writes every scrape as it comes; --replay plays it back through the same view (with
// --once: at once, the frame at the recording's end), its header saying it is a replay.
TEST(TopReplay, ARecordingPlaysBackThroughTheSameView) {
  fs::path dir = scratch("replay");
  serve_test::ServeProcess serve({});
  ASSERT_TRUE(serve.ok()) << serve.startup_output();
  const std::string rec = (dir / "incident.jsonl").string();
  auto r = shell_test::run_shell(kBin + " top --endpoint " + serve.url() + " --no-local-gpu --json --count 3 --interval 200ms --record " +
                                 rec + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("3 scrape(s) recorded to " + rec), std::string::npos) << r.out;
  auto once = shell_test::run_shell(kBin + " top --replay " + rec + " --once 2>&1");
  EXPECT_EQ(once.code, 0) << once.out;
  EXPECT_NE(once.out.find("llmtriage top  replay of " + rec + " (http://127.0.0.1:"), std::string::npos) << once.out;
  EXPECT_NE(once.out.find("3 ok, 0 failed in the window"), std::string::npos) << once.out;
  auto json = shell_test::run_shell(kBin + " top --replay " + rec + " --json");
  EXPECT_EQ(json.code, 0) << json.out;
  EXPECT_EQ(std::count(json.out.begin(), json.out.end(), '\n'), 3) << json.out;
  // --replay --json --once: one frame, the recording's end.
  auto one = shell_test::run_shell(kBin + " top --replay " + rec + " --json --once");
  EXPECT_EQ(one.code, 0) << one.out;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1) << one.out;
  EXPECT_NE(one.out.find("\"ok\":3"), std::string::npos) << one.out;
  // A replay's flags without a replay: said, not ignored.
  auto speed = shell_test::run_shell(kBin + " top --endpoint " + serve.url() + " --speed 10 --once 2>&1");
  EXPECT_EQ(speed.code, 2) << speed.out;
  EXPECT_NE(speed.out.find("--replay FILE"), std::string::npos) << speed.out;
  // Neither or both of --endpoint and --replay: a usage error naming both.
  auto neither = shell_test::run_shell(kBin + " top --once 2>&1");
  EXPECT_EQ(neither.code, 2) << neither.out;
  EXPECT_NE(neither.out.find("one of --endpoint URL (a live server), --replay FILE (a recording) or --sim SCENARIO"), std::string::npos) << neither.out;
  fs::remove_all(dir);
}

// --sim: the embedded engine playing a bundled scenario with its traffic, watched like a server:
// its clock line, its cap from its settings, its GPU from its simulated dcgm-exporter.
TEST(TopSim, TheEmbeddedEngineNeedsNoServerAndNoGpu) {
  auto r = shell_test::run_shell(kBin + " top --sim ttft-spike-deep-queue --once --interval 1s 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("--sim ttft-spike-deep-queue: the embedded engine at http://127.0.0.1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("clock    simulated engine at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" / 64 (max-num-seqs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu 0    H100"), std::string::npos) << r.out;
  auto bad = shell_test::run_shell(kBin + " top --sim no-such-scenario --once 2>&1");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("no-such-scenario"), std::string::npos) << bad.out;
  auto both = shell_test::run_shell(kBin + " top --sim ttft-spike-deep-queue --endpoint http://127.0.0.1:1 --once 2>&1");
  EXPECT_EQ(both.code, 2) << both.out;
  EXPECT_NE(both.out.find("found several"), std::string::npos) << both.out;
}
