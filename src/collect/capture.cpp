#include "collect/capture.h"

#include <cctype>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <thread>

#include "collect/llamacpp_server.h"
#include "collect/redact.h"
#include "core/files.h"
#include "ingest/engine_args.h"
#include "ingest/gpu_dcgm.h"
#include "ingest/gpu_telemetry.h"
#include "ingest/metrics_engine.h"
#include "net/client.h"
#include "net/failure.h"
#include "net/url.h"

namespace llmtriage::collect {
namespace {

void start_snapshot(Snapshot& s, const CaptureOptions& o, const char* mode) {
  s.llmtriage_version = LLMTRIAGE_VERSION;
  s.created_unix_s = core::unix_now_s();
  s.mode = mode;
  if (o.engine_args.empty()) return;
  // Redacted first, then parsed: no secret can reach the settings' `unmodelled` list either.
  s.engine_args = redact_args_secrets(o.engine_args);
  auto parsed = ingest::parse_engine_args(s.engine_args, "--engine-args");
  if (!parsed) {
    s.engine_args_note = "stored as given (secrets redacted); not parsed: " + parsed.error().message();
    return;
  }
  s.engine_settings = parsed->settings;
  s.engine_args_note = "parsed into settings";
  if (parsed->engine != core::EngineKind::unknown) {
    s.engine = parsed->engine;
    s.engine_detected_by = "engine args";
  }
  for (const auto& n : parsed->notes) s.engine_args_note += "; " + n;
}

// Parses one exposition into a scrape record; GPU metrics in it (DCGM, Triton nv_gpu_*) go to
// the snapshot's GPU samples. Strict mode: a malformed line is returned as an error.
core::Result<ScrapeRecord> adapt(std::string raw, double t_s, const std::string& source,
                                 const CaptureOptions& o, Snapshot& snap, bool gpu_from_it) {
  ScrapeRecord r;
  r.t_s = t_s;
  r.source = source;
  r.bytes = raw.size();
  ingest::AdaptOptions ao;
  ao.engine = o.engine;
  ao.strict = o.strict;
  ao.source = source;
  auto a = ingest::adapt_engine_metrics(raw, t_s, ao);
  if (!a) return a.error();
  r.ok = true;
  r.series = a->series;
  r.malformed = a->malformed;
  for (const auto& e : a->errors) r.parse_errors.push_back(e.message());
  r.engine_samples = std::move(a->samples);
  if (a->engine != core::EngineKind::unknown) {
    if (snap.engine == core::EngineKind::unknown || snap.engine_detected_by == "engine args") {
      // The metrics say which engine (and which vLLM generation) better than a launcher line.
      snap.engine = a->engine;
      snap.engine_detected_by = a->detected_by;
    } else if (snap.engine != a->engine) {
      snap.failures.push_back({t_s, "metrics", source,
                               std::string("engine changed from ") + core::to_string(snap.engine) +
                                   " to " + core::to_string(a->engine) + " (a different server?)"});
    }
  }
  if (gpu_from_it) {
    auto g = ingest::gpu_samples_from_exposition(raw, t_s);
    if (!g.gpus.empty()) {
      if (snap.gpu_source.empty() || snap.gpu_source == "none") snap.gpu_source = "dcgm";
      for (auto& x : g.gpus) snap.gpu_samples.push_back(std::move(x));
    }
  }
  r.raw = std::move(raw);
  return r;
}

double file_mtime(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec / 1e9;
}

std::string base_of(const net::Url& u) {
  return std::string(u.tls ? "https://" : "http://") + u.host_header();
}

}  // namespace

std::string metrics_url(const std::string& endpoint) {
  auto u = net::parse_url(endpoint);
  if (!u || (u->target != "/" && !u->target.empty())) return endpoint;
  std::string e = endpoint;
  while (!e.empty() && e.back() == '/') e.pop_back();
  return e + "/metrics";
}

core::Result<Snapshot> snapshot_from_files(const std::vector<std::string>& files,
                                           const CaptureOptions& o) {
  Snapshot s;
  start_snapshot(s, o, "files");
  if (files.empty())
    return core::make_error(core::ErrorKind::usage, "--metrics-file", "at least one file", "none");
  double prev_t = -1;
  bool spaced = false;
  for (const auto& f : files) {
    auto text = core::read_file(f);
    if (!text) return text.error();
    double t = file_mtime(f);
    if (t <= prev_t) {  // copies often share an mtime: keep the given order, 1 s apart
      t = prev_t + 1;
      spaced = true;
    }
    prev_t = t;
    auto r = adapt(std::move(*text), t, f, o, s, true);
    if (!r) return r.error();
    s.files.push_back(f);
    s.scrapes.push_back(std::move(*r));
  }
  if (spaced)
    s.failures.push_back({s.created_unix_s, "time", "--metrics-file",
                          "files without increasing modification times: taken in the order given, "
                          "1 s apart, so rates are per scrape, not per second"});
  if (s.gpu_samples.empty()) {
    s.gpu_source = "none";
    s.gpu_note = "no GPU metrics in the files (add a DCGM exporter scrape as another --metrics-file)";
  }
  s.complete = true;
  compute_window_stats(s);
  return s;
}

core::Result<Snapshot> capture_live(const LiveOptions& o) {
  std::string murl = metrics_url(o.endpoint);
  auto mu = net::parse_url(murl);
  if (!mu) return core::make_error(core::ErrorKind::usage, "--endpoint", "an http:// or https:// URL",
                                   redact_url_secrets(o.endpoint));
  if (!(o.window_s >= 0) || !(o.interval_s > 0))
    return core::make_error(core::ErrorKind::usage, "--window/--interval",
                            "a window >= 0 s and an interval > 0 s",
                            std::to_string(o.window_s) + " s / " + std::to_string(o.interval_s) + " s");
  std::optional<net::Url> du;
  if (!o.dcgm.empty()) {
    auto d = net::parse_url(o.dcgm);
    if (!d) return core::make_error(core::ErrorKind::usage, "--dcgm", "an http:// or https:// URL",
                                    redact_url_secrets(o.dcgm));
    du = *d;
  }
  core::SteadyClock real;
  const core::Clock& clock = o.clock ? *o.clock : real;

  Snapshot s;
  start_snapshot(s, o.capture, "live");
  s.endpoint = redact_url_secrets(murl);
  s.dcgm_endpoint = o.dcgm.empty() ? "" : redact_url_secrets(o.dcgm);
  s.window_s = o.window_s;
  s.interval_s = o.interval_s;

  net::ClientOptions copt;
  double per_req = std::max(0.5, std::min(o.request_timeout_s, o.interval_s));
  auto ms = std::chrono::milliseconds(static_cast<int64_t>(per_req * 1000));
  copt.timeouts.connect = ms;
  copt.timeouts.first_byte = ms;
  copt.timeouts.idle = ms;
  copt.timeouts.total = ms;
  net::Client client(copt);
  auto get = [&](const std::string& url) {
    net::Request req;
    req.url = url;
    req.bearer_token = o.api_key;
    return client.fetch(req);
  };
  // Failure texts quote the URL as requested (net's errors name it): every URL in them loses its
  // credentials and secret query values, and the API key never appears.
  auto scrub = [&](std::string msg) {
    for (size_t p = msg.find("://"); p != std::string::npos; p = msg.find("://", p + 3)) {
      size_t b = p;
      while (b > 0 && std::isalpha(static_cast<unsigned char>(msg[b - 1]))) --b;
      size_t e = msg.find_first_of(" \t\n'\",)", p);
      if (e == std::string::npos) e = msg.size();
      while (e > p + 3 && std::string_view(":;.,").find(msg[e - 1]) != std::string_view::npos) --e;
      std::string clean = redact_url_secrets(std::string_view(msg).substr(b, e - b));
      msg.replace(b, e - b, clean);
      p = b + clean.size() - 3;
    }
    if (!o.api_key.empty())
      for (size_t p = msg.find(o.api_key); p != std::string::npos; p = msg.find(o.api_key, p))
        msg.replace(p, o.api_key.size(), "<redacted>");
    return msg;
  };
  auto record_failure = [&](const char* what, const std::string& url, const core::Error& e) {
    s.failures.push_back({core::unix_now_s(), what, redact_url_secrets(url), scrub(e.message())});
  };

  // Version and served models, once. Not every server has them: a failure is only a note.
  const std::string base = base_of(*mu);
  nlohmann::json models_body;
  for (const char* path : {"/version", "/v1/models"}) {
    std::string url = base + path;
    auto r = get(url);
    bool models = std::string(path) == "/v1/models";
    if (!r || r->status >= 400) {
      if (r) record_failure(models ? "models" : "version", url,
                            core::make_error(core::ErrorKind::network, redact_url_secrets(url), "status 200",
                                             "status " + std::to_string(r->status)));
      else record_failure(models ? "models" : "version", url, r.error());
      continue;
    }
    auto j = nlohmann::json::parse(r->body, nullptr, false);
    if (j.is_discarded()) continue;
    if (models) models_body = j;
    if (!models) {
      if (j.is_object() && j.contains("version") && j["version"].is_string()) s.engine_version = j["version"];
    } else if (j.is_object() && j.contains("data") && j["data"].is_array()) {
      for (const auto& m : j["data"]) {
        if (!m.is_object()) continue;
        ModelInfo mi;
        mi.id = m.value("id", "");
        mi.root = m.contains("root") && m["root"].is_string() ? m["root"].get<std::string>() : "";
        mi.owned_by = m.contains("owned_by") && m["owned_by"].is_string() ? m["owned_by"].get<std::string>() : "";
        if (m.contains("max_model_len") && m["max_model_len"].is_number_integer())
          mi.max_model_len = m["max_model_len"].get<int64_t>();
        s.models.push_back(mi);
      }
    }
  }

  // llama.cpp: /props (slots, per-slot context) once, /slots with every scrape. Its /metrics has no
  // capacity and no KV gauge, so these are the only way to judge the queue against the slots.
  // Known from the launch, /v1/models' owned_by, or else the first scrape's series (a /v1/models
  // that timed out under load must not hide the slots).
  bool llamacpp = o.capture.engine == core::EngineKind::llamacpp ||
                  std::any_of(s.models.begin(), s.models.end(), [](const ModelInfo& m) { return m.owned_by == "llamacpp"; });
  bool read_slots = false;
  int props_attempts = 0;  // a server busy with every slot may miss one short timeout: up to 3 tries
  auto read_props = [&] {
    ++props_attempts;
    const std::string url = base + "/props";
    auto r = get(url);
    if (r && r->status < 400) {
      auto p = parse_llamacpp_props(r->body, redact_url_secrets(url));
      if (p) {
        merge_llamacpp_models_meta(models_body, *p);
        s.server = std::move(*p);
        read_slots = true;
      } else {
        record_failure("props", url, p.error());
      }
    } else if (r) {
      record_failure("props", url, core::make_error(core::ErrorKind::network, redact_url_secrets(url), "status 200",
                                                    "status " + std::to_string(r->status)));
    } else {
      record_failure("props", url, r.error());
    }
  };
  if (llamacpp) read_props();

  bool local_gpus = !du && o.capture.read_local_gpus;
  const double t0 = clock.now_s();
  const int n = static_cast<int>(std::floor(o.window_s / o.interval_s + 1e-9)) + 1;
  for (int k = 0; k < n; ++k) {
    double due = t0 + k * o.interval_s;
    double now = clock.now_s();
    if (due > now) std::this_thread::sleep_for(std::chrono::duration<double>(due - now));
    double t_unix = core::unix_now_s();
    auto start = clock.now_s();
    auto r = get(murl);
    double took = clock.now_s() - start;
    if (r && r->status < 400) {
      auto rec = adapt(std::move(r->body), t_unix, s.endpoint, o.capture, s, true);
      if (rec) {
        rec->fetch_s = took;
        s.scrapes.push_back(std::move(*rec));
      } else {
        ScrapeRecord bad;
        bad.t_s = t_unix;
        bad.source = s.endpoint;
        bad.error = scrub(rec.error().message());
        s.scrapes.push_back(bad);
        s.failures.push_back({t_unix, "metrics", s.endpoint, bad.error});
      }
    } else {
      ScrapeRecord bad;
      bad.t_s = t_unix;
      bad.source = s.endpoint;
      bad.fetch_s = took;
      if (r) bad.error = "HTTP status " + std::to_string(r->status);
      else bad.error = scrub(r.error().message());
      s.scrapes.push_back(bad);
      s.failures.push_back({t_unix, "metrics", s.endpoint, bad.error});
    }
    if (!s.server && props_attempts < 3 && (llamacpp || s.engine == core::EngineKind::llamacpp)) read_props();
    if (read_slots) {
      const std::string url = base + "/slots";
      auto sr = get(url);
      if (sr && sr->status < 400) {
        auto sl = parse_llamacpp_slots(sr->body, t_unix, redact_url_secrets(url));
        if (sl) s.slots.push_back(std::move(*sl));
        else record_failure("slots", url, sl.error());
      } else {
        // --no-slots (501) or an older build: said once, not every interval.
        read_slots = false;
        record_failure("slots", url, sr ? core::make_error(core::ErrorKind::network, redact_url_secrets(url), "status 200",
                                                           "status " + std::to_string(sr->status) +
                                                               (sr->status == 501 ? " (server started with --no-slots)" : ""))
                                        : sr.error());
      }
    }
    if (du) {
      auto d = get(o.dcgm);
      if (d && d->status < 400) {
        auto g = ingest::gpu_samples_from_exposition(d->body, t_unix);
        s.gpu_source = "dcgm";
        for (auto& x : g.gpus) s.gpu_samples.push_back(std::move(x));
      } else if (d) {
        record_failure("dcgm", o.dcgm, core::make_error(core::ErrorKind::network, s.dcgm_endpoint,
                                                        "status 200", "status " + std::to_string(d->status)));
      } else {
        record_failure("dcgm", o.dcgm, d.error());
      }
    } else if (local_gpus) {
      auto g = ingest::read_local_gpus(t_unix);
      if (g.source == "none") {
        local_gpus = false;  // said once, not every interval
        if (s.gpu_samples.empty()) {
          s.gpu_source = "none";
          s.gpu_note = g.note;
        }
      } else {
        s.gpu_source = g.source;
        s.gpu_note = g.note;
        for (auto& x : g.gpus) s.gpu_samples.push_back(std::move(x));
      }
    }
    compute_window_stats(s);
    if (o.on_progress) o.on_progress(s);
  }
  s.complete = true;
  compute_window_stats(s);
  return s;
}

}  // namespace llmtriage::collect
