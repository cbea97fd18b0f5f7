// `llmtriage top`'s frame model, rendering and session, from recorded expositions: rates from two
// scrapes' counters (never the reset-on-read gauges), quantiles from histogram deltas inside the
// window, llama.cpp's slots against /props, stale readings after a failed scrape, the keys.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <numeric>

#include "collect/live_loop.h"
#include "collect/live_render.h"
#include "collect/llamacpp_server.h"
#include "core/files.h"
#include "ingest/gpu_dcgm.h"
#include "ingest/metrics_engine.h"
#include "support/golden.h"

using namespace llmtriage;
using namespace llmtriage::collect;

namespace {

std::string data(const std::string& rel) {
  auto t = core::read_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/" + rel);
  EXPECT_TRUE(t) << rel;
  return t ? *t : std::string();
}

LiveScrape scrape_of(const std::string& text, double t) {
  LiveScrape s;
  s.metrics.t_s = t;
  s.metrics.source = "http://h/metrics";
  auto a = ingest::adapt_engine_metrics(text, t, {});
  EXPECT_TRUE(a);
  s.metrics.ok = true;
  s.metrics.engine_samples = a->samples;
  s.metrics.fetch_s = 0.004;
  s.engine = a->engine;
  s.engine_detected_by = a->detected_by;
  return s;
}

LiveScrape failed_scrape(double t, const std::string& why) {
  LiveScrape s;
  s.metrics.t_s = t;
  s.metrics.source = "http://h/metrics";
  s.metrics.error = why;
  return s;
}

// Replaces the value of one unlabelled series line ("name value").
std::string with_value(std::string text, const std::string& name, double v) {
  size_t p = text.find("\n" + name + " ");
  EXPECT_NE(p, std::string::npos) << name;
  size_t e = text.find('\n', p + 1);
  text.replace(p + 1, e - p - 1, name + " " + fmt::format("{}", v));
  return text;
}

// A vLLM V1 exposition with a TTFT histogram: `fast` observations at <= 0.1 s, `slow` in (0.5, 1].
std::string vllm(double running, double waiting, double gen_total, double fast, double slow) {
  double n = fast + slow;
  return fmt::format(
      "# TYPE vllm:num_requests_running gauge\n"
      "vllm:num_requests_running{{engine=\"0\",model_name=\"m\"}} {}\n"
      "vllm:num_requests_waiting{{engine=\"0\",model_name=\"m\"}} {}\n"
      "vllm:kv_cache_usage_perc{{engine=\"0\",model_name=\"m\"}} 0.5\n"
      "# TYPE vllm:generation_tokens_total counter\n"
      "vllm:generation_tokens_total{{engine=\"0\",model_name=\"m\"}} {}\n"
      "# TYPE vllm:time_to_first_token_seconds histogram\n"
      "vllm:time_to_first_token_seconds_bucket{{engine=\"0\",le=\"0.1\",model_name=\"m\"}} {}\n"
      "vllm:time_to_first_token_seconds_bucket{{engine=\"0\",le=\"0.5\",model_name=\"m\"}} {}\n"
      "vllm:time_to_first_token_seconds_bucket{{engine=\"0\",le=\"1.0\",model_name=\"m\"}} {}\n"
      "vllm:time_to_first_token_seconds_bucket{{engine=\"0\",le=\"+Inf\",model_name=\"m\"}} {}\n"
      "vllm:time_to_first_token_seconds_count{{engine=\"0\",model_name=\"m\"}} {}\n"
      "vllm:time_to_first_token_seconds_sum{{engine=\"0\",model_name=\"m\"}} {}\n",
      running, waiting, gen_total, fast, fast, n, n, n, 0.05 * fast + 0.75 * slow);
}

Snapshot llamacpp_base() {
  Snapshot b;
  b.endpoint = "http://h/metrics";
  auto p = parse_llamacpp_props(data("collect/llamacpp_b10470_props.json"), "http://h/props");
  EXPECT_TRUE(p);
  if (p) b.server = *p;
  return b;
}

std::string joined(const std::vector<std::string>& lines) {
  return std::accumulate(lines.begin(), lines.end(), std::string(), [](std::string a, const std::string& b) { return a + b + "\n"; });
}

}  // namespace

