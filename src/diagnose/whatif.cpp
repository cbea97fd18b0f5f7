#include "diagnose/whatif.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "sim/deployment.h"
#include "sim/simulation.h"

namespace llmtriage::diagnose {
namespace {

// Fixed seed: the same evidence gives the same prediction, run after run.
constexpr uint64_t kSeed = 20261203;

const char* preset_name(core::EngineKind k, std::vector<std::string>& assumptions) {
  switch (k) {
    case core::EngineKind::vllm: return "vllm";
    case core::EngineKind::vllm_v0: return "vllm-v0";
    case core::EngineKind::sglang: return "sglang";
    case core::EngineKind::trtllm: return "trtllm";
    case core::EngineKind::unknown:
    case core::EngineKind::tgi:
    case core::EngineKind::llamacpp:
    case core::EngineKind::ollama: break;
  }
  assumptions.push_back(fmt::format("engine {}: simulated with the vLLM V1 scheduler preset", core::to_string(k)));
  return "vllm";
}

// Lognormal sigma whose p99/mean ratio is r: p99/mean = exp(2.326 s - s^2/2).
double sigma_for_p99_ratio(double r) {
  if (!(r > 1)) return 0.05;
  const double z = 2.326, lr = std::log(r);
  const double disc = z * z - 2 * lr;
  return disc <= 0 ? z : z - std::sqrt(disc);
}

std::string gpu_of(const core::Evidence& ev) {
  if (!ev.deployment.gpu.empty()) return ev.deployment.gpu;
  for (const auto& g : ev.gpu_samples)
    if (!g.name.empty()) return g.name;
  return "";
}

bool memory_differs(const sim::DeploymentSpec& a, const sim::DeploymentSpec& b) {
  return a.tp != b.tp || a.kv_cache_dtype != b.kv_cache_dtype || a.gpu_memory_utilization != b.gpu_memory_utilization ||
         a.quantization != b.quantization || a.dtype != b.dtype || a.max_model_len != b.max_model_len ||
         a.gpu != b.gpu || a.model != b.model;
}

std::string secs(double s) { return core::format_duration_s(s); }

}  // namespace

double value_of(const Prediction& p, Metric m) {
  switch (m) {
    case Metric::ttft_p99: return p.ttft_p99_s;
    case Metric::tpot_p99: return p.tpot_p99_s;
    case Metric::throughput: return p.output_tokens_per_s;
  }
  return 0;
}

bool reproduces(const Prediction& p, Metric m, std::optional<double> observed) {
  if (!observed || *observed <= 0) return true;  // nothing to compare against
  const double v = value_of(p, m);
  return v > 0 && v / *observed >= 0.5 && v / *observed <= 2.0;
}

core::Result<Prediction> predict(sim::Scenario s) {
  if (auto r = sim::resolve(s); !r.ok()) return r.error();
  Prediction p;
  if (!s.startup_error.empty()) {
    p.starts = false;
    p.startup_error = s.startup_error;
    return p;
  }
  s.config.keep_samples = false;
  s.config.keep_log = false;
  s.config.keep_token_times = 0;
  auto run = sim::run_simulation(s.config);
  if (!run.ok()) return std::move(run).error();
  const sim::Summary& m = run->summary;
  p.ttft_p50_s = m.ttft_ms.median / 1000;
  p.ttft_p99_s = m.ttft_ms.p99 / 1000;
  p.tpot_p50_s = m.tpot_ms.median / 1000;
  p.tpot_p99_s = m.tpot_ms.p99 / 1000;
  p.output_tokens_per_s = m.output_throughput;
  p.kv_usage_max = m.kv_usage_max;
  p.waiting_max = m.waiting_max;
  p.running_mean = m.running_mean;
  p.preemptions = m.preemptions;
  p.completed = m.completed;
  p.rejected = m.rejected;
  p.kv_cache_tokens = static_cast<int64_t>(m.kv_cache_tokens);
  p.livelock = run->livelock;
  p.duration_s = m.duration_s;
  for (const auto& r : run->records) {
    if (r.status != core::RequestStatus::ok || !r.ttft_s) continue;
    const int64_t out = r.output_tokens.value_or(0);
    const double tpot = out > 1 && r.e2e_s ? (*r.e2e_s - *r.ttft_s) / static_cast<double>(out - 1) : 0.0;
    p.ttft_tpot_s.emplace_back(*r.ttft_s, tpot);
  }
  return p;
}

core::Result<WhatIfSetup> whatif_setup(const DiagnoseInput& in, const Indicators& ind, int64_t num_requests) {
  const core::Evidence& ev = in.now;
  const core::Deployment& d = ev.deployment;
  WhatIfSetup w;
  sim::Scenario& s = w.scenario;
  s.name = "what-if";
  s.deployment.model = d.model.empty() ? d.settings.model.value_or("") : d.model;
  s.deployment.gpu = gpu_of(ev);
  if (s.deployment.model.empty() || s.deployment.gpu.empty())
    return core::make_error(core::ErrorKind::input, "what-if", "the model and the GPU (--model/--gpu or engine args)",
                            s.deployment.model.empty() ? "no model" : "no GPU");
  const core::EngineSettings& st = d.settings;
  s.engine = preset_name(d.engine, w.assumptions);
  s.deployment.tp = st.tensor_parallel_size.value_or(d.num_gpus > 0 && !st.pipeline_parallel_size ? d.num_gpus : 1);
  if (st.dtype) s.deployment.dtype = *st.dtype;
  if (st.quantization) s.deployment.quantization = *st.quantization;
  if (st.kv_cache_dtype) s.deployment.kv_cache_dtype = *st.kv_cache_dtype;
  if (st.gpu_memory_utilization) s.deployment.gpu_memory_utilization = *st.gpu_memory_utilization;
  else if (st.mem_fraction_static) s.deployment.gpu_memory_utilization = *st.mem_fraction_static;
  s.deployment.max_model_len = st.max_model_len;
  if (auto kv = ind.get("kv_capacity_tokens"); kv && *kv > 0) {
    s.deployment.kv_cache_tokens = static_cast<int64_t>(*kv);
    w.pool_observed = true;
  }
  s.max_num_seqs = st.max_num_seqs;
  s.max_num_batched_tokens = st.max_num_batched_tokens;
  s.chunked_prefill = st.enable_chunked_prefill;
  s.prefix_caching = st.enable_prefix_caching;
  s.config.replicas = std::max(1, static_cast<int>(ind.get("replicas").value_or(1)));

  // Workload: request records' lengths when they have them, else the indicators'.
  sim::WorkloadSpec& wl = s.config.workload;
  wl.arrival = sim::ArrivalKind::poisson;
  wl.num_requests = num_requests;
  wl.seed = kSeed;
  wl.ignore_eos = true;
  std::optional<double> rate = ind.get("request_rate");
  size_t with_tokens = 0;
  double t0 = 1e300, t1 = -1e300;
  for (const auto& r : ev.requests)
    if (r.input_tokens && r.output_tokens && *r.output_tokens > 0) {
      ++with_tokens;
      t0 = std::min(t0, r.arrival_s);
      t1 = std::max(t1, r.arrival_s);
    }
  if (with_tokens >= 20) {
    std::vector<core::RequestRecord> ok;
    ok.reserve(with_tokens);
    for (const auto& r : ev.requests)
      if (r.input_tokens && r.output_tokens && *r.output_tokens > 0) ok.push_back(r);
    wl.input = sim::empirical_from_records(ok, true);
    wl.output = sim::empirical_from_records(ok, false);
    // The arrival rate: the engines' request counters count completions, which an overloaded
    // engine keeps below the arrivals -- simulating at that rate would hide the queue.
    if (t1 > t0) rate = static_cast<double>(with_tokens - 1) / (t1 - t0);
    // As many requests as the window had, within the bound (a growing queue's P99 grows with it).
    wl.num_requests = std::clamp<int64_t>(static_cast<int64_t>(with_tokens), num_requests, 500);
    double in_sum = 0, out_sum = 0;
    for (auto v : wl.input.samples) in_sum += v;
    for (auto v : wl.output.samples) out_sum += v;
    if (!rate || *rate <= 0)
      return core::make_error(core::ErrorKind::input, "what-if", "a request rate (records' arrivals or request_rate)",
                              "none");
    w.workload_basis = fmt::format("records ({} requests): {:.2f} req/s, input mean {:.0f}, output mean {:.0f} tokens",
                                   with_tokens, *rate, in_sum / static_cast<double>(wl.input.samples.size()),
                                   out_sum / static_cast<double>(wl.output.samples.size()));
    w.assumptions.push_back("input and output lengths drawn independently from the records");
  } else {
    const auto in_mean = ind.get("input_len_mean"), out_mean = ind.get("output_len_mean");
    if (!rate || *rate <= 0 || !in_mean || !out_mean || *in_mean <= 0 || *out_mean <= 0)
      return core::make_error(core::ErrorKind::input, "what-if",
                              "request records with token counts, or request_rate, input_len_mean and output_len_mean",
                              fmt::format("{}{}{}", rate ? "" : "no request_rate ", in_mean ? "" : "no input_len_mean ",
                                          out_mean ? "" : "no output_len_mean"));
    wl.input.kind = sim::LengthDist::Kind::lognormal;
    wl.input.mean = *in_mean;
    const auto in_p99 = ind.get("input_len_p99");
    wl.input.sigma = in_p99 ? sigma_for_p99_ratio(*in_p99 / *in_mean) : 0.5;
    wl.output.kind = sim::LengthDist::Kind::lognormal;
    wl.output.mean = *out_mean;
    wl.output.sigma = 0.5;
    w.workload_basis = fmt::format("indicators: {:.2f} req/s, input mean {:.0f}{}, output mean {:.0f} tokens", *rate,
                                   *in_mean, in_p99 ? fmt::format(" (p99 {:.0f})", *in_p99) : "", *out_mean);
    w.assumptions.push_back(in_p99 ? "input lengths lognormal with the observed mean and p99"
                                   : "input lengths lognormal, sigma 0.5 (no p99 given)");
    w.assumptions.push_back("output lengths lognormal, sigma 0.5");
  }
  wl.rate_rps = *rate;
  if (s.deployment.max_model_len) {
    // Requests longer than the context are rejected by the engine; keep the draw inside it.
    wl.input.max = std::max<int64_t>(1, *s.deployment.max_model_len - 1);
  }
  auto base = predict(s);
  if (!base.ok()) return std::move(base).error();
  w.baseline = *base;
  return w;
}

core::Result<WhatIfSetup> whatif_replay_setup(const DiagnoseInput& in, const Indicators& ind, size_t max_requests) {
  auto w = whatif_setup(in, ind);
  if (!w.ok()) return w;
  std::vector<core::RequestRecord> trace;
  for (const auto& r : in.now.requests)
    if (r.input_tokens && r.output_tokens && *r.output_tokens > 0) trace.push_back(r);
  if (trace.size() < 20) return w;
  std::stable_sort(trace.begin(), trace.end(), [](const auto& a, const auto& b) { return a.arrival_s < b.arrival_s; });
  if (trace.size() > max_requests) trace.resize(max_requests);
  WhatIfSetup t = *w;
  sim::WorkloadSpec& wl = t.scenario.config.workload;
  wl.arrival = sim::ArrivalKind::trace;
  wl.num_requests = static_cast<int64_t>(trace.size());
  const double span = trace.back().arrival_s - trace.front().arrival_s;
  t.workload_basis = fmt::format("records replayed as a trace ({} requests over {:.0f} s: their arrival times and lengths)",
                                 trace.size(), span);
  wl.trace = std::move(trace);
  t.assumptions.erase(std::remove(t.assumptions.begin(), t.assumptions.end(),
                                  std::string("input and output lengths drawn independently from the records")),
                      t.assumptions.end());
  auto base = predict(t.scenario);
  if (!base.ok()) return w;  // the Poisson replay still predicts
  t.baseline = *base;
  return t;
}

void scale_load(sim::Scenario& s, double factor) {
  if (factor <= 0 || factor == 1) return;
  sim::WorkloadSpec& wl = s.config.workload;
  switch (wl.arrival) {
    case sim::ArrivalKind::trace: {
      const double t0 = wl.trace.empty() ? 0 : wl.trace.front().arrival_s;
      for (auto& r : wl.trace) r.arrival_s = t0 + (r.arrival_s - t0) / factor;
      break;
    }
    case sim::ArrivalKind::poisson:
    case sim::ArrivalKind::gamma:
    case sim::ArrivalKind::constant: wl.rate_rps *= factor; break;
    case sim::ArrivalKind::closed_loop:
      wl.concurrency = static_cast<int64_t>(std::ceil(static_cast<double>(wl.concurrency) * factor));
      break;
    case sim::ArrivalKind::all_at_once: break;
  }
}

core::Result<Prediction> predict_changed(const WhatIfSetup& base, const std::function<void(sim::Scenario&)>& change) {
  sim::Scenario s = base.scenario;
  change(s);
  if (base.pool_observed && s.deployment.kv_cache_tokens == base.scenario.deployment.kv_cache_tokens &&
      memory_differs(base.scenario.deployment, s.deployment)) {
    // The observed pool scaled by what the ledger says the change does to it.
    sim::DeploymentSpec a = base.scenario.deployment, b = s.deployment;
    a.kv_cache_tokens.reset();
    b.kv_cache_tokens.reset();
    a.engine = b.engine = core::engine_kind_from_string(s.engine);
    auto da = sim::deploy(a);
    auto db = sim::deploy(b);
    if (da.ok() && db.ok() && da->kv_cache_tokens > 0) {
      if (!db->startup_error.empty()) {
        Prediction p;
        p.starts = false;
        p.startup_error = db->startup_error;
        return p;
      }
      s.deployment.kv_cache_tokens = static_cast<int64_t>(
          static_cast<double>(*s.deployment.kv_cache_tokens) * static_cast<double>(db->kv_cache_tokens) /
          static_cast<double>(da->kv_cache_tokens));
    }
  }
  return predict(std::move(s));
}

Remedy whatif_remedy(const std::string& change, const std::string& from, const std::string& to, const WhatIfSetup& base,
                     const Prediction& after, Metric focus, std::optional<double> observed) {
  Remedy r;
  r.change = change;
  r.from = from;
  r.to = to;
  r.basis = "sim";
  const Prediction& b = base.baseline;
  const char* name = focus == Metric::ttft_p99 ? "P99 TTFT" : focus == Metric::tpot_p99 ? "P99 TPOT" : "output throughput";
  const double u = focus == Metric::ttft_p99 ? kSimTtftUncertainty
                   : focus == Metric::tpot_p99 ? kSimTpotUncertainty
                                               : kSimThroughputUncertainty;
  if (!after.starts) {
    r.predicted_effect = "the simulated engine does not start with this change: " + after.startup_error;
    // An engine that does not start serves nothing: the worst value of the metric.
    r.predicted = PredictedValue{name, focus == Metric::throughput ? "tok/s" : "s", value_of(b, focus),
                                 focus == Metric::throughput ? 0.0 : INFINITY, focus == Metric::throughput, u};
    return r;
  }
  auto fmt_v = [&](double v) {
    return focus == Metric::throughput ? fmt::format("{:.0f} tok/s", v) : secs(v);
  };
  std::string text = fmt::format("{} {} -> {} (sim what-if, +-{:.0f}%", name, fmt_v(value_of(b, focus)),
                                 fmt_v(value_of(after, focus)), u * 100);
  if (observed) {
    if (reproduces(b, focus, observed))
      text += fmt::format("; sim baseline {} vs observed {}", fmt_v(value_of(b, focus)), fmt_v(*observed));
    else
      text += fmt::format("; the sim baseline ({}) does not reproduce the observed {}: trust the direction, not the "
                          "size", fmt_v(value_of(b, focus)), fmt_v(*observed));
  }
  text += ")";
  if (focus == Metric::ttft_p99)
    text += fmt::format("; P50 TTFT {} -> {}", secs(b.ttft_p50_s), secs(after.ttft_p50_s));
  if (focus != Metric::throughput)
    text += fmt::format("; throughput {:.0f} -> {:.0f} tok/s", b.output_tokens_per_s, after.output_tokens_per_s);
  if (after.preemptions != b.preemptions)
    text += fmt::format("; preemptions {} -> {}", b.preemptions, after.preemptions);
  if (after.rejected > b.rejected) text += fmt::format("; {} requests rejected (longer than the context)", after.rejected);
  r.predicted_effect = text;
  r.uncertainty = reproduces(b, focus, observed) ? u : std::max(u, 1.0);
  // The numbers behind the text, so a report can tell a fix from a change with no predicted
  // effect. Both runs share seed and request set: the metric's own error band is the tolerance
  // (the "direction only" widening above is about the absolute size, not the difference).
  r.predicted = PredictedValue{name, focus == Metric::throughput ? "tok/s" : "s", value_of(b, focus),
                               value_of(after, focus), focus == Metric::throughput, u};
  return r;
}

}  // namespace llmtriage::diagnose
