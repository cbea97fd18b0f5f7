#include "sim/scenario.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "core/files.h"
#include "sim/trtllm_bench.h"

namespace llmtriage::sim {

namespace {

core::Error bad(const std::string& where, const std::string& expected, const std::string& found) {
  return core::make_error(core::ErrorKind::input, where, expected, found);
}

template <typename T>
void opt(const nlohmann::json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<T>();
}
template <typename T>
void get(const nlohmann::json& j, const char* key, T& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<T>();
}

double num_or_inf(const nlohmann::json& v) {
  if (v.is_string() && (v.get<std::string>() == "inf")) return INFINITY;
  return v.get<double>();
}

}  // namespace

bool Expectation::holds(double a) const {
  if (op == ">") return a > value;
  if (op == ">=") return a >= value;
  if (op == "<") return a < value;
  if (op == "<=") return a <= value;
  if (op == "==") return a == value;
  return false;
}

core::Result<LengthDist> parse_length(const nlohmann::json& j, const std::string& where) {
  if (j.is_number()) return LengthDist::fixed_len(j.get<int64_t>());
  if (!j.is_object()) return bad(where, "a token count or {\"dist\": ...}", j.dump());
  LengthDist d;
  const std::string dist = j.value("dist", "fixed");
  if (dist == "fixed") { d.kind = LengthDist::Kind::fixed; d.mean = j.value("mean", 128.0); }
  else if (dist == "uniform") { d.kind = LengthDist::Kind::uniform; d.lo = j.value("min", int64_t{1}); d.hi = j.value("max", int64_t{1}); }
  else if (dist == "lognormal") { d.kind = LengthDist::Kind::lognormal; d.mean = j.value("mean", 128.0); d.sigma = j.value("sigma", 0.5); }
  else return bad(where + ".dist", "fixed, uniform or lognormal (empirical comes from --trace)", "'" + dist + "'");
  d.min = j.value("clamp_min", int64_t{1});
  d.max = j.value("clamp_max", int64_t{1} << 20);
  return d;
}

core::Result<Scenario> parse_scenario(const std::string& text, const std::string& where) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad(where, "a JSON object (a scenario)", "invalid JSON");
  Scenario s;
  try {
    s.name = j.value("name", std::filesystem::path(where).stem().string());
    s.symptom = j.value("symptom", "");
    s.description = j.value("description", "");
    const auto& d = j.value("deployment", nlohmann::json::object());
    get(d, "model", s.deployment.model);
    get(d, "gpu", s.deployment.gpu);
    get(d, "tp", s.deployment.tp);
    get(d, "dtype", s.deployment.dtype);
    get(d, "quantization", s.deployment.quantization);
    get(d, "kv_cache_dtype", s.deployment.kv_cache_dtype);
    get(d, "gpu_memory_utilization", s.deployment.gpu_memory_utilization);
    opt(d, "max_model_len", s.deployment.max_model_len);
    opt(d, "kv_cache_tokens", s.deployment.kv_cache_tokens);
    s.engine = j.value("engine", "vllm");
    const auto& st = j.value("settings", nlohmann::json::object());
    opt(st, "max_num_seqs", s.max_num_seqs);
    opt(st, "max_num_batched_tokens", s.max_num_batched_tokens);
    opt(st, "enable_chunked_prefill", s.chunked_prefill);
    opt(st, "enable_prefix_caching", s.prefix_caching);
    opt(st, "num_scheduler_steps", s.num_scheduler_steps);
    if (st.contains("capacity_scheduler_policy")) {
      std::string p = st["capacity_scheduler_policy"].get<std::string>();
      std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return std::tolower(ch); });
      const std::string key = where + ": settings.capacity_scheduler_policy";
      if (s.engine != "trtllm" && s.engine != "tensorrt-llm")
        return bad(key, "only with engine trtllm (TensorRT-LLM's CapacitySchedulerPolicy)", "engine '" + s.engine + "'");
      if (p == to_string(CapacityPolicy::guaranteed_no_evict)) s.capacity = CapacityPolicy::guaranteed_no_evict;
      else if (p == to_string(CapacityPolicy::max_utilization)) s.capacity = CapacityPolicy::max_utilization;
      else return bad(key, "guaranteed_no_evict or max_utilization", "'" + p + "'");
    }
    SimConfig& c = s.config;
    get(j, "replicas", c.replicas);
    if (j.contains("router")) {
      auto r = router_kind_from_string(j["router"].get<std::string>());
      if (!r.ok()) return bad(where + ": router", r.error().expected, r.error().found);
      c.router = *r;
    }
    const auto& w = j.value("workload", nlohmann::json::object());
    WorkloadSpec& ws = c.workload;
    const std::string arrival = w.value("arrival", "poisson");
    bool found = false;
    for (ArrivalKind k : {ArrivalKind::poisson, ArrivalKind::gamma, ArrivalKind::constant, ArrivalKind::closed_loop, ArrivalKind::all_at_once})
      if (arrival == to_string(k)) { ws.arrival = k; found = true; }
    if (!found) return bad(where + ": workload.arrival", "poisson, gamma, constant, closed_loop or all_at_once", "'" + arrival + "'");
    if (w.contains("rate")) ws.rate_rps = num_or_inf(w["rate"]);
    if (std::isinf(ws.rate_rps) && ws.arrival != ArrivalKind::closed_loop) ws.arrival = ArrivalKind::all_at_once;
    get(w, "burstiness", ws.burstiness);
    get(w, "concurrency", ws.concurrency);
    get(w, "num_requests", ws.num_requests);
    if (w.contains("input")) { auto l = parse_length(w["input"], where + ": workload.input"); if (!l.ok()) return l.error(); ws.input = *l; }
    if (w.contains("output")) { auto l = parse_length(w["output"], where + ": workload.output"); if (!l.ok()) return l.error(); ws.output = *l; }
    get(w, "prefix_groups", ws.prefix_groups);
    get(w, "shared_prefix_len", ws.shared_prefix_len);
    get(w, "n", ws.n);
    get(w, "ignore_eos", ws.ignore_eos);
    get(w, "max_tokens", ws.max_tokens);
    get(w, "seed", ws.seed);
    for (const auto& f : j.value("faults", nlohmann::json::array())) {
      Fault x;
      auto k = fault_kind_from_string(f.value("kind", ""));
      if (!k.ok()) return bad(where + ": faults[].kind", k.error().expected, k.error().found);
      x.kind = *k;
      get(f, "start_s", x.start_s);
      get(f, "end_s", x.end_s);
      get(f, "factor", x.factor);
      get(f, "replica", x.replica);
      get(f, "rate", x.rate_rps);
      get(f, "input_len", x.input_len);
      get(f, "output_len", x.output_len);
      get(f, "max_retries", x.max_retries);
      get(f, "backoff_s", x.backoff_s);
      get(f, "exponential_backoff", x.exponential_backoff);
      get(f, "timeout_s", x.timeout_s);
      c.faults.push_back(x);
    }
    if (j.contains("calibration")) {
      auto cal = Calibration::from_json_text(j["calibration"].dump(), where + ": calibration");
      if (!cal.ok()) return cal.error();
      c.calibration = *cal;
    }
    get(j, "sample_interval_s", c.sample_interval_s);
    get(j, "log_interval_s", c.log_interval_s);
    s.expect_startup_error = j.value("expect_startup_error", "");
    for (const auto& e : j.value("expect", nlohmann::json::array()))
      s.expect.push_back({e.at("metric").get<std::string>(), e.at("op").get<std::string>(), e.at("value").get<double>()});
  } catch (const nlohmann::json::exception& e) {
    return bad(where, "a scenario with fields of the documented types (docs/sim.md)", e.what());
  }
  if (auto r = resolve(s); !r.ok()) return r.error();
  return s;
}

