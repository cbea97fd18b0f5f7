// HTTP routes of `sim serve` (see server.h). Handlers run on the HTTP loops: they parse and
// validate, answer errors at once, and hand accepted work to the engine thread.
#include "serve/server.h"

#include <fmt/format.h>

#include <ctime>

#include "net/server.h"
#include "serve/gpu_exposition.h"
#include "serve/tokenizer.h"
#include "sim/faults.h"
#include "sim/log_format.h"

namespace llmtriage::serve {

namespace {

const char* reason_phrase(int s) {
  switch (s) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
  }
}

void reply(const std::shared_ptr<net::ResponseWriter>& w, const ApiError& e, net::Headers extra = {}) {
  w->respond(e.status, error_body(e), "application/json", std::move(extra));
}

}  // namespace

bool is_loopback_peer(const std::string& remote) {
  return remote.rfind("127.", 0) == 0 || remote.rfind("[::1]", 0) == 0 || remote.rfind("::1", 0) == 0 ||
         remote.rfind("[::ffff:127.", 0) == 0 || remote.rfind("::ffff:127.", 0) == 0;
}

struct SimServer::Impl {
  Impl(const sim::SimConfig& cfg, ServeOptions o, LogFn l)
      : opt(std::move(o)), log(std::move(l)), loop(cfg, opt.loop, log), max_model_len(cfg.max_model_len),
        dcgm(cfg.hardware.name, opt.loop.cache.gpu_memory_utilization) {
    if (opt.loop.served_model_name.empty()) opt.loop.served_model_name = cfg.model_name;
    model = opt.loop.served_model_name;
  }
  ServeOptions opt;
  LogFn log;
  EngineLoop loop;
  int64_t max_model_len;
  std::string model;
  DcgmExposition dcgm;  // GET /dcgm: simulated GPU readings as dcgm-exporter writes them
  std::unique_ptr<net::Server> http;

  void generate(net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w, bool chat);
  void tokenize_route(net::ServerRequest& rq, const std::shared_ptr<net::ResponseWriter>& w);
  void detokenize_route(net::ServerRequest& rq, const std::shared_ptr<net::ResponseWriter>& w);
  void fault_route(net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w);
  void routes();
};

void SimServer::Impl::generate(net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w, bool chat) {
  ApiError err;
  auto r = parse_gen_request(rq.body, chat, err);
  if (!r.ok()) return reply(w, err);
  if (!r->model.empty() && r->model != model)
    return reply(w, {404, "NotFoundError", "The model `" + r->model + "` does not exist.", "model"});
  for (const auto& p : r->prompts) {
    if (r->max_tokens) {
      if (p.tokens + *r->max_tokens > max_model_len)
        return reply(w, bad_request(sim::max_len_error(max_model_len, p.tokens, *r->max_tokens)));
    } else if (p.tokens >= max_model_len) {
      return reply(w, bad_request(fmt::format("This model's maximum context length is {} tokens. However, your request "
                                              "has {} input tokens. Please reduce the length of the input messages.",
                                              max_model_len, p.tokens)));
    }
  }
  if (opt.max_waiting > 0 && loop.queued() >= opt.max_waiting) {
    const bool too_many = opt.shed_status == 429;
    return reply(w,
                 {opt.shed_status, too_many ? "TooManyRequestsError" : "ServiceUnavailableError",
                  fmt::format("The server is overloaded: {} requests are waiting (--max-waiting {}). Retry later.",
                              loop.queued(), opt.max_waiting), ""},
                 {{"Retry-After", "1"}});
  }
  loop.note_incoming();
  auto req = std::make_shared<GenRequest>(std::move(*r));
  Arrival a{usable_request_id(rq.header("X-Request-Id")), rq.received};  // vLLM honours X-Request-Id too
  loop.post([this, req, w, a = std::move(a)]() mutable { loop.submit(std::move(*req), w, std::move(a)); });
}

