// The timeline's derived lanes (html_timeline.cpp): TTFT decomposed per scrape interval (queue,
// prefill, the rest of the server's TTFT, client minus server), KV demand against the pool,
// events (restarts, failed requests per interval) and throttle-reason bands on the clock lane.
// Each is drawn where its data exist, with the numbers in the embedded JSON, and said in "Not
// drawn" otherwise.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "report/html_report.h"

namespace llmtriage::report {
namespace {

nlohmann::json timeline_json(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"llmtriage-data\">";
  const size_t a = html.find(open), b = html.find("</script>", a);
  return nlohmann::json::parse(html.substr(a + open.size(), b - a - open.size()));
}

const nlohmann::json* series(const nlohmann::json& d, const std::string& id) {
  for (const auto& s : d["timeline"]["series"])
    if (s["id"] == id) return &s;
  return nullptr;
}

// n observations all at v (one bucket layout for every histogram here).
core::Histogram at(double v, double n) {
  core::Histogram h;
  for (double b : {0.05, 0.1, 0.5, 1.0, 5.0, 100.0, 1000.0, 10000.0}) {
    h.upper_bounds.push_back(b);
    h.cumulative_counts.push_back(v <= b ? n : 0);
  }
  h.upper_bounds.push_back(INFINITY);
  h.cumulative_counts.push_back(n);
  h.sum = v * n;
  h.count = n;
  return h;
}

constexpr double kT0 = 1'700'000'000;

// Six scrapes 10 s apart, 10 requests' first tokens per interval: queue 0.2 s, prefill 0.1 s,
// server TTFT 0.35 s; prompts 1000 tokens, outputs 200; a pool of 100k tokens.
TimelineData readings() {
  TimelineData t;
  t.source = "snap.json";
  for (int i = 0; i < 6; ++i) {
    core::EngineSample s;
    s.t_s = kT0 + 10.0 * i;
    s.running = 20;
    s.waiting = i >= 3 ? 40 : 0;
    s.kv_usage = 0.5;
    s.kv_cache_capacity_tokens = 100000;
    s.preemptions_total = i >= 4 ? 5.0 * (i - 3) : 0;
    s.generation_tokens_total = 1000.0 * i;
    s.ttft_s = at(0.35, 10.0 * i);
    s.queue_s = at(0.2, 10.0 * i);
    s.prefill_s = at(0.1, 10.0 * i);
    s.prompt_tokens = at(1000, 10.0 * i);
    s.output_tokens = at(200, 10.0 * i);
    t.engine.push_back(s);
  }
  return t;
}

TEST(HtmlTimelineLanes, TtftDecomposedIntoQueuePrefillRestAndClientMinusServer) {
  HtmlReport h;
  h.timeline = readings();
  // Client TTFTs of 0.5 s, first tokens inside the second interval (10, 20] only.
  for (int k = 0; k < 4; ++k) h.timeline->requests.push_back({kT0 + 12 + k, 0.5});
  const std::string html = render_html(h);
  EXPECT_NE(html.find("id=\"lane-ttft_parts\""), std::string::npos);
  const auto d = timeline_json(html);
  const auto* q = series(d, "ttft_queue_mean");
  const auto* pf = series(d, "ttft_prefill_mean");
  const auto* gw = series(d, "ttft_client_minus_server");
  ASSERT_TRUE(q && pf && gw);
  EXPECT_EQ((*q)["v"].size(), 5u) << "one mean per interval";
  EXPECT_NEAR((*q)["v"][0].get<double>(), 0.2, 1e-12);
  EXPECT_NEAR((*pf)["v"][0].get<double>(), 0.1, 1e-12);
  ASSERT_EQ((*gw)["v"].size(), 1u) << "only where the client has first tokens";
  EXPECT_NEAR((*gw)["t_s"][0].get<double>(), 20, 1e-12);
  EXPECT_NEAR((*gw)["v"][0].get<double>(), 0.15, 1e-12);
  EXPECT_NE(html.find("client/gateway 150 ms"), std::string::npos) << "each segment's tooltip";
  EXPECT_NE(html.find("rest of the server&#39;s TTFT 50 ms"), std::string::npos);
}

TEST(HtmlTimelineLanes, NoQueueOrPrefillHistogramNoDecompositionAndSaysWhy) {
  HtmlReport h;
  h.timeline = readings();
  for (auto& s : h.timeline->engine) s.queue_s = s.prefill_s = core::Histogram{};
  const std::string html = render_html(h);
  EXPECT_EQ(html.find("id=\"lane-ttft_parts\""), std::string::npos);
  EXPECT_NE(html.find("no TTFT decomposition"), std::string::npos);
}

TEST(HtmlTimelineLanes, KvDemandIsConcurrencyTimesLengthAgainstThePool) {
  HtmlReport h;
  h.timeline = readings();
  const std::string html = render_html(h);
  EXPECT_NE(html.find("id=\"lane-kv_demand\""), std::string::npos);
  const auto d = timeline_json(html);
  const auto* demand = series(d, "kv_demand_tokens");
  const auto* pool = series(d, "kv_capacity_tokens");
  const auto* used = series(d, "kv_used_tokens");
  ASSERT_TRUE(demand && pool && used);
  EXPECT_DOUBLE_EQ((*demand)["v"][0].get<double>(), 20 * 1200.0);
  EXPECT_DOUBLE_EQ((*demand)["v"].back().get<double>(), 60 * 1200.0);
  EXPECT_DOUBLE_EQ((*pool)["v"][0].get<double>(), 100000);
  EXPECT_DOUBLE_EQ((*used)["v"][0].get<double>(), 50000);
  EXPECT_DOUBLE_EQ(d["timeline"]["preemptions"][0]["per_s"].get<double>(), 0.5) << "5 preemptions over 10 s";
  // Without the pool's size: not drawn, and said.
  for (auto& s : h.timeline->engine) s.kv_cache_capacity_tokens.reset();
  const std::string without = render_html(h);
  EXPECT_EQ(without.find("id=\"lane-kv_demand\""), std::string::npos);
  EXPECT_NE(without.find("no KV demand against capacity (the pool&#39;s size in tokens is not in the readings"), std::string::npos);
}

TEST(HtmlTimelineLanes, EventsRestartsAndFailuresPerInterval) {
  HtmlReport h;
  h.timeline = readings();
  // The engine restarted between 30 s and 40 s: its counters start again from zero.
  for (size_t i = 4; i < 6; ++i) {
    auto& s = h.timeline->engine[i];
    s.generation_tokens_total = 100.0 * static_cast<double>(i - 4);
    s.ttft_s = at(0.35, 3.0 * static_cast<double>(i - 4));
  }
  // Failures: two 503s and a timeout in (10, 20], one before the readings.
  h.timeline->failures = {{kT0 + 11, 1.0, "http_503"}, {kT0 + 15, std::nullopt, "http_503"}, {kT0 + 12, 5.0, "timeout_ttfb"},
                          {kT0 - 30, 1.0, "http_503"}};
  const std::string html = render_html(h);
  EXPECT_NE(html.find("id=\"lane-events\""), std::string::npos);
  const auto d = timeline_json(html);
  ASSERT_EQ(d["timeline"]["restarts_s"].size(), 1u);
  EXPECT_DOUBLE_EQ(d["timeline"]["restarts_s"][0].get<double>(), 40);
  ASSERT_EQ(d["timeline"]["failed"].size(), 1u);
  EXPECT_DOUBLE_EQ(d["timeline"]["failed"][0]["from_s"].get<double>(), 10);
  EXPECT_EQ(d["timeline"]["failed"][0]["errors"], 2);
  EXPECT_EQ(d["timeline"]["failed"][0]["timeouts"], 1);
  EXPECT_NE(html.find("1 failed request(s) outside the readings"), std::string::npos);
  EXPECT_NE(html.find("class=\"restart-line\""), std::string::npos);
  // No TTFT rate across the restart either: the TTFT decomposition skips that interval.
  for (const auto& s : d["timeline"]["series"]) {
    if (s["id"] == "ttft_server_mean") {
      for (const auto& t : s["t_s"]) {
        EXPECT_NE(t.get<double>(), 40);
      }
    }
  }
}

TEST(HtmlTimelineLanes, ThrottleReasonBandsOnTheClockLane) {
  HtmlReport h;
  h.timeline = readings();
  for (int i = 0; i < 6; ++i) {
    core::GpuSample g;
    g.t_s = kT0 + 10.0 * i;
    g.index = 0;
    g.sm_clock_mhz = i >= 2 && i <= 3 ? 1400 : 1980;
    g.max_sm_clock_mhz = 1980;
    if (i >= 2 && i <= 3) g.throttle_names = {"sw_power_cap"};
    if (i == 5) g.throttle_names = {"gpu_idle"};  // not a limit: no band
    h.timeline->gpu.push_back(g);
  }
  const std::string html = render_html(h);
  const auto d = timeline_json(html);
  ASSERT_EQ(d["timeline"]["throttle_bands"].size(), 1u) << d["timeline"]["throttle_bands"].dump();
  const auto& band = d["timeline"]["throttle_bands"][0];
  EXPECT_EQ(band["reason"], "sw_power_cap");
  EXPECT_DOUBLE_EQ(band["from_s"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(band["to_s"].get<double>(), 40) << "until the next reading without it";
  EXPECT_NE(html.find("class=\"throttle-band sw_power_cap\""), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::report

namespace llmtriage::report {
namespace {

diagnose::EvidenceItem cond(std::string indicator, double value, std::string op, double threshold) {
  diagnose::EvidenceItem e;
  e.indicator = std::move(indicator);
  e.value = value;
  e.op = std::move(op);
  e.threshold = threshold;
  return e;
}

// The client's requests in flight at each scrape (sent, not yet answered or failed), beside the
// engine's running and waiting: what sits between the two is held by a gateway or the network.
TEST(HtmlTimelineLanes, ClientInFlightAtEachScrapeFromSentAndEndToEnd) {
  HtmlReport h;
  h.timeline = readings();
  for (int k = 0; k < 3; ++k) h.timeline->requests.push_back({kT0 + 5, 0.5, 20.0});  // in flight over [5, 25)
  h.timeline->failures = {{kT0 + 12, 10.0, "timeout_ttfb"}};                           // over [12, 22)
  const auto d = timeline_json(render_html(h));
  const auto* f = series(d, "client_in_flight");
  ASSERT_TRUE(f);
  EXPECT_EQ((*f)["lane"], "requests");
  ASSERT_EQ((*f)["v"].size(), 6u);
  const std::vector<double> want = {0, 3, 4, 0, 0, 0};  // at 0, 10, 20, 30, 40, 50 s
  for (size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ((*f)["v"][i].get<double>(), want[i]) << i;
  // Records without E2E: no such series (the count would be wrong, not zero).
  h.timeline->requests = {{kT0 + 5, 0.5}};
  h.timeline->failures.clear();
  EXPECT_FALSE(series(timeline_json(render_html(h)), "client_in_flight"));
}

// Each finding's onset: the first reading at which all its conditions that have a per-reading
// series hold together. The readings queue from 30 s (waiting 40) and preempt from 40 s.
TEST(HtmlTimelineLanes, EachFindingsOnsetIsItsFirstReadingOverItsOwnThresholds) {
  HtmlReport h;
  h.timeline = readings();
  h.timeline->snapshot_unix_s = kT0 + 50.5;  // written half a second after the last scrape
  diagnose::Report r;
  diagnose::Finding queue;
  queue.id = "running_cap_queueing";
  // Conjunctive: the queue (from 30 s) AND room in the pool (always: 0.5 < 0.9); a log line has no series.
  queue.evidence = {cond("waiting_p50", 40, ">=", 10), cond("kv_usage", 0.5, "<", 0.9), cond("log_lines", 3, ">=", 1)};
  diagnose::Finding storm;
  storm.id = "preemption_storm";
  storm.evidence = {cond("preemptions_per_s", 0.5, ">=", 0.1)};
  diagnose::Finding spare;  // "<" alone on the pool is context, true from the start: no onset
  spare.id = "kv_to_spare";
  spare.evidence = {cond("kv_usage_max", 0.5, "<", 0.9)};
  diagnose::Finding never;  // its window statistic crossed, no reading did: no onset
  never.id = "deep_queue";
  never.evidence = {cond("waiting_max", 400, ">=", 100)};
  r.findings = {queue, storm, spare, never};
  h.diagnosis = r;
  const std::string html = render_html(h);
  EXPECT_NE(html.find("id=\"lane-events\""), std::string::npos);
  const auto d = timeline_json(html);
  const auto& marks = d["timeline"]["marks"];
  ASSERT_EQ(marks.size(), 3u) << marks.dump(2);
  EXPECT_EQ(marks[0]["label"], "running_cap_queueing");
  EXPECT_DOUBLE_EQ(marks[0]["t_s"].get<double>(), 30);
  EXPECT_NE(marks[0]["detail"].get<std::string>().find("waiting >= 10 (it read 40), KV usage < 0.9 (it read 0.5)"), std::string::npos)
      << marks[0]["detail"];
  EXPECT_EQ(marks[1]["label"], "preemption_storm");
  EXPECT_DOUBLE_EQ(marks[1]["t_s"].get<double>(), 40);  // 5 preemptions over (30, 40]
  EXPECT_EQ(marks[2]["kind"], "snapshot");
  EXPECT_DOUBLE_EQ(marks[2]["t_s"].get<double>(), 50);  // drawn at the last reading's edge
  EXPECT_NE(html.find("class=\"onset-line\""), std::string::npos);
  EXPECT_NE(html.find("class=\"snapshot-line\""), std::string::npos);
  EXPECT_NE(html.find("a finding's onset"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::report
