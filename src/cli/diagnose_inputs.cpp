#include "cli/diagnose_inputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/export.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/names.h"
#include "collect/capture.h"
#include "core/files.h"
#include "ingest/engine_args.h"
#include "ingest/engine_log.h"
#include "ingest/metrics_engine.h"
#include "ingest/records.h"

namespace llmtriage::cli {
namespace {

using core::InputNote;

template <typename T>
void over(std::optional<T>& dst, const std::optional<T>& src) {
  if (src) dst = src;
}

// Later sources win field by field (precedence: logs < snapshots < engine args < flags).
void merge_settings(core::EngineSettings& b, const core::EngineSettings& o) {
  over(b.tensor_parallel_size, o.tensor_parallel_size);
  over(b.pipeline_parallel_size, o.pipeline_parallel_size);
  over(b.data_parallel_size, o.data_parallel_size);
  over(b.gpu_memory_utilization, o.gpu_memory_utilization);
  over(b.mem_fraction_static, o.mem_fraction_static);
  over(b.max_model_len, o.max_model_len);
  over(b.max_num_seqs, o.max_num_seqs);
  over(b.max_num_batched_tokens, o.max_num_batched_tokens);
  over(b.block_size, o.block_size);
  over(b.kv_cache_dtype, o.kv_cache_dtype);
  over(b.dtype, o.dtype);
  over(b.quantization, o.quantization);
  over(b.enforce_eager, o.enforce_eager);
  over(b.enable_chunked_prefill, o.enable_chunked_prefill);
  over(b.enable_prefix_caching, o.enable_prefix_caching);
  over(b.model, o.model);
  over(b.served_model_name, o.served_model_name);
  for (const auto& u : o.unmodelled)
    if (std::find(b.unmodelled.begin(), b.unmodelled.end(), u) == b.unmodelled.end()) b.unmodelled.push_back(u);
}

// One side (now or baseline) being assembled. Engine samples from /metrics (snapshots, bench
// scrapes, the endpoint) and from log stats lines are kept apart: their clocks differ (a log
// without a year is relative), so the log timeline is used only when no /metrics sample exists.
struct Side {
  std::string prefix;  // "" or "baseline "
  core::Evidence ev;
  std::vector<core::EngineSample> metric_samples;
  std::vector<std::pair<size_t, std::vector<core::EngineSample>>> log_timelines;  // (inputs index, samples)
  core::EngineSettings from_logs, from_snapshots;
  std::vector<std::string>* warnings = nullptr;
  const std::string* model_flag = nullptr;

