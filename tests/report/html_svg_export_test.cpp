// Standalone SVG files of the page's charts (report::standalone_svgs, `--svg DIR`): one per chart,
// named after what it draws, each a well-formed XML document with the SVG namespace, its styles
// inline with no CSS variable left, and its legend drawn inside it.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "report/html_report.h"

namespace llmtriage::report {
namespace {

// Well-formed enough for a viewer: every element closed in order, no raw '<' or stray '&' in
// text or attributes, CDATA and the XML declaration skipped. Returns "" or what is wrong.
std::string xml_problem(const std::string& s) {
  std::vector<std::string> open;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '&') {
      const size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi - i > 8) return "a bare & at " + std::to_string(i);
      i = semi + 1;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    if (s.compare(i, 9, "<![CDATA[") == 0) {
      i = s.find("]]>", i);
      if (i == std::string::npos) return "unterminated CDATA";
      i += 3;
      continue;
    }
    if (s.compare(i, 2, "<?") == 0) {
      i = s.find("?>", i) + 2;
      continue;
    }
    // A tag: its end is the first '>' outside quotes.
    size_t j = i + 1;
    bool quoted = false;
    for (; j < s.size() && (quoted || s[j] != '>'); ++j) {
      if (s[j] == '"') quoted = !quoted;
      if (quoted && s[j] == '<') return "a raw < inside an attribute at " + std::to_string(j);
    }
    if (j == s.size()) return "unterminated tag";
    const std::string tag = s.substr(i + 1, j - i - 1);
    if (tag.starts_with("/")) {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
      open.pop_back();
    } else if (!tag.ends_with("/")) {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = j + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

HtmlReport page() {
  HtmlReport h;
  TimelineData t;
  t.source = "snap.json";
  for (int i = 0; i < 20; ++i) {
    core::EngineSample s;
    s.t_s = 1'700'000'000 + 5.0 * i;
    s.running = 10 + i;
    s.waiting = i > 10 ? 5 : 0;
    s.kv_usage = 0.04 * i;
    t.engine.push_back(s);
  }
  h.timeline = t;
  LatencyRun r{"now <run>", false, "runs/now", {}};
  for (int i = 0; i < 200; ++i) {
    core::RequestRecord q;
    q.ttft_s = 0.05 + 0.001 * i;
    q.e2e_s = 1 + 0.01 * i;
    q.output_tokens = 100;
    r.requests.push_back(q);
  }
  h.runs = {r};
  h.slo.ttft_s = 0.2;
  FleetPicture& f = h.fleet.emplace();
  f.t1_s = 60;
  f.columns = {{"waiting", "waiting", "requests", true, "gauge"}};
  FleetPicture::Cell c;
  c.t_s = {0, 30, 60};
  c.v = {0, 3, 1};
  c.value = 4.0 / 3;
  f.rows = {{"pod-a & b", 0, "", false, {}, {c}}};
  return h;
}

TEST(HtmlSvgExport, OneWellFormedStandaloneFilePerChart) {
  const auto svgs = standalone_svgs(page());
  std::set<std::string> names;
  for (const auto& s : svgs) names.insert(s.name);
  for (const char* want : {"timeline-requests.svg", "timeline-kv.svg", "cdf-ttft_s.svg", "cdf-tpot_s.svg", "cdf-e2e_s.svg",
                           "fleet-grid.svg"})
    EXPECT_TRUE(names.count(want)) << want;
  EXPECT_EQ(names.size(), svgs.size()) << "names are unique";
  for (const auto& s : svgs) {
    SCOPED_TRACE(s.name);
    EXPECT_TRUE(s.text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
    EXPECT_EQ(xml_problem(s.text), "");
    EXPECT_NE(s.text.find("<style><![CDATA["), std::string::npos);
    EXPECT_EQ(s.text.find("var(--"), std::string::npos) << "custom properties resolved";
    EXPECT_NE(s.text.find("svg .axis { stroke: #9aa3ad"), std::string::npos) << "the chart rules travel with it";
    EXPECT_EQ(s.text.find(".layer-strip"), std::string::npos) << "page-only rules stay behind";
  }
  for (const auto& s : svgs)
    if (s.name == "timeline-requests.svg") {
      EXPECT_NE(s.text.find("class=\"line s0\"/><text x=\"29\" y=\"35\" class=\"tick\">running</text>"), std::string::npos)
          << "the legend drawn inside: " << s.text.substr(0, 3000);
    }
  for (const auto& s : svgs) {
    if (s.name == "fleet-grid.svg") {
      EXPECT_NE(s.text.find("pod-a &amp; b"), std::string::npos);
    }
  }
}

TEST(HtmlSvgExport, NothingToDrawNoFiles) { EXPECT_TRUE(standalone_svgs(HtmlReport{}).empty()); }

}  // namespace
}  // namespace llmtriage::report
