#pragma once
// The checklist as Prometheus recording and alerting rules (`llmtriage rules`): the items that
// metrics alone can judge, with the thresholds of the diagnosis table (diagnose::Thresholds, so
// --thresholds overrides apply) and the SLO (diagnose::Slo). Each alert carries its layer and the
// llmtriage command to run when it fires. docs/alerting.md lists the alerts.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnose/diagnose.h"

namespace llmtriage::report {

// Which metric names the expressions use: vLLM V1 (newest names), vLLM V0 / early V1 (the names
// deprecated in 0.9/0.9.2: gpu_cache_usage_perc, gpu_prefix_cache_*, time_per_output_token_seconds),
// SGLang.
enum class RulesEngine { vllm, vllm_v0, sglang };
const char* to_string(RulesEngine e);
std::optional<RulesEngine> rules_engine_from_string(const std::string& s);

struct RulesOptions {
  RulesEngine engine = RulesEngine::vllm;
  diagnose::Thresholds thresholds = diagnose::default_thresholds();
  diagnose::Slo slo;
  // Scopes every engine expression: `{job="vllm"}` (braces optional; empty = every series).
  // Target labels only (job, namespace, ...): `up` carries no engine labels.
  std::string selector;
  // Scopes the DCGM exporter's series (GPU alerts); nullopt = the same as `selector`.
  std::optional<std::string> gpu_selector;
  std::string for_duration = "5m";  // an alert's condition must hold this long (Prometheus duration)
  std::string rate_window = "5m";   // range of rate()/avg_over_time(); also names recorded series
  std::string replica_label = "instance";  // one replica = one value of this label
  std::string thresholds_file;  // named in the runbook commands when the thresholds came from a file
};

// Checks durations (Prometheus syntax: 30s, 5m, 1h30m), the label name and the selectors; the
// error names the flag (--for, --rate-window, --replica-label, --selector, --gpu-selector).
core::Status validate(const RulesOptions& o);

// What one result series of a rule stands for: a replica (grouped by job and the replica label),
// a whole job (fleet-wide comparisons), a scrape target (`up`), one GPU (DCGM series keep all
// their labels, so a dcgm-exporter mapping pods to GPUs keeps the pod).
enum class RuleScope { replica, job, target, gpu };

// One rule as Prometheus reads it. `threshold_name`/`threshold` record which table entry (or
// "slo.<name>") the expression compares against, for tests and docs.
struct Rule {
  std::string record;  // set for a recording rule
  std::string alert;   // set for an alerting rule
  std::string expr;
  std::string for_duration;  // alerts only
  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<std::pair<std::string, std::string>> annotations;
  std::vector<std::pair<std::string, double>> thresholds;  // name -> value as emitted
  RuleScope scope = RuleScope::replica;
};

struct RuleGroup {
  std::string name;
  std::vector<Rule> rules;
};

// The rule groups (recording first, then alerts). Call validate() first: invalid options give
// expressions Prometheus rejects.
std::vector<RuleGroup> build_alert_rules(const RulesOptions& o);

// One YAML document (`groups:`), every string double-quoted, multi-line expressions as `|` blocks.
std::string render_alert_rules(const RulesOptions& o);
std::string render_alert_rules_yaml(const std::vector<RuleGroup>& groups);
// The same rules as JSON (Prometheus reads a JSON rule file too: JSON is YAML).
std::string render_alert_rules_json(const std::vector<RuleGroup>& groups);

// YAML double-quoted scalar with escapes: "a \"b\"\n".
std::string yaml_quote(const std::string& s);

}  // namespace llmtriage::report
