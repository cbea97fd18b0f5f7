// The simulated drill's shared logic: scenario + expected diagnosis, run -> Evidence, remedy -> settings.
#include "drill/sim_case.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/files.h"
#include "ingest/engine_log.h"
#include "ingest/gpu_throttle.h"
#include "sim/deployment.h"
#include "sim/gpu_readings.h"

namespace llmtriage::drill {

namespace {

core::Error case_error(const std::string& where, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, where, expected, found);
}

}  // namespace

core::Result<DrillCase> load_case(const std::string& name_or_path) {
  std::string path = name_or_path;
  if (!std::filesystem::exists(path)) path = core::data_dir() + "/scenarios/" + name_or_path + ".json";
  auto sc = sim::load_scenario(std::filesystem::exists(path) ? path : name_or_path);
  if (!sc.ok()) return std::move(sc).error();
  DrillCase c;
  c.scenario = std::move(sc.value());
  c.path = path;
  auto text = core::read_file(path);
  if (!text.ok()) return std::move(text).error();
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object() || !j.contains("diagnosis")) return c;
  const auto& d = j["diagnosis"];
  const std::string where = path + ": diagnosis";
  if (!d.is_object()) return case_error(where, "an object {\"id\", \"layer\", \"symptom\"}", d.dump());
  ExpectedDiagnosis e;
  if (!d.contains("id") || !d["id"].is_string()) return case_error(where + ".id", "a finding id (docs/rules.md)", d.value("id", nlohmann::json()).dump());
  e.id = d["id"].get<std::string>();
  auto layer = diagnose::layer_from_string(d.value("layer", ""));
  if (!layer) return case_error(where + ".layer", "load, scheduling_capacity, operator_hardware, numeric_parameter or gateway_client",
                         "'" + d.value("layer", "") + "'");
  e.layer = *layer;
  auto sym = diagnose::symptom_from_string(d.value("symptom", ""));
  if (!sym) return case_error(where + ".symptom", "a symptom name (startup_oom, ttft_spike, ...)", "'" + d.value("symptom", "") + "'");
  e.symptom = *sym;
  c.expected = e;
  if (d.contains("observe")) {
    if (!d["observe"].is_object()) return case_error(where + ".observe", "an object {NAME: number}", d["observe"].dump());
    for (const auto& [k, v] : d["observe"].items()) {
      if (!v.is_number()) return case_error(where + ".observe." + k, "a number", v.dump());
      if (auto st = diagnose::add_observation(c.observations, k + "=" + fmt::format("{}", v.get<double>()), where + ".observe");
          !st.ok())
        return st.error();
    }
  }
  return c;
}

RunData offline_run_data(const sim::SimResult& r) {
  RunData d;
  d.samples = r.samples;
  d.records = r.records;
  d.log_lines = r.log_lines;
  // Preemptions are in the log's stats lines already; the rest (rejections, livelock) only here.
  for (const auto& e : r.events)
    if (e.kind != core::EventKind::preemption) d.extra_events.push_back(e);
  d.samples_source = "simulator engine samples (1 s)";
  d.records_source = "simulator request records";
  return d;
}

core::Deployment deployment_of(const sim::Scenario& s) {
  core::Deployment d;
  d.model = s.deployment.model;
  d.gpu = s.deployment.gpu;
  const int replicas = std::max(1, s.config.replicas);
  d.num_gpus = s.deployment.tp * replicas;
  d.engine = s.config.preset.kind == core::EngineKind::unknown ? core::EngineKind::vllm : s.config.preset.kind;
  d.engine_version = "0.11.0";  // the vLLM release sim serve imitates (docs/serve.md)
  auto& e = d.settings;
  e.model = s.deployment.model;
  e.tensor_parallel_size = s.deployment.tp;
  e.data_parallel_size = replicas;  // replicas are vLLM's data-parallel engines in sim serve
  e.gpu_memory_utilization = s.deployment.gpu_memory_utilization;
  e.max_model_len = s.config.max_model_len > 0 ? std::optional<int64_t>(s.config.max_model_len) : s.deployment.max_model_len;
  e.max_num_seqs = s.config.scheduler.max_num_seqs;
  e.max_num_batched_tokens = s.config.scheduler.max_num_batched_tokens;
  e.enable_chunked_prefill = s.config.scheduler.chunked_prefill;
  e.enable_prefix_caching = s.config.prefix_caching;
  e.block_size = s.config.block_size;
  e.kv_cache_dtype = s.deployment.kv_cache_dtype;
  e.dtype = s.deployment.dtype;
  if (!s.deployment.quantization.empty()) e.quantization = s.deployment.quantization;
  return d;
}