core::Status resolve(Scenario& s) {
  SimConfig& c = s.config;
  auto preset = engine_preset(s.engine);
  if (!preset.ok()) return preset.error();
  c.preset = *preset;
  s.deployment.engine = c.preset.kind;
  s.deployment.max_num_seqs = s.max_num_seqs;
  s.deployment.max_num_batched_tokens = s.max_num_batched_tokens;
  auto dep = deploy(s.deployment);
  if (!dep.ok()) return dep.error();
  c.model = dep->model;
  c.hardware = dep->hardware;
  c.model_name = s.deployment.model;
  c.max_model_len = dep->max_model_len;
  c.block_size = c.preset.block_size;
  s.kv_pool_source = dep->kv_pool_source;
  std::optional<int64_t> max_seqs = s.max_num_seqs, max_tokens = s.max_num_batched_tokens;
  if (c.preset.kind == core::EngineKind::trtllm && c.workload.arrival == ArrivalKind::all_at_once &&
      !(max_seqs && max_tokens)) {
    // An offline TensorRT-LLM run is trtllm-bench throughput: its batch and token limits come
    // from its heuristic unless given (trtllm_bench.h).
    auto in = trtllm_bench_input(*dep, c.workload, s.deployment.gpu_memory_utilization,
                                 s.chunked_prefill.value_or(c.preset.chunked_prefill));
    if (!in.ok()) return in.error();
    const TrtllmBenchSettings t = trtllm_bench_settings(*in);
    if (!max_seqs) max_seqs = t.max_batch_size;
    if (!max_tokens) max_tokens = t.max_num_tokens;
  }
  resolve_scheduler(c, max_seqs, max_tokens, s.chunked_prefill, s.prefix_caching);
  if (s.capacity) c.scheduler.capacity = *s.capacity;
  c.scheduler.multi_step = s.num_scheduler_steps.value_or(1);
  c.num_blocks = dep->kv_cache_tokens / c.block_size;
  s.startup_error = dep->startup_error;
  if (s.startup_error.empty() && dep->kv_cache_tokens <= 0) {
    // The engines' startup failures (torch OOM while loading; vllm/v1/worker/gpu_worker.py).
    if (dep->weights_gib_per_gpu > dep->usable_gib)
      s.startup_error = fmt::format(
          "torch.OutOfMemoryError: CUDA out of memory while loading the weights: {:.2f} GiB per GPU do not fit in "
          "{:.2f} GiB (gpu_memory_utilization x capacity)", dep->weights_gib_per_gpu, dep->usable_gib);
    else
      s.startup_error = fmt::format(
          "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
          "initializing the engine. (weights {:.2f} GiB of {:.2f} GiB usable per GPU)", dep->weights_gib_per_gpu,
          dep->usable_gib);
  }
  return core::ok_status();
}

