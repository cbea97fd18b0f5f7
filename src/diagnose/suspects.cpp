// Ranked suspected causes from thin evidence: the cause table, the scoring, the findings.
// The clues themselves are in suspect_clues.cpp; method in docs/rules.md ("Suspected causes").
#include "diagnose/suspects.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/files.h"
#include "diagnose/rule_util.h"

namespace llmtriage::diagnose {
namespace {

// Probability left for causes the table does not list (a bug, a version regression nobody
// named): keeps a weakly supported guess from reading as certain.
constexpr double kUnlistedPrior = 0.08;
// A prior for a cause the symptom's row does not name.
constexpr double kFloorPrior = 0.004;
// Signature and clue weights for one cause are capped: ten lines of the same story are not ten
// independent witnesses.
constexpr double kMaxSupport = 6.0;
constexpr double kMaxAgainst = -4.0;

std::string symptom_key(Symptom s) { return to_string(s); }

}  // namespace

core::Result<std::vector<Cause>> parse_causes(const std::string& text, const std::string& where) {
  std::vector<Cause> out;
  std::istringstream in(text);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    size_t a = line.find_first_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    const std::string at = where + ":" + std::to_string(n);
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return core::make_error(core::ErrorKind::input, at, "one JSON object per line", line.substr(0, 60));
    Cause c;
    c.id = j.value("id", "");
    auto layer = layer_from_string(j.value("layer", ""));
    if (c.id.empty()) return core::make_error(core::ErrorKind::input, at + " id", "a cause id", "none");
    if (!layer) return core::make_error(core::ErrorKind::input, at + " layer", "a layer name", j.value("layer", ""));
    c.layer = *layer;
    c.title = j.value("title", "");
    c.explanation = j.value("explanation", "");
    c.confirm = j.value("confirm", "");
    c.source = j.value("source", "");
    if (j.contains("remedy") && j["remedy"].is_object()) {
      const auto& r = j["remedy"];
      c.remedy.change = r.value("change", "");
      c.remedy.from = r.value("from", "");
      c.remedy.to = r.value("to", "");
      c.remedy.predicted_effect = r.value("effect", "");
      c.remedy.basis = "qualitative";
    }
    if (j.contains("by_engine") && j["by_engine"].is_object())
      for (auto it = j["by_engine"].begin(); it != j["by_engine"].end(); ++it)
        if (it->is_string()) c.by_engine[it.key()] = it->get<std::string>();
    if (j.contains("prior") && j["prior"].is_object())
      for (auto it = j["prior"].begin(); it != j["prior"].end(); ++it) {
        if (!it->is_number() || it->get<double>() <= 0 || it->get<double>() > 1)
          return core::make_error(core::ErrorKind::input, at + " prior." + it.key(), "a probability in (0, 1]", it->dump());
        if (it.key() != "none" && !symptom_from_string(it.key()))
          return core::make_error(core::ErrorKind::input, at + " prior", "a symptom name or none", it.key());
        c.prior[it.key()] = it->get<double>();
      }
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

struct CauseTable {
  std::vector<Cause> rows;
  std::string problem;
};

const CauseTable& bundled_causes() {
  static const CauseTable t = [] {
    CauseTable c;
    const std::string path = core::data_dir() + "/diagnose/causes.jsonl";
    auto text = core::read_file(path);
    if (!text) {
      c.problem = text.error().message();
      return c;
    }
    auto rows = parse_causes(*text, path);
    if (rows) c.rows = std::move(*rows);
    else c.problem = rows.error().message();
    return c;
  }();
  return t;
}

}  // namespace

const std::vector<Cause>& causes() { return bundled_causes().rows; }
const std::string& cause_table_problem() { return bundled_causes().problem; }

namespace {

double prior_of(const Cause& c, const std::vector<Symptom>& symptoms) {
  if (symptoms.empty()) {
    auto it = c.prior.find("none");
    return it == c.prior.end() ? kFloorPrior : it->second;
  }
  // Several symptoms: the cause that explains any of them, weighted toward the first named.
  double p = 0, w = 1, wsum = 0;
  for (Symptom s : symptoms) {
    auto it = c.prior.find(symptom_key(s));
    p += w * (it == c.prior.end() ? kFloorPrior : it->second);
    wsum += w;
    w *= 0.5;
  }
  return std::max(kFloorPrior, p / wsum);
}

}  // namespace

std::vector<Finding> suspect(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms,
                             const SuspectOptions& opt) {
  const auto& table = causes();
  if (table.empty()) return {};
  const ClueSet gathered = gather_clues(in, ind, symptoms);
  const std::vector<Clue>& clues = gathered.clues;
  const std::string& engine = gathered.engine;

  struct Scored {
    const Cause* cause = nullptr;
    double prior = 0, support = 0, against = 0, score = 0;
    bool decisive = false;
    std::vector<const Clue*> pro, con;
  };
  std::vector<Scored> scored;
  for (const auto& c : table) {
    Scored sc;
    sc.cause = &c;
    sc.prior = prior_of(c, symptoms);
    scored.push_back(std::move(sc));
  }
  bool any_clue = false;
  for (const auto& cl : clues) {
    for (auto& s : scored) {
      if (s.cause->id != cl.cause) continue;
      any_clue |= cl.weight > 0;
      if (cl.weight >= 0) {
        s.support += cl.weight;
        s.pro.push_back(&cl);
        s.decisive |= cl.decisive;
      } else {
        s.against += cl.weight;
        s.con.push_back(&cl);
      }
    }
  }
  if (symptoms.empty() && !any_clue) return {};
  double total = kUnlistedPrior;
  for (auto& s : scored) {
    s.score = std::log(s.prior) + std::min(s.support, kMaxSupport) + std::max(s.against, kMaxAgainst);
    total += std::exp(s.score);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) { return a.score > b.score; });
  // Without a symptom, only evidence speaks: causes with no clue for them neither lead nor weigh
  // in the layer's mass (a prior-only cause leading would hide the ones the evidence names).
  if (symptoms.empty())
    scored.erase(std::remove_if(scored.begin(), scored.end(), [](const Scored& s) { return s.pro.empty(); }), scored.end());
  if (scored.empty()) return {};
  // The question is which layer the fault is in: the layer holding the most probability leads,
  // through its best cause, even when a single cause of another layer scores higher (five small
  // operator causes outweigh one offload guess). The rest follow by score.
  // A layer with no evidence for any of its causes does not take the lead from a cause the evidence
  // names, however its priors add up: leading with a pure guess over a reading would show the operator
  // the checklist first (docs/rules.md, "Which layer leads"). The engine's family ("a llama.cpp
  // server offloads layers") and the model's kind (a vision model) shift priors for every incident
  // on them; they are not readings of this one, so they do not count.
  const auto observed = [](const Scored& s) {
    return std::any_of(s.pro.begin(), s.pro.end(), [](const Clue* c) {
      return c->item.indicator != "engine" && c->item.indicator != "vision_model";
    });
  };
  std::map<Layer, double> mass;
  std::map<Layer, bool> has_evidence;
  for (const auto& s : scored) {
    mass[s.cause->layer] += std::exp(s.score);
    has_evidence[s.cause->layer] = has_evidence[s.cause->layer] || observed(s);
  }
  Layer top = scored.front().cause->layer;
  const bool front_has_evidence = observed(scored.front());
  for (const auto& [l, m] : mass)
    if (m > mass[top] && (has_evidence[l] || !front_has_evidence)) top = l;
  auto lead = std::find_if(scored.begin(), scored.end(), [&](const Scored& s) { return s.cause->layer == top; });
  if (lead != scored.begin() && lead != scored.end()) std::rotate(scored.begin(), lead, lead + 1);