  void note(std::string source, std::string kind, bool ok, std::string text) {
    // Readers' errors start with the path; the note sits next to it already.
    if (text.rfind(source + ": ", 0) == 0) text = text.substr(source.size() + 2);
    if (!ok && warnings) warnings->push_back(fmt::format("{}{} {}: {}", prefix, kind, source, text));
    ev.inputs.push_back({std::move(source), std::move(kind), ok, std::move(text)});
  }
  void deployment_from(const core::Deployment& d) {
    auto& me = ev.deployment;
    if (me.model.empty()) me.model = d.model;
    if (me.gpu.empty()) me.gpu = d.gpu;
    if (me.num_gpus == 0) me.num_gpus = d.num_gpus;
    if (me.engine == core::EngineKind::unknown) me.engine = d.engine;
    if (me.engine_version.empty()) me.engine_version = d.engine_version;
  }
  // A source naming another model than --model contradicts the user: not used.
  std::optional<std::string> contradicts(const std::string& model) const {
    if (!model_flag || model_flag->empty() || model.empty() || same_model(model, *model_flag)) return std::nullopt;
    return fmt::format("it is from model '{}', --model says '{}': not used", model, *model_flag);
  }
};

std::string plural(size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

// ---- snapshots and the live endpoint ----

size_t ok_scrapes(const collect::Snapshot& s) {
  size_t n = 0;
  for (const auto& sc : s.scrapes) n += sc.ok;
  return n;
}

// `live`: the snapshot this run just took; its endpoint note (capture_endpoint) already says how
// the scrapes went, so only GPU and DCGM notes are kept from it. Failures repeat per scrape: one
// note per kind of failure, with its count.
void add_snapshot(Side& side, const collect::Snapshot& snap, const std::string& path, bool live = false) {
  core::Evidence ev = collect::snapshot_to_evidence(snap, path);
  std::string model = ev.deployment.model;
  if (auto why = side.contradicts(model)) {
    side.note(path, "snapshot", false, *why);
    return;
  }
  for (auto& e : ev.engine_samples) side.metric_samples.push_back(std::move(e));
  for (auto& g : ev.gpu_samples) side.ev.gpu_samples.push_back(std::move(g));
  side.deployment_from(ev.deployment);
  if (snap.engine_settings) merge_settings(side.from_snapshots, *snap.engine_settings);
  std::map<std::pair<std::string, std::string>, std::pair<size_t, std::string>> failures;  // (kind, source) -> (n, first)
  std::vector<std::pair<std::string, std::string>> order;
  for (auto& n : ev.inputs) {
    const bool endpoint_part = n.kind == "metrics" || n.kind == "version" || n.kind == "models" || n.kind == "time";
    if (live && (n.kind == "snapshot" || endpoint_part)) continue;
    if (n.ok || !endpoint_part) {
      side.note(n.source, n.kind, n.ok, n.note);
      continue;
    }
    auto key = std::make_pair(n.kind, n.source);
    auto [it, fresh] = failures.try_emplace(key, 0, n.note);
    if (fresh) order.push_back(key);
    ++it->second.first;
  }
  for (const auto& key : order) {
    const auto& [count, first] = failures[key];
    side.note(key.second, key.first, false, count > 1 ? fmt::format("{} failures, the first: {}", count, first) : first);
  }
}

void read_snapshot_file(Side& side, const std::string& path) {
  auto snap = collect::read_snapshot(path);
  if (!snap) {
    side.note(path, "snapshot", false, snap.error().message());
    return;
  }
  add_snapshot(side, *snap, path);
}

std::string default_snapshot_path() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "llmtriage-snapshot-%Y%m%dT%H%M%SZ.json", &tm);
  return buf;
}

core::Status capture_endpoint(Side& side, const DiagnoseFlags& f, const LiveProgress& progress,
                              diagnose::DiagnoseInput& in) {
  auto window = parse_duration_s(f.window);
  auto interval = parse_duration_s(f.interval);
  if (!window) return core::make_error(core::ErrorKind::usage, "--window", "a duration like 30s, 2m, 500ms", f.window);
  if (!interval || *interval <= 0)
    return core::make_error(core::ErrorKind::usage, "--interval", "a positive duration like 5s", f.interval);
  collect::LiveOptions lo;
  lo.endpoint = f.endpoint;
  lo.dcgm = f.dcgm;
  lo.api_key = f.api_key;
  lo.window_s = *window;
  lo.interval_s = std::min(*interval, std::max(*window, 0.001));
  lo.capture.engine_args = f.engine_args;
  lo.capture.read_local_gpus = !f.no_local_gpu;
  const std::string path = f.keep_snapshot.empty() ? default_snapshot_path() : f.keep_snapshot;
  // Written after every scrape: an interrupted diagnosis still leaves the evidence on disk.
  lo.on_progress = [&](const collect::Snapshot& s) {
    (void)collect::write_snapshot(path, s, f.api_key);
    if (progress) progress(s);
  };
  auto snap = collect::capture_live(lo);
  if (!snap) return snap.error();  // a bad URL: the user's flag
  auto st = collect::write_snapshot(path, *snap, f.api_key);
  const size_t ok = ok_scrapes(*snap);
  std::string why;
  for (const auto& fl : snap->failures)
    if (fl.what == "metrics") {
      why = fl.error;
      break;
    }
  std::string url = snap->endpoint.empty() ? f.endpoint : snap->endpoint;
  side.note(url, "endpoint", ok > 0,
            ok > 0 ? fmt::format("{} of {} scrape(s) ok over {:g} s", ok, snap->scrapes.size(), *window)
                   : fmt::format("no scrape succeeded ({}): endpoint down or not an inference server",
                                 why.empty() ? "no answer" : why));
  if (st) {
    in.snapshot_path = std::filesystem::absolute(path).string();
  } else {
    side.note(path, "snapshot", false, "could not keep the snapshot: " + st.error().message());
  }
  add_snapshot(side, *snap, in.snapshot_path.value_or(path), true);
  return core::ok_status();
}

// ---- logs ----

std::string log_model(const ingest::EngineLogResult& r, const core::EngineSettings& args) {
  if (args.model) return *args.model;
  for (const auto& s : r.timeline)
    if (!s.model_name.empty()) return s.model_name;
  return "";
}

void read_log(Side& side, const std::string& path) {
  ingest::LogParseOptions lo;
  lo.source_name = std::filesystem::path(path).filename().string();
  auto parsed = ingest::parse_engine_log_file(path, lo);
  if (!parsed) {
    side.note(path, "log", false, parsed.error().message());
    return;
  }
  core::EngineSettings args;
  for (const auto& e : parsed->events) {
    if (e.kind != core::EventKind::engine_args) continue;
    auto it = e.labels.find("args");
    if (it == e.labels.end()) continue;
    auto a = ingest::parse_logged_args(it->second, parsed->engine, e.source);
    if (a) merge_settings(args, a->settings);
  }
  if (auto why = side.contradicts(log_model(*parsed, args))) {
    side.note(path, "log", false, *why);
    return;
  }
  if (parsed->lines_total == 0) {
    side.note(path, "log", false, "empty file");
    return;
  }
  const size_t known = parsed->events.size() + parsed->timeline.size();
  std::string note = ingest::describe(*parsed);
  if (parsed->engine != core::EngineKind::unknown) note = std::string(core::to_string(parsed->engine)) + " log; " + note;
  if (parsed->read_error) note += "; read stopped early: " + parsed->read_error->message();
  merge_settings(side.from_logs, args);
  core::Deployment d;
  d.engine = parsed->engine;
  d.engine_version = parsed->engine_version;
  d.model = args.model.value_or("");
  side.deployment_from(d);
  for (auto& e : parsed->events) side.ev.events.push_back(std::move(e));
  // A log in which nothing was recognised is read, but says nothing: not counted as evidence.
  side.note(path, "log", known > 0, known > 0 ? note : "no engine line recognised; " + note);
  if (!parsed->timeline.empty()) side.log_timelines.emplace_back(side.ev.inputs.size() - 1, std::move(parsed->timeline));
}

// ---- request records and bench folders ----

std::string records_note(const ingest::RecordReadResult& r) {
  std::string s = fmt::format("{} ({})", plural(r.records.size(), "record", "records"), ingest::to_string(r.format));
  if (r.records_bad) s += fmt::format(", {} rejected", plural(static_cast<size_t>(r.records_bad), "line", "lines"));
  for (size_t i = 0; i < r.issues.size() && i < 3; ++i)
    s += fmt::format("{}line {}: {} {}", i ? "; " : " (first issues: ", r.issues[i].line, r.issues[i].kind, r.issues[i].detail);
  if (!r.issues.empty()) s += ")";
  if (r.read_error) s += "; read stopped early: " + r.read_error->message();
  return s;
}

void read_records(Side& side, const std::string& path, const char* kind = "records") {
  ingest::RecordReadOptions ro;
  ro.source_name = path;
  auto rr = ingest::read_records_file(path, ro);
  if (!rr) {
    side.note(path, kind, false, rr.error().message());
    return;
  }
  const bool ok = !rr->records.empty();
  side.note(path, kind, ok, ok ? records_note(*rr) : "no request record in it; " + records_note(*rr));
  for (auto& r : rr->records) side.ev.requests.push_back(std::move(r));
}

void read_bench(Side& side, const std::string& dir) {
  auto summary = bench::read_summary(dir);
  if (!summary) {
    side.note(dir, "bench", false, summary.error().message() + " (expected a `llmtriage bench --out` folder)");
    return;
  }
  const nlohmann::json& s = *summary;
  std::string model = s.contains("run") ? s["run"].value("model", "") : "";
  if (auto why = side.contradicts(model)) {
    side.note(dir, "bench", false, *why);
    return;
  }
  core::Deployment d;
  d.model = model;
  side.deployment_from(d);
  // Engine configuration stored with the run: vllm:cache_config_info labels ("cache.*") and --config.
  core::EngineSettings cfg;
  if (s.contains("config") && s["config"].is_object()) {
    for (auto it = s["config"].begin(); it != s["config"].end(); ++it) {
      if (!it->is_string()) continue;
      std::string key = it.key();
      if (key.rfind("cache.", 0) == 0) key = key.substr(6);
      (void)ingest::apply_engine_flag(cfg, key, it->get<std::string>(), dir + "/summary.json config");
    }
  }
  merge_settings(side.from_snapshots, cfg);
  side.note(dir + "/summary.json", "bench", true,
            fmt::format("{} completed, {} failed; {:.4g} output tok/s{}", s.value("completed", 0), s.value("failed", 0),
                        s.value("output_throughput", 0.0), s.value("client_bound", false) ? "; CLIENT-BOUND run" : ""));
  read_records(side, dir + "/records.jsonl", "bench records");
  // The server scrapes taken during the run.
  const std::string mpath = dir + "/metrics.jsonl";
  auto text = core::read_file(mpath);
  if (!text) {
    side.note(mpath, "bench metrics", false, text.error().message());
    return;
  }
  std::istringstream in(*text);
  std::string line;
  size_t n = 0, ok = 0, failed = 0, bad = 0;
  std::string first_error;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      ++bad;
      continue;
    }
    if (!j.contains("text") || !j["text"].is_string()) {
      ++failed;
      if (first_error.empty()) first_error = j.value("error", "");
      continue;
    }
    ingest::AdaptOptions ao;
    ao.source = fmt::format("{}:{}", mpath, n);
    auto sc = ingest::adapt_engine_metrics(j["text"].get<std::string>(), j.value("unix_s", 0.0), ao);
    if (!sc || sc->samples.empty()) {
      ++bad;
      continue;
    }
    ++ok;
    if (side.ev.deployment.engine == core::EngineKind::unknown) side.ev.deployment.engine = sc->engine;
    for (auto& e : sc->samples) side.metric_samples.push_back(std::move(e));
  }
  std::string note = fmt::format("{} of {} scrape(s) read", ok, ok + failed + bad);
  if (failed) note += fmt::format(", {} failed ({})", failed, first_error);
  if (bad) note += fmt::format(", {} unreadable", bad);
  side.note(mpath, "bench metrics", ok > 0, ok > 0 ? note : "no server scrape usable: " + note);
}

