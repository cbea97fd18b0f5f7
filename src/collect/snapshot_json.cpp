// Snapshot <-> JSON (format in docs/snapshot.md). Non-finite numbers are written as the
// strings "+Inf", "-Inf", "NaN" (JSON has no such numbers); absent optionals are omitted.
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>

#include "collect/llamacpp_server.h"
#include "collect/redact.h"
#include "collect/snapshot.h"
#include "core/files.h"

namespace llmtriage::collect {
namespace {

using nlohmann::json;

json num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return v;
}

std::optional<double> get_num(const json& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    auto s = j.get<std::string>();
    if (s == "NaN") return NAN;
    if (s == "+Inf") return INFINITY;
    if (s == "-Inf") return -INFINITY;
  }
  return std::nullopt;
}

void put(json& j, const char* k, const std::optional<double>& v) {
  if (v) j[k] = num(*v);
}
void take(const json& j, const char* k, std::optional<double>& v) {
  if (auto it = j.find(k); it != j.end()) v = get_num(*it);
}
template <typename T>
void take_v(const json& j, const char* k, T& v) {
  if (auto it = j.find(k); it != j.end() && !it->is_null()) v = it->get<T>();
}

json hist_json(const core::Histogram& h) {
  json le = json::array(), counts = json::array();
  for (double b : h.upper_bounds) le.push_back(num(b));
  for (double c : h.cumulative_counts) counts.push_back(num(c));
  return {{"le", le}, {"counts", counts}, {"sum", num(h.sum)}, {"count", num(h.count)}};
}

core::Histogram hist_from(const json& j) {
  core::Histogram h;
  if (!j.is_object()) return h;
  for (const auto& b : j.value("le", json::array())) h.upper_bounds.push_back(get_num(b).value_or(NAN));
  for (const auto& c : j.value("counts", json::array())) h.cumulative_counts.push_back(get_num(c).value_or(NAN));
  if (auto it = j.find("sum"); it != j.end()) h.sum = get_num(*it).value_or(0);
  if (auto it = j.find("count"); it != j.end()) h.count = get_num(*it).value_or(0);
  return h;
}

#define LLMT_ENGINE_SCALARS(X)                                                                  \
  X(running) X(waiting) X(swapped) X(kv_usage) X(preemptions_total) X(prompt_tokens_total)      \
  X(generation_tokens_total) X(requests_finished_total) X(prefix_cache_queries_total)           \
  X(prefix_cache_hits_total) X(prefix_cache_hit_rate) X(prompt_throughput_tok_s)                \
  X(generation_throughput_tok_s) X(kv_cache_capacity_tokens) X(longest_sequence_tokens)
#define LLMT_ENGINE_HISTS(X) \
  X(ttft_s) X(itl_s) X(tpot_s) X(e2e_s) X(queue_s) X(prefill_s) X(decode_s) X(prompt_tokens) X(output_tokens)

json engine_json(const core::EngineSample& s) {
  json j = {{"t_s", s.t_s}, {"engine", core::to_string(s.engine)}, {"model_name", s.model_name},
            {"engine_index", s.engine_index}};
#define X(f) put(j, #f, s.f);
  LLMT_ENGINE_SCALARS(X)
#undef X
  json h = json::object();
#define X(f) if (!s.f.empty()) h[#f] = hist_json(s.f);
  LLMT_ENGINE_HISTS(X)
#undef X
  if (!h.empty()) j["histograms"] = h;
  return j;
}

core::EngineSample engine_from(const json& j) {
  core::EngineSample s;
  take_v(j, "t_s", s.t_s);
  s.engine = core::engine_kind_from_string(j.value("engine", ""));
  take_v(j, "model_name", s.model_name);
  take_v(j, "engine_index", s.engine_index);
#define X(f) take(j, #f, s.f);
  LLMT_ENGINE_SCALARS(X)
#undef X
  if (auto it = j.find("histograms"); it != j.end()) {
#define X(f) if (it->contains(#f)) s.f = hist_from((*it)[#f]);
    LLMT_ENGINE_HISTS(X)
#undef X
  }
  return s;
}