std::vector<core::GpuSample> simulated_gpu_samples(const sim::Scenario& s, const std::vector<core::EngineSample>& samples) {
  std::vector<core::GpuSample> out;
  auto gpu = sim::sim_gpu(s.deployment.gpu);
  if (!gpu.ok()) return out;
  const int replicas = std::max(1, s.config.replicas);
  // Running work per (time, replica), from the engine samples.
  std::map<double, std::vector<double>> running;
  for (const auto& e : samples) {
    auto& v = running[e.t_s];
    v.resize(static_cast<size_t>(replicas), 0);
    const int r = e.engine_index.empty() ? 0 : std::atoi(e.engine_index.c_str());
    if (r >= 0 && r < replicas) v[static_cast<size_t>(r)] = e.running.value_or(0);
  }
  // The readings model is sim serve's /dcgm one (sim/gpu_readings.h).
  for (const auto& [t, run] : running)
    for (int r = 0; r < replicas; ++r) {
      sim::ReplicaActivity a;
      a.replica = r;
      a.tp = s.deployment.tp;
      a.busy = run[static_cast<size_t>(r)] > 0;
      a.clock_factor = sim::fault_state(s.config.faults, t).clock_factor;
      a.gpu_memory_utilization = s.deployment.gpu_memory_utilization;
      a.t_s = t;
      for (auto& g : sim::replica_gpu_readings(*gpu, a)) {
        g.throttle_names = ingest::throttle_reason_names(g.throttle_reasons.value_or(0));
        out.push_back(std::move(g));
      }
    }
  return out;
}

namespace {

// The first fault that starts after t=0: the service was healthy before it.
std::optional<double> fault_onset(const sim::Scenario& s) {
  std::optional<double> t;
  for (const auto& f : s.config.faults)
    if (f.start_s > 0 && (!t || f.start_s < *t)) t = f.start_s;
  return t;
}

core::Evidence base_evidence(const DrillCase& c) {
  core::Evidence ev;
  ev.deployment = deployment_of(c.scenario);
  return ev;
}

}  // namespace

diagnose::DiagnoseInput diagnose_input(const DrillCase& c, const RunData& run, bool what_if) {
  core::Evidence all = base_evidence(c);
  all.engine_samples = run.samples;
  std::stable_sort(all.engine_samples.begin(), all.engine_samples.end(), [](auto& a, auto& b) { return a.t_s < b.t_s; });
  for (auto& e : all.engine_samples) e.engine = all.deployment.engine;
  all.requests = run.records;
  std::string log_text;
  for (const auto& l : run.log_lines) log_text += l + "\n";
  ingest::LogParseOptions lo;
  lo.source_name = "engine.log";
  auto parsed = ingest::parse_engine_log_text(log_text, lo);
  all.events = parsed.events;
  all.events.insert(all.events.end(), run.extra_events.begin(), run.extra_events.end());
  all.gpu_samples = simulated_gpu_samples(c.scenario, all.engine_samples);
  all.inputs.push_back({run.samples_source, "metrics", true, fmt::format("{} engine samples", run.samples.size())});
  all.inputs.push_back({run.records_source, "records", true, fmt::format("{} request records", run.records.size())});
  all.inputs.push_back({"engine.log", "log", true, fmt::format("{} lines, {} events", run.log_lines.size(), parsed.events.size())});
  all.inputs.push_back({"simulated GPU telemetry", "gpu", true,
                        fmt::format("{} readings derived from the scenario's clock faults", all.gpu_samples.size())});

  diagnose::DiagnoseInput in;
  in.what_if = what_if;
  in.observations = c.observations;
  if (c.expected) in.symptoms = {c.expected->symptom};
  const auto onset = fault_onset(c.scenario);
  if (onset && *onset >= kMinBaselineS) {
    // Split at the onset: before it is the healthy period (the baseline), after it the incident.
    core::Evidence base = base_evidence(c), now = base_evidence(c);
    for (auto& e : all.engine_samples) (e.t_s < *onset ? base : now).engine_samples.push_back(e);
    for (auto& g : all.gpu_samples) (g.t_s < *onset ? base : now).gpu_samples.push_back(g);
    for (auto& r : all.requests) (r.arrival_s < *onset ? base : now).requests.push_back(r);
    for (auto& e : all.events) (e.t_s && *e.t_s < *onset && e.kind != core::EventKind::startup_memory ? base : now).events.push_back(e);
    // Startup facts (KV capacity) hold for both periods.
    for (auto& e : all.events)
      if (e.kind == core::EventKind::startup_memory || e.kind == core::EventKind::engine_args) base.events.push_back(e);
    now.inputs = all.inputs;
    now.inputs.push_back({fmt::format("t >= {:g} s", *onset), "window", true, "the incident: from the first fault's onset"});
    base.inputs.push_back({fmt::format("t < {:g} s", *onset), "window", true, "the healthy period before the first fault"});
    in.now = std::move(now);
    in.baseline = std::move(base);
  } else {
    in.now = std::move(all);
  }
  return in;
}

