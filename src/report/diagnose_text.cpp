#include "report/diagnose_text.h"

#include <fmt/format.h>

#include <vector>

#include "core/text_escape.h"
#include "core/units.h"
#include "report/diagnose_format.h"

namespace llmtriage::report {
namespace {

using diagnose::Finding;
using diagnose::LayerVerdict;
using diagnose::Report;
using diagnose::Severity;

struct Style {
  bool on = false;
  std::string wrap(const char* code, const std::string& s) const {
    return on ? std::string("\033[") + code + "m" + s + "\033[0m" : s;
  }
  std::string bold(const std::string& s) const { return wrap("1", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
  std::string green(const std::string& s) const { return wrap("32", s); }
  std::string severity(Severity sev, const std::string& s) const {
    switch (sev) {
      case Severity::critical: return wrap("1;31", s);
      case Severity::warning: return wrap("33", s);
      case Severity::info: return wrap("36", s);
    }
    return s;
  }
};

// Greedy word wrap; the first line starts with `first`, the others with `indent`.
std::string wrap(const std::string& text, size_t width, const std::string& indent, const std::string& first) {
  std::string out, line;
  size_t i = 0;
  const std::string* lead = &first;
  auto flush = [&]() {
    if (!line.empty()) out += *lead + line + "\n";
    lead = &indent;
    line.clear();
  };
  while (i < text.size()) {
    if (text[i] == '\n') {
      flush();
      ++i;
      continue;
    }
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n') ++j;
    std::string word = text.substr(i, j - i);
    if (!line.empty() && lead->size() + line.size() + 1 + word.size() > width) flush();
    line += (line.empty() ? "" : " ") + word;
    i = j;
  }
  flush();
  return out;
}

std::string wrap(const std::string& text, size_t width, const std::string& indent) {
  return wrap(text, width, indent, indent);
}

std::string finding_tags(const Finding& f, const Style& st) {
  std::string s = f.id + " · " + layer_title(f.layer) + " layer · " + diagnose::to_string(f.symptom) + " · " +
                  st.severity(f.severity, diagnose::to_string(f.severity)) + " · confidence " +
                  format_confidence(f.confidence);
  if (auto e = format_explains(f.explains)) s += " · " + *e;
  s += " · " + f.status;
  return s;
}

std::string evidence_line(const diagnose::EvidenceItem& e, const Style& st) {
  std::string s = format_evidence(e);
  if (!e.source.empty()) s += "  " + st.dim("[" + e.source + "]");
  return s;
}

// The numbered fixes; then, unnumbered, the changes predicted to do nothing or harm.
void remedies(std::string& o, const RemedyGroups& g, const Style& st, const std::string& indent) {
  for (size_t i = 0; i < g.fixes.size(); ++i) {
    const auto& r = *g.fixes[i];
    o += fmt::format("{}{}. {}\n", indent, i + 1, st.bold(format_change(r)));
    o += indent + "   predicted: " + format_effect(r) + "\n";
  }
}

void not_fixes(std::string& o, const RemedyGroups& g, const TextOptions& opt, const Style& st) {
  if (g.not_fixes.empty()) return;
  o += "\n  " + st.bold("Not offered as fixes") + "\n";
  for (const auto* r : g.not_fixes)
    o += wrap(format_change(*r) + ": " + format_not_a_fix(*r).value_or("") + ": " + format_effect(*r), opt.width,
              "      ", "    - ");
}

void top_finding(std::string& o, const Finding& f, const TextOptions& opt, const Style& st, const char* label) {
  o += st.bold(label) + "  " + st.severity(f.severity, f.title.empty() ? f.id : f.title) + "\n";
  o += "  " + finding_tags(f, st) + "\n";
  if (!f.explanation.empty()) o += wrap(f.explanation, opt.width, "  ");
  if (!f.evidence.empty()) {
    o += "\n  " + st.bold(f.status == "suspected" ? "Evidence for" : "Evidence") + "\n";
    for (const auto& e : f.evidence) o += "    - " + evidence_line(e, st) + "\n";
  } else if (f.status == "suspected") {
    o += "\n  " + st.bold("Evidence for") + "\n    - only the symptom (the checklist's prior)\n";
  }
  if (!f.against.empty()) {
    o += "\n  " + st.bold("Evidence against") + "\n";
    for (const auto& e : f.against) o += "    - " + evidence_line(e, st) + "\n";
  }
  const RemedyGroups g = group_remedies(f);
  for (const auto* p : g.precautions) o += "\n" + wrap(format_precaution(*p), opt.width, "  ");
  if (!g.fixes.empty()) {
    o += "\n  " + st.bold(f.status == "suspected" ? "If confirmed, fix: one change at a time" : "Fix: one change at a time, in this order") + "\n";
    remedies(o, g, st, "    ");
  } else {
    o += g.not_fixes.empty() ? "\n  No remedy computed for this finding.\n"
                             : "\n  No remedy with a predicted effect was found.\n";
  }
  not_fixes(o, g, opt, st);
  if (!f.next_measurement.empty()) o += "\n" + wrap("Next measurement: " + f.next_measurement, opt.width, "  ");
}

void other_finding(std::string& o, size_t n, const Finding& f, const TextOptions& opt, const Style& st,
                   bool show_layer) {
  o += fmt::format("  {}. [{}] {}", n, st.severity(f.severity, diagnose::to_string(f.severity)),
                   f.title.empty() ? f.id : f.title);
  o += "\n     " + f.id + (show_layer ? std::string(" · ") + layer_title(f.layer) + " layer" : std::string()) + " · " +
       diagnose::to_string(f.symptom) + " · confidence " + format_confidence(f.confidence);
  if (auto e = format_explains(f.explains)) o += " · " + *e;
  o += " · " + f.status;
  o += "\n";
  for (const auto& e : f.evidence) o += "     - " + evidence_line(e, st) + "\n";
  const RemedyGroups g = group_remedies(f);
  if (!g.fixes.empty()) {
    const auto& r = *g.fixes.front();
    o += wrap("fix: " + format_change(r) + ": " + format_effect(r) +
                  (g.fixes.size() > 1 ? fmt::format(" (+{} more)", g.fixes.size() - 1) : std::string()),
              opt.width, "     ");
  }
}

// The searched remedy plan (diagnose/plan.h): the predicted state before and after each step.
std::string plan_state(const diagnose::PlanState& s) {
  std::string t = fmt::format("P99 TTFT {}, P50 TTFT {}, P99 TPOT {}, {} tok/s", core::format_duration_s(s.ttft_p99_s),
                              core::format_duration_s(s.ttft_p50_s), core::format_duration_s(s.tpot_p99_s),
                              core::format_number(s.output_tokens_per_s));
  if (s.goodput_rps) t += ", goodput " + core::format_number(*s.goodput_rps) + " req/s";
  return t + fmt::format(", {} GPU{}", s.gpus, s.gpus == 1 ? "" : "s");
}

void plan_section(std::string& o, const diagnose::RemedyPlan& p, const TextOptions& opt, const Style& st) {
  if (!p.computed) {
    if (!p.why_not.empty()) o += "\n" + wrap("Plan: none: " + p.why_not, opt.width, "  ");
    return;
  }
  o += "\n  " + st.bold("Plan (simulator what-if, cumulative; each step changes one variable)") + "\n";
  o += wrap("objective: " + p.objective.text, opt.width, "      ", "    ");
  o += wrap("now (simulated): " + plan_state(p.before), opt.width, "      ", "    ");
  for (size_t i = 0; i < p.steps.size(); ++i) {
    const auto& s = p.steps[i];
    o += wrap(fmt::format("{}. {} {} -> {}: {} (+-{:.0f}% TTFT, +-{:.0f}% TPOT/throughput){}", i + 1, s.change, s.from, s.to,
                          plan_state(s.after), s.ttft_uncertainty * 100, s.tpot_uncertainty * 100,
                          s.met ? ": objective met" : ""),
              opt.width, "       ", "    ");
    if (!s.sizing.empty()) o += wrap("sized: " + s.sizing, opt.width, "       ");
  }
  std::string end;
  if (p.met_at_step && *p.met_at_step == 0) end = "The objective is met before any change (as simulated).";
  else if (p.met) end = fmt::format("The objective is met at step {} (predicted).", *p.met_at_step);
  else end = "The plan does not reach the objective: " + (p.shortfall.empty() ? std::string("no step helps") : p.shortfall) + ".";
  if (!p.notes.empty()) end += " Note: " + p.notes + ".";
  end += fmt::format(" ({} simulations)", p.simulations);
  o += wrap(end, opt.width, "    ");
}

std::string heading(const std::string& title, const TextOptions& opt, const Style& st) {
  if (!opt.headings) return title + "\n";
  std::string rule;
  for (size_t i = title.size() + 4; i < std::min<size_t>(opt.width, 72); ++i) rule += "─";
  return st.bold("── " + title + " " + rule) + "\n";
}

}  // namespace

std::string render_text(const Report& r, const TextOptions& opt) {
  Style st{opt.color};
  std::string o;
  // What was asked.
  std::string sym;
  for (auto s : r.symptoms) sym += (sym.empty() ? "" : ", ") + std::string(diagnose::to_string(s));
  if (sym.empty()) sym = "none seen";
  o += st.bold("llmtriage diagnose") + "  symptom" + (r.symptoms.size() > 1 ? "s: " : ": ") + sym +
       (r.symptoms_detected ? " (detected from the evidence)" : " (as reported)") + "\n\n";

  // Verdict first.
  // Green is for a healthy report only: "no cause located" with a symptom seen or a layer not
  // judged is an open question, not good news.
  const bool good = healthy(r);
  auto verdict_colour = [&](const std::string& s) {
    return good ? st.green(s) : !r.symptoms.empty() ? st.severity(Severity::warning, s) : st.bold(s);
  };
  if (r.findings.empty()) {
    o += st.bold("VERDICT") + "  " + verdict_colour("no cause located") + "\n";
    size_t nj = 0;
    for (const auto& l : r.layers) nj += l.state == LayerVerdict::State::not_judged;
    o += nj ? wrap(fmt::format("{} layer(s) could not be judged for lack of evidence (below): this is not a clean "
                               "bill of health.",
                               nj),
                   opt.width, "  ")
            : "  Every layer was judged and cleared.\n";
  } else if (r.findings.front().status == "suspected") {
    // No rule proved a cause: the best explanation is a guess, and says so.
    o += st.bold("VERDICT") + "  " + st.severity(Severity::warning, "no cause located; the most likely cause, suspected") +
         ":\n\n";
    top_finding(o, r.findings.front(), opt, st, "SUSPECTED");
  } else if (r.findings.front().severity == Severity::info) {
    // Only contributing factors: say so before showing the strongest of them.
    o += st.bold("VERDICT") + "  " + verdict_colour("no cause located at warning or above") + "; the strongest lead:\n\n";
    top_finding(o, r.findings.front(), opt, st, "LEAD");
  } else {
    top_finding(o, r.findings.front(), opt, st, "VERDICT");
  }

  if (!r.findings.empty()) plan_section(o, r.plan, opt, st);

  // The other findings: flat, or under layer headings.
  if (r.findings.size() > 1) {
    o += "\n" + heading(fmt::format("Other findings ({})", r.findings.size() - 1), opt, st);
    if (opt.headings) {
      for (auto layer : diagnose::all_layers()) {
        bool any = false;
        for (size_t i = 1; i < r.findings.size(); ++i) {
          if (r.findings[i].layer != layer) continue;
          if (!any) o += " " + st.bold(layer_title(layer)) + "\n";
          any = true;
          other_finding(o, i + 1, r.findings[i], opt, st, false);
        }
      }
    } else {
      for (size_t i = 1; i < r.findings.size(); ++i) other_finding(o, i + 1, r.findings[i], opt, st, true);
    }
  }

  // Layers.
  bool any_cleared = false, any_nj = false;
  for (const auto& l : r.layers) {
    any_cleared |= l.state == LayerVerdict::State::cleared;
    any_nj |= l.state == LayerVerdict::State::not_judged;
  }
  if (any_cleared) {
    o += "\n" + heading("Cleared", opt, st);
    for (const auto& l : r.layers) {
      if (l.state != LayerVerdict::State::cleared) continue;
      o += "  " + st.green(layer_title(l.layer)) + "\n";
      for (const auto& e : l.evidence) o += "     - " + evidence_line(e, st) + "\n";
    }
  }
  if (any_nj) {
    o += "\n" + heading("Not judged", opt, st);
    for (const auto& l : r.layers) {
      if (l.state != LayerVerdict::State::not_judged) continue;
      o += wrap(std::string(layer_title(l.layer)) + ": " + (l.why.empty() ? "no evidence for this layer" : l.why),
                opt.width, "  ");
    }
  }
  // Missing evidence, less what the "Not judged" section already says.
  const std::vector<std::string> missing = missing_beyond_layers(r);
  if (!missing.empty()) {
    o += "\n" + heading("Missing evidence", opt, st);
    for (const auto& m : missing) o += wrap(m, opt.width, "    ", "  - ");
  }

  // Inputs.
  o += "\n" + heading("Inputs", opt, st);
  if (r.inputs.empty()) o += "  none\n";
  for (const auto& i : r.inputs) {
    o += "  " + (i.ok ? st.green("ok  ") : st.severity(Severity::critical, "FAIL")) + " " + fmt::format("{:<13}", i.kind) +
         " " + core::printable(i.source) + (i.note.empty() ? "" : ": " + core::printable(i.note)) + "\n";
  }
  // The snapshot's path once: in the top finding's precaution when it has one, else here.
  const bool path_said = !r.findings.empty() && !group_remedies(r.findings.front()).precautions.empty();
  if (r.snapshot_path && !path_said)
    o += "\nSnapshot kept at " + st.bold(*r.snapshot_path) + " (keep it until the cause is fixed)\n";
  if (opt.definitions) o += "\n" + st.dim("TTFT/TPOT/ITL as defined in " + r.definitions) + "\n";
  return o;
}

}  // namespace llmtriage::report
