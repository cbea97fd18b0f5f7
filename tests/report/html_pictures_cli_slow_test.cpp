// The pictures of one command's own result, black-box: `ledger --html` (the waterfall),
// `ab --html` (the delta board), `capacity --html` (the curve) and `bench --html` (the run's CDFs,
// as `report` draws its folder), the last two against `llmtriage sim serve`.
// Each page carries its SVG, and its embedded JSON reads back as the numbers the same run printed
// with --json; a page that cannot be written exits 2 with one JSON document carrying the error.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <thread>

namespace {

namespace fs = std::filesystem;

const std::string kBenchRun = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/diagnose_cli/bench_run";
const std::string kVllmLog = std::string(LLMTRIAGE_TEST_DATA_DIR) + "/ledger/vllm-0.19-llama-3.1-8b-32k.log";
const std::string kLedgerArgs = "ledger --model meta-llama/Llama-3.1-8B-Instruct --gpu H100-SXM --max-model-len 32768 ";

struct PicturesOutcome {
  int code = -1;
  std::string out, err;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class PicturesCli : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("llmtriage-pictures-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  PicturesOutcome run(const std::string& args) {
    const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
    const std::string cmd = "cd '" + dir_.string() + "' && '" + std::string(LLMTRIAGE_BINARY) + "' " + args + " >'" +
                            out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(out), read_all(err)};
  }

  static nlohmann::json embedded(const std::string& html) {
    const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
    const size_t a = html.find(open), b = html.find("</script>", a);
    if (a == std::string::npos || b == std::string::npos) return nullptr;
    return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
  }

  // The inline SVG of class `cls`, from its opening tag to its end ("" when absent).
  static std::string svg_of(const std::string& html, const std::string& cls) {
    const size_t a = html.find("<svg class=\"chart " + cls);
    if (a == std::string::npos) return "";
    const size_t b = html.find("</svg>", a);
    return b == std::string::npos ? "" : html.substr(a, b + 6 - a);
  }

  // A page that cannot be written: exit 2, and with --json one document, the result's own keys
  // and the error naming the file.
  void expect_unwritable(const std::string& args, const char* result_key) {
    const PicturesOutcome r = run(args + " --html /nonexistent/dir/p.html --json");
    EXPECT_EQ(r.code, 2) << r.err;
    const auto doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << "one JSON document expected:\n" << r.out;
    ASSERT_TRUE(doc.contains("error")) << r.out;
    EXPECT_NE(doc["error"].get<std::string>().find("/nonexistent/dir/p.html"), std::string::npos) << r.out;
    EXPECT_EQ(doc["exit_code"], 2);
    EXPECT_TRUE(doc.contains(result_key)) << r.out;
  }

  fs::path dir_;
};

// diagnose --html draws the ledger the diagnosis consults (its evidence: the startup log, the
// model and GPU named), the same numbers `ledger` computes for that deployment with the log's
// numbers as ticks; --svg writes the waterfall as a standalone, well-formed SVG file.
TEST_F(PicturesCli, DiagnoseHtmlDrawsItsLedgerAndSvgWritesEachChart) {
  const PicturesOutcome l = run(kLedgerArgs + "--from-log '" + kVllmLog + "' --json");
  ASSERT_EQ(l.code, 0) << l.err;
  const auto lj = nlohmann::json::parse(l.out);
  const PicturesOutcome r = run("diagnose --log '" + kVllmLog + "' --model meta-llama/Llama-3.1-8B-Instruct --gpu H100-SXM "
                        "--html d.html --svg svgs --json");
  ASSERT_NE(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("SVG chart(s) written to svgs: ledger-waterfall.svg"), std::string::npos) << r.err;
  const auto d = embedded(read_all(dir_ / "d.html"));
  ASSERT_TRUE(d["ledger"].is_object()) << d["notes"].dump();
  std::map<std::string, nlohmann::json> blocks;
  for (const auto& b : d["ledger"]["blocks"]) blocks[b["key"].get<std::string>()] = b;
  for (const char* k : {"weights_gib", "kv_cache_gib"}) {
    ASSERT_TRUE(blocks.count(k)) << k;
    EXPECT_NEAR(blocks[k]["gib"].get<double>(), lj[k].get<double>(), 0.006) << k;
    EXPECT_TRUE(blocks[k]["measured_gib"].is_number()) << k << ": the log's number as a tick";
  }
  const std::string svg = read_all(dir_ / "svgs" / "ledger-waterfall.svg");
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  if (std::system("command -v xmllint >/dev/null 2>&1") == 0) {
    EXPECT_EQ(std::system(("xmllint --noout '" + (dir_ / "svgs" / "ledger-waterfall.svg").string() + "'").c_str()), 0);
  }
}

