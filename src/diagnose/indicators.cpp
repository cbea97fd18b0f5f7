// build_indicators: Evidence (+ baseline, + --observe readings) -> named numbers with their
// source (docs/rules.md, "Derived indicators"). Each part of the Evidence is summarized by its
// own function below; later sources override earlier ones where they measure the same thing
// (records over histograms for latencies and lengths; observations over everything).
#include "diagnose/indicators.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "core/quantile.h"
#include "core/units.h"
#include "diagnose/indicators_detail.h"

namespace llmtriage::diagnose {

namespace {

struct UnitRow {
  const char* name;
  const char* unit;
};

// Units of every indicator name (observation names come from observation_names()).
constexpr UnitRow kDerivedUnits[] = {
    {"running_max", "requests"}, {"waiting_max", "requests"}, {"waiting_p50", "requests"},
    {"kv_usage_max", "fraction"}, {"kv_usage_mean", "fraction"}, {"preemptions_total", "count"},
    {"kv_capacity_tokens", "tokens"}, {"kv_capacity_tokens_metrics", "tokens"},
    {"kv_capacity_tokens_log", "tokens"}, {"ledger_kv_tokens", "tokens"},
    {"gpu_util_min", "fraction"}, {"gpu_util_max", "fraction"}, {"gpu_util_spread", "fraction"},
    {"power_ratio", "fraction"}, {"clock_ratio", "fraction"}, {"throttle_power", "0/1"},
    {"throttle_thermal", "0/1"}, {"throttle_hw", "0/1"}, {"output_len_p50", "tokens"},
    {"output_len_max_share", "fraction"}, {"one_token_output_share", "fraction"},
    {"max_tokens_mode", "tokens"}, {"temperature_mean", ""}, {"timeout_error_share", "fraction"},
    {"timeout_cluster_s", "s"}, {"timeout_cluster_share", "fraction"}, {"stream_break_share", "fraction"},
    {"retry_duplicate_share", "fraction"}, {"stream_break_cluster_s", "s"}, {"stream_break_cluster_share", "fraction"},
    {"max_tokens_inferred", "0/1"}, {"max_tokens_mode_share", "fraction"}, {"preemptions_per_request", "per request"}, {"oom_events", "count"}, {"startup_oom_events", "count"},
    {"preemption_events", "count"}, {"truncation_events", "count"}, {"max_len_exceeds_kv_events", "count"},
    {"engine_dead_events", "count"}, {"kv_cache_full_events", "count"}, {"longest_input_tokens", "tokens"},
    {"inputs_at_max_model_len_share", "fraction"}, {"tp", "GPUs"}, {"max_num_seqs", "requests"},
    {"max_num_batched_tokens", "tokens"}, {"max_model_len", "tokens"}, {"chunked_prefill", "0/1"},
    {"prefix_caching", "0/1"}, {"gpu_memory_utilization", "fraction"}, {"replicas", "engines"},
    {"kv_cache_quantized", "0/1"}, {"weights_quantized", "0/1"}, {"outputs_count", "count"},
    {"template_marker_share", "fraction"}, {"repetitive_output_share", "fraction"},
    {"garbled_output_share", "fraction"}, {"records_count", "count"}, {"records_ok", "count"}, {"records_cut", "requests"}, {"requests_over_context_share", "fraction"}, {"outputs_cut_at_context", "requests"}, {"prompts_over_context_refused", "requests"}, {"longest_request_tokens", "tokens"}, {"engine_threads", "threads"}, {"host_cpu_cores", "cores"},
    {"input_len_p50", "tokens"}, {"client_in_flight_mean", "requests"}, {"prompt_tokens_per_s", "tokens/s"}, {"waiting_client", "requests"}, {"server_input_len_mean", "tokens"}, {"server_requests", "requests"}, {"replica_tpot_p50_slowest", "s"}, {"replica_tpot_p50_others", "s"}, {"replica_running_slowest", "requests"}, {"replica_running_others", "requests"}, {"replica_requests_slowest", "requests"}, {"replica_requests_others", "requests"}, {"replica_input_len_slowest", "tokens"}, {"replica_input_len_others", "tokens"}, {"records_request_rate", "req/s"}, {"ignore_eos_share", "fraction"}, {"window_s", "s"},
};

}  // namespace

std::string indicator_unit(const std::string& name) {
  for (const auto& n : observation_names())
    if (name == n.name) return n.unit;
  for (const auto& r : kDerivedUnits)
    if (name == r.name) return r.unit;
  return "";
}

std::optional<double> Indicators::get(const std::string& name) const {
  auto it = now.find(name);
  if (it == now.end()) return std::nullopt;
  return it->second.value;
}

std::optional<double> Indicators::base(const std::string& name) const {
  auto it = baseline.find(name);
  if (it == baseline.end()) return std::nullopt;
  return it->second.value;
}

const Indicator* Indicators::find(const std::string& name) const {
  auto it = now.find(name);
  return it == now.end() ? nullptr : &it->second;
}

EvidenceItem Indicators::item(const std::string& name, std::optional<double> threshold, const std::string& op) const {
  EvidenceItem e;
  e.indicator = name;
  e.unit = indicator_unit(name);
  e.threshold = threshold;
  e.op = op;
  if (const Indicator* i = find(name)) {
    e.value = i->value;
    e.source = i->source;
  } else {
    e.source = "not measured";
  }
  if (auto b = base(name)) {
    // The baseline's source only when it is another kind of source than the value's own (a
    // dashboard reading against metrics): the same long source twice on one line is noise.
    auto kind = [](const std::string& src) { return src.substr(0, src.find_first_of(" (:")); };
    const std::string& bsrc = baseline.at(name).source;
    e.text = "baseline " + core::format_quantity(*b, e.unit) + (kind(bsrc) == kind(e.source) ? "" : " (" + bsrc + ")");
  }
  return e;
}

void summarize_evidence(const core::Evidence& ev, const Thresholds& th, IndicatorMap& out) {
  summarize_deployment(ev.deployment, out);
  summarize_ledger(ev.deployment, out);
  summarize_engine_samples(ev.engine_samples, out);
  summarize_gpu_samples(ev.gpu_samples, out);
  summarize_records(ev.requests, th, out);
  summarize_events(ev, out);
  summarize_outputs(ev.outputs, th, out);
  // The queue the engine's gauge does not show. With the engine at its running cap (max-num-seqs,
  // llama.cpp's slots) on one engine series, whatever the clients hold in flight beyond that cap
  // waits somewhere in front of the scheduler: llama.cpp reads a request only when one of its
  // HTTP threads is free (n_threads_http: unless set, max(n_parallel + 2, cores - 1);
  // tools/server/server.cpp), so a slot queue shows as at most a request or two in
  // requests_deferred while the rest wait in the listen backlog. Not
  // derived across several replicas (the records may span them, the cap is one engine's).
  {
    auto in_flight = out.find("client_in_flight_mean"), seqs = out.find("max_num_seqs"), run = out.find("running_max");
    if (in_flight != out.end() && seqs != out.end() && run != out.end() && !out.count("replicas") && seqs->second.value > 0 &&
        run->second.value >= seqs->second.value)
      out["waiting_client"] = Indicator{
          std::max(0.0, in_flight->second.value - seqs->second.value),
          fmt::format("records: {:.1f} requests in flight at the client (Little's law) - the engine's cap of {} running, "
                      "reached (running max {}): held in front of the scheduler",
                      in_flight->second.value, core::format_number(seqs->second.value), core::format_number(run->second.value))};
  }
  // Against the context one request may use (max_model_len; llama.cpp: the slot's context). A
  // prompt pinned at it was cut to fit (served, at the limit); a prompt + max_tokens above it asks
  // for more than a request can hold: refused (llama.cpp 400 "exceeds the available context size")
  // or its output stopped at the limit (finish_reason length before max_tokens).
  if (auto mml = ev.deployment.settings.max_model_len; mml && *mml > 0) {
    size_t n = 0, pinned = 0, asked = 0, over = 0, cut = 0, refused = 0;
    int64_t longest = 0;
    for (const auto& r : ev.requests) {
      if (!r.input_tokens) continue;
      const bool ok = r.status == core::RequestStatus::ok;
      const std::string& cat = r.error_category;
      if (!ok && (cat == "interrupted" || cat == "deadline" || cat == "not_sent")) continue;  // never judged by the server
      ++n;
      if (ok && *r.input_tokens >= *mml - 1 && *r.input_tokens <= *mml) ++pinned;
      if (!r.max_tokens) continue;
      ++asked;
      const int64_t need = *r.input_tokens + *r.max_tokens;
      longest = std::max(longest, need);
      if (need <= *mml) continue;
      ++over;
      if (ok && r.output_tokens && *r.output_tokens < *r.max_tokens && *r.input_tokens + *r.output_tokens >= *mml - 1) ++cut;
      if (!ok && *r.input_tokens >= *mml) ++refused;
    }
    if (n > 0)
      out["inputs_at_max_model_len_share"] =
          Indicator{static_cast<double>(pinned) / static_cast<double>(n),
                    fmt::format("records ({} of {} served prompts at max_model_len {})", pinned, n, *mml)};
    if (asked > 0) {
      const std::string src = fmt::format("records vs max_model_len {} (per request; llama.cpp: per slot)", *mml);
      out["requests_over_context_share"] =
          Indicator{static_cast<double>(over) / static_cast<double>(asked),
                    fmt::format("{}: {} of {} ask for prompt + max_tokens above it", src, over, asked)};
      out["outputs_cut_at_context"] = Indicator{static_cast<double>(cut), src + ": outputs stopped at the limit before max_tokens"};
      out["prompts_over_context_refused"] = Indicator{static_cast<double>(refused), src + ": failed requests whose prompt alone exceeds it"};
      out["longest_request_tokens"] = Indicator{static_cast<double>(longest), src + ": longest prompt + max_tokens asked"};
    }
  }
}

Indicators build_indicators(const DiagnoseInput& in) {
  Indicators ind;
  summarize_evidence(in.now, in.thresholds, ind.now);
  if (in.baseline) summarize_evidence(*in.baseline, in.thresholds, ind.baseline);
  for (const auto& [k, v] : in.observations.now) {
    if (auto it = ind.now.find(k); it != ind.now.end()) ind.replaced[k] = it->second;
    ind.now[k] = Indicator{v, fmt::format("observe {}={:g}", k, v)};
  }
  for (const auto& [k, v] : in.observations.baseline)
    ind.baseline[k] = Indicator{v, fmt::format("observe baseline_{}={:g}", k, v)};
  // A power ratio the operator can read off two observations.
  for (auto* m : {&ind.now, &ind.baseline}) {
    auto p = m->find("power_w"), l = m->find("power_limit_w");
    if (p != m->end() && l != m->end() && l->second.value > 0 &&
        (p->second.source.rfind("observe", 0) == 0 || l->second.source.rfind("observe", 0) == 0))
      (*m)["power_ratio"] = Indicator{p->second.value / l->second.value, "power_w / power_limit_w"};
    auto c = m->find("sm_clock_mhz"), x = m->find("max_sm_clock_mhz");
    if (c != m->end() && x != m->end() && x->second.value > 0 &&
        (c->second.source.rfind("observe", 0) == 0 || x->second.source.rfind("observe", 0) == 0))
      (*m)["clock_ratio"] = Indicator{c->second.value / x->second.value, "sm_clock_mhz / max_sm_clock_mhz"};
  }
  return ind;
}

}  // namespace llmtriage::diagnose
