// `llmtriage diagnose`: the layered diagnosis. Gathers whatever evidence is at hand
// (cli/diagnose_inputs), runs diagnose::diagnose, and prints the report (src/report) for a
// terminal, as Markdown or as JSON (docs/diagnose-json.md). Exit 1 when a finding at warning or
// above exists; 2 when no evidence at all could be read or a flag is wrong.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>

#include "cli/command.h"
#include "cli/diagnose_inputs.h"
#include "cli/report_inputs.h"
#include "core/exit_code.h"
#include "core/progress.h"
#include "diagnose/diagnose.h"
#include "report/diagnose_json.h"
#include "report/diagnose_markdown.h"
#include "report/diagnose_text.h"

namespace llmtriage::cli {
namespace {

struct DiagOpts {
  DiagnoseFlags flags;
  bool markdown = false;
  std::string color = "auto";
  std::string html;  // --html FILE: also the one-file HTML report (docs/report.md)
  std::string svg;   // --svg DIR: each of its charts as a standalone SVG
};

// Colors and layer headings only for a person at a terminal (NO_COLOR and TERM=dumb respected).
bool use_tty_style(const std::string& mode, const Context& ctx) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (&ctx.out != &std::cout || !::isatty(STDOUT_FILENO)) return false;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

// Paragraph width: the terminal's, kept between 60 and 120 columns; 100 when not a terminal.
size_t text_width(bool tty) {
  winsize ws{};
  if (tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return std::clamp<size_t>(ws.ws_col, 60, 120);
  return 100;
}

int run_diagnose(DiagOpts& o, Context& ctx) {
  if (o.color != "auto" && o.color != "always" && o.color != "never")
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--color", "auto, always or never", o.color));
  if (ctx.json && o.markdown)
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--json/--markdown", "one output format", "both"));

  core::Progress progress("diagnose");
  const int total = [&] {
    const double w = o.flags.window_s, i = o.flags.interval_s;
    return i > 0 ? static_cast<int>(w / i + 1e-9) + 1 : 0;
  }();
  auto gathered = gather_inputs(o.flags, [&](const collect::Snapshot& s) {
    size_t ok = 0;
    for (const auto& sc : s.scrapes) ok += sc.ok;
    progress.update(std::to_string(s.scrapes.size()) + "/" + std::to_string(total) + " scrapes, " + std::to_string(ok) + " ok");
  });
  progress.done();
  if (!gathered) return fail(ctx, gathered.error());
  Gathered& g = *gathered;
  if (!g.any_evidence) {
    std::string why;
    for (const auto& n : g.input.now.inputs)
      why += "\n  " + n.kind + " " + n.source + ": " + (n.ok ? "read, but holds no evidence" : n.note);
    if (g.input.snapshot_path) why += "\n  (the snapshot was kept at " + *g.input.snapshot_path + ")";
    if (ctx.json) {  // the JSON error object (docs/cli.md): each input in detail, "; " between them
      std::string detail;
      for (const auto& n : g.input.now.inputs)
        detail += (detail.empty() ? "" : "; ") + n.kind + " " + n.source + ": " + (n.ok ? "read, but holds no evidence" : n.note);
      if (g.input.snapshot_path) detail += "; the snapshot was kept at " + *g.input.snapshot_path;
      return fail(ctx, core::make_error(core::ErrorKind::input, "", "evidence from at least one input", "none readable", detail));
    }
    ctx.err << "llmtriage diagnose: error: no evidence could be read from any input:" << why << "\n";
    return core::kExitUsage;
  }
  for (const auto& w : g.warnings) ctx.err << "llmtriage diagnose: warning: " << w << "\n";

  diagnose::Report report = diagnose::diagnose(g.input);
  // The page first: when it cannot be written the report is still shown, and with --json as one
  // document carrying the error.
  std::optional<core::Error> html_error;
  if (!o.html.empty() || !o.svg.empty()) {
    html_error = write_pictures(ctx.err, "diagnose", o.html, o.svg, html_from_diagnosis(g.input, report));
  }
  if (ctx.json) {
    if (html_error) return fail_with_result(ctx, report::to_json(report), *html_error);
    ctx.out << report::to_json(report).dump(2) << "\n";
  } else if (o.markdown) {
    ctx.out << report::render_markdown(report);
  } else {
    report::TextOptions to;
    to.color = to.headings = use_tty_style(o.color, ctx);
    to.width = text_width(&ctx.out == &std::cout && ::isatty(STDOUT_FILENO));
    ctx.out << report::render_text(report, to);
  }
  if (html_error) return fail(ctx, *html_error);
  return report.exit_code();
}

}  // namespace

Command make_diagnose_command() {
  auto o = std::make_shared<DiagOpts>();
  DiagnoseFlags& f = o->flags;
  Command c;
  c.path = "diagnose";
  c.summary = "locate why a service is out of memory, slow at the tail or below its benchmark, layer by layer, "
              "and what to change";
  c.example =
      "llmtriage diagnose --snapshot snap.json --log vllm.log --records requests.jsonl "
      "--engine-args \"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 32768\" --gpu H100-SXM "
      "--symptom ttft_spike\n"
      "  llmtriage diagnose --endpoint http://127.0.0.1:8000 --window 30s --observe gateway_timeout_s=10\n"
      "  llmtriage diagnose --bench run1 --baseline-bench run0 --observe expected_output_tokens_per_s=2400 --markdown\n"
      "  llmtriage diagnose --symptom tpot_high --log pasted.txt --engine-args \"OLLAMA_NUM_PARALLEL=4\" --model llama3:70b "
      "--gpu \"RTX 3090\"   # thin evidence: the most likely causes, ranked, each located or suspected";
  c.options = {
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "live: the server's base URL or /metrics URL; scraped over --window, the snapshot is kept", &f.endpoint},
      {"--window DURATION", "", "live: how long to scrape (30s, 2m, 500ms)", &f.window_s, "", false, kLiveWindow},
      {"--interval DURATION", "", "live: time between scrapes", &f.interval_s, "", false, kPositive},
      {"--dcgm URL", "LLMTRIAGE_DCGM", "live: a dcgm-exporter /metrics URL for GPU readings", &f.dcgm},
      {"--api-key TEXT", "LLMTRIAGE_API_KEY", "live: bearer token for the endpoint; sent, never written", &f.api_key, "none"},
      {"--no-local-gpu", "", "live: do not read this machine's GPUs (the server runs elsewhere)", &f.no_local_gpu},
      {"--keep-snapshot FILE", "", "live: where to keep the snapshot (default ./llmtriage-snapshot-<UTC time>.json)", &f.keep_snapshot},
      {"--snapshot FILE", "", "a snapshot file written by `llmtriage snapshot` (repeatable)", &f.snapshots},
      {"--log FILE", "", "an engine log: vLLM, SGLang, TGI, llama.cpp, Ollama; plain or gzip (repeatable)", &f.logs},
      {"--records FILE", "", "request records in any format `llmtriage records summary` reads (repeatable)", &f.records},
      {"--bench DIR", "", "a `llmtriage bench --out` folder: records, server scrapes, engine config (repeatable)", &f.benches},
      {"--metrics-file FILE", "", "a saved /metrics text (curl URL/metrics > m.txt; engine and/or DCGM series), one reading at the "
                             "file's time; two files give rates (repeatable)", &f.metrics_files},
      {"--gpu-file FILE", "", "GPU readings saved from nvidia-smi --query-gpu ... --format=csv or dcgm-exporter (repeatable)", &f.gpu_files},
      {"--engine-args TEXT", "LLMTRIAGE_ENGINE_ARGS", "the engine's command line (\"vllm serve MODEL --max-model-len 32768 ...\")", &f.engine_args},
      {"--model NAME", "LLMTRIAGE_MODEL", "the served model (HF id or config.json path), for the ledger; inputs of another model are not used", &f.model},
      {"--gpu NAME", "LLMTRIAGE_GPU", "the GPU type (H100-SXM, A100-80GB, L40S, ...), for the ledger and the GPU's limits", &f.gpu},
      {"--tp", "", "tensor-parallel size (overrides the engine arguments)", &f.tp, "", false, at_least(1)},
      {"--outputs FILE", "", "sampled response texts: one per line, or JSONL with a text field (repeatable)", &f.outputs},
      {"--baseline-snapshot FILE", "", "a snapshot from a healthy period (the load layer compares against it)", &f.baseline_snapshots},
      {"--baseline-log FILE", "", "an engine log from a healthy period", &f.baseline_logs},
      {"--baseline-records FILE", "", "request records from a healthy period", &f.baseline_records},
      {"--baseline-metrics-file FILE", "", "a saved /metrics text from a healthy period (repeatable)", &f.baseline_metrics_files},
      {"--baseline-bench DIR", "", "a `llmtriage bench --out` folder from a healthy period or the benchmark", &f.baseline_benches},
      {"--symptom NAME", "", "what you see (repeatable): startup_oom, runtime_oom_or_preemption, ttft_spike, tpot_high, "
                        "throughput_low, output_quality, timeout_or_stream_break; default: detected against --slo", &f.symptoms},
      {"--slo SLO", "", "SLO for detecting symptoms, e.g. ttft_p99_s=2,tpot_p99_s=0.1,e2e_p99_s=60,error_rate=0.01", &f.slo},
      {"--thresholds FILE", "", "a file of rule thresholds (`name = value` lines; docs/rules.md has the names)", &f.thresholds_file},
      {"--observe TEXT", "", "a dashboard reading NAME=VALUE (repeatable; baseline_NAME for the healthy value; names in docs/rules.md)", &f.observe},
      {"--observe-file FILE", "", "dashboard readings, one NAME=VALUE per line ('#' comments)", &f.observe_files},
      {"--no-what-if", "", "do not run simulator what-ifs to predict remedy effects (faster; effects qualitative)", &f.no_what_if},
      {"--markdown", "", "print the report as Markdown (for a ticket or post-mortem)", &o->markdown},
      {"--color NAME", "", "terminal colors and layer headings: auto (only on a TTY), always, never", &o->color},
      {"--html FILE", "", "also write the report as one self-contained HTML file: layer strip, timeline, latency CDFs, findings (docs/report.md)", &o->html},
      {"--svg DIR", "", "also write each chart of that report (timeline lanes, CDFs, ledger waterfall) as a standalone SVG file in DIR", &o->svg},
  };
  c.run = [o](Context& ctx) { return run_diagnose(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
