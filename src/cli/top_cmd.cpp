// `llmtriage top`: a live terminal view of one inference server that reasons by layer. Parsing
// and wiring only: the frame model, rendering and loop live in src/collect (live_view, live_render,
// live_loop), the layer lines in cli/top_layers.cpp, the terminal in cli/top_terminal.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <iostream>
#include <memory>
#include <thread>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/top_layers.h"
#include "cli/top_terminal.h"
#include "collect/live_loop.h"
#include "collect/live_record.h"
#include "collect/live_render.h"
#include "collect/live_scrape.h"
#include "core/exit_code.h"
#include "drill/sim_case.h"
#include "drill/sim_run.h"
#include "sim/simulation.h"

namespace llmtriage::cli {
namespace {

struct TopOpts {
  std::string endpoint;
  std::string dcgm;
  std::string api_key;
  std::string engine;
  std::string engine_args;
  double interval_s = 1;
  double window_s = 15;
  double timeout_s = 0;  // 0: the interval, at most 10 s
  bool once = false;
  int64_t count = 0;
  std::string snapshot_dir = ".";
  bool no_local_gpu = false;
  bool no_color = false;
  std::string record;   // --record FILE: every scrape, one JSON line each
  std::string replay;   // --replay FILE: watch a recording instead of a server
  double speed = 1;     // --speed: replay this many times faster than recorded
  bool strict = false;  // --strict: a malformed line of the recording is an error
  std::string sim;      // --sim SCENARIO: watch the embedded engine playing a scenario
  double sim_wall_s = 120;
};

// --sim: the scenario's deployment served by sim serve's server in this process (127.0.0.1, a free
// port) and its traffic sent by the bench runner, exactly as a drill's run A (drill/sim_run.h), on a
// thread, at the time scale that plays it in about --sim-wall; top watches it like any server.
// Quitting top stops the load and the server.
struct SimBehind {
  sim::Scenario scenario;
  drill::DrillLoad load;
  double scale = 1, virtual_s = 1;
  std::string scale_why;
  std::atomic<bool> stop{false};
  std::promise<std::string> ready;  // the base URL once it listens; "" if it never did
  bool told = false;
  std::string url, error;
  std::thread th;
  ~SimBehind() {
    stop = true;
    if (th.joinable()) th.join();
  }
};

core::Result<std::unique_ptr<SimBehind>> start_sim(const std::string& name, double wall_s) {
  auto c = drill::load_case(name);
  if (!c) return std::move(c).error();
  if (!c->scenario.startup_error.empty())
    return core::make_error(core::ErrorKind::input, "--sim " + name, "a scenario whose deployment starts",
                            "a startup error: " + c->scenario.startup_error, "try `llmtriage ledger` or `llmtriage drill " + name + "`");
  auto offline = sim::run_simulation(c->scenario.config);
  if (!offline) return std::move(offline).error();
  auto load = drill::build_load(c->scenario, *offline);
  if (!load) return std::move(load).error();
  auto b = std::make_unique<SimBehind>();
  b->scenario = std::move(c->scenario);
  b->load = std::move(*load);
  b->virtual_s = std::max(1.0, offline->summary.sim_seconds);
  const auto ts = drill::choose_time_scale(b->virtual_s, offline->summary.output_throughput, wall_s, "--sim-wall");
  b->scale = ts.scale;
  b->scale_why = ts.why;
  auto ready = b->ready.get_future();
  b->th = std::thread([s = b.get()] {
    drill::ServeAt at;
    at.stop = &s->stop;
    at.on_serving = [s](const std::string& url, const std::string&) {
      s->told = true;
      s->ready.set_value(url);
    };
    auto r = drill::run_over_http(s->scenario, s->load, s->scale, s->virtual_s / s->scale + 60, at, "sim");
    if (!s->told) {
      s->error = r.ok() ? "the server stopped before it listened" : r.error().message();
      s->ready.set_value("");
    }
  });
  if (ready.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
    return core::make_error(core::ErrorKind::input, "--sim " + name, "the embedded engine listening within 60 s", "no answer");
  b->url = ready.get();
  if (b->url.empty()) return core::make_error(core::ErrorKind::input, "--sim " + name, "the embedded engine listening", b->error);
  return b;
}

// A recording played back through the same session as a live server: each recorded scrape is
// handed over when the replay clock (the recorded time, `speed` times faster) reaches it; the view
// runs on that clock, so its ages and windows read as they did. --json and --once do not wait.
struct Replay {
  collect::TopRecording rec;
  double speed = 1;
  bool wait = true;
  size_t next = 0;
  double t0_rec = 0, t0_steady = 0;
  const core::Clock* clock = nullptr;
  // Stops at the last recorded scrape: past the recording's end nothing goes stale.
  double now() const { return std::min(t0_rec + (clock->now_s() - t0_steady) * speed, rec.scrapes.back().metrics.t_s); }
  collect::LiveScrape take() {
    collect::LiveScrape s = rec.scrapes[next++];
    const double due = (s.metrics.t_s - t0_rec) / speed + t0_steady;
    if (wait)
      while (clock->now_s() < due && !stop_requested().load())
        std::this_thread::sleep_for(std::chrono::duration<double>(std::min(0.05, due - clock->now_s())));
    return s;
  }
};

int run_top_cmd(TopOpts& o, Context& ctx) {
  const int sources = !o.endpoint.empty() + !o.replay.empty() + !o.sim.empty();
  if (sources != 1)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "top",
                                      "one of --endpoint URL (a live server), --replay FILE (a recording) or --sim SCENARIO (the embedded engine)",
                                      sources == 0 ? "none" : "several"));
  std::unique_ptr<SimBehind> simulated;
  if (!o.sim.empty()) {
    auto b = start_sim(o.sim, o.sim_wall_s);
    if (!b) return fail(ctx, b.error());
    simulated = std::move(*b);
    o.endpoint = simulated->url;
    // Its GPU from its simulated dcgm-exporter, its cap from its settings: every layer can be judged.
    if (o.dcgm.empty()) o.dcgm = simulated->url + "/dcgm";
    o.no_local_gpu = true;
    if (o.engine_args.empty()) o.engine_args = "--max-num-seqs " + std::to_string(simulated->scenario.config.scheduler.max_num_seqs);
    ctx.err << "llmtriage top: --sim " << o.sim << ": the embedded engine at " << simulated->url << ", its traffic at time scale "
            << fmt::format("{:.3g}", simulated->scale) << " (" << simulated->scale_why << "); quitting stops it\n";
  }
  if (!o.replay.empty() && !o.record.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--record", "a live server to record (--endpoint)", "--replay " + o.replay));
  collect::LiveScrapeOptions so;
  so.endpoint = o.endpoint;
  so.dcgm = o.dcgm;
  so.api_key = o.api_key;
  so.request_timeout_s = o.timeout_s > 0 ? o.timeout_s : std::min(10.0, o.interval_s);
  so.capture.engine_args = o.engine_args;
  so.capture.read_local_gpus = !o.no_local_gpu;
  if (!o.engine.empty()) {
    so.capture.engine = core::engine_kind_from_string(o.engine);
    if (so.capture.engine == core::EngineKind::unknown)
      return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine",
                                        "vllm, vllm-v0, sglang, tgi, llamacpp or trtllm", o.engine));
  }
  std::unique_ptr<collect::LiveScraper> scraper;
  std::unique_ptr<Replay> replay;
  collect::Snapshot base;
  if (!o.replay.empty()) {
    auto rec = collect::read_top_recording(o.replay, o.strict);
    if (!rec) return fail(ctx, rec.error());
    if (rec->scrapes.empty())
      return fail(ctx, core::make_error(core::ErrorKind::input, o.replay, "at least one recorded scrape", "the header only"));
    if (rec->malformed > 0)
      ctx.err << "llmtriage top: " << rec->malformed << " malformed line(s) in " << o.replay << " skipped; first: " << rec->errors.front() << "\n";
    replay = std::make_unique<Replay>();
    replay->rec = std::move(*rec);
    replay->speed = o.speed;
    base = replay->rec.base;
    base.endpoint = "replay of " + o.replay + " (" + base.endpoint + ")";  // the header says what is watched
  } else {
    auto opened = collect::LiveScraper::open(so);
    if (!opened) return fail(ctx, opened.error());
    scraper = std::move(*opened);
    base = scraper->read_base();
  }
  std::unique_ptr<collect::TopRecorder> recorder;
  if (!o.record.empty()) {
    auto r = collect::TopRecorder::open(o.record, base, o.api_key);
    if (!r) return fail(ctx, r.error());
    recorder = std::move(*r);
  }

