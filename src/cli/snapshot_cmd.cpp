// `llmtriage snapshot`: capture an inference server's metrics over a window (or build the same
// snapshot from expositions saved earlier) into one JSON file; `snapshot show` prints one.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "collect/capture.h"
#include "collect/snapshot_render.h"
#include "core/exit_code.h"
#include "core/progress.h"

namespace llmtriage::cli {
namespace {

struct SnapOpts {
  std::string endpoint;
  std::string dcgm;
  double window_s = 30;  // durations, checked when parsed
  double interval_s = 5;
  std::string engine_args;
  std::string out;
  std::vector<std::string> metrics_files;
  std::string engine;
  std::string api_key;
  bool strict = false;
  bool no_local_gpu = false;
};

size_t ok_scrapes(const collect::Snapshot& s) {
  size_t n = 0;
  for (const auto& sc : s.scrapes) n += sc.ok;
  return n;
}

int run_snapshot(SnapOpts& o, Context& ctx) {
  if (o.out.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--out", "a file to write the snapshot to",
                                      "nothing", "e.g. --out snap.json"));
  if (o.endpoint.empty() == o.metrics_files.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--endpoint/--metrics-file",
                                      "exactly one of --endpoint URL or --metrics-file FILE...",
                                      o.endpoint.empty() ? "neither" : "both"));
  collect::CaptureOptions copt;
  copt.strict = o.strict;
  copt.engine_args = o.engine_args;
  copt.read_local_gpus = !o.no_local_gpu;
  if (!o.engine.empty()) {
    copt.engine = core::engine_kind_from_string(o.engine);
    if (copt.engine == core::EngineKind::unknown)
      return fail(ctx, core::make_error(core::ErrorKind::usage, "--engine",
                                        "vllm, vllm-v0, sglang, tgi, llamacpp or trtllm", o.engine));
  }

  core::Result<collect::Snapshot> snap = core::make_error(core::ErrorKind::internal, "", "", "");
  if (!o.metrics_files.empty()) {
    snap = collect::snapshot_from_files(o.metrics_files, copt);
  } else {
    const double* window = &o.window_s;
    const double* interval = &o.interval_s;
    collect::LiveOptions lo;
    lo.endpoint = o.endpoint;
    lo.dcgm = o.dcgm;
    lo.api_key = o.api_key;
    lo.window_s = *window;
    lo.interval_s = *interval;
    lo.capture = copt;
    core::Progress progress("snapshot");
    std::string out = o.out;
    std::string key = o.api_key;
    int total = static_cast<int>(*window / *interval + 1e-9) + 1;
    lo.on_progress = [&](const collect::Snapshot& s) {
      // Written after every scrape: an interrupted capture still leaves a valid file.
      (void)collect::write_snapshot(out, s, key);
      progress.update(std::to_string(s.scrapes.size()) + "/" + std::to_string(total) + " scrapes, " +
                      std::to_string(ok_scrapes(s)) + " ok");
    };
    snap = collect::capture_live(lo);
    progress.done();
  }
  if (!snap) return fail(ctx, snap.error());
  if (auto st = collect::write_snapshot(o.out, *snap, o.api_key); !st) return fail(ctx, st.error());