diagnose::DiagnoseInput startup_input(const DrillCase& c, bool what_if) {
  diagnose::DiagnoseInput in;
  in.what_if = what_if;
  in.observations = c.observations;
  if (c.expected) in.symptoms = {c.expected->symptom};
  in.now = base_evidence(c);
  core::Event e;
  e.t_s = 0;
  e.kind = core::EventKind::oom;
  e.source = "engine.log";
  e.text = c.scenario.startup_error;
  e.labels["phase"] = "startup";
  e.labels["engine"] = core::to_string(in.now.deployment.engine);
  e.labels["cause"] = c.scenario.startup_error.find("cache blocks") != std::string::npos ? "no_kv_memory" : "cuda_oom";
  if (auto dep = sim::deploy(c.scenario.deployment); dep.ok()) {
    e.fields["weights_gib"] = dep->weights_gib_per_gpu;
    e.fields["usable_gpu_memory_gib"] = dep->usable_gib;
  }
  in.now.events.push_back(e);
  in.now.inputs.push_back({"engine.log", "log", true, "the engine failed to start: " + c.scenario.startup_error});
  return in;
}

namespace {

std::string normalize(std::string s) {
  std::string out;
  for (char ch : s) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    out += (c == '_' || c == ' ') ? '-' : c;
  }
  while (!out.empty() && out.front() == '-') out.erase(out.begin());
  return out;
}

// "16384", "16.4k" (the diagnosis writes large token counts so: k = 1000), "7.5 s" -> number;
// nullopt when there is no number.
std::optional<double> number_in(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && !(std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == text.size()) return std::nullopt;
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text.substr(i), &used);
  } catch (...) {
    return std::nullopt;
  }
  const size_t k = i + used;
  if (k < text.size() && (text[k] == 'k' || text[k] == 'K')) v *= 1000;
  if (k < text.size() && text[k] == 'M') v *= 1e6;
  return v;
}

// "x2" / "×2" is relative to the current value; anything else is number_in.
std::optional<double> target_value(const std::string& to, double current) {
  size_t i = 0;
  while (i < to.size() && to[i] == ' ') ++i;
  const bool times = to.compare(i, 1, "x") == 0 || to.compare(i, 2, "\xc3\x97") == 0;  // x2, ×2 (UTF-8)
  auto v = number_in(to);
  if (v && times) return *v * current;
  return v;
}

std::optional<bool> boolean_in(const std::string& text) {
  const std::string t = normalize(text);
  for (const char* on : {"true", "on", "enable", "yes", "1"})
    if (t.rfind(on, 0) == 0) return true;
  for (const char* off : {"false", "off", "disable", "no", "0"})
    if (t.rfind(off, 0) == 0) return false;
  return std::nullopt;
}

