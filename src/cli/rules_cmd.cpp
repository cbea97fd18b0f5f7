// `llmtriage rules`: the checklist as Prometheus recording and alerting rules (src/report/alert_rules.h),
// with the diagnosis thresholds (--thresholds) and SLO (--slo); YAML, or JSON with --json.
#include <memory>
#include <optional>
#include <ostream>

#include "cli/command.h"
#include "cli/judgement_flags.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "report/alert_rules.h"

namespace llmtriage::cli {
namespace {

struct RulesOpts {
  std::string engine = "vllm";
  std::string selector;
  std::optional<std::string> gpu_selector;
  std::string for_duration = "5m";
  std::string rate_window = "5m";
  std::string replica_label = "instance";
  std::string thresholds_file;
  std::string slo;
  std::string out;
};

int run_rules(const RulesOpts& o, Context& ctx) {
  report::RulesOptions ro;
  auto engine = report::rules_engine_from_string(o.engine);
  if (!engine) return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine", "vllm, vllm-v0 or sglang", o.engine));
  ro.engine = *engine;
  ro.selector = o.selector;
  ro.gpu_selector = o.gpu_selector;
  ro.for_duration = o.for_duration;
  ro.rate_window = o.rate_window;
  ro.replica_label = o.replica_label;
  if (auto st = apply_slo_and_thresholds(o.slo, o.thresholds_file, ro.slo, ro.thresholds); !st) return fail(ctx, st.error());
  ro.thresholds_file = o.thresholds_file;
  if (auto st = report::validate(ro); !st) return fail(ctx, st.error());
  const auto groups = report::build_alert_rules(ro);
  const std::string text = ctx.json ? report::render_alert_rules_json(groups) : report::render_alert_rules_yaml(groups);
  if (o.out.empty()) {
    ctx.out << text;
    return core::kExitHealthy;
  }
  if (auto st = core::write_file_atomic(o.out, text); !st) return fail(ctx, st.error());
  size_t n = 0;
  for (const auto& g : groups) n += g.rules.size();
  ctx.err << "wrote " << n << " rules to " << o.out << " (check: promtool check rules " << o.out << ")\n";
  return core::kExitHealthy;
}

}  // namespace

Command make_rules_command() {
  auto o = std::make_shared<RulesOpts>();
  Command c;
  c.path = "rules";
  c.summary = "Emit the checklist as Prometheus recording and alerting rules (thresholds from the diagnosis table)";
  c.example =
      "llmtriage rules --engine vllm --selector '{job=\"vllm\"}' --slo ttft_p99_s=2,tpot_p99_s=0.1 "
      "--out /etc/prometheus/rules/llmtriage.yml && promtool check rules /etc/prometheus/rules/llmtriage.yml";
  c.options = {
      {"--engine NAME", "", "metric names: vllm (V1, 0.9.2+), vllm-v0 (V0 and V1 before 0.9.2: gpu_cache_usage_perc, ...), sglang",
       &o->engine},
      {"--selector TEXT", "", "label matchers scoping every expression, target labels only: '{job=\"vllm\"}'", &o->selector},
      {"--gpu-selector TEXT", "", "label matchers for the dcgm-exporter series (GPU alerts)", &o->gpu_selector,
       "same as --selector"},
      {"--for DURATION", "", "how long a condition must hold before an alert fires (Prometheus duration: 30s, 5m, 1h)",
       &o->for_duration},
      {"--rate-window DURATION", "", "range of rate() and avg_over_time(); scrape interval x 4 at least", &o->rate_window, "", false, kPositive},
      {"--replica-label NAME", "", "the label that tells replicas apart (instance, pod, ...)", &o->replica_label},
      {"--thresholds FILE", "", "a file of rule thresholds (`name = value` lines; docs/rules.md has the names)",
       &o->thresholds_file},
      {"--slo SLO", "", "SLO the symptom alerts use, e.g. ttft_p99_s=2,tpot_p99_s=0.1,error_rate=0.01", &o->slo},
      {"--out,-o FILE", "", "write the rule file here (atomically) instead of stdout", &o->out},
  };
  c.run = [o](Context& ctx) { return run_rules(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
