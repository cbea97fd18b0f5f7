#pragma once
// The drill on a real engine (issue 15; docs/drill.md, "On a real engine"): start the server the
// operator names with a scenario's faulty knobs, drive the scenario's load with the bench runner
// (scraping /metrics), read /props and the server's log, diagnose from that evidence exactly as
// `llmtriage diagnose` would, check the planted cause was named, apply the top finding's first
// remedy that maps to a knob by restarting the server with that one flag changed, re-run the same
// request set (same hash and seed) and A/B the two runs.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/ab.h"
#include "bench/bench_config.h"
#include "collect/snapshot.h"
#include "core/result.h"
#include "diagnose/diagnose.h"
#include "drill/engine_scenarios.h"

namespace llmtriage::drill {

struct EngineDrillOptions {
  std::string engine_cmd;      // template with {model} {port} {host} {parallel} {ctx} {threads}
  std::string model;           // {model}: the model file the server loads (and the ledger reads)
  std::string work_dir;        // engine logs (and the runs' results) go here
  double run_deadline_s = 180; // each load run, bounded
  double ready_timeout_s = 60; // the server's /health
  bool apply_remedy = true;
  std::function<void(const std::string&)> progress;  // one line per step (stderr)
};

struct EngineRun {
  std::string label;           // "baseline", "a", "b"
  Knobs knobs;
  std::vector<std::string> argv;
  std::optional<collect::ServerProps> props;
  bench::RunOutput out;
  std::string log_path, log_text;
  core::Evidence evidence;     // what the diagnosis reads
};

struct AppliedChange {
  size_t finding = 0, remedy = 0;  // in the report
  std::string change, from, to;    // as the diagnosis wrote it (the engine's flag)
  std::string knob;
  int64_t value = 0;
};

struct EngineDrillResult {
  EngineScenario scenario;
  std::optional<EngineRun> baseline;
  EngineRun a;
  diagnose::Report report;
  bool named = false;              // findings[0] in the planted layer (and the planted finding when given)
  std::string named_why;           // what the top finding was, when not
  std::vector<std::string> skipped;  // remedies passed over: "change: why"
  std::optional<AppliedChange> applied;
  std::optional<EngineRun> b;
  std::optional<bench::AbResult> ab;
  std::optional<bench::RunSample> sample_a, sample_b;
};

core::Result<EngineDrillResult> run_engine_drill(const EngineScenario& s, const EngineDrillOptions& o);

// The run as Evidence (engine samples from the scrapes, /props as settings, client records, the
// engine's log events): shared with the tests.
core::Evidence evidence_of(const EngineRun& run, const std::string& model_path);

// The first remedy of the ranked findings that maps to one of the scenario's knobs.
std::optional<AppliedChange> choose_change(const diagnose::Report& r, const Knobs& knobs, std::vector<std::string>& skipped);

}  // namespace llmtriage::drill