TEST(LiveView, LlamacppRatesFromCounterDifferencesNotTheResetOnReadGauges) {
  const std::string t0 = data("metrics/11_llamacpp_b10470_8parallel_4slots.prom");
  // Two seconds later: 1000 more prompt tokens evaluated, 800 more generated.
  std::string t1 = with_value(with_value(t0, "llamacpp:prompt_tokens_total", 3576), "llamacpp:tokens_predicted_total", 11040);
  LiveWindow w(llamacpp_base(), 60);
  LiveScrape a = scrape_of(t0, 100);
  auto sl = parse_llamacpp_slots(data("collect/llamacpp_b10470_slots_busy.json"), 102, "http://h/slots");
  ASSERT_TRUE(sl);
  w.add(std::move(a));
  LiveScrape b = scrape_of(t1, 102);
  b.slots = *sl;
  w.add(std::move(b));
  Frame f = compute_frame(w, 102.5);
  EXPECT_EQ(f.engine, "llamacpp");
  ASSERT_TRUE(f.prompt_tok_s && f.generation_tok_s);
  EXPECT_DOUBLE_EQ(*f.prompt_tok_s, 500);       // (3576 - 2576) / 2 s; the gauge says 602.773
  EXPECT_DOUBLE_EQ(*f.generation_tok_s, 400);   // (11040 - 10240) / 2 s; the gauge says 0
  EXPECT_DOUBLE_EQ(f.rate_window_s, 2);
  EXPECT_EQ(f.running, 4);
  EXPECT_EQ(f.waiting, 4);
  ASSERT_TRUE(f.concurrency_cap);
  EXPECT_EQ(*f.concurrency_cap, 4);             // /props total_slots
  EXPECT_EQ(f.cap_source, "slots (/props)");
  EXPECT_FALSE(f.kv_usage);                     // no KV gauge on this build
  ASSERT_EQ(f.slots.size(), sl->slots.size());
  EXPECT_TRUE(f.slots[0].busy);
  EXPECT_EQ(f.slots[0].prompt_tokens, 397);
  EXPECT_FALSE(f.stale);

  std::string text = joined(render_frame(f, {}));
  EXPECT_NE(text.find("running 4 / 4 (slots (/props))   waiting 4 (1x the concurrency)"), std::string::npos) << text;
  EXPECT_NE(text.find("prompt 500 tok/s   generation 400 tok/s"), std::string::npos) << text;
  EXPECT_NE(text.find("usage not exposed by llama.cpp"), std::string::npos) << text;
  EXPECT_NE(text.find("slot 0   busy  prompt 4/397"), std::string::npos) << text;
  EXPECT_EQ(text.find("STALE"), std::string::npos) << text;
}

TEST(LiveView, OneScrapeHasNoRates) {
  LiveWindow w(llamacpp_base(), 60);
  w.add(scrape_of(data("metrics/11_llamacpp_b10470_8parallel_4slots.prom"), 100));
  Frame f = compute_frame(w, 100);
  EXPECT_FALSE(f.prompt_tok_s);
  EXPECT_FALSE(f.generation_tok_s);
  EXPECT_NE(joined(render_frame(f, {})).find("(rates need two scrapes)"), std::string::npos);
}