void SimServer::Impl::tokenize_route(net::ServerRequest& rq, const std::shared_ptr<net::ResponseWriter>& w) {
  auto j = nlohmann::json::parse(rq.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return reply(w, bad_request("Invalid JSON in the request body: expected a JSON object"));
  std::string text;
  if (j.contains("prompt") && j["prompt"].is_string()) {
    text = j["prompt"].get<std::string>();
  } else if (j.contains("messages") && j["messages"].is_array()) {
    for (const auto& m : j["messages"])
      if (m.is_object() && m.contains("content") && m["content"].is_string()) text += m["content"].get<std::string>();
  } else {
    return reply(w, bad_request("'prompt' (a string) or 'messages' is required", "prompt"));
  }
  auto ids = tokenize(text);
  nlohmann::json out = {{"count", ids.size()}, {"max_model_len", max_model_len}, {"tokens", ids}, {"token_strs", nullptr}};
  w->respond(200, out.dump());
}

void SimServer::Impl::detokenize_route(net::ServerRequest& rq, const std::shared_ptr<net::ResponseWriter>& w) {
  auto j = nlohmann::json::parse(rq.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return reply(w, bad_request("Invalid JSON in the request body: expected a JSON object"));
  if (!j.contains("tokens") || !j["tokens"].is_array()) return reply(w, bad_request("'tokens' (an array of token ids) is required", "tokens"));
  std::vector<int32_t> ids;
  for (const auto& t : j["tokens"]) {
    if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() >= kVocabSize)
      return reply(w, bad_request(fmt::format("token ids must be integers in [0, {})", kVocabSize), "tokens"));
    ids.push_back(t.get<int32_t>());
  }
  w->respond(200, nlohmann::json{{"prompt", detokenize(ids)}}.dump());
}

// POST /admin/fault {"kind": "clock_throttle", "factor": 0.5, "duration_s": 30, "replica": 0}
// or {"clear": true}. Times are virtual seconds from now. Each kind's fields: docs/serve.md.
void SimServer::Impl::fault_route(net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) {
  if (!is_loopback_peer(rq.remote))
    return reply(w, {403, "ForbiddenError", "/admin/fault accepts loopback clients only", ""});
  if (rq.method == "GET") return loop.post([this, w] { w->respond(200, loop.fault_json().dump()); });
  auto j = nlohmann::json::parse(rq.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return reply(w, bad_request("Invalid JSON in the request body: expected a JSON object"));
  if (j.value("clear", false)) {
    return loop.post([this, w] {
      loop.engine().clear_faults(loop.virtual_now());
      log("WARNING " + sim::log_time(loop.virtual_now()) + " [admin] all faults cleared");
      w->respond(200, loop.fault_json().dump());
    });
  }
  sim::Fault f;
  try {
    auto kind = sim::fault_kind_from_string(j.value("kind", std::string()));
    if (!kind.ok()) return reply(w, bad_request(kind.error().message(), "kind"));
    f.kind = *kind;
    f.factor = j.value("factor", 1.0);
    f.replica = j.value("replica", 0);
    f.rate_rps = j.value("rate_rps", 0.0);
    f.input_len = j.value("input_len", 0);
    f.output_len = j.value("output_len", 0);
    f.timeout_s = j.value("timeout_s", 0.0);
    f.max_retries = j.value("max_retries", 0);
    f.backoff_s = j.value("backoff_s", 0.0);
    f.exponential_backoff = j.value("exponential_backoff", false);
  } catch (const std::exception& e) {
    return reply(w, bad_request(std::string("bad fault field: ") + e.what()));
  }
  switch (f.kind) {
    case sim::FaultKind::clock_throttle:
      if (!(f.factor > 0 && f.factor <= 1)) return reply(w, bad_request("clock_throttle needs factor in (0, 1]", "factor"));
      break;
    case sim::FaultKind::slow_replica:
      if (!(f.factor >= 1)) return reply(w, bad_request("slow_replica needs factor >= 1", "factor"));
      break;
    case sim::FaultKind::kv_pool_shrink:
      if (!(f.factor > 0 && f.factor < 1)) return reply(w, bad_request("kv_pool_shrink needs factor in (0, 1): the fraction withheld", "factor"));
      break;
    case sim::FaultKind::prefix_cache_off:
    case sim::FaultKind::no_affinity: break;
    case sim::FaultKind::long_prompt_burst:
      if (!(f.rate_rps > 0 && f.rate_rps <= 1e4)) return reply(w, bad_request("long_prompt_burst needs rate_rps in (0, 10000]", "rate_rps"));
      if (f.input_len < 1 || f.output_len < 1)
        return reply(w, bad_request("long_prompt_burst needs input_len >= 1 and output_len >= 1 (tokens)", "input_len"));
      if (f.input_len + static_cast<int64_t>(f.output_len) > max_model_len)
        return reply(w, bad_request(fmt::format("long_prompt_burst: input_len + output_len = {} exceeds max_model_len {}",
                                                f.input_len + static_cast<int64_t>(f.output_len), max_model_len), "input_len"));
      break;
    case sim::FaultKind::gateway_timeout:
      if (!(f.timeout_s > 0)) return reply(w, bad_request("gateway_timeout needs timeout_s > 0 (virtual seconds to the first token)", "timeout_s"));
      break;
    case sim::FaultKind::client_retries:
      if (f.max_retries < 1 || f.max_retries > 100) return reply(w, bad_request("client_retries needs max_retries in 1..100", "max_retries"));
      if (!(f.backoff_s >= 0)) return reply(w, bad_request("client_retries needs backoff_s >= 0", "backoff_s"));
      break;
  }
  const double duration = j.value("duration_s", 0.0);
  loop.post([this, w, f, duration]() mutable {
    f.start_s = loop.virtual_now();
    f.end_s = duration > 0 ? f.start_s + duration : 1e300;
    loop.engine().add_fault(f);
    log(fmt::format("WARNING {} [admin] fault {} {} from t={:.3f}s{}", sim::log_time(f.start_s), sim::to_string(f.kind),
                    fault_fields(f).dump(), f.start_s,
                    duration > 0 ? fmt::format(" for {:.3f}s", duration) : std::string()));
    w->respond(200, loop.fault_json().dump());
  });
}

void SimServer::Impl::routes() {
  auto& s = *http;
  s.route("POST", "/v1/completions", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { generate(rq, std::move(w), false); });
  s.route("POST", "/v1/chat/completions", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { generate(rq, std::move(w), true); });
  s.route("GET", "/v1/models", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    const bool sg = opt.loop.metrics_style == MetricsStyle::sglang;
    nlohmann::json m = {{"id", model}, {"object", "model"}, {"created", static_cast<int64_t>(std::time(nullptr))},
                        {"owned_by", sg ? "sglang" : "vllm"}, {"root", loop.config().model_name}, {"parent", nullptr},
                        {"max_model_len", max_model_len}, {"permission", nlohmann::json::array()}};
    w->respond(200, nlohmann::json{{"object", "list"}, {"data", {m}}}.dump());
  });
  s.route("GET", "/health", [](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) { w->respond(200, "", "text/plain"); });
  s.route("GET", "/version", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    w->respond(200, nlohmann::json{{"version", opt.engine_version}, {"llmtriage", LLMTRIAGE_VERSION}, {"simulated", true}}.dump());
  });
  s.route("POST", "/tokenize", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { tokenize_route(rq, w); });
  s.route("POST", "/detokenize", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { detokenize_route(rq, w); });
  s.route("GET", "/metrics", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    loop.post([this, w] { w->respond(200, loop.render_metrics(), "text/plain; version=0.0.4; charset=utf-8"); });
  });
  for (const char* path : {"/dcgm", "/dcgm/metrics"})
    s.route("GET", path, [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
      loop.post([this, w] { w->respond(200, dcgm.render(loop.engine(), loop.virtual_now(), http->port()), "text/plain; version=0.0.4; charset=utf-8"); });
    });
  s.route("GET", "/sim/stats", [this](net::ServerRequest&, std::shared_ptr<net::ResponseWriter> w) {
    loop.post([this, w] { w->respond(200, loop.stats_json().dump()); });
  });
  if (opt.admin) {
    s.route("POST", "/admin/fault", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { fault_route(rq, std::move(w)); });
    s.route("GET", "/admin/fault", [this](net::ServerRequest& rq, std::shared_ptr<net::ResponseWriter> w) { fault_route(rq, std::move(w)); });
  }
}

