// The checklist items that metrics alone can judge, as PromQL. Thresholds come from the diagnosis
// table by name (docs/rules.md) and from the SLO; nothing numeric is decided here except the
// quantile (P99, as the SLO says) and presence guards (> 0).
#include "report/alert_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "report/rules_names.h"

namespace llmtriage::report {

namespace {

using Names = RulesMetricNames;

std::string num(double v) { return fmt::format("{}", v); }

// `{job="vllm"}` or `job="vllm"` -> `job="vllm"`.
std::string inner(std::string s) {
  auto trim = [](std::string& t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(t.begin());
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  };
  trim(s);
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') s = s.substr(1, s.size() - 2);
  trim(s);
  return s;
}

bool valid_duration(const std::string& d) {
  // Prometheus durations: one or more <int><unit>, units ms s m h d w y (model.ParseDuration).
  if (d.empty()) return false;
  size_t i = 0;
  while (i < d.size()) {
    const size_t start = i;
    while (i < d.size() && std::isdigit(static_cast<unsigned char>(d[i]))) ++i;
    if (i == start) return false;
    if (d.compare(i, 2, "ms") == 0) {
      i += 2;
      continue;
    }
    if (i < d.size() && std::string_view("smhdwy").find(d[i]) != std::string_view::npos) {
      ++i;
      continue;
    }
    return false;
  }
  return true;
}

bool valid_label(const std::string& l) {
  if (l.empty() || !(std::isalpha(static_cast<unsigned char>(l[0])) || l[0] == '_')) return false;
  return std::all_of(l.begin(), l.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// PromQL strings are UTF-8; anything else Prometheus refuses when it loads the file.
bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

core::Status check_selector(const std::string& s, const char* flag) {
  const std::string expected = "a label selector like '{job=\"vllm\",namespace=\"prod\"}' (target labels)";
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return core::make_error(core::ErrorKind::usage, flag, expected, "a control character");
  if (!valid_utf8(s)) return core::make_error(core::ErrorKind::usage, flag, expected, "bytes that are not UTF-8");
  const std::string in = inner(s);
  // Annotations are Go templates: "{{" in them would be read as an action.
  if (s.find("{{") != std::string::npos || s.find("}}") != std::string::npos)
    return core::make_error(core::ErrorKind::usage, flag, expected, s, "no {{ or }}: annotations are Go templates");
  // Braces inside quoted values are text (a regex `=~"a{2}"`); outside them, a second selector.
  bool quoted = false;
  for (size_t i = 0; i < in.size(); ++i) {
    if (quoted && in[i] == '\\') ++i;
    else if (in[i] == '"') quoted = !quoted;
    else if (!quoted && (in[i] == '{' || in[i] == '}'))
      return core::make_error(core::ErrorKind::usage, flag, expected, s, "one pair of braces at most");
  }
  if (quoted) return core::make_error(core::ErrorKind::usage, flag, expected, s, "a value without its closing quote");
  if (!in.empty() && in.find_first_of("=~!") == std::string::npos)
    return core::make_error(core::ErrorKind::usage, flag, expected, s, "each matcher is label=\"value\" (or !=, =~, !~)");
  return core::ok_status();
}

// Everything one rule needs to know to write its PromQL.
struct Ctx {
  const RulesOptions& o;
  Names n;
  std::string sel, gsel;  // inner matchers
  std::string by;         // "job, instance"
  std::string w;          // rate window
  std::string runbook_endpoint;

  // metric{selector, extra}; `spec` may be "metric|extra matchers".
  std::string s(const std::string& spec, bool gpu = false) const {
    std::string metric = spec, extra;
    if (auto bar = spec.find('|'); bar != std::string::npos) {
      metric = spec.substr(0, bar);
      extra = spec.substr(bar + 1);
    }
    const std::string& base = gpu ? gsel : sel;
    std::string m = base;
    if (!extra.empty()) m += (m.empty() ? "" : ",") + extra;
    return m.empty() ? metric : metric + "{" + m + "}";
  }
  std::string range(const std::string& spec, const std::string& offset = "", bool gpu = false) const {
    return s(spec, gpu) + "[" + w + "]" + (offset.empty() ? "" : " offset " + offset);
  }
  std::string rate_by(const std::string& spec, const std::string& offset = "") const {
    return "sum by (" + by + ") (rate(" + range(spec, offset) + "))";
  }
  std::string p99(const std::string& hist) const {
    return "histogram_quantile(0.99, sum by (" + by + ", le) (rate(" + range(hist + "_bucket") + ")))";
  }
  std::string tpot_p99() const {
    if (n.tpot_fallback.empty()) return p99(n.tpot);
    return "(\n  " + p99(n.tpot) + "\n  or\n  " + p99(n.tpot_fallback) + "\n)";
  }
  // Prefix-cache hit ratio per replica (tokens hit / tokens looked up), `offset` ago.
  std::string hit_ratio(const std::string& offset = "") const {
    std::string r = "(" + rate_by(n.hits, offset) + "\n  /\n  " + rate_by(n.queries, offset) + ")";
    if (!n.hit_gauge.empty())
      r = "(" + r + "\n  or\n  (max by (" + by + ") (avg_over_time(" + range(n.hit_gauge, offset) + ")) >= 0))";
    return r;
  }
  std::string diagnose_cmd(const std::string& symptom, const std::string& extra = "") const {
    std::string c = "llmtriage diagnose --endpoint " + runbook_endpoint;
    if (!extra.empty()) c += " " + extra;
    if (!symptom.empty()) c += " --symptom " + symptom;
    if (!o.thresholds_file.empty()) c += " --thresholds " + o.thresholds_file;
    return c;
  }
  // `llmtriage fleet` on this Prometheus ($externalURL) for the alert's job.
  std::string fleet_cmd(const std::string& extra) const;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Ctx::fleet_cmd(const std::string& extra) const {
  std::string c = "llmtriage fleet --prometheus {{ $externalURL }} --selector " + shell_quote("{job=\"{{ $labels.job }}\"}");
  if (o.replica_label != "instance") c += " --replica-label " + o.replica_label;
  if (!extra.empty()) c += " " + extra;
  if (!o.thresholds_file.empty()) c += " --thresholds " + o.thresholds_file;
  return c;
}

struct AlertSpec {
  std::string name, severity, layer, summary, description, runbook;
  RuleScope scope = RuleScope::replica;
};

Rule alert(const Ctx& c, const AlertSpec& a, std::string expr, std::vector<std::pair<std::string, double>> th) {
  Rule r;
  r.alert = a.name;
  r.expr = std::move(expr);
  r.for_duration = c.o.for_duration;
  r.labels = {{"severity", a.severity}, {"layer", a.layer}};
  r.annotations = {{"summary", a.summary},
                   {"description", a.description},
                   {"layer", a.layer},
                   {"runbook", a.runbook}};
  r.thresholds = std::move(th);
  r.scope = a.scope;
  return r;
}

Rule record(std::string name, std::string expr, RuleScope scope = RuleScope::replica) {
  Rule r;
  r.record = std::move(name);
  r.expr = std::move(expr);
  r.scope = scope;
  return r;
}

std::vector<Rule> recording_rules(const Ctx& c) {
  const auto& n = c.n;
  const std::string& w = c.w;
  std::vector<Rule> r;
  r.push_back(record("llmtriage:waiting:avg_" + w, "sum by (" + c.by + ") (avg_over_time(" + c.range(n.waiting) + "))"));
  r.push_back(record("llmtriage:running:avg_" + w, "sum by (" + c.by + ") (avg_over_time(" + c.range(n.running) + "))"));
  r.push_back(record("llmtriage:kv_usage_ratio:avg_" + w, "max by (" + c.by + ") (avg_over_time(" + c.range(n.kv) + "))"));
  r.push_back(record("llmtriage:preemptions:rate" + w, c.rate_by(n.preemptions)));
  r.push_back(record("llmtriage:requests:rate" + w, c.rate_by(n.requests)));
  r.push_back(record("llmtriage:ttft_seconds:p99_" + w, c.p99(n.ttft)));
  r.push_back(record("llmtriage:tpot_seconds:p99_" + w, c.tpot_p99()));
  r.push_back(record("llmtriage:prefix_cache_hit_ratio:rate" + w, c.hit_ratio()));
  r.push_back(record("llmtriage:error_ratio:rate" + w, c.rate_by(n.err_num) + "\n/\n" + c.rate_by(n.err_den)));
  r.push_back(record("llmtriage:gpu_power_ratio:avg_" + w,
                     "avg_over_time(" + c.range("DCGM_FI_DEV_POWER_USAGE", "", true) + ")\n/\navg_over_time(" +
                         c.range("DCGM_FI_DEV_POWER_MGMT_LIMIT", "", true) + ")",
                     RuleScope::gpu));
  r.push_back(record("llmtriage:gpu_sm_clock_ratio:avg_" + w,
                     "avg_over_time(" + c.range("DCGM_FI_DEV_SM_CLOCK", "", true) + ")\n/\navg_over_time(" +
                         c.range("DCGM_FI_DEV_MAX_SM_CLOCK", "", true) + ")",
                     RuleScope::gpu));
  return r;
}

std::vector<Rule> alerting_rules(const Ctx& c) {
  const auto& n = c.n;
  const auto& o = c.o;
  const auto& th = o.thresholds;
  const std::string& w = c.w;
  const std::string rep = "{{ $labels." + o.replica_label + " }}";
  const std::string val = "{{ $value | humanize }}";
  const std::string pct = "{{ $value | humanizePercentage }}";
  std::vector<Rule> r;

  // ---- the engine is up (a crash is usually an OOM: its log says which) ----
  r.push_back(alert(c,
                    {"LLMTriageEngineDown", "critical", "operator_hardware",
                     "Engine target " + rep + " is down",
                     "Prometheus cannot scrape " + rep + " (up == 0). An engine that dies while serving was most "
                     "often killed by an out-of-memory error; its log says which.",
                     "llmtriage diagnose --log ENGINE.log (the last log of the engine on " + rep +
                         "; the endpoint does not answer)",
                     RuleScope::target},
                    "up" + std::string(c.sel.empty() ? "" : "{" + c.sel + "}") + " == 0", {}));
  if (!c.sel.empty())
    r.push_back(alert(c,
                      {"LLMTriageEngineTargetsAbsent", "critical", "operator_hardware",
                       "No scrape target matches {" + c.sel + "}",
                       "Prometheus has no target for {" + c.sel + "}: the engines are gone or service discovery lost "
                       "them, and every other llmtriage alert is blind.",
                       "llmtriage diagnose --log ENGINE.log (the engines' last logs)", RuleScope::target},
                      "absent(up{" + c.sel + "})", {}));

  // ---- scheduling / capacity ----
  const double waiting_deep = th.get("sched.waiting_deep");
  r.push_back(alert(c,
                    {"LLMTriageQueueDeep", "warning", "scheduling_capacity",
                     "Queue deep on " + rep + ": " + val + " requests waiting",
                     "Requests waiting (mean over " + w + ") " + val + " > sched.waiting_deep (" + num(waiting_deep) +
                         "): a capacity limit binds (KV pool or the running-batch cap) and time to first token grows "
                         "with the queue. docs/rules.md: kv_pool_saturated.",
                     c.diagnose_cmd("ttft_spike")},
                    "sum by (" + c.by + ") (avg_over_time(" + c.range(n.waiting) + "))\n> " + num(waiting_deep),
                    {{"sched.waiting_deep", waiting_deep}}));

  // A full pool with an empty queue is vLLM working as designed (it fills memory); full while
  // requests wait is the pool binding.
  const double kv_full = th.get("sched.kv_near_full");
  const double idle = th.get("sched.waiting_idle");
  r.push_back(alert(c,
                    {"LLMTriageKvCacheNearFull", "warning", "scheduling_capacity",
                     "KV cache near full on " + rep + ": " + pct + " with requests waiting",
                     "KV-cache usage (mean over " + w + ", busiest engine) " + pct + " > sched.kv_near_full (" +
                         num(kv_full) + ") while more than sched.waiting_idle (" + num(idle) +
                         ") requests wait: new requests wait for blocks, long ones get preempted. "
                         "docs/rules.md: kv_pool_saturated, preemption_storm.",
                     c.diagnose_cmd("ttft_spike")},
                    "max by (" + c.by + ") (avg_over_time(" + c.range(n.kv) + "))\n> " + num(kv_full) + "\nand\n" +
                        "sum by (" + c.by + ") (avg_over_time(" + c.range(n.waiting) + "))\n> " + num(idle),
                    {{"sched.kv_near_full", kv_full}, {"sched.waiting_idle", idle}}));

  const double preempt = th.get("sched.preemption_rate_per_s");
  r.push_back(alert(c,
                    {"LLMTriagePreemptionStorm", "warning", "scheduling_capacity",
                     "Preemptions on " + rep + ": " + val + "/s",
                     "Preemptions per second (rate over " + w + ") " + val + " > sched.preemption_rate_per_s (" +
                         num(preempt) + "): running requests are evicted and recomputed because concurrency x "
                         "context exceeds the KV pool. docs/rules.md: preemption_storm.",
                     c.diagnose_cmd("runtime_oom_or_preemption")},
                    c.rate_by(n.preemptions) + "\n> " + num(preempt), {{"sched.preemption_rate_per_s", preempt}}));
  // A slow engine preempting a tenth of its requests is a storm at any rate (diagnose reads the
  // same threshold); `unless` keeps one storm to one alert.
  const double per_req = th.get("sched.preemptions_per_request");
  r.push_back(alert(c,
                    {"LLMTriagePreemptionsPerRequestHigh", "warning", "scheduling_capacity",
                     "Preemptions on " + rep + ": " + val + " per finished request",
                     "Preemptions per finished request (rates over " + w + ") " + val +
                         " > sched.preemptions_per_request (" + num(per_req) +
                         ") while the rate stays below sched.preemption_rate_per_s (" + num(preempt) +
                         ", LLMTriagePreemptionStorm): each one recomputes a prompt; the KV pool is too small for "
                         "the batch's contexts. docs/rules.md: preemption_storm.",
                     c.diagnose_cmd("runtime_oom_or_preemption")},
                    c.rate_by(n.preemptions) + "\n/\n" + c.rate_by(n.requests) + "\n> " + num(per_req) + "\nunless\n" +
                        c.rate_by(n.preemptions) + "\n> " + num(preempt),
                    {{"sched.preemptions_per_request", per_req}, {"sched.preemption_rate_per_s", preempt}}));

  // ---- fleet: a replica against its siblings of the same job (docs/rules.md, Fleet) ----
  const double imbalance = th.get("fleet.imbalance_ratio");
  const double min_replicas = th.get("fleet.min_replicas");
  const std::string fleet_run = c.fleet_cmd("");
  const std::string rate = c.rate_by(n.requests);
  const std::string median_rate = "quantile by (job) (0.5, " + rate + ")";
  const std::string enough = "count by (job) (" + rate + ") >= " + num(min_replicas);
  r.push_back(alert(c,
                    {"LLMTriageReplicaLoadImbalance", "warning", "scheduling_capacity",
                     "Replica " + rep + " serves " + val + " requests/s, unlike its siblings",
                     "Finished requests per second of this replica (rate over " + w + ") " + val +
                         " is at least fleet.imbalance_ratio (" + num(imbalance) +
                         ") x the median of its job's replicas, or at most the median / that ratio (with at "
                         "least fleet.min_replicas (" + num(min_replicas) +
                         ") replicas): the router does not spread the load. docs/rules.md: load_imbalance.",
                     fleet_run},
                    "(\n  " + rate + "\n  > on (job) group_left\n  " + num(imbalance) + " * " + median_rate +
                        "\n  or\n  " + rate + "\n  < on (job) group_left\n  " + median_rate + " / " + num(imbalance) +
                        "\n)\nand on (job)\n" + enough,
                    {{"fleet.imbalance_ratio", imbalance}, {"fleet.min_replicas", min_replicas}}));

  const double aff_ratio = th.get("fleet.affinity_hit_ratio");
  const double aff_min = th.get("fleet.affinity_min_hit");
  const std::string hr = c.hit_ratio();
  const std::string p75 = "quantile by (job) (0.75, " + hr + ")";
  r.push_back(alert(c,
                    {"LLMTriageReplicaPrefixAffinityLost", "warning", "scheduling_capacity",
                     "Prefix-cache hit ratio of " + rep + " is " + pct + ", far below its siblings'",
                     "Prefix-cache hit ratio (tokens, over " + w + ") " + pct + " < fleet.affinity_hit_ratio (" +
                         num(aff_ratio) + ") x the 75th percentile of its job's replicas (what well-routed "
                         "replicas get), which is > fleet.affinity_min_hit (" + num(aff_min) + ") (with at least "
                         "fleet.min_replicas (" + num(min_replicas) + ") replicas): requests sharing a prefix "
                         "land elsewhere. docs/rules.md: prefix_affinity_lost, prefix_cache_miss_routing.",
                     fleet_run},
                    hr + "\n< on (job) group_left\n" + num(aff_ratio) + " * " + p75 + "\nand on (job)\n" + p75 + " > " +
                        num(aff_min) + "\nand on (job)\ncount by (job) (" + hr + ") >= " + num(min_replicas),
                    {{"fleet.affinity_hit_ratio", aff_ratio},
                     {"fleet.affinity_min_hit", aff_min},
                     {"fleet.min_replicas", min_replicas}}));

  // ---- symptoms against the SLO (diagnose locates the cause) ----
  const std::string slo_flag = fmt::format("--slo ttft_p99_s={},tpot_p99_s={}", num(o.slo.ttft_p99_s), num(o.slo.tpot_p99_s));
  r.push_back(alert(c,
                    {"LLMTriageTtftP99OverSlo", "critical", "symptom",
                     "P99 time to first token on " + rep + ": " + val + "s",
                     "P99 TTFT (histogram over " + w + ") " + val + "s > slo.ttft_p99_s (" + num(o.slo.ttft_p99_s) +
                         " s, --slo ttft_p99_s). A symptom: diagnose locates it layer by layer (load, queue, long "
                         "prefill, hardware).",
                     c.diagnose_cmd("ttft_spike", slo_flag)},
                    c.p99(n.ttft) + "\n> " + num(o.slo.ttft_p99_s), {{"slo.ttft_p99_s", o.slo.ttft_p99_s}}));
  r.push_back(alert(c,
                    {"LLMTriageTpotP99OverSlo", "critical", "symptom",
                     "P99 time per output token on " + rep + ": " + val + "s",
                     "P99 TPOT (histogram over " + w + ") " + val + "s > slo.tpot_p99_s (" + num(o.slo.tpot_p99_s) +
                         " s, --slo tpot_p99_s). A symptom: a large batch, throttled GPU clocks or slow kernels.",
                     c.diagnose_cmd("tpot_high", slo_flag)},
                    c.tpot_p99() + "\n> " + num(o.slo.tpot_p99_s), {{"slo.tpot_p99_s", o.slo.tpot_p99_s}}));

  // ---- load: against the same time yesterday / last week ----
  const double drop = th.get("load.prefix_hit_drop_ratio");
  const double min_hit = th.get("load.prefix_min_baseline_hit");
  r.push_back(alert(c,
                    {"LLMTriagePrefixCacheHitCollapse", "warning", "load",
                     "Prefix-cache hit ratio on " + rep + " collapsed to " + pct,
                     "Prefix-cache hit ratio (tokens, over " + w + ") " + pct + " < load.prefix_hit_drop_ratio (" +
                         num(drop) + ") x its value 1 day ago, which was > load.prefix_min_baseline_hit (" +
                         num(min_hit) + "): a per-request varying prefix (timestamp, id) in the system prompt, or "
                         "a router that lost prefix affinity (sched.prefix_hit_drop_ratio). docs/rules.md: "
                         "prefix_defeated_by_varying_prefix, prefix_cache_miss_routing.",
                     c.diagnose_cmd("ttft_spike")},
                    c.hit_ratio() + "\n< " + num(drop) + " *\n" + c.hit_ratio("1d") + "\nand\n" + c.hit_ratio("1d") +
                        "\n> " + num(min_hit),
                    {{"load.prefix_hit_drop_ratio", drop}, {"load.prefix_min_baseline_hit", min_hit}}));

  // Length shifts per job against the same time yesterday (a new client or prompt template
  // shows at once; per job because replicas come and go).
  const double shift = th.get("load.length_shift_ratio");
  auto length_alert = [&](const char* name, const char* what, const std::string& num_m, const std::string& den_m,
                          const char* rule, const char* consequence) {
    auto mean = [&](const std::string& off) {
      return "(sum by (job) (rate(" + c.range(num_m, off) + "))\n  /\n  sum by (job) (rate(" + c.range(den_m, off) + ")))";
    };
    r.push_back(alert(c,
                      {name, "warning", "load",
                       std::string("Mean ") + what + " length of {{ $labels.job }} is " + val + " tokens, shifted since yesterday",
                       std::string("Mean ") + what + " tokens per finished request (over " + w + ") " + val +
                           " is at least load.length_shift_ratio (" + num(shift) +
                           ") x the same time 1 day ago, or at most 1/that: " + consequence + " docs/rules.md: " + rule + ".",
                       c.fleet_cmd("--baseline-offset 1d"), RuleScope::job},
                      "(\n" + mean("") + "\n>= " + num(shift) + " *\n" + mean("1d") + "\n)\nor\n(\n" + mean("") + "\n<=\n" +
                          mean("1d") + " / " + num(shift) + "\n)",
                      {{"load.length_shift_ratio", shift}}));
  };
  length_alert("LLMTriageInputLengthShift", "prompt", n.in_num, n.in_den, "input_length_shift",
               "prefill work per request changed; longer prompts queue and fill the KV pool sooner.");
  length_alert("LLMTriageOutputLengthShift", "output", n.out_num, n.out_den, "output_length_shift",
               "requests hold their batch slot and KV for longer (or shorter).");

  const double rate_up = th.get("load.rate_increase_ratio");
  const std::string job_rate = "sum by (job) (rate(" + c.range(n.requests) + "))";
  const std::string job_rate_7d = "sum by (job) (rate(" + c.range(n.requests, "7d") + "))";
  r.push_back(alert(c,
                    {"LLMTriageRequestRateIncrease", "warning", "load",
                     "Request rate of {{ $labels.job }} is " + val + "/s, up from a week ago",
                     "Finished requests per second of the job (rate over " + w + ") " + val +
                         " > load.rate_increase_ratio (" + num(rate_up) +
                         ") x the same hour 7 days ago: more arrivals, the queues grow. docs/rules.md: "
                         "request_rate_increase.",
                     c.fleet_cmd("--baseline-offset 7d"),
                     RuleScope::job},
                    job_rate + "\n> " + num(rate_up) + " *\n" + job_rate_7d + "\nand\n" + job_rate_7d + " > 0",
                    {{"load.rate_increase_ratio", rate_up}}));

  // ---- gateway / client: errors ----
  r.push_back(alert(c,
                    {"LLMTriageErrorRatioHigh", "critical", "gateway_client",
                     "Error ratio on " + rep + ": " + pct,
                     "Share of " + n.err_what + " (rate over " + w + ") " + pct + " > slo.error_rate (" +
                         num(o.slo.error_rate) + ", --slo error_rate): clients time out or the engine fails "
                         "requests. docs/rules.md: gateway_timeout_below_ttft_p99, client_retry_storm.",
                     c.diagnose_cmd("timeout_or_stream_break", fmt::format("--slo error_rate={}", num(o.slo.error_rate)))},
                    c.rate_by(n.err_num) + "\n/\n" + c.rate_by(n.err_den) + "\n> " + num(o.slo.error_rate),
                    {{"slo.error_rate", o.slo.error_rate}}));

  // ---- operator / hardware (dcgm-exporter; one series per GPU) ----
  const std::string gpu = "GPU {{ $labels.gpu }} on {{ $labels.instance }}";
  // The exporter's instance is not the engine's: the engine endpoint is left for the reader.
  std::string dcgm_run = "llmtriage diagnose --endpoint ENGINE_URL --dcgm http://{{ $labels.instance }}/metrics --symptom tpot_high";
  if (!o.thresholds_file.empty()) dcgm_run += " --thresholds " + o.thresholds_file;
  dcgm_run += " (ENGINE_URL: the engine on GPU {{ $labels.gpu }} of {{ $labels.instance }})";
  const double power_high = th.get("hw.power_ratio_high");
  r.push_back(alert(c,
                    {"LLMTriageGpuPowerAtLimit", "info", "operator_hardware",
                     gpu + " at its power limit: " + pct,
                     "Power / power limit (mean over " + w + ") " + pct + " > hw.power_ratio_high (" + num(power_high) +
                         "). Running flat out unless the SM clock is low too (LLMTriageGpuClockLow): then the cap "
                         "throttles it. docs/rules.md: gpu_power_throttled.",
                     dcgm_run, RuleScope::gpu},
                    "avg_over_time(" + c.range("DCGM_FI_DEV_POWER_USAGE", "", true) + ")\n/\navg_over_time(" +
                        c.range("DCGM_FI_DEV_POWER_MGMT_LIMIT", "", true) + ")\n> " + num(power_high),
                    {{"hw.power_ratio_high", power_high}}));

  const double clock_low = th.get("hw.clock_ratio_low");
  const double busy = th.get("hw.busy_util");
  r.push_back(alert(c,
                    {"LLMTriageGpuClockLow", "warning", "operator_hardware",
                     gpu + " runs at " + pct + " of its max SM clock while busy",
                     "SM clock / max SM clock (mean over " + w + ") " + pct + " < hw.clock_ratio_low (" +
                         num(clock_low) + ") while utilization > hw.busy_util (" + num(busy) +
                         "): power or thermal throttling; every decode step is slower. docs/rules.md: "
                         "gpu_power_throttled, gpu_thermal_throttled.",
                     dcgm_run, RuleScope::gpu},
                    "(\n  avg_over_time(" + c.range("DCGM_FI_DEV_SM_CLOCK", "", true) + ")\n  /\n  avg_over_time(" +
                        c.range("DCGM_FI_DEV_MAX_SM_CLOCK", "", true) + ")\n  < " + num(clock_low) +
                        "\n)\nand\n(\n  avg_over_time(" + c.range("DCGM_FI_DEV_GPU_UTIL", "", true) +
                        ") / 100\n  > " + num(busy) + "\n)",
                    {{"hw.clock_ratio_low", clock_low}, {"hw.busy_util", busy}}));

  const double temp_high = th.get("hw.temp_high_c");
  r.push_back(alert(c,
                    {"LLMTriageGpuTemperatureHigh", "warning", "operator_hardware",
                     gpu + " at " + val + " C",
                     "GPU temperature (mean over " + w + ") " + val + " C > hw.temp_high_c (" + num(temp_high) +
                         " C): near the slowdown temperature, clocks drop next. docs/rules.md: gpu_thermal_throttled.",
                     dcgm_run, RuleScope::gpu},
                    "avg_over_time(" + c.range("DCGM_FI_DEV_GPU_TEMP", "", true) + ")\n> " + num(temp_high),
                    {{"hw.temp_high_c", temp_high}}));
  return r;
}

}  // namespace

const char* to_string(RulesEngine e) {
  switch (e) {
    case RulesEngine::vllm: return "vllm";
    case RulesEngine::vllm_v0: return "vllm-v0";
    case RulesEngine::sglang: return "sglang";
  }
  return "vllm";
}

std::optional<RulesEngine> rules_engine_from_string(const std::string& s) {
  for (auto e : {RulesEngine::vllm, RulesEngine::vllm_v0, RulesEngine::sglang})
    if (s == to_string(e)) return e;
  return std::nullopt;
}

core::Status validate(const RulesOptions& o) {
  const std::string dur = "a Prometheus duration like 30s, 5m, 1h30m (units ms, s, m, h, d, w, y)";
  if (!valid_duration(o.for_duration)) return core::make_error(core::ErrorKind::usage, "--for", dur, o.for_duration);
  if (!valid_duration(o.rate_window) || o.rate_window.find_first_of("123456789") == std::string::npos)
    return core::make_error(core::ErrorKind::usage, "--rate-window", dur + ", above zero", o.rate_window);
  if (!valid_label(o.replica_label))
    return core::make_error(core::ErrorKind::usage, "--replica-label", "a label name ([a-zA-Z_][a-zA-Z0-9_]*)",
                            o.replica_label);
  if (auto st = check_selector(o.selector, "--selector"); !st) return st;
  if (o.gpu_selector)
    if (auto st = check_selector(*o.gpu_selector, "--gpu-selector"); !st) return st;
  return core::ok_status();
}

std::vector<RuleGroup> build_alert_rules(const RulesOptions& o) {
  Ctx c{o, rules_metric_names(o.engine), inner(o.selector), inner(o.gpu_selector.value_or(o.selector)), "", o.rate_window, ""};
  c.by = o.replica_label == "job" ? "job" : "job, " + o.replica_label;
  c.runbook_endpoint = o.replica_label == "instance" ? "http://{{ $labels.instance }}"
                                                     : "ENGINE_URL_OF_{{ $labels." + o.replica_label + " }}";
  const std::string prefix = std::string("llmtriage-") + to_string(o.engine);
  return {{prefix + "-recording", recording_rules(c)}, {prefix + "-alerts", alerting_rules(c)}};
}

std::string render_alert_rules(const RulesOptions& o) { return render_alert_rules_yaml(build_alert_rules(o)); }

}  // namespace llmtriage::report