json gpu_json(const core::GpuSample& g) {
  json j = {{"t_s", g.t_s}, {"index", g.index}, {"name", g.name}, {"uuid", g.uuid}};
  put(j, "power_w", g.power_w);
  put(j, "power_limit_w", g.power_limit_w);
  put(j, "sm_clock_mhz", g.sm_clock_mhz);
  put(j, "max_sm_clock_mhz", g.max_sm_clock_mhz);
  put(j, "mem_clock_mhz", g.mem_clock_mhz);
  put(j, "temp_c", g.temp_c);
  if (g.throttle_reasons) j["throttle_reasons"] = *g.throttle_reasons;
  j["throttle_names"] = g.throttle_names;
  put(j, "mem_used_gib", g.mem_used_gib);
  put(j, "mem_total_gib", g.mem_total_gib);
  put(j, "util", g.util);
  put(j, "dram_active", g.dram_active);
  return j;
}

core::GpuSample gpu_from(const json& j) {
  core::GpuSample g;
  take_v(j, "t_s", g.t_s);
  take_v(j, "index", g.index);
  take_v(j, "name", g.name);
  take_v(j, "uuid", g.uuid);
  take(j, "power_w", g.power_w);
  take(j, "power_limit_w", g.power_limit_w);
  take(j, "sm_clock_mhz", g.sm_clock_mhz);
  take(j, "max_sm_clock_mhz", g.max_sm_clock_mhz);
  take(j, "mem_clock_mhz", g.mem_clock_mhz);
  take(j, "temp_c", g.temp_c);
  if (auto it = j.find("throttle_reasons"); it != j.end() && it->is_number()) g.throttle_reasons = it->get<uint64_t>();
  take_v(j, "throttle_names", g.throttle_names);
  take(j, "mem_used_gib", g.mem_used_gib);
  take(j, "mem_total_gib", g.mem_total_gib);
  take(j, "util", g.util);
  take(j, "dram_active", g.dram_active);
  return g;
}

json hstats_json(const HistogramStats& h) {
  json j = {{"count", num(h.count)}, {"since_start", h.since_start}};
  put(j, "mean", h.mean);
  put(j, "p50", h.p50);
  put(j, "p90", h.p90);
  put(j, "p99", h.p99);
  return j;
}

json window_json(const WindowStats& w) {
  json j = {{"model_name", w.model_name}, {"engine_index", w.engine_index}, {"scrapes", w.scrapes},
            {"window_s", w.window_s}, {"counter_resets", w.counter_resets}};
  put(j, "running", w.running);
  put(j, "waiting", w.waiting);
  put(j, "kv_usage", w.kv_usage);
  put(j, "running_max", w.running_max);
  put(j, "waiting_max", w.waiting_max);
  put(j, "kv_usage_max", w.kv_usage_max);
  put(j, "kv_cache_capacity_tokens", w.kv_cache_capacity_tokens);
  put(j, "prompt_tok_s", w.prompt_tok_s);
  put(j, "generation_tok_s", w.generation_tok_s);
  put(j, "finished_req_s", w.finished_req_s);
  put(j, "preemptions_per_s", w.preemptions_per_s);
  put(j, "preemptions_total", w.preemptions_total);
  put(j, "prefix_cache_hit_rate", w.prefix_cache_hit_rate);
  j["ttft_s"] = hstats_json(w.ttft_s);
  j["itl_s"] = hstats_json(w.itl_s);
  j["tpot_s"] = hstats_json(w.tpot_s);
  j["e2e_s"] = hstats_json(w.e2e_s);
  j["queue_s"] = hstats_json(w.queue_s);
  j["prompt_tokens"] = hstats_json(w.prompt_tokens);
  j["output_tokens"] = hstats_json(w.output_tokens);
  return j;
}

