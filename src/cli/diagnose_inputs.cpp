#include "cli/diagnose_inputs.h"

#include <fmt/format.h>

#include "cli/judgement_flags.h"
#include "inputs/text_files.h"

namespace llmtriage::cli {

core::Result<Gathered> gather_inputs(const DiagnoseFlags& f, const LiveProgress& progress) {
  // A symptom alone is an input: the report then gives the checklist's ranked causes for it.
  const bool any_input = !f.symptoms.empty() || !f.endpoint.empty() || !f.snapshots.empty() || !f.logs.empty() || !f.records.empty() ||
                         !f.benches.empty() || !f.engine_args.empty() || !f.model.empty() || !f.outputs.empty() ||
                         !f.observe.empty() || !f.observe_files.empty() || !f.metrics_files.empty() || !f.gpu_files.empty();
  if (!any_input)
    return core::make_error(core::ErrorKind::usage, "diagnose", "at least one input",
                            "none", "Give --endpoint URL, --snapshot FILE, --metrics-file FILE, --log FILE, --records FILE, --bench DIR, "
                            "--engine-args \"...\" with --model/--gpu, --outputs FILE or --observe NAME=VALUE.");
  Gathered g;
  auto& in = g.input;

  // Judgement flags first: a typo there is a usage error before any capture starts.
  if (auto st = parse_symptoms(f.symptoms, in.symptoms); !st) return std::move(st).error();
  if (auto st = apply_slo_and_thresholds(f.slo, f.thresholds_file, in.slo, in.thresholds); !st) return std::move(st).error();
  for (const auto& o : f.observe)
    if (auto st = add_observation_suggesting(in.observations, o, "--observe"); !st) return std::move(st).error();
  std::vector<core::InputNote> observe_notes;
  for (const auto& r : inputs::read_readings_files(f.observe_files, observe_notes))
    if (auto st = add_observation_suggesting(in.observations, r.text, r.where); !st) return std::move(st).error();
  in.what_if = !f.no_what_if;
  if (f.tp && *f.tp < 1) return core::make_error(core::ErrorKind::usage, "--tp", "an integer >= 1", std::to_string(*f.tp));

  auto assembled = inputs::assemble(f, progress);
  if (!assembled) return std::move(assembled).error();
  inputs::Assembled& a = *assembled;
  // The readings files come first under Inputs, as they were named first.
  for (const auto& n : observe_notes)
    if (!n.ok) g.warnings.push_back(fmt::format("{} {}: {}", n.kind, n.source, n.note));
  for (auto& w : a.warnings) g.warnings.push_back(std::move(w));
  a.now.inputs.insert(a.now.inputs.begin(), observe_notes.begin(), observe_notes.end());
  in.now = std::move(a.now);
  in.baseline = std::move(a.baseline);
  in.snapshot_path = std::move(a.snapshot_path);
  in.live = a.live;
  // Thin evidence is evidence: the reported symptom, the launch text, the names as typed. A name or
  // an unparsed token never ends the run (the Inputs section says what was not understood).
  in.launch_text = f.engine_args;
  in.model_as_given = f.model;
  in.gpu_as_given = f.gpu;
  g.any_evidence = a.any_evidence || !in.observations.now.empty() || !in.symptoms.empty();
  return g;
}

}  // namespace llmtriage::cli