// ---- everything for one side ----

void finish_side(Side& side) {
  if (!side.metric_samples.empty()) {
    side.ev.engine_samples = std::move(side.metric_samples);
    for (const auto& [idx, tl] : side.log_timelines)
      side.ev.inputs[idx].note += "; its stats-line timeline is not used (/metrics samples are)";
  } else {
    for (auto& [idx, tl] : side.log_timelines)
      for (auto& s : tl) side.ev.engine_samples.push_back(std::move(s));
  }
  std::stable_sort(side.ev.engine_samples.begin(), side.ev.engine_samples.end(),
                   [](const core::EngineSample& a, const core::EngineSample& b) { return a.t_s < b.t_s; });
  std::stable_sort(side.ev.gpu_samples.begin(), side.ev.gpu_samples.end(),
                   [](const core::GpuSample& a, const core::GpuSample& b) { return a.t_s < b.t_s; });
}

bool has_evidence(const core::Evidence& e) {
  return !e.engine_samples.empty() || !e.gpu_samples.empty() || !e.requests.empty() || !e.events.empty() ||
         !e.outputs.empty();
}

core::Result<std::vector<std::string>> lines_of(const std::string& path) {
  auto text = core::read_file(path);
  if (!text) return std::move(text).error();
  std::vector<std::string> out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

std::string tail_of(const std::string& id) {
  std::string n = catalog::normalize_model_id(id);
  while (!n.empty() && n.back() == '/') n.pop_back();
  auto slash = n.rfind('/');
  return slash == std::string::npos ? n : n.substr(slash + 1);
}

}  // namespace