  collect::TopConfig cfg;
  cfg.interval_s = o.interval_s;
  cfg.frame.quantile_window_s = o.window_s;
  cfg.frame.rate_window_s = std::max(5.0, 2 * o.interval_s);
  cfg.frame.stale_after_s = std::max(3.0, 2.5 * o.interval_s);
  cfg.keep_s = std::max(60.0, o.window_s + o.interval_s);
  cfg.judge_every_s = std::max(3.0, o.interval_s);
  cfg.snapshot_dir = o.snapshot_dir;
  cfg.secret = o.api_key;

  install_stop_signals();
  collect::TopSession session(base, cfg, judge_layers);
  core::SteadyClock clock;
  collect::TopIo io;
  io.clock = &clock;
  io.unix_now = [] { return core::unix_now_s(); };
  std::string record_error;
  io.scrape = [&](double t) {
    collect::LiveScrape s = scraper->scrape(t);
    if (recorder && record_error.empty())
      if (auto st = recorder->add(s); !st.ok()) record_error = st.error().message();
    return s;
  };
  io.interrupted = &stop_requested();

  collect::TopRun run;
  const bool interactive = !ctx.json && !o.once && stdout_is_terminal();
  if (replay) {
    replay->clock = &clock;
    replay->wait = interactive;  // a script or one frame: no reason to wait
    replay->t0_rec = replay->rec.scrapes.front().metrics.t_s;
    replay->t0_steady = clock.now_s();
    io.unix_now = [r = replay.get()] { return r->wait ? r->now() : r->rec.scrapes[std::max<size_t>(r->next, 1) - 1].metrics.t_s; };
    io.scrape = [r = replay.get()](double) { return r->take(); };
    cfg.interval_s = 0.001;  // the replay clock paces the scrapes, not the schedule
    run.stop_after_scrapes = static_cast<int>(replay->rec.scrapes.size());
    run.hold_at_end = interactive;
    run.end_message = "the recording ends here (" + std::to_string(replay->rec.scrapes.size()) + " scrapes): q quits";
  }
  if (ctx.json) {
    run.show_every_scrape_only = true;
    if (!replay) run.stop_after_scrapes = static_cast<int>(o.once ? 2 : o.count);
    else if (o.count > 0) run.stop_after_scrapes = static_cast<int>(std::min<int64_t>(o.count, run.stop_after_scrapes));
    bool first = true;
    io.show = [&](const collect::Frame& f) {
      // --once: the frame after the second scrape only (rates need two).
      if (o.once && first) {
        first = false;
        return;
      }
      ctx.out << collect::to_json(f).dump() << "\n" << std::flush;
    };
    collect::run_top(session, cfg, io, run);
  } else if (!interactive) {
    // Off a terminal, or --once: two scrapes an interval apart (rates need two), one plain frame.
    if (!replay) run.stop_after_scrapes = static_cast<int>(std::max<int64_t>(2, o.count));
    run.show_at_end_only = true;  // a replay: the frame at the recording's end
    io.show = [&](const collect::Frame& f) {
      collect::RenderOptions ro;
      ro.width = 120;
      for (const auto& l : collect::render_frame(f, ro)) ctx.out << l << "\n";
      ctx.out << std::flush;
    };
    collect::run_top(session, cfg, io, run);
  } else {
    TopTerminal term;
    std::vector<std::string> on_screen;
    io.read_key = [&term](double t) { return term.read_key(t); };
    io.show = [&](const collect::Frame& f) {
      collect::RenderOptions ro;
      ro.width = term.width();
      ro.color = !o.no_color;
      auto lines = collect::render_frame(f, ro);
      // Too few rows: the key line stays, the lines above it are cut.
      size_t rows = static_cast<size_t>(std::max(3, term.height()));
      if (lines.size() > rows) lines.erase(lines.begin() + static_cast<long>(rows) - 1, lines.end() - 1);
      if (term.take_resized()) on_screen.clear();
      term.write(collect::screen_update(on_screen, lines));
      on_screen = std::move(lines);
    };
    collect::run_top(session, cfg, io, run);
  }
  if (!record_error.empty()) ctx.err << "llmtriage top: error: the recording stopped: " << record_error << "\n";
  else if (recorder) ctx.err << "llmtriage top: " << session.scrapes_seen() << " scrape(s) recorded to " << o.record
                             << " (watch again: llmtriage top --replay " << o.record << ")\n";
  // A view that never got one good scrape says so in its exit code, as `snapshot` does.
  collect::Frame last = session.frame(io.unix_now());
  if (last.t_unix_s <= 0) {
    ctx.err << "llmtriage top: error: no scrape of " << last.endpoint << " succeeded"
            << (last.last_error.empty() ? "" : ": " + last.last_error) << "\n";
    return core::kExitUsage;
  }
  return core::kExitHealthy;
}

}  // namespace

