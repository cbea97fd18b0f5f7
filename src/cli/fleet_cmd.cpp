// `llmtriage fleet`: diagnosis of many replicas through the Prometheus-compatible store their
// metrics already live in. A bounded number of PromQL queries (src/fleet/gather.h) -> one
// Evidence per replica -> the same layered diagnosis per replica and for the whole fleet, plus the
// fleet-only analyzers (src/fleet/analyze.h) -> verdict first (src/fleet/render.h).
// Exit 1 when a finding at warning or above exists; 2 on a usage error or when nothing could be read.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <memory>

#include "cli/command.h"
#include "cli/diagnose_inputs.h"
#include "cli/judgement_flags.h"
#include "cli/report_inputs.h"
#include "cli/version.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "core/progress.h"
#include "fleet/analyze.h"
#include "fleet/gather.h"
#include "fleet/prom_client.h"
#include "fleet/picture.h"
#include "fleet/render.h"

namespace llmtriage::cli {
namespace {

struct FleetFlags {
  std::string prometheus;
  std::string token_file;
  bool insecure = false;
  std::string selector;
  std::string gpu_selector;
  std::string replica_label = "instance";
  double window_s = 1800;  // durations, checked when parsed (docs/cli.md)
  std::optional<double> step_s;
  std::string at;
  std::optional<double> baseline_offset_s;
  std::string baseline_end;
  double timeout_s = 30;
  std::vector<std::string> symptoms;
  std::string slo;
  std::string thresholds_file;
  std::string out;
  std::string html;  // --html FILE: verdict, replicas as small multiples, findings on one page
  std::string svg;   // --svg DIR: the small multiples as a standalone SVG
};

// "1733212800", "1733212800.5" or "2026-12-03T10:00:00Z".
std::optional<double> parse_time(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end && *end == '\0' && std::isfinite(v) && v > 0) return v;
  std::tm tm{};
  const char* p = strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!p || !(*p == '\0' || ((*p == 'Z' || *p == 'z') && p[1] == '\0'))) return std::nullopt;
  return static_cast<double>(timegm(&tm));
}

