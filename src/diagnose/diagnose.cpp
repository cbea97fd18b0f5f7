// The traversal (docs/rules.md, "The method"): indicators, symptoms, every layer analyzer in
// order, triangulation, ranking, capture-before-restart, what could not be judged.
#include "diagnose/diagnose.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <fmt/format.h>

#include "diagnose/analyzers.h"
#include "diagnose/indicators.h"
#include "diagnose/plan.h"
#include "diagnose/rule_util.h"
#include "diagnose/suspects.h"
#include "ingest/log_signatures.h"
#include "ledger/remedy_flags.h"

namespace llmtriage::diagnose {

namespace {

// Detected symptoms are listed most specific first: a crash or a failed request says more
// about where to look than a slow one.
std::vector<Symptom> detect_symptoms(const Indicators& ind, const DiagnoseInput& in) {
  const Thresholds& th = in.thresholds;
  auto v = [&](const char* n) { return ind.get(n); };
  auto at_least = [&](const char* n, double t) { auto x = v(n); return x && *x >= t; };
  std::vector<Symptom> s;
  if (at_least("startup_oom_events", 1) || at_least("max_len_exceeds_kv_events", 1)) s.push_back(Symptom::startup_oom);
  const double runtime_oom = v("oom_events").value_or(0) - v("startup_oom_events").value_or(0);
  // Per second or per request: a long quiet window dilutes the rate of a storm, not its share.
  if (runtime_oom > 0 || at_least("preemptions_per_s", th.get("sched.preemption_rate_per_s")) ||
      at_least("preemptions_per_request", th.get("traverse.preemptions_per_request")) ||
      (!v("preemptions_per_s") && at_least("preemption_events", 1)))
    s.push_back(Symptom::runtime_oom_or_preemption);
  const auto gw = v("gateway_timeout_s");
  const auto ttft99 = v("ttft_p99_s");
  const bool stuck = v("running_max") == 0.0 && at_least("waiting_max", 1);  // requests that never start
  if (at_least("timeout_error_share", th.get("gateway.timeout_error_share")) ||
      at_least("stream_break_share", th.get("gateway.stream_break_share")) || (gw && ttft99 && *gw < *ttft99) || stuck ||
      (!v("records_count") && at_least("error_rate", in.slo.error_rate) && in.slo.error_rate > 0))
    s.push_back(Symptom::timeout_or_stream_break);
  const bool forced = v("ignore_eos_share").value_or(0) >= 0.5;
  if (at_least("template_marker_share", th.get("numeric.template_marker_share")) ||
      at_least("repetitive_output_share", th.get("numeric.repetitive_output_share")) ||
      at_least("garbled_output_share", th.get("numeric.garbled_output_share")) ||
      at_least("truncation_events", th.get("numeric.truncation_events")) ||
      at_least("inputs_at_max_model_len_share", th.get("numeric.pinned_input_share")) ||
      (!forced && v("max_tokens_inferred") == 0.0 && at_least("output_len_max_share", th.get("load.max_tokens_cutoff_share")) &&
       at_least("max_tokens_mode", th.get("load.max_tokens_min"))))
    s.push_back(Symptom::output_quality);
  // An operator who states the benchmark's figure is comparing throughput: that symptom leads
  // the latency ones (an offline batch has a long TTFT by construction).
  if (auto o = v("output_tokens_per_s"), e = v("expected_output_tokens_per_s");
      o && e && *e > 0 && *o < *e * th.get("traverse.throughput_shortfall_ratio"))
    s.push_back(Symptom::throughput_low);
  // Against a healthy baseline (--baseline-*): a latency that grew by traverse.baseline_latency_ratio
  // (and by an absolute floor, so microseconds of jitter are not a symptom) is the symptom even
  // inside an absolute SLO the service was never near.
  auto grew = [&](std::initializer_list<const char*> names, const char* floor) {
    for (const char* n : names) {
      const auto now = v(n), base = ind.base(n);
      if (now && base && *base > 0 && *now >= *base * th.get("traverse.baseline_latency_ratio") &&
          *now - *base >= th.get(floor))
        return true;
    }
    return false;
  };
  if ((ttft99 && *ttft99 > in.slo.ttft_p99_s) || grew({"ttft_p50_s", "ttft_p99_s"}, "traverse.baseline_ttft_floor_s"))
    s.push_back(Symptom::ttft_spike);
  if (auto t = v("tpot_p99_s");
      (t && *t > in.slo.tpot_p99_s) || grew({"tpot_p50_s", "tpot_p99_s"}, "traverse.baseline_tpot_floor_s"))
    s.push_back(Symptom::tpot_high);
  if (at_least("one_token_output_share", th.get("load.one_token_share")) &&
      std::find(s.begin(), s.end(), Symptom::throughput_low) == s.end() && v("expected_output_tokens_per_s"))
    s.push_back(Symptom::throughput_low);
  return s;
}

// Quantities more than one source measures (docs/rules.md, "Triangulation").
struct Overlap {
  const char* quantity;
  Layer layer;
  std::vector<const char*> reads;  // indicators whose findings gain from agreement
};

bool agree(double a, double b, double rel, double abs_floor) {
  return std::fabs(a - b) <= std::max(abs_floor, rel * std::max(std::fabs(a), std::fabs(b)));
}

void boost(std::vector<Finding>& fs, const std::vector<const char*>& reads, double by, const std::string& note) {
  for (auto& f : fs) {
    bool hit = false;
    for (const auto& e : f.evidence)
      for (const char* n : reads) hit |= e.indicator == n;
    if (!hit) continue;
    f.confidence = std::min(0.95, f.confidence + by);
    f.explanation += " " + note;
  }
}

Finding disagreement(const std::string& what, Layer layer, const std::vector<Symptom>& symptoms, EvidenceItem a, EvidenceItem b) {
  Finding f;
  f.id = "evidence_disagreement";
  f.layer = layer;
  f.symptom = symptoms.empty() ? Symptom::ttft_spike : symptoms.front();
  f.severity = Severity::info;
  f.confidence = 0.6;
  f.title = fmt::format("Sources disagree on {}: {} vs {}", what, a.value ? num(*a.value) : "?", b.value ? num(*b.value) : "?");
  f.explanation = "Two sources measure the same quantity and do not agree, so a cause read from either is less certain: the "
                  "inputs may come from different engines, windows or restarts, or one source is misconfigured (another "
                  "model's log, a dashboard on another cluster, settings that changed since startup).";
  f.evidence = {std::move(a), std::move(b)};
  f.next_measurement = "check that every input is from the same engine, model and time window";
  return f;
}

void triangulate(const DiagnoseInput& in, const Indicators& ind, const std::vector<Symptom>& symptoms, std::vector<Finding>& fs) {
  const double tol = in.thresholds.get("triangulate.rel_tolerance");
  const double by = in.thresholds.get("triangulate.confidence_boost");
  std::vector<Finding> added;
  // KV pool size: metrics (cache_config / max_total_num_tokens), the startup log line, the ledger.
  {
    const char* names[] = {"kv_capacity_tokens_metrics", "kv_capacity_tokens_log", "ledger_kv_tokens"};
    std::vector<const char*> have;
    for (const char* n : names)
      if (ind.get(n)) have.push_back(n);
    bool all_agree = have.size() >= 2;
    for (size_t i = 0; i < have.size(); ++i)
      for (size_t j = i + 1; j < have.size(); ++j)
        if (!agree(*ind.get(have[i]), *ind.get(have[j]), tol, 16)) {
          all_agree = false;
          added.push_back(disagreement("KV cache capacity (tokens)", Layer::scheduling_capacity, symptoms, ind.item(have[i]), ind.item(have[j])));
        }
    if (all_agree)
      boost(fs, {"kv_capacity_tokens", "kv_capacity_tokens_metrics", "kv_capacity_tokens_log", "ledger_kv_tokens", "kv_usage",
                 "kv_usage_max", "kv_usage_mean"},
            by, fmt::format("The KV pool size agrees across {} sources.", have.size()));
  }
  // Preemptions: the metrics counter vs the log's warnings inside the metrics window. vLLM V0 logs
  // one warning per 50 preemptions, so only presence/absence is compared.
  if (auto total = ind.get("preemptions_total"); total && !in.now.engine_samples.empty()) {
    double t0 = in.now.engine_samples.front().t_s, t1 = t0;
    for (const auto& s : in.now.engine_samples) {
      t0 = std::min(t0, s.t_s);
      t1 = std::max(t1, s.t_s);
    }
    size_t in_window = 0;
    bool timed = false;
    // A log whose timestamps lack a year (vLLM prints MM-DD) is on its own relative timeline; its
    // times cannot be placed inside a metrics window taken in unix time (label set by the reader).
    auto same_clock = [](const core::Event& e) {
      auto it = e.labels.find("time_base");
      return it == e.labels.end() || it->second == "unix";
    };
    for (const auto& e : in.now.events)
      if (e.kind == core::EventKind::preemption && e.t_s && same_clock(e)) {
        timed = true;
        in_window += *e.t_s >= t0 && *e.t_s <= t1;
      }
    if (timed) {
      if ((*total > 0) == (in_window > 0)) {
        if (*total > 0) boost(fs, {"preemptions_per_s", "preemptions_total", "preemption_events"}, by, "Metrics and logs both show the preemptions.");
      } else {
        EvidenceItem logs;
        logs.indicator = "preemption_events";
        logs.value = static_cast<double>(in_window);
        logs.unit = "count";
        logs.source = "logs, inside the metrics window";
        added.push_back(disagreement("preemptions", Layer::scheduling_capacity, symptoms, ind.item("preemptions_total"), logs));
      }
    }
  }
  // Dashboard readings vs the files they replaced.
  struct Pair {
    const char* name;
    double floor;
  };
  for (Pair p : {Pair{"running", 2}, Pair{"waiting", 2}, Pair{"kv_usage", 0.05}, Pair{"preemptions_per_s", 0.1},
                 Pair{"kv_capacity_tokens", 16}}) {
    auto it = ind.replaced.find(p.name);
    if (it == ind.replaced.end()) continue;
    const double obs = *ind.get(p.name);
    if (agree(obs, it->second.value, tol, p.floor)) {
      boost(fs, {p.name}, by, fmt::format("The reading {} = {} agrees with the files ({}).", p.name, num(obs), num(it->second.value)));
    } else {
      EvidenceItem files;
      files.indicator = p.name;
      files.value = it->second.value;
      files.unit = ind.item(p.name).unit;
      files.source = it->second.source;
      added.push_back(disagreement(p.name, Layer::scheduling_capacity, symptoms, ind.item(p.name), files));
    }
  }
  for (auto& f : added) fs.push_back(std::move(f));
}

size_t symptom_rank(const std::vector<Symptom>& symptoms, Symptom s) {
  auto it = std::find(symptoms.begin(), symptoms.end(), s);
  return it == symptoms.end() ? symptoms.size() : static_cast<size_t>(it - symptoms.begin());
}

size_t layer_rank(Layer l) {
  const auto& all = all_layers();
  return static_cast<size_t>(std::find(all.begin(), all.end(), l) - all.begin());
}

// Most likely first: critical; then the reported symptoms in their order; then warnings before
// contributing factors; then upstream layers before downstream (the method); then confidence
// weighted by the share explained.
void rank(std::vector<Finding>& fs, const std::vector<Symptom>& symptoms) {
  auto key = [&](const Finding& f) {
    const double weight = f.confidence * f.explains.value_or(0.5);
    return std::make_tuple(f.severity == Severity::critical ? 0 : 1, symptom_rank(symptoms, f.symptom),
                           f.severity == Severity::info ? 1 : 0, layer_rank(f.layer), -weight);
  };
  std::stable_sort(fs.begin(), fs.end(), [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
}

// Thin evidence: the ranked suspected causes (suspects.h). Located findings at warning or above
// stay first; suspects follow them, and lead when no rule located anything at warning. A layer a
// located suspect points at is at fault (with that finding's evidence), not cleared or unjudged.
void add_suspects(const DiagnoseInput& in, const Indicators& ind, Report& rep) {
  if (!cause_table_problem().empty())
    rep.missing.push_back("suspected causes not ranked: the cause table could not be read: " + cause_table_problem());
  if (!ingest::signature_table_problem().empty())
    rep.missing.push_back("log signatures not matched: the signature table could not be read: " + ingest::signature_table_problem());
  std::vector<Finding> sus;
  try {
    sus = suspect(in, ind, rep.symptoms);
  } catch (const std::exception& e) {
    rep.missing.push_back(fmt::format("suspected causes not ranked (internal error: {})", e.what()));
    return;
  }
  if (sus.empty()) return;
  std::vector<Finding> strong, weak;
  for (auto& f : rep.findings) (f.severity == Severity::info ? weak : strong).push_back(std::move(f));
  rep.findings.clear();
  for (auto& f : strong) rep.findings.push_back(std::move(f));
  // Without a located warning, a suspect leads an info-level rule finding only when its evidence
  // is stronger than a guess.
  std::vector<Finding> later;
  for (auto& f : sus) {
    const bool lead = strong.empty() && (weak.empty() || f.severity != Severity::info || f.confidence >= 0.5);
    (lead ? rep.findings : later).push_back(std::move(f));
  }
  for (auto& f : weak) rep.findings.push_back(std::move(f));
  for (auto& f : later) rep.findings.push_back(std::move(f));
  for (const auto& f : rep.findings) {
    if (f.status != "located" || f.severity == Severity::info) continue;
    for (auto& l : rep.layers)
      if (l.layer == f.layer && l.state != LayerVerdict::State::at_fault) {
        l.state = LayerVerdict::State::at_fault;
        l.why.clear();
        l.evidence = f.evidence;
        const std::string prefix = std::string(to_string(l.layer)) + ": not judged";
        rep.missing.erase(std::remove_if(rep.missing.begin(), rep.missing.end(),
                                         [&](const std::string& m) { return m.rfind(prefix, 0) == 0; }),
                          rep.missing.end());
      }
  }
}

// Remedies in the words of the engine diagnosed (data/engines/remedy_flags.jsonl): a llama.cpp,
// Ollama, TGI or TensorRT-LLM server is never told to set a vLLM flag; where the engine has no
// such knob the remedy says so and what to do instead. vLLM/SGLang names are kept as written
// (the rules write them, the drills apply them by name).
void localize_remedies(const core::Evidence& ev, std::vector<Finding>& findings) {
  core::EngineKind engine = ev.deployment.engine;
  if (engine == core::EngineKind::unknown)
    for (const auto& s : ev.engine_samples)
      if (s.engine != core::EngineKind::unknown) {
        engine = s.engine;
        break;
      }
  if (engine != core::EngineKind::llamacpp && engine != core::EngineKind::ollama && engine != core::EngineKind::tgi &&
      engine != core::EngineKind::trtllm)
    return;
  const int64_t slots = ev.deployment.settings.max_num_seqs.value_or(0);
  for (auto& f : findings)
    for (auto& r : f.remedies) {
      if (r.kind != Remedy::Kind::change) continue;
      ledger::LocalRemedy l = ledger::localize_remedy(r.change, engine, r.to, slots);
      if (!l.known) continue;
      if (l.exists) {
        r.from = ledger::localize_remedy(r.change, engine, r.from, slots).to;  // "auto" -> "f16"
        r.change = l.flag;
        r.to = l.to;
        if (!l.note.empty() && r.predicted_effect.find(l.note) == std::string::npos)
          r.predicted_effect += (r.predicted_effect.empty() ? "" : "; ") + l.note;
      } else {
        r.change = fmt::format("{} (no {} knob)", l.meaning, core::to_string(engine));
        r.predicted_effect = l.note + (r.predicted_effect.empty() ? "" : "; as modelled: " + r.predicted_effect);
      }
    }
}

}  // namespace

Report diagnose(const DiagnoseInput& in) {
  Report rep;
  rep.snapshot_path = in.snapshot_path;
  const Indicators ind = build_indicators(in);
  rep.symptoms = in.symptoms;
  if (rep.symptoms.empty()) {
    rep.symptoms_detected = true;
    try {
      rep.symptoms = detect_symptoms(ind, in);
    } catch (const std::exception& e) {
      rep.missing.push_back(fmt::format("symptoms not detected (internal error: {}); give --symptom", e.what()));
    }
  }
  const Context ctx{in, ind, rep.symptoms, in.thresholds};
  using Analyzer = LayerResult (*)(const Context&);
  const std::pair<Layer, Analyzer> order[] = {{Layer::load, analyze_load},
                                              {Layer::scheduling_capacity, analyze_scheduling},
                                              {Layer::operator_hardware, analyze_hardware},
                                              {Layer::numeric_parameter, analyze_numeric},
                                              {Layer::gateway_client, analyze_gateway}};
  for (const auto& [layer, fn] : order) {
    LayerResult r;
    try {
      r = fn(ctx);
    } catch (const std::exception& e) {
      // A bug in one rule must not cost the whole diagnosis: the layer is reported not judged.
      r = LayerResult{};
      r.verdict.state = LayerVerdict::State::not_judged;
      r.verdict.why = fmt::format("internal error in the {} analyzer: {}", to_string(layer), e.what());
    }
    r.verdict.layer = layer;
    // A layer is cleared only by a value that clears it.
    if (r.verdict.state == LayerVerdict::State::cleared && r.verdict.evidence.empty()) {
      r.verdict.state = LayerVerdict::State::not_judged;
      if (r.verdict.why.empty()) r.verdict.why = "no reading of this layer's indicators was recorded";
    }
    for (auto& f : r.findings) {
      f.layer = layer;
      f.confidence = std::clamp(f.confidence, 0.0, 1.0);
      rep.findings.push_back(std::move(f));
    }
    if (r.verdict.state == LayerVerdict::State::not_judged)
      rep.missing.push_back(fmt::format("{}: not judged: {}", to_string(layer),
                                        r.verdict.why.empty() ? "no evidence for its indicators" : r.verdict.why));
    else if (layer == Layer::load && ind.baseline.empty() && !r.verdict.why.empty())
      rep.missing.push_back(fmt::format("load: {}", r.verdict.why));
    rep.layers.push_back(std::move(r.verdict));
  }
  triangulate(in, ind, rep.symptoms, rep.findings);
  // A located cause at warning or above answers a symptom even when the SLO check did not see it
  // (a rule read a baseline, a dashboard reading, a log): the header lists it, after the detected ones.
  if (rep.symptoms_detected)
    for (const auto& f : rep.findings)
      if (f.severity != Severity::info && std::find(rep.symptoms.begin(), rep.symptoms.end(), f.symptom) == rep.symptoms.end())
        rep.symptoms.push_back(f.symptom);
  rank(rep.findings, rep.symptoms);
  add_suspects(in, ind, rep);

  // A change predicted to do nothing (within its uncertainty) or harm is not offered as a fix.
  for (auto& f : rep.findings) order_remedies(f.remedies);
  // The shortest plan the simulator predicts to meet the objective (plan.h); it also re-sizes the
  // replica remedies by search. Before localization: it reads the remedies' own variable names.
  try {
    rep.plan = plan_remedies(in, ind, rep);
  } catch (const std::exception& e) {
    rep.plan = RemedyPlan{};
    rep.plan.why_not = fmt::format("internal error in the plan search: {}", e.what());
  }
  const bool severe = std::any_of(rep.findings.begin(), rep.findings.end(),
                                  [](const Finding& f) { return f.severity != Severity::info; });
  if (in.live && severe) {
    Remedy keep;
    keep.kind = Remedy::Kind::precaution;
    keep.change = "capture before restart";
    keep.to = in.snapshot_path ? "keep " + *in.snapshot_path : "take and keep a snapshot (llmtriage snapshot)";
    keep.predicted_effect = "the evidence of this incident survives the restart (metrics, engine args, logs, GPU state)";
    keep.basis = "qualitative";
    auto& rem = rep.findings.front().remedies;
    rem.insert(rem.begin(), std::move(keep));
  }

  localize_remedies(in.now, rep.findings);
  for (const auto& n : in.now.inputs) rep.inputs.push_back({n.source, n.kind, n.ok, n.note});
  if (in.baseline)
    for (const auto& n : in.baseline->inputs) rep.inputs.push_back({n.source, "baseline " + n.kind, n.ok, n.note});
  if (!in.observations.now.empty() || !in.observations.baseline.empty()) {
    std::string names;
    for (const auto& [k, v] : in.observations.now) names += (names.empty() ? "" : ", ") + k;
    for (const auto& [k, v] : in.observations.baseline) names += (names.empty() ? "baseline_" : ", baseline_") + k;
    rep.inputs.push_back({"--observe", "observe", true,
                          fmt::format("{} reading(s): {}", in.observations.now.size() + in.observations.baseline.size(), names)});
  }
  for (const auto& n : in.now.inputs)
    if (!n.ok) rep.missing.push_back(fmt::format("{} ({}) could not be read: {}", n.source, n.kind, n.note));
  if (auto cut = ind.get("records_cut"); cut && *cut > 0)
    rep.missing.push_back(fmt::format("partial run: {:.0f} request(s) were cut by the run's end (interrupt, deadline) or "
                                      "never sent; rates and shares are from the requests that ran",
                                      *cut));
  return rep;
}

}  // namespace llmtriage::diagnose
