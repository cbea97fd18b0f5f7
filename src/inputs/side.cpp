#include "inputs/side.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/export.h"
#include "collect/redact.h"
#include "core/files.h"
#include "ingest/engine_args.h"
#include "ingest/engine_log.h"
#include "ingest/metrics_engine.h"
#include "ingest/records.h"

namespace llmtriage::inputs {
void scrub_secrets(std::string& text, const std::vector<std::string>& secrets) {
  for (const auto& sec : secrets) {
    if (sec.size() < 3) continue;
    for (size_t at = text.find(sec); at != std::string::npos; at = text.find(sec, at + 10))
      text.replace(at, sec.size(), "<redacted>");
  }
}

std::vector<std::string> url_secrets(const std::string& url) {
  std::vector<std::string> out;
  const size_t scheme = url.find("://");
  const size_t host = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t at = url.find('@', host), slash = url.find('/', host);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const std::string info = url.substr(host, at - host);
    const size_t colon = info.find(':');
    out.push_back(colon == std::string::npos ? info : info.substr(colon + 1));
  }
  const std::string red = collect::redact_url_secrets(url);
  const size_t q = url.find('?'), rq = red.find('?');
  if (q != std::string::npos && rq != std::string::npos) {
    auto split = [](const std::string& s) {
      std::vector<std::string> parts;
      std::stringstream ss(s);
      std::string part;
      while (std::getline(ss, part, '&')) parts.push_back(part);
      return parts;
    };
    auto raw = split(url.substr(q + 1)), hidden = split(red.substr(rq + 1));
    for (size_t i = 0; i < raw.size() && i < hidden.size(); ++i) {
      const size_t eq = raw[i].find('=');
      if (eq != std::string::npos && hidden[i].find("<redacted>") != std::string::npos) out.push_back(raw[i].substr(eq + 1));
    }
  }
  return out;
}

void merge_settings(core::EngineSettings& into, const core::EngineSettings& later) {
  core::overlay_settings(into, later, core::UnmodelledMerge::append_unique);
}

size_t ok_scrapes(const collect::Snapshot& s) {
  size_t n = 0;
  for (const auto& sc : s.scrapes) n += sc.ok;
  return n;
}