std::optional<double> parse_duration_s(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || v < 0) return std::nullopt;
  std::string unit(p, s.data() + s.size());
  if (unit.empty() || unit == "s") return v;
  if (unit == "ms") return v / 1000;
  if (unit == "m") return v * 60;
  if (unit == "h") return v * 3600;
  return std::nullopt;
}

bool same_model(const std::string& a, const std::string& b) {
  if (catalog::normalize_model_id(a) == catalog::normalize_model_id(b)) return true;
  return tail_of(a) == tail_of(b);
}

core::Result<std::vector<std::string>> read_outputs_file(const std::string& path) {
  auto lines = lines_of(path);
  if (!lines) return std::move(lines).error();
  std::vector<std::string> out;
  for (const auto& line : *lines) {
    if (trim(line).empty()) continue;
    if (line.front() == '{') {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_discarded() && j.is_object()) {
        std::optional<std::string> text;
        for (const char* k : {"text", "output", "content", "response", "generated_text"})
          if (j.contains(k) && j[k].is_string()) {
            text = j[k].get<std::string>();
            break;
          }
        // An OpenAI response body: choices[0].text or choices[0].message.content.
        if (!text && j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) {
          const auto& c = j["choices"][0];
          if (c.contains("text") && c["text"].is_string()) text = c["text"].get<std::string>();
          else if (c.contains("message") && c["message"].is_object() && c["message"].contains("content") &&
                   c["message"]["content"].is_string())
            text = c["message"]["content"].get<std::string>();
        }
        if (text) {
          out.push_back(*text);
          continue;
        }
      }
    }
    out.push_back(line);
  }
  return out;
}