core::Result<std::string> read_token(const FleetFlags& f) {
  if (!f.token_file.empty()) {
    auto t = core::read_file(f.token_file);
    if (!t) {
      auto e = t.error();
      e.where = "--prometheus-token-file " + f.token_file;
      return e;
    }
    std::string s = std::move(*t);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
  }
  if (const char* e = std::getenv("LLMTRIAGE_PROMETHEUS_TOKEN"); e && *e) return std::string(e);
  return std::string();
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

int run_fleet(FleetFlags& f, Context& ctx) {
  if (f.prometheus.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--prometheus", "the store's base URL (http://prometheus:9090)", "nothing"));
  const double* window = &f.window_s;
  const std::optional<double>& step = f.step_s;
  const double* timeout = &f.timeout_s;
  double end = now_s();
  if (!f.at.empty()) {
    auto t = parse_time(f.at);
    if (!t) return fail(ctx, core::make_error(core::ErrorKind::usage, "--at", "unix seconds or 2026-12-03T10:00:00Z", f.at));
    end = *t;
  }
  fleet::GatherOptions go;
  go.selector = f.selector;
  go.gpu_selector = f.gpu_selector;
  go.replica_label = f.replica_label;
  go.end_s = end;
  go.window_s = *window;
  go.step_s = step.value_or(0);
  if (f.baseline_offset_s && !f.baseline_end.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--baseline-offset/--baseline-end", "one way to place the baseline", "both"));
  if (f.baseline_offset_s) {
    go.baseline_end_s = end - *f.baseline_offset_s;
  } else if (!f.baseline_end.empty()) {
    auto t = parse_time(f.baseline_end);
    if (!t) return fail(ctx, core::make_error(core::ErrorKind::usage, "--baseline-end", "unix seconds or 2026-11-26T10:00:00Z", f.baseline_end));
    go.baseline_end_s = *t;
  }

  fleet::AnalyzeOptions ao;
  if (auto st = parse_symptoms(f.symptoms, ao.symptoms); !st.ok()) return fail(ctx, st.error());
  if (auto st = apply_slo_and_thresholds(f.slo, f.thresholds_file, ao.slo, ao.thresholds); !st.ok()) return fail(ctx, st.error());
  auto token = read_token(f);
  if (!token.ok()) return fail(ctx, token.error());

  fleet::PromClientOptions po;
  po.base_url = f.prometheus;
  po.bearer_token = *token;
  po.insecure_tls = f.insecure;
  po.query_timeout = std::chrono::milliseconds(static_cast<int64_t>(*timeout * 1000));
  fleet::PromClient client(po);

  core::Progress progress("fleet");
  progress.update("querying " + f.prometheus);
  auto fe = fleet::gather(client, go);
  if (!fe.ok()) {
    progress.done();
    return fail(ctx, fe.error());
  }
  progress.update(std::to_string(fe->replicas.size()) + " replicas: analysing");
  const auto t0 = std::chrono::steady_clock::now();
  auto d = fleet::analyze(*fe, ao);
  progress.done();
  fleet::RunInfo info;
  info.prometheus = f.prometheus;
  info.selector = f.selector;
  info.replica_label = f.replica_label;
  info.stats = client.stats();
  info.analysis_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const auto j = fleet::to_json(*fe, d, info);
  if (!f.out.empty())
    if (auto st = core::write_file_atomic(f.out, j.dump(2) + "\n"); !st.ok()) return fail(ctx, st.error());
  // The page first: when it cannot be written the report is still shown, and with --json as one
  // document carrying the error.
  std::optional<core::Error> html_error;
  if (!f.html.empty() || !f.svg.empty()) {
    report::HtmlReport h;
    h.title = "llmtriage fleet: " + f.prometheus + (f.selector.empty() ? std::string() : " " + f.selector);
    h.generated_by = "llmtriage " + version_string();
    h.sources.push_back(f.prometheus);
    h.diagnosis = d.verdict;
    h.fleet = fleet::fleet_picture(*fe, d);
    h.notes = h.fleet->notes;
    html_error = write_pictures(ctx.err, "fleet", f.html, f.svg, h);
  }
  if (ctx.json) {
    if (html_error) return fail_with_result(ctx, j, *html_error);
    ctx.out << j.dump(2) << "\n";
  } else {
    ctx.out << fleet::render_text(*fe, d, info);
  }
  if (html_error) return fail(ctx, *html_error);
  return d.exit_code();
}

}  // namespace

Command make_fleet_command() {
  auto f = std::make_shared<FleetFlags>();
  Command c;
  c.path = "fleet";
  c.summary = "diagnose many replicas through Prometheus: the replica that differs, load imbalance, lost prefix affinity, "
              "traffic shifts vs a baseline";
  c.example =
      "llmtriage fleet --prometheus http://prometheus:9090 --selector '{job=\"vllm\"}' --window 30m --baseline-offset 7d\n"
      "  llmtriage fleet --prometheus https://thanos.example/ --prometheus-token-file token.txt --replica-label pod "
      "--at 2026-12-03T04:00:00Z --window 1h --json";
  c.options = {
      {"--prometheus URL", "LLMTRIAGE_PROMETHEUS", "the store's base URL: Prometheus, Thanos, Mimir, VictoriaMetrics (HTTP API /api/v1)", &f->prometheus},
      {"--prometheus-token-file FILE", "", "file holding a bearer token for the store (else $LLMTRIAGE_PROMETHEUS_TOKEN); never printed", &f->token_file},
      {"--insecure", "", "https: do not verify the store's certificate", &f->insecure},
      {"--selector TEXT", "", "label matchers for the engines' series, e.g. '{job=\"vllm\", namespace=\"prod\"}' (default: all)", &f->selector},
      {"--gpu-selector TEXT", "", "label matchers for the DCGM series (default: all DCGM_FI_* series, joined to replicas by label or host)", &f->gpu_selector},
      {"--replica-label NAME", "", "the label that names a replica", &f->replica_label},
      {"--window DURATION", "", "how far back from --at to look (30m, 1h, 2d)", &f->window_s, "", false, kPositive},
      {"--step DURATION", "", "resolution of the range queries (default: window / 60, at most 240 steps)", &f->step_s, "", false, kPositive},
      {"--at TEXT", "", "end of the window: unix seconds or 2026-12-03T10:00:00Z (default: now)", &f->at},
      {"--baseline-offset DURATION", "", "compare with the same window this long before (7d = last week at the same hour)", &f->baseline_offset_s, "", false, kPositive},
      {"--baseline-end TEXT", "", "or: end of the baseline window (same length as --window)", &f->baseline_end},
      {"--timeout DURATION", "", "per query: the store's limit and ours", &f->timeout_s, "", false, kPositive},
      {"--symptom NAME", "", "what you see (repeatable; as in diagnose); default: detected per replica against --slo", &f->symptoms},
      {"--slo SLO", "", "SLO for detecting symptoms, e.g. ttft_p99_s=2,tpot_p99_s=0.1", &f->slo},
      {"--thresholds FILE", "", "a file of rule thresholds (`name = value`; docs/rules.md, incl. the fleet.* ones)", &f->thresholds_file},
      {"--out,-o FILE", "", "also write the JSON report to this file (atomically)", &f->out},
      {"--html FILE", "", "also write one self-contained HTML page: the verdict, one sparkline row per replica sorted by distance from the fleet median, the findings (docs/report.md)", &f->html},
      {"--svg DIR", "", "also write the small multiples as a standalone SVG file in DIR (for a ticket)", &f->svg},
  };
  c.run = [f](Context& ctx) { return run_fleet(*f, ctx); };
  c.state = f;
  return c;
}

}  // namespace llmtriage::cli