// `live`: the snapshot this run just took; its endpoint note (capture_endpoint) already says how
// the scrapes went, so only GPU and DCGM notes are kept from it. Failures repeat per scrape: one
// note per kind of failure, with its count.
void add_snapshot(EvidenceSide& side, const collect::Snapshot& snap, const std::string& path, bool live) {
  core::Evidence ev = collect::snapshot_to_evidence(snap, path);
  // Only the model the engine was started with (its arguments, or /v1/models' root) can
  // contradict --model: a served name ("llama-prod") is an alias, not evidence of another model.
  std::vector<std::string> models;
  if (snap.engine_settings && snap.engine_settings->model) models.push_back(*snap.engine_settings->model);
  for (const auto& m : snap.models)
    if (!m.root.empty()) models.push_back(m.root);
  bool matches = models.empty();
  for (const auto& m : models) matches |= !side.contradicts(m);
  if (!matches) {
    side.note(path, "snapshot", false, *side.contradicts(models.front()));
    return;
  }
  for (auto& e : ev.engine_samples) side.metric_samples.push_back(std::move(e));
  for (auto& g : ev.gpu_samples) side.ev.gpu_samples.push_back(std::move(g));
  side.deployment_from(ev.deployment);
  // The engine's arguments, and what the server says of itself (llama.cpp /props: slots, context;
  // /v1/models max_model_len).
  if (snap.engine_settings || snap.server || ev.deployment.settings.max_model_len)
    merge_settings(side.from_snapshots, ev.deployment.settings);
  std::map<std::pair<std::string, std::string>, std::pair<size_t, std::string>> failures;  // (kind, source) -> (n, first)
  std::vector<std::pair<std::string, std::string>> order;
  for (auto& n : ev.inputs) {
    const bool endpoint_part = n.kind == "metrics" || n.kind == "version" || n.kind == "models" || n.kind == "time";
    if (live && (n.kind == "snapshot" || endpoint_part)) continue;
    if (n.kind == "gpu" && !n.ok && snap.gpu_source == "none") {
      // No GPU on the machine that captured is a gap in the evidence, not a broken input: said
      // once, short, on its Inputs line (no stderr warning); the details stay in the snapshot.
      std::string why = snap.gpu_note.substr(0, snap.gpu_note.find(" ("));
      if (live && why.ends_with(" on this machine")) why.resize(why.size() - 16);  // the source says it
      side.ev.inputs.push_back({live ? std::string("this machine") : n.source, "gpu", false,
                                (why.empty() ? std::string("no GPU readings") : why) +
                                    "; details: llmtriage snapshot show " + path});
      continue;
    }
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

void read_snapshot_file(EvidenceSide& side, const std::string& path) {
  auto snap = collect::read_snapshot(path);
  if (!snap) {
    side.note(path, "snapshot", false, snap.error().message());
    return;
  }
  add_snapshot(side, *snap, path);
}

// ---- logs ----

namespace {

// The model the engine was started with, from its logged arguments. Stats lines and served names
// are aliases at best, so they never contradict --model.
std::string log_model(const core::EngineSettings& args) { return args.model.value_or(""); }

}  // namespace

void read_log(EvidenceSide& side, const std::string& path) {
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
  if (auto why = side.contradicts(log_model(args))) {
    side.note(path, "log", false, *why);
    return;
  }
  if (parsed->lines_total == 0) {
    side.note(path, "log", false, "empty file");
    return;
  }
  const size_t known = parsed->events.size() + parsed->timeline.size() + parsed->signature_events.size();
  std::string note = ingest::describe(*parsed);
  if (parsed->engine != core::EngineKind::unknown) note = std::string(core::to_string(parsed->engine)) + " log; " + note;
  if (parsed->read_error) note += "; read stopped early: " + parsed->read_error->message();
  merge_settings(side.from_logs, args);
  core::Deployment d;
  d.engine = parsed->engine;
  d.engine_version = parsed->engine_version;
  d.model = args.model.value_or("");
  side.deployment_from(d);
  for (auto* list : {&parsed->events, &parsed->signature_events})
    for (auto& e : *list) {
      // Metrics and snapshots are in unix time; a log without years is not (diagnose compares
      // times across the two only on the same clock).
      if (e.t_s && parsed->time_base != "unix") e.labels["time_base"] = parsed->time_base;
      side.ev.events.push_back(std::move(e));
    }
  // A log in which nothing was recognised is read, but says nothing: not counted as evidence, yet
  // not an input error either (its unknown lines are shown under Inputs).
  if (known == 0) side.unknown_text_read = true;
  side.note(path, "log", known > 0, known > 0 ? note : "no engine line recognised; " + note);
  if (!parsed->timeline.empty()) side.log_timelines.emplace_back(side.ev.inputs.size() - 1, std::move(parsed->timeline));
}

// ---- request records and bench folders ----

namespace {

std::string records_note(const ingest::RecordReadResult& r) {
  std::string s = fmt::format("{} ({})", plural(r.records.size(), "record", "records"), ingest::to_string(r.format));
  if (r.records_bad) s += fmt::format(", {} rejected", plural(static_cast<size_t>(r.records_bad), "line", "lines"));
  for (size_t i = 0; i < r.issues.size() && i < 3; ++i)
    s += fmt::format("{}line {}: {} {}", i ? "; " : " (first issues: ", r.issues[i].line, r.issues[i].kind, r.issues[i].detail);
  if (!r.issues.empty()) s += ")";
  if (r.read_error) s += "; read stopped early: " + r.read_error->message();
  return s;
}

}  // namespace

void read_records(EvidenceSide& side, const std::string& path, const char* kind) {
  ingest::RecordReadOptions ro;
  ro.source_name = path;
  auto rr = ingest::read_records_file(path, ro);
  if (!rr) {
    side.note(path, kind, false, rr.error().message());
    return;
  }
  const bool ok = !rr->records.empty();
  side.note(path, kind, ok, ok ? records_note(*rr) : "no request record in it; " + records_note(*rr));
  // Moved whole when it is the first: a million records are not copied one by one.
  if (side.ev.requests.empty()) {
    side.ev.requests = std::move(rr->records);
  } else {
    side.ev.requests.reserve(side.ev.requests.size() + rr->records.size());
    for (auto& r : rr->records) side.ev.requests.push_back(std::move(r));
  }
}

void read_bench(EvidenceSide& side, const std::string& dir) {
  auto summary = bench::read_summary(dir);
  if (!summary) {
    side.note(dir, "bench", false, summary.error().message() + " (expected a `llmtriage bench --out` folder)");
    return;
  }
  const nlohmann::json& s = *summary;
  // run.model is the name the client sent: a served name, possibly an alias, so it never
  // contradicts --model; it fills the deployment only when nothing better is known.
  std::string model = s.contains("run") ? s["run"].value("model", "") : "";
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

void finish_side(EvidenceSide& side) {
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

}  // namespace llmtriage::inputs