  size_t ok = ok_scrapes(*snap);
  if (ctx.json && ok == 0) {
    std::string why;
    for (const auto& f : snap->failures)
      if (f.what == "metrics" || f.what == "dcgm") why += (why.empty() ? "" : "; ") + f.what + ": " + f.error;
    return fail(ctx, core::make_error(core::ErrorKind::network, o.endpoint, "a successful scrape",
                                      "none of " + std::to_string(snap->scrapes.size()),
                                      why + (why.empty() ? "" : ". ") + "The file " + o.out + " records the failures."));
  }
  if (ctx.json) {
    nlohmann::json j = {{"written", o.out}, {"engine", core::to_string(snap->engine)},
                        {"scrapes", snap->scrapes.size()}, {"scrapes_ok", ok},
                        {"failures", snap->failures.size()}, {"gpu_source", snap->gpu_source}};
    ctx.out << j.dump(2) << "\n";
  } else {
    ctx.out << "wrote " << o.out << ": " << ok << " of " << snap->scrapes.size() << " scrape(s) ok, engine "
            << core::to_string(snap->engine) << ", " << snap->gpu_samples.size() << " GPU reading(s)"
            << (snap->gpu_note.empty() ? "" : " (" + snap->gpu_note + ")") << "\n"
            << "read it with: llmtriage snapshot show " << o.out << "\n";
  }
  for (const auto& f : snap->failures)
    if (f.what == "metrics" || f.what == "dcgm") ctx.err << "llmtriage snapshot: warning: " << f.what << ": " << f.error << "\n";
  if (ok == 0) {
    ctx.err << "llmtriage snapshot: error: no scrape succeeded; the file records the failures\n";
    return core::kExitUsage;
  }
  return core::kExitHealthy;
}

}  // namespace

Command make_snapshot_command() {
  auto o = std::make_shared<SnapOpts>();
  Command c;
  c.path = "snapshot";
  c.summary = "capture engine metrics and GPU readings over a window into one JSON file (before anything is restarted)";
  c.example =
      "llmtriage snapshot --endpoint http://127.0.0.1:8000 --window 30s --interval 5s "
      "--engine-args \"--model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192\" --out snap.json\n"
      "  llmtriage snapshot --metrics-file before.prom --metrics-file after.prom --out snap.json";
  c.options = {
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "the server's base URL or its /metrics URL (http:// or https://)", &o->endpoint},
      {"--metrics-file FILE", "", "a saved /metrics exposition (curl .../metrics > m.prom); repeat, in time order, instead of --endpoint", &o->metrics_files},
      {"--dcgm URL", "LLMTRIAGE_DCGM", "a dcgm-exporter /metrics URL for GPU readings (default: NVML or nvidia-smi on this machine)", &o->dcgm},
      {"--window DURATION", "", "how long to scrape (30s, 2m, 500ms; 0 = one scrape)", &o->window_s, "", false, kLiveWindow},
      {"--interval DURATION", "", "time between scrapes", &o->interval_s, "", false, kPositive},
      {"--engine-args TEXT", "LLMTRIAGE_ENGINE_ARGS", "the engine's command line, stored with secrets redacted", &o->engine_args},
      {"--engine NAME", "", "engine instead of detecting it: vllm, vllm-v0, sglang, tgi, llamacpp, trtllm", &o->engine},
      {"--api-key TEXT", "LLMTRIAGE_API_KEY", "bearer token for the endpoint; sent, never written", &o->api_key, "none"},
      {"--strict", "", "a malformed exposition line is an error instead of being skipped and counted", &o->strict},
      {"--no-local-gpu", "", "do not read this machine's GPUs (the server runs elsewhere)", &o->no_local_gpu},
      {"--out,-o FILE", "", "the snapshot file to write (atomically; rewritten after every scrape)", &o->out},
  };
  c.run = [o](Context& ctx) { return run_snapshot(*o, ctx); };
  c.state = o;
  return c;
}

Command make_snapshot_show_command() {
  auto file = std::make_shared<std::string>();
  Command c;
  c.path = "snapshot show";
  c.summary = "print a snapshot: the state of every indicator, layer by layer";
  c.example = "llmtriage snapshot show snap.json";
  c.options = {{"FILE FILE", "", "a snapshot written by 'llmtriage snapshot'", file.get(), "", true}};
  c.run = [file](Context& ctx) {
    auto s = collect::read_snapshot(*file);
    if (!s) return fail(ctx, s.error());
    if (ctx.json) ctx.out << collect::to_json(*s).dump(1) << "\n";
    else ctx.out << collect::render_snapshot_text(*s);
    return static_cast<int>(core::kExitHealthy);
  };
  c.state = file;
  return c;
}

}  // namespace llmtriage::cli