core::Error cannot(const diagnose::Remedy& r, const std::string& why) {
  return core::make_error(core::ErrorKind::input, r.change, "a change the simulator can apply", "'" + r.to + "'", why);
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

}  // namespace

core::Result<std::string> apply_remedy(const diagnose::Remedy& r, sim::Scenario& s) {
  const std::string ch = normalize(r.change);
  auto num = number_in(r.to);
  auto positive_int = [&](const char* what, double current) -> core::Result<int64_t> {
    auto v = target_value(r.to, current);
    if (!v || *v < 1) return cannot(r, std::string("needs a positive whole number for ") + what);
    return static_cast<int64_t>(std::llround(*v));
  };
  std::string did;
  if (has(ch, "chunked-prefill")) {
    const bool on = boolean_in(r.to).value_or(!has(ch, "disable") && !has(ch, "no-"));
    s.chunked_prefill = on;
    did = fmt::format("enable_chunked_prefill -> {}", on);
  } else if (has(ch, "prefix-caching")) {
    const bool on = boolean_in(r.to).value_or(true);
    s.prefix_caching = on;
    did = fmt::format("enable_prefix_caching -> {}", on);
  } else if (has(ch, "max-model-len") || has(ch, "context-length")) {
    auto v = positive_int("max-model-len", static_cast<double>(s.config.max_model_len));
    if (!v.ok()) return std::move(v).error();
    s.deployment.max_model_len = *v;
    did = fmt::format("max_model_len -> {}", *v);
  } else if (has(ch, "max-num-seqs") || has(ch, "max-running-requests") || has(ch, "concurrency")) {
    auto v = positive_int("max-num-seqs", static_cast<double>(s.config.scheduler.max_num_seqs));
    if (!v.ok()) return std::move(v).error();
    s.max_num_seqs = *v;
    did = fmt::format("max_num_seqs -> {}", *v);
  } else if (has(ch, "max-num-batched-tokens") || has(ch, "chunked-prefill-size")) {
    auto v = positive_int("max-num-batched-tokens", static_cast<double>(s.config.scheduler.max_num_batched_tokens));
    if (!v.ok()) return std::move(v).error();
    s.max_num_batched_tokens = *v;
    did = fmt::format("max_num_batched_tokens -> {}", *v);
  } else if (has(ch, "replica") || has(ch, "data-parallel")) {
    auto v = positive_int("replicas", std::max(1, s.config.replicas));
    if (!v.ok()) return std::move(v).error();
    s.config.replicas = static_cast<int>(*v);
    did = fmt::format("replicas -> {}", *v);
  } else if (has(ch, "tensor-parallel") || ch == "tp") {
    auto v = positive_int("tensor-parallel-size", s.deployment.tp);
    if (!v.ok()) return std::move(v).error();
    s.deployment.tp = static_cast<int>(*v);
    did = fmt::format("tensor_parallel_size -> {}", *v);
  } else if (has(ch, "gpu-memory-utilization")) {
    if (!num || *num <= 0 || *num > 1) return cannot(r, "needs a fraction in (0, 1]");
    s.deployment.gpu_memory_utilization = *num;
    did = fmt::format("gpu_memory_utilization -> {:g}", *num);
  } else if (has(ch, "kv-cache-dtype")) {
    const std::string to = normalize(r.to);
    if (to != "auto" && to.rfind("fp8", 0) != 0) return cannot(r, "kv-cache-dtype must be auto or fp8*");
    s.deployment.kv_cache_dtype = r.to;
    did = "kv_cache_dtype -> " + r.to;
  } else if (has(ch, "router") || has(ch, "routing") || has(ch, "affinity")) {
    // The fault is the router losing its prefix affinity; restoring it removes the fault.
    s.config.router = sim::RouterKind::prefix_affinity;
    std::erase_if(s.config.faults, [](const sim::Fault& f) { return f.kind == sim::FaultKind::no_affinity; });
    did = "router -> prefix-affinity (affinity restored)";
  } else if (has(ch, "timeout") && !has(ch, "idle")) {
    if (!num || *num <= 0) return cannot(r, "needs a timeout in seconds");
    bool any = false;
    for (auto& f : s.config.faults)
      if (f.kind == sim::FaultKind::gateway_timeout) f.timeout_s = *num, any = true;
    if (!any) return cannot(r, "the scenario has no gateway timeout to change");
    did = fmt::format("gateway timeout -> {:g} s", *num);
  } else if (has(ch, "retr")) {
    bool any = false;
    for (auto& f : s.config.faults)
      if (f.kind == sim::FaultKind::client_retries) {
        any = true;
        if (num) f.max_retries = static_cast<int>(*num);
        else f.exponential_backoff = true, f.backoff_s = std::max(f.backoff_s, 1.0);
      }
    if (!any) return cannot(r, "the scenario has no client retries to change");
    did = num ? fmt::format("client max retries -> {:g}", *num) : "client retries -> exponential backoff from 1 s";
  } else if (has(ch, "power") || has(ch, "cooling") || has(ch, "clock") || has(ch, "thermal")) {
    // Fixing the cap or the cooling gives back full clocks: the throttle fault goes away.
    const size_t before = s.config.faults.size();
    std::erase_if(s.config.faults, [](const sim::Fault& f) { return f.kind == sim::FaultKind::clock_throttle; });
    if (s.config.faults.size() == before) return cannot(r, "the scenario has no clock throttle to remove");
    did = "GPU power/cooling fixed (clock throttle removed)";
  } else {
    return cannot(r, "the simulator has no setting for this change (it is a change to the traffic, the client or the model)");
  }
  if (auto st = sim::resolve(s); !st.ok()) return st.error();
  return did;
}

