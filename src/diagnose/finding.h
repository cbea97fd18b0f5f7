#pragma once
// What a diagnosis says: findings (located causes with their evidence and single-variable
// remedies), the layers it cleared and why, and what it read. Plain data; analyzers fill it,
// renderers (src/report) print it, docs/diagnose-json.md documents its JSON form.
#include <optional>
#include <string>
#include <vector>

#include "diagnose/plan.h"

namespace llmtriage::diagnose {

// The method's layers, top-down (docs/rules.md). JSON names: load, scheduling_capacity,
// operator_hardware, numeric_parameter, gateway_client.
enum class Layer { load, scheduling_capacity, operator_hardware, numeric_parameter, gateway_client };
const char* to_string(Layer l);
std::optional<Layer> layer_from_string(const std::string& s);
// All layers in the order the traversal judges them.
const std::vector<Layer>& all_layers();

// What the operator sees. JSON names as in the CLI's --symptom.
enum class Symptom {
  startup_oom,
  runtime_oom_or_preemption,
  ttft_spike,
  tpot_high,
  throughput_low,
  output_quality,
  timeout_or_stream_break,
};
const char* to_string(Symptom s);
std::optional<Symptom> symptom_from_string(const std::string& s);
const std::vector<Symptom>& all_symptoms();

enum class Severity { info, warning, critical };
const char* to_string(Severity s);

// One reading an analyzer used: which indicator, its value and unit, the threshold it was judged
// against (with the comparison), and where the value came from ("metrics:vllm:num_requests_waiting
// over 30 s", "vllm.log:1234", "observe waiting=40", "ledger").
struct EvidenceItem {
  std::string indicator;          // "waiting_p50", "kv_usage_max", "power_w/power_limit_w"
  std::optional<double> value;    // absent for a log line quoted as text
  std::string unit;               // "requests", "fraction", "s", "W", "MHz", "tokens", ""
  std::optional<double> threshold;
  std::string op;                 // ">", ">=", "<", "<=", "==", "" when not a comparison
  std::string source;
  std::string text;               // a quoted log line or a short description
};

// A remedy's prediction in numbers, when its basis computes one: the metric it is judged by,
// before and after the change, and how far apart the two must be to count as an effect.
struct PredictedValue {
  std::string metric;             // "P99 TTFT", "KV pool", "output throughput"
  std::string unit;               // as EvidenceItem::unit: "s", "tokens", "tok/s"
  double before = 0;
  double after = 0;
  bool higher_is_better = false;
  double tolerance = 0;           // relative: |after - before| <= tolerance x |before| is no predicted effect
};

// One single-variable change. `change` names the variable ("max-num-seqs",
// "enable-chunked-prefill", "gateway timeout"); from/to are its values as the user writes them.
// A precaution is a step to take before any change, not a variable ("capture before restart":
// `to` says what to do); renderers print it above the numbered fixes, never as one of them.
struct Remedy {
  enum class Kind { change, precaution };
  std::string change;
  std::string from;
  std::string to;
  std::string predicted_effect;   // "KV pool 41k -> 58k tokens (ledger)", "P99 TTFT 12.4 s -> 1.9 s (sim what-if, +-30%)"
  std::string basis;              // "ledger", "sim", "qualitative"
  std::optional<double> uncertainty{};  // relative, 0.3 = +-30%, when the basis states one
  std::optional<PredictedValue> predicted{};
  Kind kind = Kind::change;
};
const char* to_string(Remedy::Kind k);

// What a remedy's numbers predict. improves: better by more than the tolerance; no_effect: within
// it; worse: worse by more than it; not_predicted: no numbers (qualitative, or no prediction).
enum class Outcome { improves, no_effect, worse, not_predicted };
const char* to_string(Outcome o);
Outcome outcome(const Remedy& r);
// True for a change a report lists as a fix: predicted to improve, or not predicted in numbers.
bool listed_as_fix(const Remedy& r);
// Precautions first, then the fixes in their order, then no_effect, then worse (stable).
void order_remedies(std::vector<Remedy>& remedies);

struct Finding {
  std::string id;                 // stable, snake_case: "kv_pool_saturated", "long_prefill_blocking"
  Layer layer = Layer::load;
  Symptom symptom = Symptom::ttft_spike;
  Severity severity = Severity::warning;
  double confidence = 0.5;        // 0..1: how sure, after triangulation
  std::optional<double> explains; // 0..1: share of the symptom this cause accounts for, when estimable
  std::string title;              // one line
  std::string explanation;        // one paragraph
  std::vector<EvidenceItem> evidence;
  std::vector<Remedy> remedies;   // ordered, best first
  std::string next_measurement;   // what to measure next to confirm
  // "located": a rule or an engine's own line establishes the cause; "suspected": the most likely
  // explanation from thin evidence (symptom prior moved by the clues present), not yet proven.
  std::string status = "located";
  std::vector<EvidenceItem> against;  // suspected causes: what argues against them
};

// A layer the diagnosis judged healthy, with the readings that cleared it; or could not judge.
struct LayerVerdict {
  Layer layer = Layer::load;
  enum class State { cleared, at_fault, not_judged } state = State::not_judged;
  std::vector<EvidenceItem> evidence;  // the values that cleared it
  std::string why;                     // not_judged: which evidence was missing
};
const char* to_string(LayerVerdict::State s);

// One input: what was read, what was missing and what that prevented.
struct InputSummary {
  std::string source;             // path or URL (secrets removed)
  std::string kind;               // "snapshot", "log", "records", "bench", "endpoint", "engine_args", "observe", "ledger"
  bool ok = true;
  std::string note;               // counts, or the error
};

struct Report {
  std::vector<Symptom> symptoms;          // given with --symptom, or detected
  bool symptoms_detected = false;         // true when none was given
  std::vector<Finding> findings;          // ordered: most likely first
  std::vector<LayerVerdict> layers;       // one per layer, in traversal order
  std::vector<InputSummary> inputs;
  std::vector<std::string> missing;       // "no GPU telemetry: operator/hardware layer not judged"
  std::string definitions = "docs/metrics.md";  // which TTFT/TPOT/ITL definitions the numbers use
  std::optional<std::string> snapshot_path;     // live input: where the snapshot was kept
  RemedyPlan plan;                              // the searched remedy plan (plan.h); computed = false without one
  // Exit code: 1 when a finding at warning or above exists, or when symptoms were detected from
  // the evidence and no cause was located; else 0.
  int exit_code() const;
};

}  // namespace llmtriage::diagnose
