#include "inputs/assemble.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/name_guess.h"
#include "collect/capture.h"
#include "collect/redact.h"
#include "ingest/engine_args.h"
#include "ingest/launch_text.h"
#include "inputs/side.h"
#include "inputs/text_files.h"

namespace llmtriage::inputs {
namespace {

std::string default_snapshot_path() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "llmtriage-snapshot-%Y%m%dT%H%M%SZ.json", &tm);
  return buf;
}

core::Status capture_endpoint(EvidenceSide& side, const Sources& f, const LiveProgress& progress,
                              Assembled& out) {
  // Durations were checked (unit, bounds) when the flags were parsed (the caller, cli/option_values.h).
  const double window = f.window_s, interval = f.interval_s;
  collect::LiveOptions lo;
  lo.endpoint = f.endpoint;
  lo.dcgm = f.dcgm;
  lo.api_key = f.api_key;
  lo.window_s = window;
  lo.interval_s = std::min(interval, std::max(window, 0.001));
  lo.capture.engine_args = f.engine_args;
  lo.capture.read_local_gpus = !f.no_local_gpu;
  const std::string path = f.keep_snapshot.empty() ? default_snapshot_path() : f.keep_snapshot;
  // Written after every scrape: an interrupted diagnosis still leaves the evidence on disk.
  // NOTE: collect keeps a failed request's URL, query token included, in its error text; those
  // texts are scrubbed here before anything is written or shown.
  auto clean = [&](collect::Snapshot s) {
    for (auto& fl : s.failures) scrub_secrets(fl.error, side.secrets);
    for (auto& sc : s.scrapes) scrub_secrets(sc.error, side.secrets);
    return s;
  };
  lo.on_progress = [&](const collect::Snapshot& s) {
    (void)collect::write_snapshot(path, clean(s), f.api_key);
    if (progress) progress(s);
  };
  auto captured = collect::capture_live(lo);
  if (!captured) {  // a bad URL: the user's flag
    core::Error e = std::move(captured).error();
    scrub_secrets(e.where, side.secrets);
    scrub_secrets(e.found, side.secrets);
    scrub_secrets(e.detail, side.secrets);
    return e;
  }
  const collect::Snapshot cleaned = clean(std::move(*captured));
  const collect::Snapshot* snap = &cleaned;
  auto st = collect::write_snapshot(path, *snap, f.api_key);
  const size_t ok = ok_scrapes(*snap);
  std::string why;
  for (const auto& fl : snap->failures)
    if (fl.what == "metrics") {
      why = fl.error;
      break;
    }
  std::string url = snap->endpoint.empty() ? collect::redact_url_secrets(f.endpoint) : snap->endpoint;
  side.note(url, "endpoint", ok > 0,
            ok > 0 ? fmt::format("{} of {} scrape(s) ok over {:g} s", ok, snap->scrapes.size(), window)
                   : fmt::format("no scrape succeeded ({}): endpoint down or not an inference server",
                                 why.empty() ? "no answer" : why));
  if (st) {
    out.snapshot_path = std::filesystem::absolute(path).string();
  } else {
    side.note(path, "snapshot", false, "could not keep the snapshot: " + st.error().message());
  }
  add_snapshot(side, *snap, out.snapshot_path.value_or(path), true);
  return core::ok_status();
}

// Launch settings as pasted: read as an engine command line for the ledger, and tolerantly
// (environment lines, Modelfile, YAML, short flags) for what diagnose reads of them.
void read_engine_args(EvidenceSide& now, core::EngineSettings& settings, const std::string& text) {
  auto a = ingest::parse_engine_args(text);
  // Everything pasted is also read tolerantly (environment lines, Modelfile, YAML, short flags).
  const ingest::LaunchSettings loose = ingest::read_launch_text(text);
  std::string loose_note = fmt::format("{} setting(s) read", loose.values.size());
  if (!loose.values.empty()) {
    std::string keys;
    size_t k = 0;
    for (const auto& [key, v] : loose.values)
      if (k++ < 8) keys += (keys.empty() ? "" : ", ") + key;
    loose_note += " (" + keys + (loose.values.size() > 8 ? ", ..." : "") + ")";
  }
  if (!loose.unparsed.empty()) {
    std::string words;
    for (size_t i = 0; i < loose.unparsed.size() && i < 5; ++i) words += (i ? " " : "") + loose.unparsed[i];
    loose_note += fmt::format("; {} word(s) not understood: {}", loose.unparsed.size(), words);
  }
  if (!a) {
    now.note("--engine-args", "engine_args", !loose.values.empty(),
             loose_note + "; not an engine command line the ledger reads (" + a.error().message() + ")");
  } else {
    merge_settings(settings, a->settings);
    if (a->engine != core::EngineKind::unknown) now.ev.deployment.engine = a->engine;
    std::string note = a->engine != core::EngineKind::unknown ? std::string(core::to_string(a->engine)) + " command line"
                                                             : std::string("command line");
    for (const auto& n : a->notes) note += "; " + n;
    if (!a->settings.unmodelled.empty()) note += fmt::format("; {} flag(s) not modelled", a->settings.unmodelled.size());
    now.note("--engine-args", "engine_args", true, note + "; " + loose_note);
  }
}

