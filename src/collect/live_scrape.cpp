// One live scrape at a time (collect/live_scrape.h): the per-interval part of capture_live, with
// every request timed out so that a hanging peer shows as a failed scrape, never a frozen view.
#include "collect/live_scrape.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "collect/llamacpp_server.h"
#include "collect/redact.h"
#include "core/clock.h"
#include "ingest/engine_args.h"
#include "ingest/gpu_dcgm.h"
#include "ingest/gpu_telemetry.h"
#include "ingest/metrics_engine.h"
#include "net/client.h"
#include "net/url.h"

namespace llmtriage::collect {

struct LiveScraper::Impl {
  LiveScrapeOptions o;
  std::string metrics_url, base_url;
  std::unique_ptr<net::Client> client;
  bool read_slots = false;
  bool local_gpus = true;

  // The failure's text with the URL's secrets and the API key taken out.
  std::string clean(std::string msg, const std::string& url) const {
    const std::string red = redact_url_secrets(url);
    for (size_t p = msg.find(url); !url.empty() && p != std::string::npos; p = msg.find(url, p + red.size()))
      msg.replace(p, url.size(), red);
    if (!o.api_key.empty())
      for (size_t p = msg.find(o.api_key); p != std::string::npos; p = msg.find(o.api_key, p))
        msg.replace(p, o.api_key.size(), "<redacted>");
    return msg;
  }

