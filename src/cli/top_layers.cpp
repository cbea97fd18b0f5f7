// The live view's layer lines from diagnose::diagnose (cli/top_layers.h). No second rule set: the
// same analyzers and thresholds as `llmtriage diagnose`, over the last window's samples.
#include "cli/top_layers.h"

#include <algorithm>

#include "core/units.h"
#include "diagnose/diagnose.h"
#include "report/diagnose_format.h"

namespace llmtriage::cli {
namespace {

// "waiting_p50 12 requests > 4 requests"
std::string reading(const diagnose::EvidenceItem& e) {
  std::string s = e.indicator;
  if (e.value) s += " " + core::format_quantity(*e.value, e.unit);
  else if (!e.text.empty()) s += " " + e.text;
  if (e.threshold && !e.op.empty()) s += " " + e.op + " " + core::format_quantity(*e.threshold, e.unit);
  return s;
}

}  // namespace

std::vector<collect::LayerLine> judge_layers(const collect::Snapshot& recent) {
  diagnose::DiagnoseInput in;
  in.now = collect::snapshot_to_evidence(recent);
  in.live = true;
  in.what_if = false;  // remedies' simulator predictions are not shown here: keep a refresh cheap
  diagnose::Report r = diagnose::diagnose(in);
  std::vector<collect::LayerLine> out;
  for (diagnose::Layer layer : diagnose::all_layers()) {
    collect::LayerLine l;
    l.layer = diagnose::to_string(layer);
    const diagnose::Finding* top = nullptr;
    int more = 0;
    for (const auto& f : r.findings) {
      if (f.layer != layer) continue;
      if (!top) top = &f;
      else ++more;
    }
    const diagnose::LayerVerdict* v = nullptr;
    for (const auto& x : r.layers)
      if (x.layer == layer) v = &x;
    if (top) {
      l.state = top->status == "suspected" ? "suspected" : diagnose::to_string(top->severity);
      l.text = top->title;
      // The state column already says "suspected".
      for (const char* prefix : {"Suspected: ", "suspected: "})
        if (l.text.rfind(prefix, 0) == 0) l.text = l.text.substr(std::string(prefix).size());
      if (more) l.text = "[+" + std::to_string(more) + " more] " + l.text;
      // An alert says its remedy: a located finding at warning or above, its first listed fix
      // (the text report's wording: the engine's flag, from -> to, and what it changes).
      if (top->status != "suspected" && top->severity >= diagnose::Severity::warning)
        for (const auto& rem : top->remedies)
          if (rem.kind == diagnose::Remedy::Kind::change && diagnose::listed_as_fix(rem)) {
            l.fix = report::format_change(rem);
            if (const std::string e = report::format_effect(rem); !e.empty()) l.fix += ": " + e;
            break;
          }
      for (const auto& e : top->evidence)
        if (e.value) {
          l.text += " (" + reading(e) + ")";
          break;
        }
    } else if (v && v->state == diagnose::LayerVerdict::State::cleared) {
      l.state = "clear";
      for (size_t i = 0; i < v->evidence.size() && i < 3; ++i) l.text += (i ? ", " : "") + reading(v->evidence[i]);
    } else {
      l.state = "not judged";
      l.text = v ? v->why : "no evidence for this layer";
      // What is missing, without diagnose's list of flags to give it (top has only --dcgm).
      if (size_t c = std::min(l.text.find(": "), l.text.find(" (")); c != std::string::npos) l.text.resize(c);
      if (layer == diagnose::Layer::operator_hardware && l.text.find("GPU") != std::string::npos)
        l.text += ": give --dcgm URL, or run top on the GPU's host";
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace llmtriage::cli
