// `llmtriage sim serve`: the simulated engine behind an OpenAI-compatible HTTP API with vLLM's
// /metrics and log lines. Runs until SIGINT/SIGTERM.
#include <fmt/format.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <pthread.h>

#include "cli/command.h"
#include "cli/sim_engine_flags.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "serve/server.h"
#include "sim/deployment.h"
#include "sim/log_format.h"
#include "sim/scenario.h"

namespace llmtriage::cli {

namespace {

struct ServeOpts {
  std::string scenario;
  SimEngineFlags eng;
  std::optional<std::string> calibration, log_file, served_model_name, router;
  std::string host = "127.0.0.1";
  int port = 8000;
  double time_scale = 1.0;
  std::string metrics_style = "vllm";
  bool admin = false;
  int64_t max_waiting = 0;
  int shed_status = 503;
  int threads = 1;
  bool no_access_log = false;
  double log_interval = 10.0;
  std::optional<std::string> records;
};

core::Error serve_usage(std::string where, std::string expected, std::string found) {
  return core::make_error(core::ErrorKind::usage, std::move(where), std::move(expected), std::move(found));
}

}  // namespace

Command make_sim_serve_command() {
  auto o = std::make_shared<ServeOpts>();
  Command c;
  c.path = "sim serve";
  c.summary = "Serve the simulated engine over an OpenAI-compatible HTTP API with vLLM's /metrics and logs";
  c.example =
      "llmtriage sim serve --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --port 8000 --admin   "
      "# then: curl localhost:8000/v1/completions -d '{\"prompt\":\"hi\",\"max_tokens\":16}'";
  c.options = {
      {"SCENARIO NAME", "", "a scenario file or bundled name (data/scenarios/): its deployment, engine and fault timeline; flags override", &o->scenario},
  };
  for (auto& opt : sim_engine_options(o->eng, "max prompt + max_tokens per request; longer requests get HTTP 400 with vLLM's message"))
    c.options.push_back(std::move(opt));
  c.options.insert(c.options.end(), {
      {"--replicas", "", "engine replicas (data-parallel engines: `engine` label 0..N-1) behind the router", &o->eng.replicas, "1", false, at_least(1)},
      {"--router NAME", "", "least-outstanding, round-robin, prefix-affinity, random (default: the scenario's, else least-outstanding)", &o->router},
      {"--calibration FILE", "", "JSON file overriding cost-model constants (docs/sim.md)", &o->calibration},
      {"--host NAME", "", "address to bind (loopback by default; 0.0.0.0 exposes the server to the network)", &o->host},
      {"--port", "", "TCP port (0: any free port; the URL is printed on stdout)", &o->port, "", false, between(0, 65535)},
      {"--time-scale", "", "virtual seconds per wall second (2 = the simulated engine runs twice as fast as real time)", &o->time_scale, "", false, kPositive},
      {"--served-model-name NAME", "", "model name clients must use (default: --model)", &o->served_model_name},
      {"--metrics-style NAME", "", "/metrics names: vllm (V1) or sglang", &o->metrics_style},
      {"--admin", "", "enable POST /admin/fault (loopback clients only) to switch faults while running", &o->admin},
      {"--max-waiting", "", "shed new requests while this many wait (0: never shed)", &o->max_waiting},
      {"--shed-status", "", "HTTP status of a shed request: 503 or 429", &o->shed_status, "", false, between(100, 599)},
      {"--threads", "", "HTTP event-loop threads (the engine runs on one more thread)", &o->threads, "", false, at_least(1)},
      {"--log-file FILE", "", "write the engine log (vLLM format) and access lines here instead of stderr", &o->log_file},
      {"--no-access-log", "", "do not log one line per HTTP request", &o->no_access_log},
      {"--log-interval DURATION", "", "virtual seconds between periodic stats lines (vLLM: 10)", &o->log_interval, "", false, kPositive},
      {"--records-out,--records FILE", "", "(--records: the old spelling, still accepted) append one request record per request to this JSONL (llmtriage.request.v1; id = the client's X-Request-Id; wall-clock TTFT/E2E as the server saw them)", &o->records},
  });
  c.run = [o](Context& ctx) -> int {
    if (!(o->time_scale > 0) || o->time_scale > 1e6) return fail(ctx, serve_usage("--time-scale", "a number in (0, 1e6]", std::to_string(o->time_scale)));
    if (o->port < 0 || o->port > 65535) return fail(ctx, serve_usage("--port", "0..65535", std::to_string(o->port)));
    if (o->shed_status != 503 && o->shed_status != 429) return fail(ctx, serve_usage("--shed-status", "503 or 429", std::to_string(o->shed_status)));
    if (o->metrics_style != "vllm" && o->metrics_style != "sglang") return fail(ctx, serve_usage("--metrics-style", "vllm or sglang", o->metrics_style));
    if (o->threads < 1 || o->threads > 64) return fail(ctx, serve_usage("--threads", "1..64", std::to_string(o->threads)));
    if (o->max_waiting < 0) return fail(ctx, serve_usage("--max-waiting", "a count >= 0", std::to_string(o->max_waiting)));
    if (!(o->log_interval > 0)) return fail(ctx, serve_usage("--log-interval", "seconds > 0", std::to_string(o->log_interval)));

    sim::Scenario s;
    if (!o->scenario.empty()) {
      auto l = sim::load_scenario(o->scenario);
      if (!l.ok()) return fail(ctx, l.error());
      s = std::move(l.value());
    }
    apply_sim_engine_flags(o->eng, s);
    if (o->scenario.empty()) s.config.router = sim::RouterKind::least_outstanding;  // what a DP load balancer does
    if (o->router) {
      auto r = sim::router_kind_from_string(*o->router);
      if (!r.ok()) return fail(ctx, r.error());
      s.config.router = *r;
    }
    if (o->calibration) {
      auto text = core::read_file(*o->calibration);
      if (!text.ok()) return fail(ctx, text.error());
      auto cal = sim::Calibration::from_json_text(*text, *o->calibration);
      if (!cal.ok()) return fail(ctx, cal.error());
      s.config.calibration = *cal;
    }
    if (auto st = sim::resolve(s); !st.ok()) return fail(ctx, st.error());

    // The log sink: stderr or --log-file, one line at a time from any thread.
    std::shared_ptr<std::ostream> file;
    if (o->log_file) {
      auto f = std::make_shared<std::ofstream>(*o->log_file, std::ios::app);
      if (!*f) return fail(ctx, core::make_error(core::ErrorKind::input, "--log-file", "a writable file", *o->log_file));
      file = f;
    }
    auto mu = std::make_shared<std::mutex>();
    std::ostream* sink = file ? file.get() : &ctx.err;
    serve::LogFn log = [mu, sink, file](const std::string& line) {
      std::lock_guard<std::mutex> lk(*mu);
      *sink << line << '\n';
      sink->flush();
    };

    const auto kind = s.config.preset.kind;
    auto dep = sim::deploy(s.deployment);
    if (dep.ok())
      log(fmt::format("INFO {} [gpu_model_runner.py:1892] Model loading took {:.4f} GiB and 0.000000 seconds (simulated)",
                      sim::log_time(0), dep->weights_gib_per_gpu));
    if (!s.startup_error.empty() || s.config.num_blocks <= 0) {
      // The engine dies at startup as vLLM does; nothing listens.
      const std::string err = s.startup_error.empty() ? "ValueError: No available memory for the cache blocks." : s.startup_error;
      log(fmt::format("ERROR {} [core.py:708] EngineCore failed to start.", sim::log_time(0)));
      log(fmt::format("ERROR {} [core.py:708] {}", sim::log_time(0), err));
      if (ctx.json) ctx.out << nlohmann::json{{"scenario", s.name}, {"startup_error", err}}.dump(2) << "\n";
      else ctx.out << "The simulated engine does not start:\n  " << err << "\n";
      return core::kExitFindings;
    }
    for (int i = 0; i < std::max(1, s.config.replicas); ++i)
      for (const auto& line : sim::startup_lines(kind, i, s.config.num_blocks * s.config.block_size, s.config.num_blocks,
                                                 s.config.max_model_len))
        log(line);

    serve::ServeOptions so;
    so.host = o->host;
    so.port = static_cast<uint16_t>(o->port);
    so.threads = o->threads;
    so.admin = o->admin;
    so.max_waiting = o->max_waiting;
    so.shed_status = o->shed_status;
    so.access_log = !o->no_access_log;
    so.loop.time_scale = o->time_scale;
    so.loop.metrics_style = o->metrics_style == "sglang" ? serve::MetricsStyle::sglang : serve::MetricsStyle::vllm;
    so.loop.served_model_name = o->served_model_name.value_or(s.config.model_name);
    so.loop.log_interval_s = o->log_interval;
    so.loop.cache.block_size = s.config.block_size;
    so.loop.cache.cache_dtype = s.deployment.kv_cache_dtype;
    so.loop.cache.prefix_caching = s.config.prefix_caching;
    so.loop.cache.gpu_memory_utilization = s.deployment.gpu_memory_utilization;
    so.loop.cache.num_gpu_blocks = s.config.num_blocks;
    if (o->records) {
      auto w = serve::RecordsWriter::open(*o->records);
      if (!w.ok()) return fail(ctx, w.error());
      so.loop.records = std::move(*w);  // flushed when the server is gone (the last holder closes it)
    }

    // Block SIGINT/SIGTERM before any thread starts, so only sigwait below receives them.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);

    serve::SimServer server(s.config, so, log);
    if (auto st = server.start(); !st.ok()) return fail(ctx, st.error());
    log(fmt::format("INFO {} [api_server.py:1880] Starting vLLM API server 0 on {} (simulated: {} x{}, time scale {})",
                    sim::log_time(0), server.base_url(), s.config.preset.name, std::max(1, s.config.replicas), o->time_scale));
    if (ctx.json) ctx.out << nlohmann::json{{"url", server.base_url()}, {"port", server.port()}}.dump() << std::endl;
    else ctx.out << "llmtriage sim serve: listening on " << server.base_url() << std::endl;
    int sig = 0;
    sigwait(&set, &sig);
    log(fmt::format("INFO {} [launcher.py:80] Shutting down FastAPI HTTP server.", sim::log_time(0)));
    server.stop();
    return core::kExitHealthy;
  };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
