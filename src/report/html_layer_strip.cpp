// The layer strip: one cell per layer in traversal order, its state (located / suspected /
// cleared / not judged) as a word and a colour, and the one line of evidence that put it there.
#include <fmt/format.h>

#include "report/diagnose_format.h"
#include "report/html_chart.h"

namespace llmtriage::report {
namespace {

struct Cell {
  diagnose::Layer layer;
  std::string state;  // "located", "suspected", "cleared", "not_judged"
  std::string line;   // the evidence, or why not judged
  std::string finding_id;
};

const char* state_word(const std::string& s) {
  if (s == "located") return "located";
  if (s == "suspected") return "suspected";
  if (s == "cleared") return "cleared";
  return "not judged";
}

// The first item with a number (the indicator against its threshold), else the first item.
std::string first_evidence(const std::vector<diagnose::EvidenceItem>& ev) {
  for (const auto& e : ev)
    if (e.value) return format_evidence(e);
  return ev.empty() ? std::string() : format_evidence(ev.front());
}

Cell judge(const diagnose::Report& r, const diagnose::LayerVerdict& v) {
  Cell c{v.layer, "not_judged", v.why, ""};
  // The first finding of the layer decides, in the report's order (most likely first): located
  // beats suspected.
  const diagnose::Finding* located = nullptr;
  const diagnose::Finding* suspected = nullptr;
  for (const auto& f : r.findings) {
    if (f.layer != v.layer) continue;
    if (f.status == "suspected") {
      if (!suspected) suspected = &f;
    } else if (!located) {
      located = &f;
    }
  }
  if (const diagnose::Finding* f = located ? located : suspected) {
    c.state = located ? "located" : "suspected";
    c.finding_id = f->id;
    const std::string ev = first_evidence(f->evidence);
    c.line = f->title + (ev.empty() ? "" : " — " + ev);
    return c;
  }
  switch (v.state) {
    case diagnose::LayerVerdict::State::cleared:
      c.state = "cleared";
      c.line = first_evidence(v.evidence);
      break;
    case diagnose::LayerVerdict::State::at_fault:
      c.state = "located";  // at fault without a finding of its own (never expected)
      c.line = "at fault";
      break;
    case diagnose::LayerVerdict::State::not_judged:
      c.line = v.why.empty() ? "no evidence for this layer" : v.why;
      break;
  }
  return c;
}

}  // namespace

ChartOut layer_strip(const diagnose::Report& r) {
  ChartOut out;
  out.data = nlohmann::json::array();
  std::string cells;
  for (const auto& v : r.layers) {
    const Cell c = judge(r, v);
    out.data.push_back({{"layer", diagnose::to_string(c.layer)}, {"state", c.state}, {"line", c.line},
                        {"finding", c.finding_id.empty() ? nlohmann::json() : nlohmann::json(c.finding_id)}});
    const std::string href = c.finding_id.empty() ? "" : " href=\"#finding-" + html_text(c.finding_id) + "\"";
    cells += fmt::format(
        "<a class=\"layer state-{}\"{}><span class=\"layer-name\">{}</span><span class=\"layer-state\">{}</span>"
        "<span class=\"layer-line\">{}</span></a>\n",
        c.state, href, html_text(layer_title(c.layer)), state_word(c.state), html_text(c.line));
  }
  std::string verdict;
  if (!r.findings.empty()) {
    const auto& f = r.findings.front();
    verdict = fmt::format("<p class=\"verdict sev-{}\"><b>{} ({}, {})</b>: {}</p>\n", diagnose::to_string(f.severity),
                          f.status == "suspected" ? "Suspected" : "Located", html_text(layer_title(f.layer)),
                          diagnose::to_string(f.severity), html_text(f.title));
  } else if (healthy(r)) {
    verdict = "<p class=\"verdict sev-ok\"><b>Healthy</b>: no symptom seen, every layer judged and cleared.</p>\n";
  } else {
    size_t nj = 0;
    for (const auto& l : r.layers) nj += l.state == diagnose::LayerVerdict::State::not_judged;
    verdict = nj ? fmt::format("<p class=\"verdict\"><b>No cause located</b>, and {} layer{} could not be judged: this is not "
                               "a clean bill of health.</p>\n", nj, nj == 1 ? "" : "s")
                 : "<p class=\"verdict\"><b>No cause located</b>.</p>\n";
  }
  out.html = "<section id=\"layers\"><h2>Layers</h2>\n" + verdict + "<div class=\"layer-strip\">\n" + cells +
             "</div></section>\n";
  return out;
}

}  // namespace llmtriage::report
