// The HTML report as a person sees it: headless Chromium (Debian's `chromium`) loads the page
// with the network off, runs its script without a console error, and takes a screenshot that is
// kept for a person to look at ($LLMTRIAGE_SCREENSHOT_DIR, else a folder under /tmp named in the
// output). Skips, saying why, when chromium is not installed (scripts/install-deps --with-test-peers).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/files.h"
#include "report/html_report.h"
#include "report/sample_report.h"

namespace llmtriage::report {
namespace {

namespace fs = std::filesystem;

std::string chromium() {
  if (const char* c = std::getenv("LLMTRIAGE_CHROMIUM"); c && *c) return c;
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(p)) return p;
  return "";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

HtmlReport sample() {
  HtmlReport h;
  h.title = "llmtriage diagnosis (test page)";
  h.generated_by = "llmtriage test";
  h.sources = {"snap.json", "runs/a", "runs/b"};
  h.diagnosis = report_test::saturated_report();
  TimelineData t;
  t.source = "snap.json";
  for (int i = 0; i < 60; ++i) {
    core::EngineSample s;
    s.t_s = 1'700'000'000 + i;
    s.running = i < 30 ? 20 + i % 5 : 64;
    s.waiting = i < 30 ? 0 : (i - 30) * 2;
    s.kv_usage = i < 30 ? 0.4 + i * 0.01 : 0.99;
    s.preemptions_total = i < 40 ? 0 : (i - 40) * 2;
    s.prompt_tokens_total = 4000.0 * i;
    s.generation_tokens_total = 900.0 * i;
    t.engine.push_back(s);
    core::GpuSample g;
    g.t_s = s.t_s;
    g.sm_clock_mhz = i < 45 ? 1980 : 1500;
    g.max_sm_clock_mhz = 1980;
    g.power_w = i < 45 ? 520 : 700;
    g.power_limit_w = 700;
    t.gpu.push_back(g);
  }
  h.timeline = t;
  for (int k = 0; k < 2; ++k) {
    LatencyRun r{k ? "after" : "before", k == 0, "runs/", {}};
    for (int i = 0; i < 2000; ++i) {
      core::RequestRecord q;
      q.ttft_s = (k ? 0.05 : 0.2) * (1 + (i % 113) / 20.0) * (i % 97 == 0 ? 20 : 1);
      q.output_tokens = 64 + i % 64;
      q.e2e_s = *q.ttft_s + (k ? 0.012 : 0.02) * (*q.output_tokens - 1) * (1 + (i % 7) / 10.0);
      r.requests.push_back(q);
    }
    h.runs.push_back(r);
  }
  h.slo.ttft_s = 0.5;
  h.slo.tpot_s = 0.025;
  h.slo.e2e_s = 3;
  return h;
}

// What Chromium made of a page: its screenshot, every console message, the DOM after scripts ran.
struct Rendered {
  fs::path shot;
  std::string console, dom;
};

// Writes `html` as NAME.html (or NAME + `ext`) in the screenshot folder and loads it offline: a
// screenshot, then the DOM after the script ran. Fails the test when chromium does.
Rendered render(const std::string& exe, const std::string& html, const std::string& name, const std::string& window,
                const std::string& ext = ".html") {
  const char* keep = std::getenv("LLMTRIAGE_SCREENSHOT_DIR");
  const fs::path dir = keep && *keep ? fs::path(keep) : fs::temp_directory_path() / ("llmtriage-html-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path page = dir / (name + ext), log = dir / (name + "-chromium.log"), dom = dir / (name + "-dom.html");
  Rendered r{dir / (name + ".png"), "", ""};
  EXPECT_TRUE(core::write_file_atomic(page.string(), html).ok());
  // No network: every host resolves to nothing and the proxy is a closed port (the page's CSP
  // also forbids any fetch). A throwaway profile so nothing is read from the user's.
  const std::string common = "'" + exe + "' --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir='" +
                             (dir / "profile").string() + "' --host-resolver-rules='MAP * ~NOTFOUND' " +
                             "--proxy-server=127.0.0.1:9 --enable-logging=stderr --v=0 ";
  const std::string url = "'file://" + page.string() + "'";
  EXPECT_EQ(std::system((common + "--screenshot='" + r.shot.string() + "' --window-size=" + window + " " + url + " 2>'" +
                         log.string() + "' >/dev/null").c_str()), 0)
      << slurp(log);
  r.console = slurp(log);
  EXPECT_EQ(std::system((common + "--dump-dom " + url + " >'" + dom.string() + "' 2>/dev/null").c_str()), 0);
  r.dom = slurp(dom);
  std::error_code ec;
  fs::remove_all(dir / "profile", ec);  // the page, its log and the screenshot stay
  std::cout << "screenshot for a person to look at: " << r.shot.string() << "\n";
  return r;
}

TEST(HtmlInChromium, LoadsOfflineWithoutConsoleErrorsAndScreenshots) {
  const std::string exe = chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the page is not rendered";
  const Rendered r = render(exe, render_html(sample()), "report", "1400,2600");
  ASSERT_TRUE(fs::exists(r.shot)) << r.console;
  EXPECT_GT(fs::file_size(r.shot), 20000u) << "a screenshot this small is an empty page";
  // Chromium logs every console message as ":CONSOLE"; an uncaught error and a fetch the CSP
  // blocks ("violates the following Content Security Policy directive") both land there.
  EXPECT_EQ(r.console.find(":CONSOLE"), std::string::npos) << "the page wrote to the console:\n" << r.console;
  // The script ran: it marks every legend entry as a pressed toggle.
  EXPECT_NE(r.dom.find("aria-pressed=\"true\""), std::string::npos) << "report.js did not run";
  EXPECT_NE(r.dom.find("id=\"tooltip\""), std::string::npos) << "report.js did not set up the timeline tooltip";
}

// The pictures of one command's result (A/B board, capacity curve, ledger waterfall) on one page:
// it loads offline, the script runs without a console message (no timeline: it stops after the
// toggles), and the screenshot is kept.
TEST(HtmlInChromium, PicturesLoadOfflineWithoutConsoleErrors) {
  const std::string exe = chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the page is not rendered";
  HtmlReport h;
  h.title = "llmtriage pictures (test page)";
  h.generated_by = "llmtriage test";
  AbBoard& b = h.ab.emplace();
  b.variable = "max-num-seqs: 64 -> 128";
  b.verdict_given = true;
  b.rows = {{"ttft_p99_ms", 605, 338, -267, -314, -176, -44.2, "better"}, {"e2e_p50_ms", 2505, 2776, 271, 165, 352, 10.8, "worse"}};
  CapacityPicture& c = h.capacity.emplace();
  c.by = "rate";
  c.unit = "req/s";
  c.slo = "ttft=500ms";
  c.ttft_slo_ms = 500;
  c.capacity = 4;
  c.failing_above = 8;
  c.curve = {{2, 1, 100, 100, 100, 2, 120, 20, 900, 2.0, true, false, false},
             {4, 1, 99.5, 99.5, 99.5, 3.9, 300, 35, 1500, 3.95, true, false, false},
             {8, 1, 40, 40, 40, 3.1, 4000, 90, 9000, 6.0, false, true, true}};
  LedgerPicture& l = h.ledger.emplace();
  l.title = "8B on H100";
  l.total_gib = 79.19;
  l.usable_gib = 71.27;
  l.utilization = 0.9;
  l.blocks = {{"weights_gib", "Weights", 14.96, false, 14.99}, {"kv_cache_gib", "KV pool", 54.18, false, std::nullopt}};
  l.verdict = "fits";
  const Rendered r = render(exe, render_html(h), "pictures", "1200,2000");
  ASSERT_TRUE(fs::exists(r.shot)) << r.console;
  EXPECT_EQ(r.console.find(":CONSOLE"), std::string::npos) << "the page wrote to the console:\n" << r.console;
  EXPECT_NE(r.dom.find("aria-pressed=\"true\""), std::string::npos) << "report.js did not run";
  for (const char* cls : {"chart ab-board", "chart capacity", "chart ledger-waterfall"})
    EXPECT_NE(r.dom.find(cls), std::string::npos) << cls;
}


// The fleet's small multiples beside the verdict: six replicas, one throttled (its clock cell an
// outlier), one with a queue; loads offline without a console message; the screenshot is kept.
TEST(HtmlInChromium, FleetSmallMultiplesLoadOfflineWithoutConsoleErrors) {
  const std::string exe = chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the page is not rendered";
  HtmlReport h;
  h.title = "llmtriage fleet (test page)";
  h.generated_by = "llmtriage test";
  h.diagnosis = report_test::saturated_report();
  FleetPicture& p = h.fleet.emplace();
  p.t0_unix_s = 1'700'000'000;
  p.t1_s = 600;
  p.step_s = 10;
  p.columns = {{"running", "running", "requests", true, "gauge"},      {"waiting", "waiting", "requests", true, "gauge"},
               {"kv_usage", "KV usage", "fraction", true, "gauge"},    {"request_rate", "finished", "req/s", true, "counter"},
               {"sm_clock_ratio", "SM clock/max", "fraction", true, "DCGM"}, {"power_w", "GPU power", "W", true, "DCGM"},
               {"ttft_p99", "TTFT p99", "s", false, "histogram"},       {"tpot_p50", "TPOT p50", "s", false, "histogram"}};
  const auto cell = [](auto f) {
    FleetPicture::Cell c;
    double sum = 0;
    for (int i = 0; i <= 60; ++i) {
      c.t_s.push_back(10.0 * i);
      c.v.push_back(f(i));
      sum += c.v.back();
    }
    c.value = sum / 61;
    return c;
  };
  for (int k = 0; k < 6; ++k) {
    const bool throttled = k == 0, queued = k == 1;
    FleetPicture::Row r;
    r.replica = "vllm-" + std::to_string(k) + ".prod.svc:8000";
    r.cells = {cell([&](int i) { return 24.0 + (i * (k + 3)) % 7; }),
               cell([&](int i) { return queued ? (i > 30 ? (i - 30) * 1.5 : 0.0) : (i * k) % 3 * 0.5; }),
               cell([&](int i) { return queued && i > 30 ? 0.97 : 0.55 + 0.05 * ((i + k) % 4); }),
               cell([&](int i) { return throttled ? 1.2 + 0.1 * (i % 3) : 2.0 + 0.1 * ((i + k) % 4); }),
               cell([&](int i) { return throttled && i > 15 ? 0.62 : 0.98 + 0.01 * ((i + k) % 2); }),
               cell([&](int i) { return throttled ? 695.0 : 480.0 + 10 * ((i + k) % 5); }),
               {}, {}};
    r.cells[6].value = queued ? 3.2 : throttled ? 0.9 : 0.45 + 0.02 * k;
    r.cells[7].value = throttled ? 0.041 : 0.022;
    r.distance = throttled ? 4.5 : queued ? 3.1 : 0.1 * k;
    r.farthest = throttled ? "sm_clock_ratio" : queued ? "waiting" : "";
    r.differs = throttled || queued;
    if (throttled) {
      r.findings = {"replica_gpu_throttled"};
      r.cells[4].outlier = true;
      r.cells[4].outlier_text = "outlier: clock_ratio 0.62 vs fleet median 0.98 (robust z -inf)";
    }
    if (queued) {
      r.findings = {"replica_outlier"};
      r.cells[1].outlier = r.cells[2].outlier = true;
    }
    p.rows.push_back(r);
  }
  p.median = {cell([](int) { return 26.0; }), cell([](int) { return 0.5; }), cell([](int) { return 0.6; }),
              cell([](int) { return 2.1; }),  cell([](int) { return 0.985; }), cell([](int) { return 490.0; }), {}, {}};
  const Rendered r = render(exe, render_html(h), "fleet", "1200,1400");
  ASSERT_TRUE(fs::exists(r.shot)) << r.console;
  EXPECT_EQ(r.console.find(":CONSOLE"), std::string::npos) << "the page wrote to the console:\n" << r.console;
  EXPECT_NE(r.dom.find("chart fleet-grid"), std::string::npos);
}

// One chart exported by --svg, opened on its own (no page around it): it renders, with no
// console message, and the screenshot is kept (timeline-ttft_parts.png).
TEST(HtmlInChromium, StandaloneSvgOpensOnItsOwn) {
  const std::string exe = chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the page is not rendered";
  HtmlReport h = sample();
  for (size_t i = 0; i < h.timeline->engine.size(); ++i) {
    auto& s = h.timeline->engine[i];
    const double n = 10.0 * static_cast<double>(i);
    for (auto [hist, v] : {std::pair{&s.ttft_s, 0.4}, {&s.queue_s, 0.25}, {&s.prefill_s, 0.1}}) {
      hist->upper_bounds = {0.1, 0.5, 1, INFINITY};
      hist->cumulative_counts = {v <= 0.1 ? n : 0, n, n, n};
      hist->count = n;
      hist->sum = v * n * (i > 30 ? 3 : 1);
    }
  }
  const auto svgs = standalone_svgs(h);
  const StandaloneSvg* parts = nullptr;
  for (const auto& s : svgs)
    if (s.name == "timeline-ttft_parts.svg") parts = &s;
  ASSERT_NE(parts, nullptr);
  const Rendered r = render(exe, parts->text, "timeline-ttft_parts", "1100,200", ".svg");
  ASSERT_TRUE(fs::exists(r.shot)) << r.console;
  EXPECT_EQ(r.console.find(":CONSOLE"), std::string::npos) << r.console;
  EXPECT_NE(r.dom.find("clip-ttft_parts"), std::string::npos) << r.dom.substr(0, 500);
}

// Zoom: a drag across a lane (synthetic mouse events, dispatched after report.js ran) stretches
// every lane's plot to that range and says so; a double-click shows the whole run again. The
// zoomed screenshot is kept (zoom.png).
TEST(HtmlInChromium, TimelineZoomsOnDragAndResetsOnDoubleClick) {
  const std::string exe = chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium is not installed (apt-get install chromium): the page is not rendered";
  const std::string drag = R"js(<script>
(function () {
  var svg = document.querySelector("#lane-requests svg"), r = svg.getBoundingClientRect();
  function at(type, f, target) {
    (target || svg).dispatchEvent(new MouseEvent(type, {bubbles: true, button: 0, clientX: r.left + r.width * f, clientY: r.top + r.height / 2}));
  }
  at("mousedown", 0.3); at("mousemove", 0.45, window); at("mouseup", 0.6, window);
  document.body.setAttribute("data-zoomed", document.querySelector("#lane-kv .plot").getAttribute("transform") || "none");
  if (location.hash === "#reset") {
    svg.dispatchEvent(new MouseEvent("dblclick", {bubbles: true}));
    document.body.setAttribute("data-reset", document.querySelector("#lane-kv .plot").getAttribute("transform") || "none");
  }
})();
</script></body>)js";
  std::string html = render_html(sample());
  html.replace(html.rfind("</body>"), 7, drag);
  const Rendered r = render(exe, html, "zoom", "1400,1400");
  ASSERT_TRUE(fs::exists(r.shot)) << r.console;
  EXPECT_EQ(r.console.find(":CONSOLE"), std::string::npos) << "the page wrote to the console:\n" << r.console;
  EXPECT_NE(r.dom.find("data-zoomed=\"translate("), std::string::npos) << "every lane zoomed, not only the one dragged";
  EXPECT_NE(r.dom.find("class=\"caption zoom-note\">Zoomed to "), std::string::npos);
  EXPECT_NE(r.dom.find("class=\"zoom-ticks\"><line"), std::string::npos) << "the range's own ticks";
  // The same drag, then a double-click: the whole run again.
  std::string reset = html;
  reset.replace(reset.find("location.hash === \"#reset\""), 26, "true");
  const Rendered r2 = render(exe, reset, "zoom-reset", "1400,800");
  EXPECT_NE(r2.dom.find("data-reset=\"none\""), std::string::npos);
  EXPECT_NE(r2.dom.find("class=\"caption zoom-note\"></p>"), std::string::npos);
}

}  // namespace
}  // namespace llmtriage::report
