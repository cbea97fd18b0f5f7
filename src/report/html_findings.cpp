// The diagnosis as plain HTML, in the order of the terminal report: each finding with its
// evidence and remedies (the shared wording of diagnose_format.h), then the layers cleared, the
// layers not judged, missing evidence and the inputs.
#include <fmt/format.h>

#include "core/text_escape.h"
#include "report/diagnose_format.h"
#include "report/html_chart.h"

namespace llmtriage::report {
namespace {

using diagnose::Finding;
using diagnose::LayerVerdict;

std::string evidence_rows(const std::vector<diagnose::EvidenceItem>& items) {
  std::string o = "<table class=\"evidence\"><tr><th>indicator</th><th>value</th><th>threshold</th><th>source</th></tr>\n";
  for (const auto& e : items) {
    const std::string text = core::printable(e.text);
    std::string value = e.value ? format_value(*e.value, e.unit) : text;
    if (e.value && !text.empty()) value += " — " + text;
    o += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(e.indicator),
                     html_text(value), html_text(format_threshold(e)), html_text(e.source));
  }
  return o + "</table>\n";
}

std::string remedies(const Finding& f) {
  if (f.remedies.empty()) return "<p>No remedy computed for this finding.</p>\n";
  const RemedyGroups g = group_remedies(f);
  std::string o;
  for (const auto* p : g.precautions) o += "<p class=\"precaution\">" + html_text(format_precaution(*p)) + "</p>\n";
  if (g.fixes.empty()) {
    o += "<p>No remedy with a predicted effect was found.</p>\n";
  } else {
    o += "<ol class=\"fixes\">\n";
    for (const auto* r : g.fixes)
      o += fmt::format("<li><b>{}</b> — {}</li>\n", html_text(format_change(*r)), html_text(format_effect(*r)));
    o += "</ol>\n";
  }
  if (!g.not_fixes.empty()) {
    o += "<p>Not offered as fixes:</p><ul class=\"not-fixes\">\n";
    for (const auto* r : g.not_fixes)
      o += fmt::format("<li>{} — {}: {}</li>\n", html_text(format_change(*r)), html_text(format_not_a_fix(*r).value_or("")),
                       html_text(format_effect(*r)));
    o += "</ul>\n";
  }
  return o;
}

std::string finding(const Finding& f, size_t index) {
  std::string meta = fmt::format("<code>{}</code> · {} layer · {} · <b>{}</b> · confidence {}", html_text(f.id),
                                 html_text(layer_title(f.layer)), diagnose::to_string(f.symptom),
                                 diagnose::to_string(f.severity), html_text(format_confidence(f.confidence)));
  if (auto e = format_explains(f.explains)) meta += " · " + html_text(*e);
  meta += " · " + html_text(f.status);
  std::string o = fmt::format("<article class=\"finding sev-{}\" id=\"finding-{}\">\n<h3>{}. {}</h3>\n<p class=\"meta\">{}</p>\n",
                              diagnose::to_string(f.severity), html_text(f.id), index + 1,
                              html_text(f.title.empty() ? f.id : f.title), meta);
  if (!f.explanation.empty()) o += "<p>" + html_text(f.explanation) + "</p>\n";
  if (!f.evidence.empty()) o += "<h4>Evidence</h4>\n" + evidence_rows(f.evidence);
  if (!f.against.empty()) o += "<h4>Evidence against</h4>\n" + evidence_rows(f.against);
  o += "<h4>Fix — one change at a time, in this order</h4>\n" + remedies(f);
  if (!f.next_measurement.empty()) o += "<p class=\"next\">Next measurement: " + html_text(f.next_measurement) + "</p>\n";
  return o + "</article>\n";
}

}  // namespace

std::string findings_html(const diagnose::Report& r) {
  std::string o = "<section id=\"findings\"><h2>Findings</h2>\n";
  std::string sym;
  for (auto s : r.symptoms) sym += (sym.empty() ? "" : ", ") + std::string(diagnose::to_string(s));
  o += fmt::format("<p>Symptom{}: {} ({}).</p>\n", r.symptoms.size() > 1 ? "s" : "", sym.empty() ? "none seen" : html_text(sym),
                   r.symptoms_detected ? "detected from the evidence" : "as reported");
  if (r.findings.empty()) o += "<p>No cause located.</p>\n";
  for (size_t i = 0; i < r.findings.size(); ++i) o += finding(r.findings[i], i);
  o += "</section>\n";

  std::string cleared, nj;
  for (const auto& l : r.layers) {
    if (l.state == LayerVerdict::State::cleared)
      cleared += "<h3>" + html_text(layer_title(l.layer)) + "</h3>\n" + evidence_rows(l.evidence);
    if (l.state == LayerVerdict::State::not_judged)
      nj += fmt::format("<li><b>{}</b>: {}</li>\n", html_text(layer_title(l.layer)),
                        html_text(l.why.empty() ? "no evidence for this layer" : l.why));
  }
  if (!cleared.empty()) o += "<section id=\"cleared\"><h2>Cleared</h2>\n" + cleared + "</section>\n";
  if (!nj.empty()) o += "<section id=\"not-judged\"><h2>Not judged</h2><ul>\n" + nj + "</ul></section>\n";
  if (const auto missing = missing_beyond_layers(r); !missing.empty()) {
    o += "<section id=\"missing\"><h2>Missing evidence</h2><ul>\n";
    for (const auto& m : missing) o += "<li>" + html_text(m) + "</li>\n";
    o += "</ul></section>\n";
  }
  o += "<section id=\"inputs\"><h2>Inputs</h2>\n<table><tr><th>kind</th><th>source</th><th>read</th><th>note</th></tr>\n";
  for (const auto& i : r.inputs)
    o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(i.kind), html_text(i.source),
                     i.ok ? "ok" : "<b>failed</b>", html_text(i.note));
  o += "</table>\n";
  if (r.snapshot_path) o += "<p>Snapshot kept at <code>" + html_text(*r.snapshot_path) + "</code>.</p>\n";
  o += "<p>TTFT/TPOT/ITL as defined in " + html_text(r.definitions) + ".</p>\n</section>\n";
  return o;
}

}  // namespace llmtriage::report