std::string utc_iso(double unix_s) {
  std::time_t t = static_cast<std::time_t>(unix_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

template <typename T>
void put_opt(json& j, const char* k, const std::optional<T>& v) {
  if (v) j[k] = *v;
}
template <typename T>
void take_opt(const json& j, const char* k, std::optional<T>& v) {
  if (auto it = j.find(k); it != j.end() && !it->is_null()) v = it->get<T>();
}

#define LLMT_SETTINGS(X)                                                                        \
  X(tensor_parallel_size) X(pipeline_parallel_size) X(data_parallel_size)                       \
  X(gpu_memory_utilization) X(mem_fraction_static) X(max_model_len) X(max_num_seqs)             \
  X(max_num_batched_tokens) X(block_size) X(kv_cache_dtype) X(dtype) X(quantization)            \
  X(enforce_eager) X(enable_chunked_prefill) X(enable_prefix_caching) X(model) X(served_model_name)

json settings_json(const core::EngineSettings& st) {
  json j = json::object();
#define X(f) put_opt(j, #f, st.f);
  LLMT_SETTINGS(X)
#undef X
  j["unmodelled"] = st.unmodelled;
  return j;
}

core::EngineSettings settings_from(const json& j) {
  core::EngineSettings st;
#define X(f) take_opt(j, #f, st.f);
  LLMT_SETTINGS(X)
#undef X
  take_v(j, "unmodelled", st.unmodelled);
  return st;
}

}  // namespace

json to_json(const Snapshot& s) {
  json j;
  j["format"] = kSnapshotFormat;
  j["version"] = s.version;
  j["about"] = "llmtriage snapshot: /metrics scrapes of an LLM inference server over a window, "
               "with GPU readings; see docs/snapshot.md. Read it with 'llmtriage snapshot show FILE'.";
  j["llmtriage_version"] = s.llmtriage_version;
  j["created_unix_s"] = s.created_unix_s;
  j["created_utc"] = s.created_utc.empty() ? utc_iso(s.created_unix_s) : s.created_utc;
  j["mode"] = s.mode;
  j["complete"] = s.complete;
  j["source"] = {{"endpoint", s.endpoint}, {"dcgm_endpoint", s.dcgm_endpoint}, {"files", s.files}};
  j["window"] = {{"requested_s", s.window_s}, {"interval_s", s.interval_s}};
  j["engine"] = {{"kind", core::to_string(s.engine)}, {"detected_by", s.engine_detected_by},
                 {"version", s.engine_version}, {"args", s.engine_args}, {"args_note", s.engine_args_note}};
  if (s.engine_settings) j["engine"]["settings"] = settings_json(*s.engine_settings);
  json models = json::array();
  for (const auto& m : s.models) {
    json mj = {{"id", m.id}, {"root", m.root}, {"owned_by", m.owned_by}};
    if (m.max_model_len) mj["max_model_len"] = *m.max_model_len;
    models.push_back(mj);
  }
  j["models"] = models;
  if (s.server) j["server"] = to_json(*s.server);
  if (!s.slots.empty()) {
    json sl = json::array();
    for (const auto& x : s.slots) sl.push_back(to_json(x));
    j["slots"] = std::move(sl);
  }
  json scrapes = json::array();
  for (const auto& sc : s.scrapes) {
    json sj = {{"t_s", sc.t_s}, {"source", sc.source}, {"ok", sc.ok}, {"fetch_s", sc.fetch_s},
               {"bytes", sc.bytes}, {"series", sc.series}, {"malformed", sc.malformed},
               {"parse_errors", sc.parse_errors}};
    if (!sc.error.empty()) sj["error"] = sc.error;
    json es = json::array();
    for (const auto& e : sc.engine_samples) es.push_back(engine_json(e));
    sj["engine_samples"] = es;
    sj["raw"] = sc.raw;
    scrapes.push_back(std::move(sj));
  }
  j["scrapes"] = std::move(scrapes);
  json gpu = {{"source", s.gpu_source}, {"note", s.gpu_note}};
  json gs = json::array();
  for (const auto& g : s.gpu_samples) gs.push_back(gpu_json(g));
  gpu["samples"] = gs;
  j["gpu"] = gpu;
  json fails = json::array();
  for (const auto& f : s.failures)
    fails.push_back({{"t_s", f.t_s}, {"what", f.what}, {"source", f.source}, {"error", f.error}});
  j["failures"] = fails;
  json win = json::array();
  for (const auto& w : s.window) win.push_back(window_json(w));
  json gst = json::array();
  for (const auto& g : s.gpus) {
    json gj = {{"index", g.index}, {"name", g.name}, {"samples", g.samples},
               {"throttle_names_seen", g.throttle_names_seen}, {"last", gpu_json(g.last)}};
    put(gj, "power_w_max", g.power_w_max);
    put(gj, "temp_c_max", g.temp_c_max);
    put(gj, "sm_clock_mhz_min", g.sm_clock_mhz_min);
    gst.push_back(gj);
  }
  j["derived"] = {{"note", "recomputed from scrapes and gpu.samples when read by llmtriage"},
                  {"window", win}, {"gpus", gst}};
  return j;
}

core::Result<Snapshot> snapshot_from_json(const json& j, const std::string& source) {
  if (!j.is_object() || j.value("format", "") != kSnapshotFormat)
    return core::make_error(core::ErrorKind::input, source,
                            std::string("a JSON object with \"format\": \"") + kSnapshotFormat + "\"",
                            j.is_object() ? "format " + j.value("format", std::string("(missing)")) : "not an object",
                            "is this an llmtriage snapshot file?");
  int version = j.value("version", 0);
  if (version < 1 || version > kSnapshotVersion)
    return core::make_error(core::ErrorKind::input, source,
                            "snapshot version 1.." + std::to_string(kSnapshotVersion),
                            std::to_string(version), "written by a newer llmtriage? upgrade to read it");
  try {
    Snapshot s;
    s.version = version;
    take_v(j, "llmtriage_version", s.llmtriage_version);
    take_v(j, "created_unix_s", s.created_unix_s);
    take_v(j, "created_utc", s.created_utc);
    take_v(j, "mode", s.mode);
    take_v(j, "complete", s.complete);
    if (auto src = j.find("source"); src != j.end()) {
      take_v(*src, "endpoint", s.endpoint);
      take_v(*src, "dcgm_endpoint", s.dcgm_endpoint);
      take_v(*src, "files", s.files);
    }
    if (auto w = j.find("window"); w != j.end()) {
      take_v(*w, "requested_s", s.window_s);
      take_v(*w, "interval_s", s.interval_s);
    }
    if (auto e = j.find("engine"); e != j.end()) {
      s.engine = core::engine_kind_from_string(e->value("kind", ""));
      take_v(*e, "detected_by", s.engine_detected_by);
      take_v(*e, "version", s.engine_version);
      take_v(*e, "args", s.engine_args);
      take_v(*e, "args_note", s.engine_args_note);
      if (auto st = e->find("settings"); st != e->end() && st->is_object()) s.engine_settings = settings_from(*st);
    }
    for (const auto& m : j.value("models", json::array())) {
      ModelInfo mi;
      take_v(m, "id", mi.id);
      take_v(m, "root", mi.root);
      take_v(m, "owned_by", mi.owned_by);
      if (m.contains("max_model_len") && m["max_model_len"].is_number()) mi.max_model_len = m["max_model_len"].get<int64_t>();
      s.models.push_back(mi);
    }
    if (auto sv = j.find("server"); sv != j.end() && sv->is_object()) s.server = server_props_from_json(*sv);
    for (const auto& x : j.value("slots", json::array())) s.slots.push_back(slots_sample_from_json(x));
    for (const auto& sj : j.value("scrapes", json::array())) {
      ScrapeRecord r;
      take_v(sj, "t_s", r.t_s);
      take_v(sj, "source", r.source);
      take_v(sj, "ok", r.ok);
      take_v(sj, "error", r.error);
      take_v(sj, "fetch_s", r.fetch_s);
      take_v(sj, "bytes", r.bytes);
      take_v(sj, "series", r.series);
      take_v(sj, "malformed", r.malformed);
      take_v(sj, "parse_errors", r.parse_errors);
      take_v(sj, "raw", r.raw);
      for (const auto& e : sj.value("engine_samples", json::array())) r.engine_samples.push_back(engine_from(e));
      s.scrapes.push_back(std::move(r));
    }
    if (auto g = j.find("gpu"); g != j.end()) {
      take_v(*g, "source", s.gpu_source);
      take_v(*g, "note", s.gpu_note);
      for (const auto& x : g->value("samples", json::array())) s.gpu_samples.push_back(gpu_from(x));
    }
    for (const auto& f : j.value("failures", json::array())) {
      CaptureFailure cf;
      take_v(f, "t_s", cf.t_s);
      take_v(f, "what", cf.what);
      take_v(f, "source", cf.source);
      take_v(f, "error", cf.error);
      s.failures.push_back(cf);
    }
    compute_window_stats(s);
    return s;
  } catch (const json::exception& e) {
    return core::make_error(core::ErrorKind::input, source, "a well-typed llmtriage snapshot", e.what());
  }
}

core::Status write_snapshot(const std::string& path, const Snapshot& snapshot,
                           const std::string& secret) {
  std::string text = to_json(snapshot).dump(1) + "\n";
  // Belt and braces: the one secret we were given (an API key) never reaches the file, even
  // if a server echoed it somewhere. Refusing to write would lose the evidence, so redact.
  if (secret.size() >= 4) {
    for (size_t pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos))
      text.replace(pos, secret.size(), "<redacted>");
  }
  return core::write_file_atomic(path, text);
}

core::Result<Snapshot> read_snapshot(const std::string& path) {
  auto text = core::read_file(path);
  if (!text) return text.error();
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded())
    return core::make_error(core::ErrorKind::input, path, "a JSON snapshot file", "text that is not JSON",
                            "a truncated copy? snapshots are written atomically, so the original is whole");
  return snapshot_from_json(j, path);
}

}  // namespace llmtriage::collect