TEST_F(PicturesCli, LedgerWaterfallCarriesTheLedgerAndTheLogsNumbers) {
  const PicturesOutcome r = run(kLedgerArgs + "--from-log '" + kVllmLog + "' --html ledger.html --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("HTML report written to ledger.html"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string html = read_all(dir_ / "ledger.html");
  const std::string svg = svg_of(html, "ledger-waterfall");
  ASSERT_FALSE(svg.empty()) << "no waterfall SVG";
  EXPECT_NE(svg.find("<rect"), std::string::npos);
  EXPECT_NE(svg.find("Weights"), std::string::npos);
  EXPECT_NE(svg.find("KV pool"), std::string::npos);
  const auto d = embedded(html);
  ASSERT_TRUE(d.is_object());
  const auto& l = d["ledger"];
  ASSERT_TRUE(l.is_object()) << d.dump();
  // --json rounds to 0.01 GiB; the page carries the unrounded value.
  EXPECT_NEAR(l["total_gib"].get<double>(), j["total_gib"].get<double>(), 0.006);
  EXPECT_NEAR(l["usable_gib"].get<double>(), j["usable_gib"].get<double>(), 0.006);
  std::map<std::string, nlohmann::json> blocks;
  for (const auto& b : l["blocks"]) blocks[b["key"].get<std::string>()] = b;
  for (const char* k : {"weights_gib", "cuda_graph_gib", "activation_gib", "non_torch_gib", "kv_cache_gib"}) {
    ASSERT_TRUE(blocks.count(k)) << k << " " << l.dump();
    EXPECT_NEAR(blocks[k]["gib"].get<double>(), j[k].get<double>(), 0.006) << k;
  }
  // The waterfall: each usable block starts where the previous ended; the pool fills the rest.
  double at = 0;
  for (const auto& b : l["blocks"]) {
    if (b["in_headroom"].get<bool>()) continue;
    EXPECT_NEAR(b["start_gib"].get<double>(), at, 1e-9) << b.dump();
    at += b["gib"].get<double>();
  }
  EXPECT_NEAR(at + l["left_gib"].get<double>(), l["usable_gib"].get<double>(), 1e-9);
  // The engine's own numbers, as the log comparison printed them.
  for (const auto& c : j["from_log"]["comparison"]) {
    const std::string key = c["key"] == "peak_activation_gib" ? "activation_gib" : c["key"].get<std::string>();
    if (!blocks.count(key)) continue;
    EXPECT_DOUBLE_EQ(blocks[key]["measured_gib"].get<double>(), c["engine"].get<double>()) << key;
  }
  EXPECT_NE(svg.find("ledger-measured"), std::string::npos) << "the log's numbers are drawn";
  EXPECT_EQ(l["verdict"], j["verdict"]);
  EXPECT_EQ(l["measured_source"], kVllmLog);
  // Without the log: no markers, and the text output is unchanged by --html.
  const PicturesOutcome plain = run(kLedgerArgs + "--html plain.html");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.out, run(kLedgerArgs).out);
  EXPECT_EQ(svg_of(read_all(dir_ / "plain.html"), "ledger-waterfall").find("ledger-measured"), std::string::npos);
  expect_unwritable(kLedgerArgs, "total_gib");
  const PicturesOutcome text = run(kLedgerArgs + "--html /nonexistent/dir/p.html");
  EXPECT_EQ(text.code, 2);
  EXPECT_NE(text.out.find("Weights"), std::string::npos) << "the ledger is still printed";
  EXPECT_NE(text.err.find("/nonexistent/dir/p.html"), std::string::npos) << text.err;
}

