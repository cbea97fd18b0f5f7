#pragma once
// The simulated drill's shared logic (docs/drill.md): a scenario together with the diagnosis it
// must produce, the Evidence one run of it yields (offline simulator run or the HTTP drill), and a
// remedy mapped onto the scenario's settings. Used by the simulated drill (sim_drill.h) and by the
// scenario diagnosis test, so both judge a scenario from the same evidence.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evidence.h"
#include "core/result.h"
#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "sim/scenario.h"
#include "sim/simulation.h"

namespace llmtriage::drill {

// The scenario file's "diagnosis" block: the top finding a correct diagnosis names.
struct ExpectedDiagnosis {
  std::string id;
  diagnose::Layer layer = diagnose::Layer::load;
  diagnose::Symptom symptom = diagnose::Symptom::ttft_spike;
};

struct DrillCase {
  sim::Scenario scenario;
  std::string path;                           // the scenario file
  std::optional<ExpectedDiagnosis> expected;  // absent when the file has no "diagnosis" block
  // "diagnosis.observe": readings the on-call engineer has besides the service's own evidence
  // (the benchmark's throughput figure); same names and units as `diagnose --observe`.
  diagnose::Observations observations;
};

// Reads a scenario file or a bundled name, with its "diagnosis" block (docs/sim.md).
core::Result<DrillCase> load_case(const std::string& name_or_path);

// What one run of a scenario yielded, times in virtual seconds from the run's start.
struct RunData {
  std::vector<core::EngineSample> samples;   // per replica (engine_index "0", "1", ...)
  std::vector<core::RequestRecord> records;  // one per attempt
  std::vector<std::string> log_lines;        // the engine's log (vLLM format)
  std::vector<core::Event> extra_events;     // events no log line states (simulator's own)
  std::string samples_source = "metrics";    // for InputNotes: "sim engine samples", "/metrics scrapes"
  std::string records_source = "records";
};

// The simulated run, offline (sim::run_simulation) as RunData.
RunData offline_run_data(const sim::SimResult& r);

// The deployment as the engine's command line would state it (model, GPU, settings, replicas as
// data-parallel engines).
core::Deployment deployment_of(const sim::Scenario& s);

// The GPU telemetry the simulated GPUs would show (NVML-like): one reading per GPU at each
// sample time; clocks at the clock_throttle fault's factor with the power-cap reason while it is
// active, utilization from whether the replica had running work. The simulator models GPUs
// only through that factor, so this is all the telemetry it can honestly stand for.
std::vector<core::GpuSample> simulated_gpu_samples(const sim::Scenario& s,
                                                   const std::vector<core::EngineSample>& samples);

// The diagnosis input of a run: Evidence (deployment, samples, records, log events, simulated GPU
// telemetry; the startup failure as an OOM event when the engine could not start), the healthy
// period before the first fault that starts after t=0 as the baseline (when it holds at least
// `kMinBaselineS` seconds), the case's observations, and its expected symptom as the reported one.
inline constexpr double kMinBaselineS = 20;
diagnose::DiagnoseInput diagnose_input(const DrillCase& c, const RunData& run, bool what_if);

// The startup-failure input (no run): deployment and the engine's startup error as an event.
diagnose::DiagnoseInput startup_input(const DrillCase& c, bool what_if);

// Applies one remedy to the scenario (and re-resolves it). Returns a one-line description of what
// changed, or an error (where = the change) saying why the simulator cannot apply it.
core::Result<std::string> apply_remedy(const diagnose::Remedy& r, sim::Scenario& s);

// The first remedy of the ranked findings that the simulator can apply (top finding first, its
// remedies in order); `skipped` collects "change: why not" for those passed over.
struct ChosenRemedy {
  size_t finding = 0, remedy = 0;
  std::string applied;  // the description apply_remedy returned
};
std::optional<ChosenRemedy> choose_remedy(const diagnose::Report& report, sim::Scenario& s,
                                          std::vector<std::string>& skipped);

// The settings a scenario runs with, as "key" -> "value" (for the A/B's one-variable check).
std::map<std::string, std::string> scenario_config(const sim::Scenario& s);

}  // namespace llmtriage::drill
