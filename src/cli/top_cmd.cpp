// `llmtriage top`: a live terminal view of one inference server that reasons by layer. Parsing
// and wiring only: the frame model, rendering and loop live in src/collect (live_view, live_render,
// live_loop), the layer lines in cli/top_layers.cpp, the terminal in cli/top_terminal.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/top_layers.h"
#include "cli/top_terminal.h"
#include "collect/live_loop.h"
#include "collect/live_record.h"
#include "collect/live_render.h"
#include "collect/live_scrape.h"
#include "core/exit_code.h"
#include "drill/sim_background.h"

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

int run_top_cmd(TopOpts& o, Context& ctx) {
  const int sources = !o.endpoint.empty() + !o.replay.empty() + !o.sim.empty();
  if (sources != 1)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "top",
                                      "one of --endpoint URL (a live server), --replay FILE (a recording) or --sim SCENARIO (the embedded engine)",
                                      sources == 0 ? "none" : "several"));
  // A flag for another mode would be silently ignored: said instead.
  if (o.replay.empty() && (o.speed != 1 || o.strict))
    return fail(ctx, core::make_error(core::ErrorKind::usage, o.strict ? "--strict" : "--speed", "--replay FILE (they shape a replay)",
                                      o.endpoint.empty() ? "--sim" : "--endpoint"));
  if (o.sim.empty() && o.sim_wall_s != 120)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--sim-wall", "--sim SCENARIO", o.replay.empty() ? "--endpoint" : "--replay"));
  if (!o.replay.empty() && !o.record.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--record", "a live server to record (--endpoint or --sim)", "--replay " + o.replay));
  core::EngineKind engine = core::EngineKind::unknown;
  if (!o.engine.empty() && (engine = core::engine_kind_from_string(o.engine)) == core::EngineKind::unknown)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine", "vllm, vllm-v0, sglang, tgi, llamacpp or trtllm", o.engine));
  // --sim: a drill's first run on a thread (drill/sim_background.h), watched like any server.
  std::unique_ptr<drill::BackgroundRun> simulated;
  if (!o.sim.empty()) {
    auto b = drill::BackgroundRun::start(o.sim, o.sim_wall_s, "--sim " + o.sim, "--sim-wall");
    if (!b) return fail(ctx, b.error());
    simulated = std::move(*b);
    o.endpoint = simulated->url();
    // Its GPU from its simulated dcgm-exporter, its cap from its settings: every layer can be judged.
    if (o.dcgm.empty()) o.dcgm = simulated->url() + "/dcgm";
    o.no_local_gpu = true;
    if (o.engine_args.empty()) o.engine_args = "--max-num-seqs " + std::to_string(simulated->max_num_seqs());
    ctx.err << "llmtriage top: --sim " << o.sim << ": the embedded engine at " << simulated->url() << ", its traffic at time scale "
            << fmt::format("{:.3g}", simulated->time_scale()) << " (" << simulated->time_scale_why() << "); quitting stops it\n";
  }
  collect::LiveScrapeOptions so;
  so.endpoint = o.endpoint;
  so.dcgm = o.dcgm;
  so.api_key = o.api_key;
  so.request_timeout_s = o.timeout_s > 0 ? o.timeout_s : std::min(10.0, o.interval_s);
  so.capture.engine_args = o.engine_args;
  so.capture.read_local_gpus = !o.no_local_gpu;
  so.capture.engine = engine;
  std::unique_ptr<collect::LiveScraper> scraper;
  std::optional<collect::TopRecording> recording;
  collect::Snapshot base;
  if (!o.replay.empty()) {
    auto rec = collect::read_top_recording(o.replay, o.strict);
    if (!rec) return fail(ctx, rec.error());
    if (rec->scrapes.empty())
      return fail(ctx, core::make_error(core::ErrorKind::input, o.replay, "at least one recorded scrape", "the header only"));
    if (rec->malformed > 0)
      ctx.err << "llmtriage top: " << rec->malformed << " malformed line(s) in " << o.replay << " skipped; first: " << rec->errors.front() << "\n";
    recording = std::move(*rec);
    base = recording->base;
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
  // A replay: paced on a terminal, at once for a script or one frame (collect/live_record.h).
  std::unique_ptr<collect::RecordingPlayer> replay;
  if (recording) {
    replay = std::make_unique<collect::RecordingPlayer>(std::move(*recording), o.speed, interactive, clock);
    io.unix_now = [r = replay.get()] { return r->now(); };
    io.scrape = [r = replay.get()](double) { return r->take(&stop_requested()); };
    cfg.interval_s = 0.001;  // the replay clock paces the scrapes, not the schedule
    run.stop_after_scrapes = static_cast<int>(replay->size());
    run.hold_at_end = interactive;
    run.end_message = "the recording ends here (" + std::to_string(replay->size()) + " scrapes): q quits";
  }
  if (ctx.json) {
    run.show_every_scrape_only = true;
    if (!replay) run.stop_after_scrapes = static_cast<int>(o.once ? 2 : o.count);
    else if (o.count > 0) run.stop_after_scrapes = static_cast<int>(std::min<int64_t>(o.count, run.stop_after_scrapes));
    if (replay && o.once) {  // one frame: the recording's end
      run.show_every_scrape_only = false;
      run.show_at_end_only = true;
    }
    bool first = !replay;  // live --once: the first frame has no rates yet
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
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "the server's base URL or its /metrics URL (http:// or https://); or --replay FILE, or --sim NAME", &o->endpoint},
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