TEST_F(PicturesCli, AbDeltaBoardCarriesEveryMetricAsAbJsonPrintsIt) {
  const PicturesOutcome r = run("ab '" + kBenchRun + "' '" + kBenchRun + "' --html ab.html --json");
  ASSERT_NE(r.code, 2) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const std::string html = read_all(dir_ / "ab.html");
  const std::string svg = svg_of(html, "ab-board");
  ASSERT_FALSE(svg.empty()) << "no delta board";
  EXPECT_NE(svg.find("ab-whisker"), std::string::npos);
  EXPECT_EQ(html.find("delta board is not drawn"), std::string::npos);
  const auto d = embedded(html);
  const auto& ab = d["ab"];
  ASSERT_TRUE(ab.is_object()) << d.dump();
  EXPECT_EQ(ab["verdict_given"], j["verdict_given"]);
  EXPECT_EQ(ab["variable"], "no setting differs");
  ASSERT_EQ(ab["metrics"].size(), j["metrics"].size());
  ASSERT_GT(ab["metrics"].size(), 0u);
  for (size_t i = 0; i < ab["metrics"].size(); ++i) {
    const auto &m = ab["metrics"][i], &e = j["metrics"][i];
    EXPECT_EQ(m["metric"], e["metric"]);
    for (auto [k, ek] : {std::pair{"a", "a"}, {"b", "b"}, {"diff", "diff"}, {"lo", "ci_low"}, {"hi", "ci_high"}})
      EXPECT_DOUBLE_EQ(m[k].get<double>(), e[ek].get<double>()) << m["metric"] << " " << k;
    if (j["verdict_given"].get<bool>()) {
      EXPECT_EQ(m["verdict"], e["verdict"]);
    }
  }
  // The same folder on both sides: the metrics' own quantities, no difference.
  EXPECT_NE(svg.find("no significant change"), std::string::npos);
  expect_unwritable("ab '" + kBenchRun + "' '" + kBenchRun + "'", "metrics");
}