TEST(LiveView, QuantilesFromTheHistogramDeltaInsideTheWindowOnly) {
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(vllm(8, 0, 0, 100, 0), 0));     // 100 fast requests before the window
  w.add(scrape_of(vllm(8, 0, 1000, 100, 0), 10)); // window starts here (20 - 15 = 5 s)
  w.add(scrape_of(vllm(8, 2, 3000, 100, 20), 20)); // 20 slow ones finished inside the window
  FrameOptions o;
  o.quantile_window_s = 15;
  o.rate_window_s = 5;
  Frame f = compute_frame(w, 20, o);
  ASSERT_EQ(f.latency.size(), 3u);
  const Quantiles& ttft = f.latency[0];
  EXPECT_EQ(ttft.name, "TTFT");
  EXPECT_EQ(ttft.count, 20);
  EXPECT_FALSE(ttft.since_start);
  ASSERT_TRUE(ttft.p50_s && ttft.p99_s);
  EXPECT_NEAR(*ttft.p50_s, 0.75, 1e-9);   // only the slow ones: 0.5 + 0.5 x 0.5
  EXPECT_NEAR(*ttft.p99_s, 0.995, 1e-9);
  EXPECT_DOUBLE_EQ(f.quantile_window_s, 10);
  // Rates over the last 5 s: fewer than two scrapes in it, so the last two (10 s apart).
  ASSERT_TRUE(f.generation_tok_s);
  EXPECT_DOUBLE_EQ(*f.generation_tok_s, 200);
  EXPECT_EQ(f.latency[1].count, 0);  // no ITL histogram exposed
}

TEST(LiveView, ALifetimeHistogramIsSaidToBeSinceStart) {
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(vllm(1, 0, 0, 10, 10), 0));
  Frame f = compute_frame(w, 0);
  EXPECT_TRUE(f.latency[0].since_start);
  EXPECT_NE(joined(render_frame(f, {})).find("(since the engine started)"), std::string::npos);
}

TEST(LiveView, DataParallelEnginesAddUp) {
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(data("metrics/synthetic_vllm_v1_0.11_two_models_dp2.prom"), 0));
  Frame f = compute_frame(w, 0);
  EXPECT_EQ(f.running, 12 + 9 + 2);
  EXPECT_EQ(f.waiting, 3);
  EXPECT_EQ(f.kv_usage, 0.61);  // the fullest pool
}

TEST(LiveView, AFailedScrapeKeepsTheLastGoodReadingsMarkedStale) {
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(vllm(8, 3, 0, 0, 0), 0));
  w.add(scrape_of(vllm(9, 4, 100, 0, 0), 1));
  w.add(failed_scrape(2, "http://h/metrics: no answer within 1 s (timeout)"));
  Frame f = compute_frame(w, 2.2);
  EXPECT_TRUE(f.stale);
  EXPECT_EQ(f.running, 9);
  EXPECT_EQ(f.scrapes_failed, 1);
  EXPECT_NE(f.last_error.find("timeout"), std::string::npos);
  std::string text = joined(render_frame(f, {}));
  EXPECT_NE(text.find("STALE: readings are 1.2"), std::string::npos) << text;
  EXPECT_NE(text.find("last scrape failed: http://h/metrics: no answer within 1 s (timeout)"), std::string::npos) << text;
  // The next good scrape clears it.
  w.add(scrape_of(vllm(9, 4, 200, 0, 0), 3));
  EXPECT_FALSE(compute_frame(w, 3).stale);
}

TEST(LiveView, NoGoodScrapeYetSaysNoData) {
  LiveWindow w(Snapshot{}, 60);
  w.add(failed_scrape(0, "status 500"));
  Frame f = compute_frame(w, 0);
  std::string text = joined(render_frame(f, {}));
  EXPECT_NE(text.find("NO DATA; last scrape failed: status 500"), std::string::npos) << text;
  EXPECT_NE(text.find("no good scrape yet"), std::string::npos) << text;
}

TEST(LiveView, TheWindowDropsScrapesOlderThanItKeeps) {
  LiveWindow w(Snapshot{}, 10);
  for (int t = 0; t <= 30; t += 5) w.add(scrape_of(vllm(1, 0, t * 10.0, 0, 0), t));
  ASSERT_EQ(w.snapshot().scrapes.size(), 3u);  // 20, 25, 30
  EXPECT_EQ(w.snapshot().scrapes.front().t_s, 20);
  EXPECT_EQ(w.recent(5).scrapes.size(), 2u);
}