core::Result<Scenario> load_scenario(const std::string& name_or_path) {
  std::string path = name_or_path;
  if (!std::filesystem::exists(path)) {
    const std::string bundled = core::data_dir() + "/scenarios/" + name_or_path + ".json";
    if (std::filesystem::exists(bundled)) path = bundled;
    else {
      std::string names;
      for (const auto& n : bundled_scenarios()) names += (names.empty() ? "" : ", ") + n;
      return core::make_error(core::ErrorKind::not_found, "SCENARIO", "a scenario file or a bundled name (" + names + ")",
                              "'" + name_or_path + "'");
    }
  }
  auto text = core::read_file(path);
  if (!text.ok()) return text.error();
  return parse_scenario(*text, path);
}

std::vector<std::string> bundled_scenarios() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(core::data_dir() + "/scenarios", ec))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> check_expectations(const std::vector<Expectation>& ex, const nlohmann::json& summary) {
  std::vector<std::string> failed;
  for (const auto& e : ex) {
    const nlohmann::json* node = &summary;
    std::string part;
    bool ok = true;
    for (size_t i = 0; i <= e.metric.size(); ++i) {
      if (i == e.metric.size() || e.metric[i] == '.') {
        if (!node->is_object() || !node->contains(part)) { ok = false; break; }
        node = &(*node)[part];
        part.clear();
      } else {
        part += e.metric[i];
      }
    }
    if (!ok || !node->is_number()) {
      failed.push_back(e.metric + ": not in the summary");
      continue;
    }
    const double v = node->get<double>();
    if (!e.holds(v)) failed.push_back(e.metric + " = " + std::to_string(v) + ", expected " + e.op + " " + std::to_string(e.value));
  }
  return failed;
}

}  // namespace llmtriage::sim