// The catalog must know the model and the GPU for the ledger; a name it does not know (an
// Ollama tag, a workstation card) is reported, with what the name itself says, and the ledger left out.
void name_model_and_gpu(EvidenceSide& now, const Sources& f, std::vector<std::string>& warnings) {
  const auto& dep = now.ev.deployment;
  if (!dep.model.empty()) {
    auto m = catalog::load_model(dep.model);
    const std::string src = !f.model.empty() ? "--model " + dep.model : dep.model;
    if (!m) {
      // Not in the catalog: what the name itself says is still used (size, quantization, GGUF).
      const auto guess = catalog::guess_model_from_name(dep.model);
      std::string said;
      const bool read_something = guess.params_b || !guess.family.empty() || !guess.quant.empty() || guess.gguf;
      if (read_something)
        for (const auto& n : guess.matched) said += (said.empty() ? "" : ", ") + n;
      const std::string text = said.empty() ? m.error().message() + "; nothing read from the name; the memory ledger is left out"
                                            : "not in the bundled catalog, so the memory ledger is left out; read from the name: " + said;
      if (!said.empty()) warnings.push_back("model " + src + ": " + text);
      now.note(src, "model", !said.empty(), text);
    } else {
      now.note(src, "model", true, "in the catalog");
    }
  }
  if (!dep.gpu.empty()) {
    auto gs = catalog::find_gpu(dep.gpu);
    const std::string src = !f.gpu.empty() ? "--gpu " + dep.gpu : dep.gpu;
    if (!gs) {
      const auto guess = catalog::guess_gpu_from_name(dep.gpu);
      std::string said;
      for (const auto& n : guess.matched) said += (said.empty() ? "" : ", ") + n;
      const std::string text = guess.recognized()
                                   ? "not in the GPU catalog, so the memory ledger and the GPU's limits are left out; read from the name: " + said
                                   : gs.error().message() + "; the memory ledger and the GPU's limits are left out";
      if (guess.recognized()) warnings.push_back("gpu " + src + ": " + text);
      now.note(src, "gpu", guess.recognized(), text);
    } else {
      now.note(src, "gpu", true, fmt::format("{} ({:g} GiB){}", gs->name, gs->memory_gib, gs->assumed.empty() ? "" : "; " + gs->assumed));
    }
  }
}

}  // namespace

core::Result<Assembled> assemble(const Sources& f, const LiveProgress& progress) {
  Assembled out;
  std::vector<std::string> secrets = url_secrets(f.endpoint);
  for (auto& s : url_secrets(f.dcgm)) secrets.push_back(std::move(s));
  if (!f.api_key.empty()) secrets.push_back(f.api_key);
  EvidenceSide now{"", {}, {}, {}, {}, {}, &out.warnings, &f.model, secrets};
  EvidenceSide base{"baseline ", {}, {}, {}, {}, {}, &out.warnings, &f.model, secrets};

  // Evidence, now.
  if (!f.endpoint.empty()) {
    out.live = true;
    if (auto st = capture_endpoint(now, f, progress, out); !st) return std::move(st).error();
  }
  for (const auto& p : f.snapshots) read_snapshot_file(now, p);
  for (const auto& p : f.logs) read_log(now, p);
  for (const auto& p : f.records) read_records(now, p);
  for (const auto& p : f.benches) read_bench(now, p);
  for (const auto& p : f.metrics_files) read_metrics_file(now, p);
  for (const auto& p : f.gpu_files) read_gpu_file(now, p);
  for (const auto& p : f.outputs) {
    auto texts = read_outputs_file(p);
    if (!texts) {
      now.note(p, "outputs", false, texts.error().message());
      continue;
    }
    now.note(p, "outputs", !texts->empty(), texts->empty() ? "no response text in it" : plural(texts->size(), "response text", "response texts"));
    for (auto& t : *texts) now.ev.outputs.push_back(std::move(t));
  }
  // The deployment: logs < snapshots/bench config < --engine-args < explicit flags.
  core::EngineSettings settings = now.from_logs;
  merge_settings(settings, now.from_snapshots);
  if (!f.engine_args.empty()) read_engine_args(now, settings, f.engine_args);
  if (f.tp) settings.tensor_parallel_size = *f.tp;
  auto& dep = now.ev.deployment;
  if (!f.model.empty()) dep.model = f.model;
  else if (settings.model && dep.model.empty()) dep.model = *settings.model;
  if (!f.gpu.empty()) dep.gpu = f.gpu;
  if (settings.tensor_parallel_size && dep.num_gpus < *settings.tensor_parallel_size * settings.pipeline_parallel_size.value_or(1))
    dep.num_gpus = *settings.tensor_parallel_size * settings.pipeline_parallel_size.value_or(1);
  dep.settings = settings;

  name_model_and_gpu(now, f, out.warnings);
  finish_side(now);
  out.now = std::move(now.ev);
  out.any_evidence = has_evidence(out.now) || !f.engine_args.empty() || !f.model.empty() || !f.gpu.empty() ||
                     now.unknown_text_read;

  // Evidence, baseline.
  const bool any_base = !f.baseline_snapshots.empty() || !f.baseline_logs.empty() || !f.baseline_records.empty() ||
                        !f.baseline_benches.empty() || !f.baseline_metrics_files.empty();
  if (any_base) {
    for (const auto& p : f.baseline_snapshots) read_snapshot_file(base, p);
    for (const auto& p : f.baseline_logs) read_log(base, p);
    for (const auto& p : f.baseline_records) read_records(base, p);
    for (const auto& p : f.baseline_benches) read_bench(base, p);
    for (const auto& p : f.baseline_metrics_files) read_metrics_file(base, p);
    finish_side(base);
    base.ev.deployment = out.now.deployment;
    if (has_evidence(base.ev)) {
      out.baseline = std::move(base.ev);
    } else {
      // Nothing usable: keep the notes so the report says what failed, without a baseline.
      for (auto& n : base.ev.inputs) out.now.inputs.push_back({n.source, "baseline " + n.kind, n.ok, n.note});
    }
  }
  return out;
}

}  // namespace llmtriage::inputs