  // GET url: the body of a 2xx/3xx answer, or the failure in words.
  core::Result<std::string> get(const std::string& url, double* took_s = nullptr) const {
    net::Request req;
    req.url = url;
    req.bearer_token = o.api_key;
    core::SteadyClock clock;
    double t0 = clock.now_s();
    auto r = client->fetch(req);
    if (took_s) *took_s = clock.now_s() - t0;
    if (!r) {
      core::Error e = r.error();  // net names the URL as requested: cleaned of its secrets
      for (std::string* part : {&e.where, &e.expected, &e.found, &e.detail}) *part = clean(*part, url);
      return e;
    }
    if (r->status >= 400)
      return core::make_error(core::ErrorKind::network, redact_url_secrets(url), "status 200",
                              "status " + std::to_string(r->status) +
                                  (r->status == 501 && url.ends_with("/slots") ? " (server started with --no-slots)" : ""));
    return std::move(r->body);
  }
};

LiveScraper::~LiveScraper() = default;

core::Result<std::unique_ptr<LiveScraper>> LiveScraper::open(const LiveScrapeOptions& o) {
  std::string murl = metrics_url(o.endpoint);
  auto mu = net::parse_url(murl);
  if (!mu) return core::make_error(core::ErrorKind::usage, "--endpoint", "an http:// or https:// URL",
                                   redact_url_secrets(o.endpoint));
  if (!o.dcgm.empty() && !net::parse_url(o.dcgm))
    return core::make_error(core::ErrorKind::usage, "--dcgm", "an http:// or https:// URL", redact_url_secrets(o.dcgm));
  std::unique_ptr<LiveScraper> s(new LiveScraper());
  s->impl_ = std::make_unique<Impl>();
  Impl& m = *s->impl_;
  m.o = o;
  m.metrics_url = murl;
  m.base_url = std::string(mu->tls ? "https://" : "http://") + mu->host_header();
  net::ClientOptions copt;
  auto ms = std::chrono::milliseconds(static_cast<int64_t>(std::max(0.2, o.request_timeout_s) * 1000));
  copt.timeouts.connect = ms;
  copt.timeouts.first_byte = ms;
  copt.timeouts.idle = ms;
  copt.timeouts.total = ms;
  m.client = std::make_unique<net::Client>(copt);
  m.local_gpus = o.dcgm.empty() && o.capture.read_local_gpus;
  return s;
}

Snapshot LiveScraper::read_base() {
  Impl& m = *impl_;
  Snapshot s;
  s.llmtriage_version = LLMTRIAGE_VERSION;
  s.created_unix_s = core::unix_now_s();
  s.mode = "live";
  s.endpoint = redact_url_secrets(m.metrics_url);
  s.dcgm_endpoint = m.o.dcgm.empty() ? "" : redact_url_secrets(m.o.dcgm);
  s.engine = m.o.capture.engine;
  if (s.engine != core::EngineKind::unknown) s.engine_detected_by = "--engine";
  if (!m.o.capture.engine_args.empty()) {
    s.engine_args = redact_args_secrets(m.o.capture.engine_args);
    auto parsed = ingest::parse_engine_args(s.engine_args, "--engine-args");
    if (parsed) {
      s.engine_settings = parsed->settings;
      s.engine_args_note = "parsed into settings";
      if (s.engine == core::EngineKind::unknown && parsed->engine != core::EngineKind::unknown) {
        s.engine = parsed->engine;
        s.engine_detected_by = "engine args";
      }
    } else {
      s.engine_args_note = "stored as given (secrets redacted); not parsed: " + parsed.error().message();
    }
  }
  auto note = [&](const char* what, const std::string& url, const core::Error& e) {
    s.failures.push_back({core::unix_now_s(), what, redact_url_secrets(url), e.message()});
  };
  nlohmann::json models_body;
  if (auto v = m.get(m.base_url + "/version")) {
    auto j = nlohmann::json::parse(*v, nullptr, false);
    if (j.is_object() && j.contains("version") && j["version"].is_string()) s.engine_version = j["version"];
  } else {
    note("version", m.base_url + "/version", v.error());
  }
  if (auto v = m.get(m.base_url + "/v1/models")) {
    models_body = nlohmann::json::parse(*v, nullptr, false);
    if (models_body.is_object() && models_body.contains("data") && models_body["data"].is_array())
      for (const auto& x : models_body["data"]) {
        if (!x.is_object()) continue;
        ModelInfo mi;
        if (x.contains("id") && x["id"].is_string()) mi.id = x["id"];
        if (x.contains("root") && x["root"].is_string()) mi.root = x["root"];
        if (x.contains("owned_by") && x["owned_by"].is_string()) mi.owned_by = x["owned_by"];
        if (x.contains("max_model_len") && x["max_model_len"].is_number_integer())
          mi.max_model_len = x["max_model_len"].get<int64_t>();
        s.models.push_back(mi);
      }
  } else {
    note("models", m.base_url + "/v1/models", v.error());
  }
  bool llamacpp = s.engine == core::EngineKind::llamacpp ||
                  std::any_of(s.models.begin(), s.models.end(), [](const ModelInfo& x) { return x.owned_by == "llamacpp"; });
  if (llamacpp) {
    const std::string url = m.base_url + "/props";
    auto r = m.get(url);
    if (r) {
      auto p = parse_llamacpp_props(*r, redact_url_secrets(url));
      if (p) {
        if (!models_body.is_discarded()) merge_llamacpp_models_meta(models_body, *p);
        s.server = std::move(*p);
        m.read_slots = true;
      } else {
        note("props", url, p.error());
      }
    } else {
      note("props", url, r.error());
    }
  }
  return s;
}

LiveScrape LiveScraper::scrape(double t_unix) {
  Impl& m = *impl_;
  LiveScrape out;
  ScrapeRecord& rec = out.metrics;
  rec.t_s = t_unix;
  rec.source = redact_url_secrets(m.metrics_url);
  double took = 0;
  auto body = m.get(m.metrics_url, &took);
  rec.fetch_s = took;
  if (!body) {
    rec.error = body.error().message();
  } else {
    rec.bytes = body->size();
    ingest::AdaptOptions ao;
    ao.engine = m.o.capture.engine;
    ao.strict = m.o.capture.strict;
    ao.source = rec.source;
    auto a = ingest::adapt_engine_metrics(*body, t_unix, ao);
    if (!a) {
      rec.error = a.error().message();
    } else if (a->samples.empty()) {
      // A page that parses but holds no engine series (an HTML error page, a proxy's text) is not a reading.
      rec.error = "no inference-engine series in " + std::to_string(body->size()) + " bytes from " + rec.source +
                  (a->malformed ? " (" + std::to_string(a->malformed) + " malformed lines)" : std::string());
    } else {
      rec.ok = true;
      rec.series = a->series;
      rec.malformed = a->malformed;
      for (const auto& e : a->errors) rec.parse_errors.push_back(e.message());
      rec.engine_samples = std::move(a->samples);
      out.engine = a->engine;
      out.engine_detected_by = a->detected_by;
      rec.raw = std::move(*body);
    }
  }
  if (m.read_slots) {
    const std::string url = m.base_url + "/slots";
    auto r = m.get(url);
    auto sl = r ? parse_llamacpp_slots(*r, t_unix, redact_url_secrets(url)) : core::Result<SlotsSample>(r.error());
    if (sl) {
      out.slots = std::move(*sl);
    } else if (!r) {
      out.failures.push_back({t_unix, "slots", redact_url_secrets(url), sl.error().message()});
      if (r.error().message().find("status 501") != std::string::npos) m.read_slots = false;  // --no-slots: said once
    } else {
      out.failures.push_back({t_unix, "slots", redact_url_secrets(url), sl.error().message()});
    }
  }
  if (!m.o.dcgm.empty()) {
    auto d = m.get(m.o.dcgm);
    out.gpu_source = "dcgm";
    if (d) out.gpus = ingest::gpu_samples_from_exposition(*d, t_unix).gpus;
    else out.failures.push_back({t_unix, "dcgm", redact_url_secrets(m.o.dcgm), d.error().message()});
  } else if (m.local_gpus) {
    auto g = ingest::read_local_gpus(t_unix);
    out.gpu_source = g.source;
    out.gpu_note = g.note;
    if (g.source == "none") m.local_gpus = false;  // said once, not every interval
    else out.gpus = std::move(g.gpus);
  }
  return out;
}

}  // namespace llmtriage::collect