Command make_top_command() {
  auto o = std::make_shared<TopOpts>();
  Command c;
  c.path = "top";
  c.summary = "a live view of one inference server by layer: queue, KV, token rates, windowed latency, slots, GPU, each layer's verdict";
  c.example =
      "llmtriage top --endpoint http://127.0.0.1:8000\n"
      "  llmtriage top --endpoint http://127.0.0.1:8080 --once          # one plain frame (llama.cpp: slots too)\n"
      "  llmtriage top --endpoint http://127.0.0.1:8000 --json --count 10 | jq .scheduling\n"
      "  llmtriage top --endpoint http://127.0.0.1:8000 --record incident.jsonl   # later: llmtriage top --replay incident.jsonl --speed 10\n"
      "  llmtriage top --sim preemption-storm                              # no server, no GPU: the embedded engine";
  c.options = {
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "the server's base URL or its /metrics URL (http:// or https://); or --replay", &o->endpoint},
      {"--dcgm URL", "LLMTRIAGE_DCGM", "a dcgm-exporter /metrics URL for GPU readings (default: NVML or nvidia-smi on this machine)", &o->dcgm},
      {"--interval DURATION", "", "time between scrapes", &o->interval_s, "", false, between(0.1, 3600)},
      {"--window DURATION", "", "latency quantiles and the layer lines cover the last this long", &o->window_s, "", false, between(1, 3600)},
      {"--timeout DURATION", "", "per request to the server (default: the interval, at most 10 s)", &o->timeout_s, "the interval", false, between(0, 600)},
      {"--once", "", "print one plain frame (after two scrapes an interval apart) and exit; also what happens when stdout is not a terminal", &o->once},
      {"--count NUMBER", "", "with --json: stop after this many frames (0 = until Ctrl-C)", &o->count, "", false, between(0, 1e9)},
      {"--snapshot-dir DIR", "", "where the s key writes its snapshot of the last window", &o->snapshot_dir},
      {"--engine NAME", "", "engine instead of detecting it: vllm, vllm-v0, sglang, tgi, llamacpp, trtllm", &o->engine},
      {"--engine-args TEXT", "LLMTRIAGE_ENGINE_ARGS", "the engine's command line (max-num-seqs, model): the queue is judged against it", &o->engine_args},
      {"--api-key TEXT", "LLMTRIAGE_API_KEY", "bearer token for the endpoint; sent, never written", &o->api_key, "none"},
      {"--no-local-gpu", "", "do not read this machine's GPUs (the server runs elsewhere)", &o->no_local_gpu},
      {"--no-color", "", "no ANSI colours on the terminal", &o->no_color},
      {"--record FILE", "", "also write every scrape to FILE, one JSON line each (flushed as it comes), to watch again with --replay", &o->record},
      {"--replay FILE", "", "watch a recording (top --record) instead of a server, at its recorded pace; with --once or --json, at once", &o->replay},
      {"--speed NUMBER", "", "with --replay: this many times faster than recorded", &o->speed, "", false, between(0.01, 1000)},
      {"--sim NAME", "", "watch the embedded engine instead: a bundled scenario (data/scenarios/) served in this process with its traffic, as a drill's first run, no GPU needed", &o->sim},
      {"--sim-wall DURATION", "", "with --sim: play the scenario's traffic in about this long", &o->sim_wall_s, "", false, between(5, 3600)},
      {"--strict", "", "with --replay: a malformed line (a cut last line) is an error instead of being skipped and counted", &o->strict},
  };
  c.run = [o](Context& ctx) { return run_top_cmd(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