  std::vector<Finding> out;
  for (size_t i = 0; i < scored.size() && out.size() < opt.max_suspects; ++i) {
    const Scored& s = scored[i];
    const double p = std::exp(s.score) / total;
    if (i > 0 && p < opt.min_confidence) break;
    // Without a symptom, only evidence speaks: a cause with no clue for it is not listed.
    if (symptoms.empty() && s.pro.empty()) continue;
    const Cause& c = *s.cause;
    Finding f;
    f.id = c.id;
    f.layer = c.layer;
    f.symptom = symptoms.empty() ? Symptom::ttft_spike : symptoms.front();
    if (symptoms.empty()) {
      // The symptom the cause is most often behind.
      double best = 0;
      for (const auto& [k, v] : c.prior)
        if (k != "none" && v > best) {
          best = v;
          f.symptom = *symptom_from_string(k);
        }
    }
    f.confidence = std::clamp(p, 0.0, 0.95);
    const bool located = s.decisive && p >= 0.6;
    f.status = located ? "located" : "suspected";
    f.severity = (located || (p >= 0.5 && s.support >= 2.0 && !symptoms.empty())) ? Severity::warning : Severity::info;
    f.title = located ? c.title : "Suspected: " + c.title;
    std::string why;
    if (s.pro.empty())
      why = fmt::format(" No evidence beyond the symptom points here: this is the checklist's prior for {} (p = {}), "
                        "the best guess until the measurement below is taken.",
                        symptoms.empty() ? std::string("no symptom") : std::string(to_string(symptoms.front())),
                        num(s.prior));
    else
      why = fmt::format(" Prior {} {}, moved by {} piece(s) of evidence for{}; confidence {:.0f}% among the "
                        "causes this table knows.",
                        symptoms.empty() ? "with no symptom given" : "for the symptom", num(s.prior), s.pro.size(),
                        s.con.empty() ? std::string() : fmt::format(" and {} against", s.con.size()), 100 * std::min(p, 0.95));
    f.explanation = c.explanation + why;
    for (const Clue* cl : s.pro) f.evidence.push_back(cl->item);
    for (const Clue* cl : s.con) f.against.push_back(cl->item);
    Remedy r = c.remedy;
    if (auto it = c.by_engine.find(engine); it != c.by_engine.end()) r.change = it->second;
    if (!r.change.empty()) f.remedies.push_back(std::move(r));
    f.next_measurement = located ? c.confirm : "to confirm or clear: " + c.confirm;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace llmtriage::diagnose
