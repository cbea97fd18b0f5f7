// `llmtriage bench`: drive an OpenAI-compatible endpoint with a fixed, hashed request set on an
// absolute schedule, record every request, summarize, export; says so when the run measured the
// client rather than the server (docs/bench.md).
#include <fmt/format.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>

#include "bench/bench_config.h"
#include "cli/command.h"
#include "cli/report_inputs.h"
#include "core/duration.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "core/progress.h"

namespace llmtriage::cli {
namespace {

std::atomic<bool> g_bench_stop{false};
extern "C" void on_signal(int) { g_bench_stop.store(true); }

struct BenchOpts {
  bench::BenchFlags f;
  std::string html;  // --html FILE: the run's CDFs and timeline, drawn from the --out folder
  std::string svg;   // --svg DIR: each of those charts as a standalone SVG
};

int run_bench(BenchOpts& o, Context& ctx) {
  bench::BenchFlags& f = o.f;
  // The page is drawn from the result folder, as `report` draws one: refused before the run.
  if ((!o.html.empty() || !o.svg.empty()) && f.out.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, o.html.empty() ? "--svg" : "--html",
                                      "--out DIR as well (the page is drawn from the folder)", "no --out"));
  auto plan = bench::plan_run(f);
  if (!plan) return fail(ctx, plan.error());
  if (!f.save_requests.empty()) {
    if (auto st = core::write_file_atomic(f.save_requests, bench::to_jsonl(plan->set)); !st) return fail(ctx, st.error());
  }
  core::Progress progress("bench");
  plan->runner.on_progress = [&](const bench::RunProgress& p) {
    progress.update(fmt::format("{}/{} sent, {} done, {} failed, {} in flight, {:.1f} s", p.sent, p.total, p.done,
                                p.failed, p.in_flight, p.elapsed_s));
  };
  g_bench_stop = false;
  plan->runner.stop = &g_bench_stop;
  auto old_int = std::signal(SIGINT, on_signal);
  auto old_term = std::signal(SIGTERM, on_signal);
  auto out = bench::execute(*plan);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  progress.done();
  if (!f.out.empty()) {
    if (auto st = bench::write_results(f.out, out.summary, out.meta, out.run.records, out.run.scrapes); !st)
      return fail(ctx, st.error());
    if (f.save_requests.empty())
      if (auto st = core::write_file_atomic(f.out + "/requests.jsonl", bench::to_jsonl(plan->set)); !st)
        return fail(ctx, st.error());
  }
  // The page first: when it cannot be written the summary is still shown, and with --json as one
  // document carrying the error.
  std::optional<core::Error> html_error;
  if (!o.html.empty() || !o.svg.empty()) {
    auto h = load_report_inputs({f.out}, std::nullopt);
    if (!h) html_error = h.error();
    else {
      h->title = "llmtriage bench: " + f.out;
      html_error = write_pictures(ctx.err, "bench", o.html, o.svg, *h);
    }
  }
  // Nothing completed because a request failed (refused, reset, an HTTP error): the run measured
  // nothing of the server, an error. Nothing completed because the run's end (--deadline, Ctrl-C)
  // cut every request: a partial run, reported as one.
  const bool none_completed = out.summary.completed == 0 && out.summary.measured > 0;
  if (none_completed && out.summary.failed > 0) {
    std::string why = out.summary.errors_by_category.empty() ? "no response" : out.summary.errors_by_category.begin()->first;
    for (const auto& r : out.run.records)
      if (!r.error_detail.empty() && r.error_category != "deadline" && r.error_category != "interrupted" &&
          r.error_category != "not_sent") {
        why = r.error_category + ": " + r.error_detail;
        break;
      }
    const core::Error e = core::make_error(core::ErrorKind::network, out.meta.endpoint, "completed requests",
                                           fmt::format("none of {} completed", out.summary.measured), why);
    if (!ctx.json) ctx.out << bench::text_report(out.summary, out.meta);
    if (html_error) ctx.err << "llmtriage bench: the HTML report was not written: " << html_error->message() << "\n";
    return fail_with_result(ctx, bench::json_summary(out.summary, out.meta), e);
  }
  if (ctx.json) {
    if (html_error) return fail_with_result(ctx, bench::json_summary(out.summary, out.meta), *html_error);
    ctx.out << bench::json_summary(out.summary, out.meta).dump(2) << "\n";
  } else {
    ctx.out << bench::text_report(out.summary, out.meta);
  }
  if (html_error) return fail(ctx, *html_error);
  if (none_completed && out.summary.deadline_hit)
    ctx.err << fmt::format("llmtriage bench: no request completed within the deadline ({}): the server answered "
                           "none in time; raise --deadline, or look at the server (it may be overloaded or hung)\n",
                           core::format_duration(f.deadline_s));
  if (f.fail_on_slo)
    if (const std::string why = bench::slo_missed(out.summary); !why.empty()) {
      ctx.err << "llmtriage bench: SLO not met: " << why << "\n";
      return core::kExitFindings;
    }
  return out.summary.client_bound || out.summary.failed > 0 || out.summary.deadline_hit ? core::kExitFindings
                                                                                         : core::kExitHealthy;
}

}  // namespace