SimServer::SimServer(const sim::SimConfig& cfg, ServeOptions opt, LogFn log)
    : impl_(std::make_unique<Impl>(cfg, std::move(opt), std::move(log))) {}
SimServer::~SimServer() { stop(); }

core::Status SimServer::start() {
  auto& m = *impl_;
  net::ServerOptions so;
  so.host = m.opt.host;
  so.port = m.opt.port;
  so.threads = std::max(1, m.opt.threads);
  so.max_body_bytes = m.opt.max_body_bytes;
  if (m.opt.access_log) {
    LogFn log = m.log;
    so.access_log = [log](const net::AccessLogEntry& e) {
      // uvicorn's access line, as vLLM's API server prints it.
      log(fmt::format("INFO:     {} - \"{} {} HTTP/1.1\" {} {}{}", e.remote, e.method, e.path, e.status,
                      reason_phrase(e.status), e.aborted ? " (client went away)" : ""));
    };
  }
  m.http = std::make_unique<net::Server>(so);
  m.routes();
  m.loop.start();
  if (auto st = m.http->start(); !st.ok()) {
    m.loop.stop();
    return st;
  }
  return core::ok_status();
}

uint16_t SimServer::port() const { return impl_->http ? impl_->http->port() : 0; }
std::string SimServer::base_url() const { return impl_->http ? impl_->http->base_url() : std::string(); }

void SimServer::stop() {
  if (impl_->http) impl_->http->stop();  // in-flight streams keep running for the grace period
  impl_->loop.stop();
}

}  // namespace llmtriage::serve