TEST(LiveRender, LinesAreCutToTheWidthWithColoursKeptWhole) {
  LiveWindow w(Snapshot{}, 60);
  w.add(failed_scrape(0, std::string(300, 'x')));
  Frame f = compute_frame(w, 0);
  f.layers = {{"scheduling_capacity", "critical", std::string(200, 'y')}};
  for (const auto& l : render_frame(f, {40, false})) EXPECT_LE(l.size(), 40u) << l;
  for (const auto& l : render_frame(f, {40, true})) {
    size_t esc = 0;
    for (char c : l) esc += c == '\x1b';
    if (esc) {
      EXPECT_NE(l.find("\x1b[0m"), std::string::npos) << "colour left on: " << l;
    }
  }
}


TEST(TopSession, JudgesTheLayersEveryFewSecondsOnTheRecentWindow) {
  TopConfig cfg;
  cfg.judge_every_s = 3;
  cfg.frame.quantile_window_s = 15;
  int calls = 0;
  size_t last_scrapes = 0;
  TopSession s(Snapshot{}, cfg, [&](const Snapshot& recent) {
    ++calls;
    last_scrapes = recent.scrapes.size();
    return std::vector<LayerLine>{{"scheduling_capacity", "warning", "queue deep"}};
  });
  for (int t = 0; t < 7; ++t) s.on_scrape(scrape_of(vllm(1, 0, t, 0, 0), t), t);
  EXPECT_EQ(calls, 3);  // at 0, 3 and 6 s
  EXPECT_EQ(last_scrapes, 7u);
  s.on_scrape(failed_scrape(7, "timeout"), 10);  // a failed scrape changes no reading: no re-judgement
  EXPECT_EQ(calls, 3);
  Frame f = s.frame(10);
  ASSERT_EQ(f.layers.size(), 1u);
  EXPECT_DOUBLE_EQ(f.layers_age_s, 4);
  EXPECT_NE(joined(render_frame(f, {})).find("scheduling/capacity  warning    queue deep"), std::string::npos);
}