Command make_bench_command() {
  auto o = std::make_shared<BenchOpts>();
  bench::BenchFlags* f = &o->f;
  Command c;
  c.path = "bench";
  c.summary = "Load-test an OpenAI-compatible endpoint: fixed seeded request set, absolute schedule, self-checked";
  c.example =
      "llmtriage bench --endpoint http://127.0.0.1:8000 --model meta-llama/Llama-3.1-8B-Instruct --dataset random "
      "--input-len 512 --output-len 128 --num-requests 500 --rate 8 --slo ttft=500ms,tpot=50ms --out run1";
  c.options = {
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "base URL of the server (http:// or https://); /v1/... is appended", &f->endpoint, "", true},
      {"--model NAME", "LLMTRIAGE_MODEL", "model name to send (as the server lists it in /v1/models)", &f->model, "", true},
      {"--api NAME", "", "completions (token-id prompts, exact lengths) or chat (text prompts)", &f->api},
      {"--dataset NAME", "", "random, prefix (shared-prefix groups), sharegpt, jsonl", &f->dataset},
      {"--dataset-path FILE", "", "the ShareGPT JSON or prompts JSONL for --dataset sharegpt|jsonl", &f->dataset_path},
      {"--replay FILE", "", "request records to replay with their arrival times (any format `records summary` reads)", &f->replay},
      {"--replay-speed", "", "replay time factor (2 = twice as fast)", &f->replay_speed, "", false, kPositive},
      {"--requests FILE", "", "a request set frozen with --save-requests (same hash, same requests)", &f->requests_file},
      {"--save-requests FILE", "", "write the request set to this JSONL file", &f->save_requests},
      {"--input-len", "", "prompt tokens per request (random/prefix)", &f->input_len, "", false, at_least(1)},
      {"--output-len", "", "output tokens per request, pinned with ignore_eos + min_tokens (0 = the dataset's own)", &f->output_len},
      {"--range-ratio", "", "uniform jitter of the lengths as a fraction (0 = exact)", &f->range_ratio, "", false, between(0, 1)},
      {"--prefix-groups", "", "shared-prefix groups (--dataset prefix)", &f->prefix_groups},
      {"--prefix-len", "", "tokens of each group's shared prefix", &f->prefix_len},
      {"--vocab-size", "", "token ids are drawn from [100, this)", &f->vocab_size, "", false, at_least(101)},
      {"--text-prompts", "", "send text prompts even on the completions API", &f->text_prompts},
      {"--num-requests", "", "requests to send (warm-up included)", &f->num_requests, "", false, at_least(1)},
      {"--warmup", "", "the first N requests warm up and are left out of every statistic", &f->warmup},
      {"--rate", "", "open loop: mean requests/s on an absolute schedule (inf = all at once)", &f->rate, "", false, kRatePositive},
      {"--burstiness", "", "gamma shape of inter-arrival times (1 = Poisson, < 1 burstier)", &f->burstiness, "", false, kPositive},
      {"--ramp-to", "", "open loop: the rate rises linearly from --rate to this over the run", &f->ramp_to, "", false, kPositive},
      {"--concurrency", "", "closed loop: keep this many requests in flight", &f->concurrency, "", false, at_least(1)},
      {"--max-concurrency", "", "open loop: cap on requests in flight (waits reported as client queue time)", &f->max_concurrency, "", false, at_least(1)},
      {"--seed", "", "seed of the request set and the schedule", &f->seed},
      {"--slo SLO", "", "goodput SLO, e.g. ttft=500ms,tpot=50ms,e2e=10s", &f->slo},
      {"--fail-on-slo", "", "exit 1 when the run misses --slo (< 99% of requests meet it, or the error rate is above error_rate=)", &f->fail_on_slo},
      {"--out,-o DIR", "", "folder for summary.json, records.jsonl, metrics.jsonl, report.txt, requests.jsonl", &f->out},
      {"--html FILE", "", "also write the run as one self-contained HTML page: latency CDFs, server timeline (needs --out; docs/report.md)", &o->html},
      {"--svg DIR", "", "also write each chart (CDFs, timeline lanes) as a standalone SVG file in DIR (needs --out)", &o->svg},
      {"--api-key-file FILE", "", "file holding the bearer token (default: $OPENAI_API_KEY); never printed", &f->api_key_file},
      {"--deadline DURATION", "", "how long the whole run may take; then it stops, results kept", &f->deadline_s, "", false, kPositive},
      {"--request-timeout DURATION", "", "time without a byte (first or next) before a request fails", &f->request_timeout_s, "", false, kPositive},
      {"--scrape-interval DURATION", "", "time between /metrics scrapes during the run (0 = no scraping)", &f->scrape_interval_s},
      {"--metrics-url URL", "", "where the server's /metrics is (default: endpoint + /metrics)", &f->metrics_url},
      {"--config TEXT", "", "engine configuration to store with the results, k=v,k=v (for `llmtriage ab`)", &f->config},
      {"--client-threads", "", "event-loop threads of the client", &f->client_threads, "", false, at_least(1)},
      {"--no-continuous-usage", "", "do not ask for per-chunk usage (servers that reject stream_options.continuous_usage_stats)", &f->no_continuous_usage},
  };
  c.run = [o](Context& ctx) { return run_bench(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
