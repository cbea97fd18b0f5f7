// The page assembler: the template (src/report/html/page.html) with its placeholders filled in
// one pass — title, CSS, JS, the sections in order of value (layer strip, A/B board, capacity
// curve, ledger waterfall, fleet small multiples, timeline, latency CDFs, findings, notes), and the embedded JSON.
#include <fmt/format.h>

#include "core/text_escape.h"
#include "report/diagnose_json.h"
#include "report/html_chart.h"
#include "report/svg_writer.h"

namespace llmtriage::report {

std::string html_text(std::string_view s) { return xml_escape(core::printable(s)); }

std::string legend_item(std::string_view id, std::string_view cls, std::string_view label) {
  return fmt::format("<button type=\"button\" class=\"legend-item\" data-toggle=\"{}\"><span class=\"swatch {}\"></span>{}</button>",
                     html_text(id), html_text(cls), html_text(label));
}

namespace {

// JSON inside <script>: "</script>" or "<!--" in a string must not end or comment the element.
// '<' only occurs inside JSON strings, where \u003c means the same character.
std::string script_safe_json(const nlohmann::json& j) {
  const std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    if (c == '<') o += "\\u003c";
    else o += c;
  }
  return o;
}

// Replaces each {{NAME}} of the template once, left to right; inserted text is never rescanned.
std::string fill(std::string_view tpl, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t i = 0;
  while (i < tpl.size()) {
    const size_t open = tpl.find("{{", i);
    if (open == std::string_view::npos) break;
    const size_t close = tpl.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    out.append(tpl.substr(i, open - i));
    const std::string_view name = tpl.substr(open + 2, close - open - 2);
    bool found = false;
    for (const auto& [k, v] : values)
      if (k == name) out += v, found = true;
    if (!found) out.append(tpl.substr(open, close + 2 - open));
    i = close + 2;
  }
  out.append(tpl.substr(std::min(i, tpl.size())));
  return out;
}

}  // namespace

std::string render_html(const HtmlReport& r) {
  std::vector<std::string> notes = r.notes;
  nlohmann::json data = {{"format", kHtmlDataFormat}, {"version", kHtmlDataVersion}, {"generated_by", r.generated_by},
                         {"title", r.title}, {"sources", r.sources}};
  std::string body;
  if (r.diagnosis) {
    ChartOut strip = layer_strip(*r.diagnosis);
    body += strip.html;
    data["layers"] = std::move(strip.data);
    data["diagnosis"] = to_json(*r.diagnosis);
  } else {
    data["layers"] = nullptr;
    data["diagnosis"] = nullptr;
    // A ledger or capacity page never has one: saying so there is noise.
    if (!r.ledger && !r.capacity) notes.push_back("no diagnosis among the inputs: no layer strip, no findings");
  }
  // The pictures of one command's own result (ab, capacity, ledger) come before the timeline.
  const auto add = [&](const char* key, ChartOut c) {
    body += c.html;
    data[key] = std::move(c.data);
  };
  data["ab"] = data["capacity"] = data["ledger"] = data["fleet"] = nullptr;
  if (r.fleet) add("fleet", fleet_small_multiples(*r.fleet));
  if (r.ab) add("ab", ab_board(*r.ab));
  if (r.capacity) add("capacity", capacity_curve(*r.capacity));
  if (r.ledger) add("ledger", ledger_waterfall(*r.ledger));
  data["timeline"] = nullptr;
  if (r.timeline) {
    // Each finding's onset on the events lane: its evidence items that compare a reading with a
    // threshold, in the diagnosis' order (the timeline picks the first it has a series for).
    TimelineData timeline = *r.timeline;
    if (r.diagnosis)
      for (const auto& f : r.diagnosis->findings)
        for (const auto& e : f.evidence)
          if (e.threshold && !e.op.empty()) timeline.watches.push_back({f.id, e.indicator, e.op, *e.threshold});
    ChartOut tl = timeline_chart(timeline, r.slo.ttft_s, notes);
    body += tl.html;
    data["timeline"] = std::move(tl.data);
  }
  ChartOut lat = latency_cdfs(r.runs, r.slo, notes);
  body += lat.html;
  data["latency"] = std::move(lat.data);
  if (r.diagnosis) body += findings_html(*r.diagnosis);
  if (!notes.empty()) {
    body += "<section id=\"notes\"><h2>Not drawn</h2><ul class=\"notes\">\n";
    for (const auto& n : notes) body += "<li>" + html_text(n) + "</li>\n";
    body += "</ul></section>\n";
  }
  data["notes"] = notes;
  std::string sources;
  for (const auto& s : r.sources) sources += (sources.empty() ? "" : ", ") + s;
  return fill(page_template(), {{"TITLE", html_text(r.title.empty() ? "llmtriage report" : r.title)},
                                {"GENERATOR", html_text(r.generated_by)},
                                {"SOURCES", html_text(sources.empty() ? "no input" : sources)},
                                {"STYLE", std::string(page_css())},
                                {"SCRIPT", std::string(page_js())},
                                {"BODY", body},
                                {"DATA", script_safe_json(data)}});
}

}  // namespace llmtriage::report