std::optional<ChosenRemedy> choose_remedy(const diagnose::Report& report, sim::Scenario& s, std::vector<std::string>& skipped) {
  for (size_t f = 0; f < report.findings.size(); ++f)
    for (size_t k = 0; k < report.findings[f].remedies.size(); ++k) {
      const auto& rem = report.findings[f].remedies[k];
      sim::Scenario trial = s;
      auto did = apply_remedy(rem, trial);
      if (!did.ok()) {
        skipped.push_back(fmt::format("{} ({}): {}", rem.change, report.findings[f].id,
                                      did.error().detail.empty() ? did.error().expected : did.error().detail));
        continue;
      }
      s = std::move(trial);
      return ChosenRemedy{f, k, *did};
    }
  return std::nullopt;
}

std::map<std::string, std::string> scenario_config(const sim::Scenario& s) {
  std::map<std::string, std::string> m;
  const auto d = deployment_of(s);
  m["model"] = d.model;
  m["gpu"] = d.gpu;
  m["tensor_parallel_size"] = std::to_string(s.deployment.tp);
  m["replicas"] = std::to_string(std::max(1, s.config.replicas));
  m["gpu_memory_utilization"] = fmt::format("{:g}", s.deployment.gpu_memory_utilization);
  // The settings as given (the engine's default when unset), not as resolved: a resolved value
  // that follows from another (V0's token budget without chunked prefill) is not a second change.
  auto given = [](const auto& v) { return v ? fmt::format("{}", *v) : std::string("default"); };
  m["max_model_len"] = given(s.deployment.max_model_len);
  m["max_num_seqs"] = given(s.max_num_seqs);
  m["max_num_batched_tokens"] = given(s.max_num_batched_tokens);
  m["enable_chunked_prefill"] = given(s.chunked_prefill);
  m["enable_prefix_caching"] = given(s.prefix_caching);
  m["kv_cache_dtype"] = s.deployment.kv_cache_dtype;
  m["router"] = sim::to_string(s.config.router);
  for (const auto& f : s.config.faults) {
    const std::string k = std::string("fault.") + sim::to_string(f.kind);
    switch (f.kind) {
      case sim::FaultKind::gateway_timeout: m[k] = fmt::format("timeout {:g} s", f.timeout_s); break;
      case sim::FaultKind::client_retries: m[k] = fmt::format("max {} retries{}", f.max_retries, f.exponential_backoff ? ", backoff" : ""); break;
      default: m[k] = "on"; break;
    }
  }
  return m;
}

}  // namespace llmtriage::drill