TEST(TopSession, KeysQuitPauseAndSnapshot) {
  auto dir = std::filesystem::temp_directory_path() / ("llmtriage-top-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  TopConfig cfg;
  cfg.snapshot_dir = dir.string();
  TopSession s(Snapshot{}, cfg, nullptr);
  EXPECT_EQ(s.on_key('s', 0), TopSession::KeyResult::redraw);
  EXPECT_NE(s.frame(0).message.find("nothing to write yet"), std::string::npos);
  s.on_scrape(scrape_of(vllm(5, 1, 0, 0, 0), 1000), 1000);
  EXPECT_EQ(s.on_key('p', 1000), TopSession::KeyResult::redraw);
  s.on_scrape(scrape_of(vllm(7, 2, 10, 0, 0), 1001), 1001);
  Frame paused = s.frame(1001);
  EXPECT_TRUE(paused.paused);
  EXPECT_EQ(paused.running, 5);  // frozen at the pause
  EXPECT_EQ(s.on_key('p', 1001), TopSession::KeyResult::redraw);
  EXPECT_EQ(s.frame(1001).running, 7);
  EXPECT_EQ(s.on_key('s', 1001), TopSession::KeyResult::redraw);
  std::string msg = s.frame(1001).message;
  size_t at = msg.find(" written to ");
  ASSERT_NE(at, std::string::npos) << msg;
  auto snap = read_snapshot(msg.substr(at + 12));
  ASSERT_TRUE(snap) << msg;
  EXPECT_EQ(snap->scrapes.size(), 2u);
  EXPECT_EQ(s.on_key('x', 1001), TopSession::KeyResult::ignored);
  EXPECT_EQ(s.on_key('q', 1001), TopSession::KeyResult::quit);
  std::filesystem::remove_all(dir);
}

TEST(LiveView, LlamacppDecodingNowFromSlotsWhileTheCountersWaitForTheEnd) {
  const std::string prom = data("metrics/11_llamacpp_b10470_8parallel_4slots.prom");
  LiveWindow w(llamacpp_base(), 60);
  auto slot = [](int id, int64_t decoded) {
    SlotState s;
    s.id = id;
    s.n_ctx = 2048;
    s.processing = true;
    s.n_decoded = decoded;
    return s;
  };
  LiveScrape a = scrape_of(prom, 100);
  a.slots = SlotsSample{100, {slot(0, 100), slot(1, 300)}};
  LiveScrape b = scrape_of(prom, 102);  // the same counters: no request ended
  b.slots = SlotsSample{102, {slot(0, 160), slot(1, 20)}};  // slot 1 finished and started a new task
  w.add(std::move(a));
  w.add(std::move(b));
  Frame f = compute_frame(w, 102);
  ASSERT_TRUE(f.generation_tok_s);
  EXPECT_EQ(*f.generation_tok_s, 0);
  ASSERT_TRUE(f.slots_decode_tok_s);
  EXPECT_DOUBLE_EQ(*f.slots_decode_tok_s, (60 + 20) / 2.0);
  std::string text = joined(render_frame(f, {}));
  EXPECT_NE(text.find("decoding now 40 tok/s in the slots"), std::string::npos) << text;
  EXPECT_NE(text.find("latency  no latency histograms exported by llamacpp"), std::string::npos) << text;
}

TEST(LiveView, GpuRowsFromDcgmSayClockPowerAndThrottleFirst) {
  LiveWindow w(Snapshot{}, 60);
  LiveScrape s = scrape_of(vllm(1, 0, 0, 0, 0), 10);
  s.gpu_source = "dcgm";
  s.gpus = ingest::gpu_samples_from_exposition(data("metrics/synthetic_dcgm_full.prom"), 10).gpus;
  ASSERT_FALSE(s.gpus.empty());
  w.add(std::move(s));
  Frame f = compute_frame(w, 10);
  ASSERT_FALSE(f.gpus.empty());
  std::string text = joined(render_frame(f, {}));
  size_t at = text.find("gpu 0    ");
  ASSERT_NE(at, std::string::npos) << text;
  std::string row = text.substr(at, text.find('\n', at) - at);
  EXPECT_NE(row.find(" SM "), std::string::npos) << row;
  EXPECT_LT(row.find(" MHz  power "), row.find("  throttle ")) << row;
  EXPECT_EQ(row.find("NVIDIA "), std::string::npos) << row;
}

// sim serve at a time scale exports llmtriage_sim_time_scale: its counters run on the virtual
// clock, so the frame's rates are per virtual second and its windows virtual spans, as its
// latencies are (its histograms record virtual seconds).
TEST(LiveView, SimServeAtATimeScaleReadsPerVirtualSecond) {
  const std::string gauge =
      "# HELP llmtriage_sim_time_scale Virtual seconds per wall second\n# TYPE llmtriage_sim_time_scale gauge\n"
      "llmtriage_sim_time_scale 10\n";
  LiveWindow w(Snapshot{}, 60);
  LiveScrape a = scrape_of(vllm(8, 0, 0, 10, 0), 100);
  a.metrics.raw = vllm(8, 0, 0, 10, 0) + gauge;
  LiveScrape b = scrape_of(vllm(8, 0, 1000, 20, 0), 102);
  b.metrics.raw = vllm(8, 0, 1000, 20, 0) + gauge;
  ASSERT_EQ(sim_time_scale(b.metrics), 10);
  w.add(std::move(a));
  w.add(std::move(b));
  Frame f = compute_frame(w, 102.5);
  ASSERT_TRUE(f.time_scale && f.generation_tok_s);
  EXPECT_DOUBLE_EQ(*f.generation_tok_s, 50);  // 1000 tokens in 2 wall s = 20 virtual s
  EXPECT_DOUBLE_EQ(f.rate_window_s, 20);
  EXPECT_DOUBLE_EQ(f.quantile_window_s, 20);
  EXPECT_EQ(to_json(f)["time_scale"], 10);
  const std::string text = joined(render_frame(f, {}));
  EXPECT_NE(text.find("clock    simulated engine at 10x wall time"), std::string::npos) << text;
  EXPECT_NE(text.find("generation 50 tok/s"), std::string::npos) << text;

  // The layer judgement's snapshot: times stretched from the first scrape.
  Snapshot v = on_virtual_clock(w.recent(60));
  ASSERT_EQ(v.scrapes.size(), 2u);
  EXPECT_DOUBLE_EQ(v.scrapes[0].t_s, 100);
  EXPECT_DOUBLE_EQ(v.scrapes[1].t_s, 120);
  ASSERT_FALSE(v.scrapes[1].engine_samples.empty());
  EXPECT_DOUBLE_EQ(v.scrapes[1].engine_samples[0].t_s, 120);  // the rules' rates read these
}

TEST(LiveView, ARealEngineHasNoTimeScale) {
  ScrapeRecord r;
  r.ok = true;
  r.raw = vllm(1, 0, 0, 1, 0);
  EXPECT_FALSE(sim_time_scale(r));
  r.raw += "# HELP llmtriage_sim_time_scale x\nllmtriage_sim_time_scale_other 3\nllmtriage_sim_time_scale 1\n";
  EXPECT_FALSE(sim_time_scale(r));  // the wall clock: nothing to convert
  r.ok = false;
  r.raw = "llmtriage_sim_time_scale 5\n";
  EXPECT_FALSE(sim_time_scale(r));  // a failed scrape says nothing
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(vllm(8, 0, 0, 10, 0), 100));
  w.add(scrape_of(vllm(8, 0, 1000, 20, 0), 102));
  Frame f = compute_frame(w, 102.5);
  EXPECT_FALSE(f.time_scale);
  EXPECT_DOUBLE_EQ(*f.generation_tok_s, 500);
  EXPECT_EQ(on_virtual_clock(w.recent(60)).scrapes[1].t_s, 102);
}

