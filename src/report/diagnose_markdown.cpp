#include "report/diagnose_markdown.h"

#include <fmt/format.h>

#include "core/text_escape.h"
#include "report/diagnose_format.h"

namespace llmtriage::report {
namespace {

using diagnose::Finding;
using diagnose::LayerVerdict;

// Table cells: a pipe or a newline would break the row.
std::string cell(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n' || c == '\r') o += ' ';
    else o += c;
  }
  return o;
}

// Inline code that survives backticks in the text.
std::string code(const std::string& s) {
  if (s.find('`') == std::string::npos) return "`" + s + "`";
  return "`` " + s + " ``";
}

std::string evidence_table(const std::vector<diagnose::EvidenceItem>& items) {
  if (items.empty()) return "";
  std::string o = "| indicator | value | threshold | source |\n|---|---|---|---|\n";
  for (const auto& e : items) {
    const std::string text = core::printable(e.text);  // quoted input, escaped
    std::string value = e.value ? format_value(*e.value, e.unit) : cell(text);
    if (e.value && !text.empty()) value += " — " + cell(text);
    std::string th = format_threshold(e);
    o += "| " + cell(e.indicator) + " | " + value + " | " + cell(th) + " | " + cell(e.source) + " |\n";
  }
  return o;
}

// Precautions first, then the numbered fixes, then the changes predicted to do nothing or harm.
std::string remedy_list(const Finding& f) {
  const RemedyGroups g = group_remedies(f);
  std::string o;
  for (const auto* p : g.precautions) o += format_precaution(*p) + "\n\n";
  for (size_t i = 0; i < g.fixes.size(); ++i)
    o += fmt::format("{}. **{}** — {}\n", i + 1, cell(format_change(*g.fixes[i])), format_effect(*g.fixes[i]));
  if (g.fixes.empty()) o += "No remedy with a predicted effect was found.\n";
  if (!g.not_fixes.empty()) {
    o += "\nNot offered as fixes:\n\n";
    for (const auto* r : g.not_fixes)
      o += "- " + cell(format_change(*r)) + " — " + format_not_a_fix(*r).value_or("") + ": " + format_effect(*r) + "\n";
  }
  return o;
}

std::string meta(const Finding& f) {
  std::string s = code(f.id) + " · " + layer_title(f.layer) + " layer · " + diagnose::to_string(f.symptom) + " · **" +
                  diagnose::to_string(f.severity) + "** · confidence " + format_confidence(f.confidence);
  if (auto e = format_explains(f.explains)) s += " · " + *e;
  s += " · " + f.status;
  return s;
}

}  // namespace

std::string render_markdown(const diagnose::Report& r) {
  std::string o = "# llmtriage diagnosis\n\n";
  std::string sym;
  for (auto s : r.symptoms) sym += (sym.empty() ? "" : ", ") + code(diagnose::to_string(s));
  o += "Symptom" + std::string(r.symptoms.size() > 1 ? "s" : "") + ": " + (sym.empty() ? "none seen" : sym) +
       (r.symptoms_detected ? " (detected from the evidence)" : " (as reported)") + ".\n\n";

  o += "## Verdict\n\n";
  if (r.findings.empty()) {
    o += "No cause located.";
    for (const auto& l : r.layers)
      if (l.state == LayerVerdict::State::not_judged) {
        o += " Some layers could not be judged (below): this is not a clean bill of health.";
        break;
      }
    o += "\n";
  } else {
    const Finding& f = r.findings.front();
    if (f.status == "suspected")
      o += "No cause located. The most likely cause, **suspected** (confirm with the measurement below):\n\n";
    else if (f.severity == diagnose::Severity::info)
      o += "No cause located at warning or above. The strongest lead:\n\n";
    o += "**" + cell(f.title.empty() ? f.id : f.title) + "**\n\n" + meta(f) + "\n\n";
    if (!f.explanation.empty()) o += f.explanation + "\n\n";
    if (!f.evidence.empty()) o += "### Evidence\n\n" + evidence_table(f.evidence) + "\n";
    if (!f.against.empty()) o += "### Evidence against\n\n" + evidence_table(f.against) + "\n";
    o += "### Fix — one change at a time, in this order\n\n";
    o += f.remedies.empty() ? "No remedy computed for this finding.\n" : remedy_list(f);
    if (!f.next_measurement.empty()) o += "\nNext measurement: " + f.next_measurement + "\n";
  }

  if (r.findings.size() > 1) {
    o += "\n## Other findings\n";
    for (size_t i = 1; i < r.findings.size(); ++i) {
      const Finding& f = r.findings[i];
      o += fmt::format("\n### {}. {}\n\n", i + 1, cell(f.title.empty() ? f.id : f.title));
      o += meta(f) + "\n\n";
      if (!f.explanation.empty()) o += f.explanation + "\n\n";
      o += evidence_table(f.evidence);
      if (!f.remedies.empty()) o += "\n" + remedy_list(f);
    }
  }

  bool cleared = false, nj = false;
  for (const auto& l : r.layers) {
    cleared |= l.state == LayerVerdict::State::cleared;
    nj |= l.state == LayerVerdict::State::not_judged;
  }
  if (cleared) {
    o += "\n## Cleared\n";
    for (const auto& l : r.layers) {
      if (l.state != LayerVerdict::State::cleared) continue;
      o += std::string("\n### ") + layer_title(l.layer) + "\n\n";
      o += evidence_table(l.evidence);
    }
  }
  if (nj) {
    o += "\n## Not judged\n\n";
    for (const auto& l : r.layers)
      if (l.state == LayerVerdict::State::not_judged)
        o += std::string("- **") + layer_title(l.layer) + "**: " + (l.why.empty() ? "no evidence for this layer" : l.why) + "\n";
  }
  if (const auto missing = missing_beyond_layers(r); !missing.empty()) {
    o += "\n## Missing evidence\n\n";
    for (const auto& m : missing) o += "- " + m + "\n";
  }
  o += "\n## Inputs\n\n| kind | source | read | note |\n|---|---|---|---|\n";
  for (const auto& i : r.inputs)
    o += "| " + cell(i.kind) + " | " + cell(core::printable(i.source)) + " | " + (i.ok ? "ok" : "**failed**") + " | " +
         cell(core::printable(i.note)) + " |\n";
  const bool path_said = !r.findings.empty() && !group_remedies(r.findings.front()).precautions.empty();
  if (r.snapshot_path && !path_said) o += "\nSnapshot kept at " + code(*r.snapshot_path) + ".\n";
  o += "\nTTFT/TPOT/ITL as defined in " + r.definitions + ".\n";
  return o;
}

}  // namespace llmtriage::report