core::Result<Gathered> gather_inputs(const DiagnoseFlags& f, const LiveProgress& progress) {
  const bool any_input = !f.endpoint.empty() || !f.snapshots.empty() || !f.logs.empty() || !f.records.empty() ||
                         !f.benches.empty() || !f.engine_args.empty() || !f.model.empty() || !f.outputs.empty() ||
                         !f.observe.empty() || !f.observe_files.empty();
  if (!any_input)
    return core::make_error(core::ErrorKind::usage, "diagnose", "at least one input",
                            "none", "Give --endpoint URL, --snapshot FILE, --log FILE, --records FILE, --bench DIR, "
                            "--engine-args \"...\" with --model/--gpu, --outputs FILE or --observe NAME=VALUE.");
  Gathered g;
  auto& in = g.input;

  // Judgement flags first: a typo there is a usage error before any capture starts.
  for (const auto& s : f.symptoms) {
    auto sym = diagnose::symptom_from_string(s);
    if (!sym) {
      std::string names;
      for (auto x : diagnose::all_symptoms()) names += (names.empty() ? "" : ", ") + std::string(diagnose::to_string(x));
      return core::make_error(core::ErrorKind::usage, "--symptom", "one of " + names, "'" + s + "'");
    }
    if (std::find(in.symptoms.begin(), in.symptoms.end(), *sym) == in.symptoms.end()) in.symptoms.push_back(*sym);
  }
  if (!f.slo.empty())
    if (auto st = diagnose::parse_slo(in.slo, f.slo); !st) return std::move(st).error();
  if (!f.thresholds_file.empty()) {
    auto text = core::read_file(f.thresholds_file);
    if (!text) return std::move(text).error();
    if (auto st = diagnose::load_thresholds(in.thresholds, *text, f.thresholds_file); !st) return std::move(st).error();
  }
  for (const auto& o : f.observe)
    if (auto st = diagnose::add_observation(in.observations, o, "--observe"); !st) return std::move(st).error();
  in.what_if = !f.no_what_if;
  if (f.tp && *f.tp < 1) return core::make_error(core::ErrorKind::usage, "--tp", "an integer >= 1", std::to_string(*f.tp));

  Side now{"", {}, {}, {}, {}, {}, &g.warnings, &f.model};
  Side base{"baseline ", {}, {}, {}, {}, {}, &g.warnings, &f.model};

  for (const auto& path : f.observe_files) {
    auto lines = lines_of(path);
    if (!lines) {
      now.note(path, "observe", false, lines.error().message());
      continue;
    }
    size_t n = 0;
    for (size_t i = 0; i < lines->size(); ++i) {
      std::string l = (*lines)[i];
      if (auto h = l.find('#'); h != std::string::npos) l = l.substr(0, h);
      l = trim(l);
      if (l.empty()) continue;
      if (auto st = diagnose::add_observation(in.observations, l, path + ":" + std::to_string(i + 1)); !st)
        return std::move(st).error();
      ++n;
    }
    now.note(path, "observe", n > 0, n > 0 ? plural(n, "reading", "readings") : "no NAME=VALUE line in it");
  }

  // Evidence, now.
  if (!f.endpoint.empty()) {
    in.live = true;
    if (auto st = capture_endpoint(now, f, progress, in); !st) return std::move(st).error();
  }
  for (const auto& p : f.snapshots) read_snapshot_file(now, p);
  for (const auto& p : f.logs) read_log(now, p);
  for (const auto& p : f.records) read_records(now, p);
  for (const auto& p : f.benches) read_bench(now, p);
  for (const auto& p : f.outputs) {
    auto texts = read_outputs_file(p);
    if (!texts) {
      now.note(p, "outputs", false, texts.error().message());
      continue;
    }
    now.note(p, "outputs", !texts->empty(), texts->empty() ? "no response text in it" : plural(texts->size(), "response text", "response texts"));
    for (auto& t : *texts) now.ev.outputs.push_back(std::move(t));
  }
  // The deployment: logs < snapshots/bench config < --engine-args < explicit flags.
  core::EngineSettings settings = now.from_logs;
  merge_settings(settings, now.from_snapshots);
  bool args_ok = false;
  if (!f.engine_args.empty()) {
    auto a = ingest::parse_engine_args(f.engine_args);
    if (!a) {
      now.note("--engine-args", "engine_args", false, a.error().message());
    } else {
      merge_settings(settings, a->settings);
      if (a->engine != core::EngineKind::unknown) now.ev.deployment.engine = a->engine;
      std::string note = a->engine != core::EngineKind::unknown ? std::string(core::to_string(a->engine)) + " command line"
                                                               : std::string("command line");
      for (const auto& n : a->notes) note += "; " + n;
      if (!a->settings.unmodelled.empty()) note += fmt::format("; {} flag(s) not modelled", a->settings.unmodelled.size());
      now.note("--engine-args", "engine_args", true, note);
      args_ok = true;
    }
  }
  if (f.tp) settings.tensor_parallel_size = *f.tp;
  auto& dep = now.ev.deployment;
  if (!f.model.empty()) dep.model = f.model;
  else if (settings.model && dep.model.empty()) dep.model = *settings.model;
  if (!f.gpu.empty()) dep.gpu = f.gpu;
  if (settings.tensor_parallel_size && dep.num_gpus < *settings.tensor_parallel_size * settings.pipeline_parallel_size.value_or(1))
    dep.num_gpus = *settings.tensor_parallel_size * settings.pipeline_parallel_size.value_or(1);
  dep.settings = settings;

  // The catalog must know the model and the GPU for the ledger; a name it does not know (an
  // Ollama tag, a workstation card) is reported and the ledger left out.
  bool ledger_ok = false;
  if (!dep.model.empty()) {
    auto m = catalog::load_model(dep.model);
    const std::string src = !f.model.empty() ? "--model " + dep.model : dep.model;
    if (!m) now.note(src, "model", false, m.error().message() + "; the memory ledger is left out");
    else now.note(src, "model", true, "in the catalog");
    ledger_ok = m.ok();
  }
  if (!dep.gpu.empty()) {
    auto gs = catalog::find_gpu(dep.gpu);
    const std::string src = !f.gpu.empty() ? "--gpu " + dep.gpu : dep.gpu;
    if (!gs) {
      now.note(src, "gpu", false, gs.error().message() + "; the memory ledger and the GPU's limits are left out");
      ledger_ok = false;
    } else {
      now.note(src, "gpu", true, fmt::format("{} ({:g} GiB)", gs->name, gs->memory_gib));
    }
  } else {
    ledger_ok = false;
  }
  finish_side(now);
  in.now = std::move(now.ev);
  g.any_evidence = has_evidence(in.now) || args_ok || ledger_ok || !in.observations.now.empty();

  // Evidence, baseline.
  const bool any_base = !f.baseline_snapshots.empty() || !f.baseline_logs.empty() || !f.baseline_records.empty() ||
                        !f.baseline_benches.empty();
  if (any_base) {
    for (const auto& p : f.baseline_snapshots) read_snapshot_file(base, p);
    for (const auto& p : f.baseline_logs) read_log(base, p);
    for (const auto& p : f.baseline_records) read_records(base, p);
    for (const auto& p : f.baseline_benches) read_bench(base, p);
    finish_side(base);
    base.ev.deployment = in.now.deployment;
    if (has_evidence(base.ev)) {
      in.baseline = std::move(base.ev);
    } else {
      // Nothing usable: keep the notes so the report says what failed, without a baseline.
      for (auto& n : base.ev.inputs) in.now.inputs.push_back({n.source, "baseline " + n.kind, n.ok, n.note});
    }
  }
  return g;
}

}  // namespace llmtriage::cli