// Beside the main window, the p99 over a shorter and a longer span (each over the scrapes it
// really covers); and each interval's rates as braille sparklines over the kept window.
TEST(LiveView, P99OverOtherWindowsAndRateSparklines) {
  LiveWindow w(Snapshot{}, 60);
  w.add(scrape_of(vllm(8, 0, 0, 100, 0), 0));       // 100 fast requests
  w.add(scrape_of(vllm(8, 0, 1000, 100, 0), 10));
  w.add(scrape_of(vllm(8, 2, 3000, 100, 20), 20));  // 20 slow ones in (10, 20]
  FrameOptions o;
  o.quantile_window_s = 15;
  o.p99_windows_s = {5, 60};
  Frame f = compute_frame(w, 20, o);
  const Quantiles& ttft = f.latency[0];
  ASSERT_EQ(ttft.p99_by_window.size(), 2u);
  EXPECT_FALSE(ttft.p99_by_window[0].p99_s);             // 5 s: one scrape inside, no difference
  EXPECT_DOUBLE_EQ(ttft.p99_by_window[0].window_s, 5);
  ASSERT_TRUE(ttft.p99_by_window[1].p99_s);              // 60 s: all three scrapes (20 s of them)
  EXPECT_DOUBLE_EQ(ttft.p99_by_window[1].window_s, 20);
  EXPECT_NEAR(*ttft.p99_by_window[1].p99_s, 0.995, 1e-9);  // the 20 slow ones finished since the first scrape
  ASSERT_EQ(f.generation_tok_s_history.size(), 2u);
  EXPECT_DOUBLE_EQ(f.generation_tok_s_history[0], 100);  // 1000 tokens over (0, 10]
  EXPECT_DOUBLE_EQ(f.generation_tok_s_history[1], 200);
  EXPECT_TRUE(f.prompt_tok_s_history.empty());          // no prompt counter: no made-up zeros
  EXPECT_DOUBLE_EQ(f.history_s, 20);
  const std::string text = joined(render_frame(f, {}));
  // Half height then full: left column 2 dots (0x40|0x04), right 4 (0x80|0x20|0x10|0x08) = U+28FC.
  EXPECT_NE(text.find("last 20 s    prompt -   generation \u28fc (peak 200)"), std::string::npos) << text;
  EXPECT_NE(text.find("p99 5 s"), std::string::npos) << text;
  EXPECT_NE(text.find("p99 20 s"), std::string::npos) << text;
  const auto j = to_json(f);
  EXPECT_EQ(j["latency"]["TTFT"]["p99_by_window"].size(), 2u);
  EXPECT_EQ(j["rates"]["history"]["generation_tok_s"].size(), 2u);
}