// `llmtriage sim serve` in the background on a free port (this test binary links no HTTP client,
// so not tests/support's ServeProcess): its URL read from its output, SIGTERM at the end.
class SimServer {
 public:
  explicit SimServer(const fs::path& dir) {
    const fs::path out = dir / "serve.out", pid = dir / "serve.pid";
    const std::string cmd = "'" + std::string(LLMTRIAGE_BINARY) + "' sim serve --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 "
                            "--kv-cache-tokens 200000 --max-model-len 4096 --time-scale 20 --port 0 >'" + out.string() +
                            "' 2>&1 & echo $! >'" + pid.string() + "'";
    if (std::system(cmd.c_str()) != 0) return;
    pid_ = std::atoi(read_all(pid).c_str());
    const std::string mark = "listening on ";
    for (int i = 0; i < 600 && url_.empty(); ++i) {
      const std::string text = read_all(out);
      if (const size_t a = text.find(mark); a != std::string::npos) {
        const size_t b = text.find_first_of(" \n", a + mark.size());
        if (b != std::string::npos) url_ = text.substr(a + mark.size(), b - a - mark.size());
      }
      if (url_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ~SimServer() {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
  }
  const std::string& url() const { return url_; }

 private:
  int pid_ = -1;
  std::string url_;
};

TEST_F(PicturesCli, CapacityCurveCarriesTheSearchAsCapacityJsonPrintsIt) {
  SimServer srv(dir_);
  ASSERT_FALSE(srv.url().empty()) << read_all(dir_ / "serve.out");
  const std::string args = "capacity --endpoint " + srv.url() + " --model meta-llama/Llama-3.1-8B-Instruct --input-len 16 --output-len 4 --num-requests 8 "
                           "--by rate --start 2 --trials 1 --max-points 3 --slo ttft=5s,tpot=1s --scrape-interval 0 ";
  const PicturesOutcome r = run(args + "--html cap.html --json");
  ASSERT_NE(r.code, 2) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const std::string html = read_all(dir_ / "cap.html");
  const std::string svg = svg_of(html, "capacity");
  ASSERT_FALSE(svg.empty()) << "no capacity curve";
  EXPECT_NE(svg.find("<circle"), std::string::npos);
  EXPECT_NE(svg.find("TTFT SLO 5000 ms"), std::string::npos);
  const auto d = embedded(html);
  const auto& c = d["capacity"];
  ASSERT_TRUE(c.is_object()) << d.dump();
  EXPECT_EQ(c["capacity"], j["capacity"]);
  EXPECT_EQ(c["by"], "rate");
  ASSERT_EQ(c["curve"].size(), j["curve"].size());
  ASSERT_GT(c["curve"].size(), 0u);
  for (size_t i = 0; i < c["curve"].size(); ++i) {
    const auto &p = c["curve"][i], &e = j["curve"][i];
    for (const char* k : {"load", "attainment_pct", "goodput_rps", "ttft_p99_ms", "tpot_p99_ms"})
      EXPECT_DOUBLE_EQ(p[k].get<double>(), e[k].get<double>()) << i << " " << k;
    EXPECT_EQ(p["pass"], e["pass"]);
    EXPECT_TRUE(p["realized_load"].is_number()) << "a rate search knows the rate it really sent at";
  }
  if (!j["capacity"].is_null()) {
    EXPECT_NE(svg.find("cap-answer"), std::string::npos);
  }
  expect_unwritable(args, "curve");
}

TEST_F(PicturesCli, BenchDrawsItsRunAsReportDrawsTheFolder) {
  SimServer srv(dir_);
  ASSERT_FALSE(srv.url().empty()) << read_all(dir_ / "serve.out");
  const std::string args = "bench --endpoint " + srv.url() + " --model meta-llama/Llama-3.1-8B-Instruct --input-len 16 --output-len 4 "
                           "--num-requests 12 --rate 50 --slo ttft=5s --scrape-interval 0.05 ";
  const PicturesOutcome r = run(args + "--out run --html bench.html --json");
  ASSERT_NE(r.code, 2) << r.err << r.out;
  EXPECT_NE(r.err.find("HTML report written to bench.html"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string html = read_all(dir_ / "bench.html");
  const std::string svg = svg_of(html, "cdf cdf-ttft_s");
  ASSERT_FALSE(svg.empty()) << "no TTFT CDF";
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  const auto d = embedded(html);
  ASSERT_EQ(d["latency"]["runs"].size(), 1u) << d.dump();
  const auto& run0 = d["latency"]["runs"][0];
  EXPECT_EQ(run0["requests"], 12);
  EXPECT_EQ(run0["metrics"]["ttft_s"]["count"], j["completed"]);
  EXPECT_NEAR(run0["metrics"]["ttft_s"]["p99"].get<double>() * 1e3, j["ttft_ms"]["p99"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(d["latency"]["slo"]["ttft_s"].get<double>(), 5.0) << "the run's SLO is the CDF's line";
  // The page is drawn from the folder: --html without --out is refused before anything is sent.
  const PicturesOutcome no_out = run(args + "--html x.html");
  EXPECT_EQ(no_out.code, 2);
  EXPECT_NE(no_out.err.find("--out"), std::string::npos) << no_out.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.html"));
  expect_unwritable(args + "--out run2", "completed");
}

}  // namespace