TEST(TopSession, EExplainsTheScreenAndHidesItAgain) {
  TopSession s(Snapshot{}, TopConfig{}, nullptr);
  s.on_scrape(scrape_of(vllm(5, 1, 0, 0, 0), 1000), 1000);
  EXPECT_EQ(joined(render_frame(s.frame(1000), {})).find("explain  (e hides this)"), std::string::npos);
  EXPECT_EQ(s.on_key('e', 1000), TopSession::KeyResult::redraw);
  const std::string shown = joined(render_frame(s.frame(1000), {}));
  EXPECT_NE(shown.find("explain  (e hides this)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("preemptions/s from the counter"), std::string::npos) << shown;
  EXPECT_NE(shown.find("e hide the explanation"), std::string::npos) << shown;
  EXPECT_EQ(s.on_key('e', 1000), TopSession::KeyResult::redraw);
  EXPECT_EQ(joined(render_frame(s.frame(1000), {})).find("explain  (e hides this)"), std::string::npos);
}

// Golden frames: a fixed sequence of scrapes (a queue building over 20 s, then a slow batch) and
// fixed layer lines, rendered as a person reads them, against tests/data/collect/top_frames.txt
// (LLMTRIAGE_UPDATE_GOLDEN=1 rewrites it; look at the difference before committing it). Guards
// the whole screen's layout: columns, sparklines, p99 windows, the fix line, the explanation.
TEST(LiveRender, GoldenFramesForAFixedSequenceOfScrapes) {
  TopConfig cfg;
  cfg.frame.quantile_window_s = 15;
  cfg.frame.rate_window_s = 5;
  TopSession s(Snapshot{}, cfg, [](const Snapshot&) {
    return std::vector<LayerLine>{
        {"load", "clear", "input_len_mean 1500 tokens, output_len_mean 300 tokens", ""},
        {"scheduling_capacity", "warning", "Running batch at its cap (max-num-seqs): requests queue for a slot (waiting_p50 40 requests >= 10 requests)",
         "max-num-seqs 64 -> 128: more sequences per step while the KV pool has room (qualitative)"},
        {"operator_hardware", "not judged", "no GPU telemetry: give --dcgm URL, or run top on the GPU's host", ""},
        {"numeric_parameter", "not judged", "no sampled outputs", ""},
        {"gateway_client", "not judged", "no client-side evidence", ""}};
  });
  std::string frames;
  for (int t = 0; t <= 20; ++t) {
    const double waiting = 2.0 * t, fast = 10.0 * t, slow = t > 10 ? 3.0 * (t - 10) : 0;
    s.on_scrape(scrape_of(vllm(64, waiting, 400.0 * t + 20.0 * t * t, fast, slow), 1000 + t), 1000 + t);
    if (t == 5 || t == 20) {
      RenderOptions ro;
      ro.width = 120;
      frames += "--- t = " + std::to_string(t) + " s\n" + joined(render_frame(s.frame(1000 + t), ro));
    }
  }
  s.on_key('e', 1020);
  RenderOptions ro;
  ro.width = 100;
  frames += "--- e, 100 columns\n" + joined(render_frame(s.frame(1020), ro));
  golden::expect_file(std::string(LLMTRIAGE_TEST_DATA_DIR) + "/collect/top_frames.txt", frames, "the screen");
}
