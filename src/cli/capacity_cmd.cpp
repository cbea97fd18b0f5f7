// `llmtriage capacity`: the largest load whose goodput meets the SLO, by bracketing and bisection
// over real bench trials (src/bench/capacity.h); prints the curve and the knee.
#include <fmt/format.h>

#include <memory>
#include <ostream>

#include "bench/bench_config.h"
#include "bench/capacity.h"
#include "cli/command.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "core/progress.h"

namespace llmtriage::cli {
namespace {

struct CapOpts {
  bench::BenchFlags f;
  std::string by = "rate";
  double start = 1;
  double target_pct = 99;
  int trials = 3;
  double precision = 0.05;
  int max_points = 12;
};

int run_capacity(CapOpts& o, Context& ctx) {
  if (o.f.slo.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--slo", "an SLO (capacity is goodput under an SLO)", "none",
                                      "e.g. --slo ttft=500ms,tpot=50ms"));
  if (o.by != "rate" && o.by != "concurrency")
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--by", "rate or concurrency", o.by));
  if (o.trials < 1) return fail(ctx, core::make_error(core::ErrorKind::usage, "--trials", "at least 1", std::to_string(o.trials)));
  o.f.rate.reset();
  o.f.concurrency.reset();
  auto plan = bench::plan_run(o.f);
  if (!plan) return fail(ctx, plan.error());
  const bool conc = o.by == "concurrency";
  core::Progress progress("capacity");
  std::optional<core::Error> run_error;
  auto trial = [&](double load, int t) {
    bench::TrialResult tr;
    bench::RunPlan p = *plan;
    auto st = conc ? bench::set_load(p, std::nullopt, static_cast<int64_t>(load), o.f.burstiness, t)
                   : bench::set_load(p, load, std::nullopt, o.f.burstiness, t);
    if (!st) {
      run_error = st.error();
      return tr;
    }
    progress.update(fmt::format("load {:.4g}, trial {}", load, t + 1));
    auto out = bench::execute(p);
    if (!o.f.out.empty()) {
      const std::string dir = fmt::format("{}/{}-{:.6g}-t{}", o.f.out, o.by, load, t);
      if (auto w = bench::write_results(dir, out.summary, out.meta, out.run.records, out.run.scrapes); !w) run_error = w.error();
    }
    tr.attainment_pct = out.summary.goodput.attainment_pct;
    tr.goodput_rps = out.summary.goodput.request_rate;
    tr.ttft_p99_ms = out.summary.ttft_s.p99 * 1e3;
    tr.tpot_p99_ms = out.summary.tpot_s.p99 * 1e3;
    tr.client_bound = out.summary.client_bound;
    return tr;
  };
  bench::CapacityOptions co;
  co.integer_load = conc;
  co.start = o.start;
  co.target_pct = o.target_pct;
  co.trials = o.trials;
  co.rel_precision = o.precision;
  co.max_points = o.max_points;
  auto r = bench::find_capacity(trial, co);
  progress.done();
  if (run_error) return fail(ctx, *run_error);
  const char* unit = conc ? "concurrent requests" : "req/s";
  if (ctx.json) {
    nlohmann::json j;
    j["by"] = o.by;
    j["slo"] = o.f.slo;
    j["target_attainment_pct"] = o.target_pct;
    j["request_set_hash"] = plan->set.hash;
    if (r.capacity) j["capacity"] = *r.capacity;
    else j["capacity"] = nullptr;
    if (r.failing_above) j["failing_above"] = *r.failing_above;
    if (r.knee) j["knee"] = *r.knee;
    j["notes"] = r.notes;
    nlohmann::json curve = nlohmann::json::array();
    for (const auto& p : r.curve)
      curve.push_back({{"load", p.load}, {"trials", p.trials.size()}, {"attainment_pct", p.attainment_mean},
                       {"attainment_ci95", {p.ci_low, p.ci_high}}, {"goodput_rps", p.goodput_rps},
                       {"ttft_p99_ms", p.ttft_p99_ms}, {"tpot_p99_ms", p.tpot_p99_ms}, {"pass", p.pass},
                       {"stopped_early", p.stopped_early}, {"client_bound", p.client_bound}});
    j["curve"] = curve;
    ctx.out << j.dump(2) << "\n";
  } else {
    if (r.capacity)
      ctx.out << fmt::format("capacity: {:.4g} {} meet {} for >= {:g}% of requests{}\n", *r.capacity, unit, o.f.slo,
                             o.target_pct, r.failing_above ? fmt::format(" ({:.4g} does not)", *r.failing_above) : "");
    else
      ctx.out << fmt::format("capacity: no load tried meets {} for {:g}% of requests\n", o.f.slo, o.target_pct);
    if (r.knee) ctx.out << fmt::format("knee: goodput peaks at load {:.4g}\n", *r.knee);
    ctx.out << fmt::format("  {:>10}  {:>6}  {:>18}  {:>12}  {:>12}  {:>12}\n", "load", "trials", "attainment % (95% CI)",
                           "goodput/s", "p99 ttft ms", "p99 tpot ms");
    for (const auto& p : r.curve)
      ctx.out << fmt::format("  {:>10.4g}  {:>6}  {:>6.1f} [{:>5.1f},{:>5.1f}]  {:>12.4g}  {:>12.1f}  {:>12.2f}  {}{}{}\n", p.load,
                             p.trials.size(), p.attainment_mean, p.ci_low, p.ci_high, p.goodput_rps, p.ttft_p99_ms,
                             p.tpot_p99_ms, p.pass ? "pass" : "FAIL", p.stopped_early ? " (over-saturated: stopped early)" : "",
                             p.client_bound ? " CLIENT-BOUND" : "");
    for (const auto& n : r.notes) ctx.out << "  note: " << n << "\n";
  }
  return r.capacity ? core::kExitHealthy : core::kExitFindings;
}

}  // namespace

Command make_capacity_command() {
  auto o = std::make_shared<CapOpts>();
  Command c;
  c.path = "capacity";
  c.summary = "Find the largest rate or concurrency whose goodput meets an SLO (curve, knee, CIs)";
  c.example =
      "llmtriage capacity --endpoint http://127.0.0.1:8000 --model m --input-len 512 --output-len 128 "
      "--num-requests 200 --slo ttft=500ms,tpot=50ms --by rate --start 2 --trials 3";
  auto& f = o->f;
  c.options = {
      {"--endpoint", "LLMTRIAGE_ENDPOINT", "base URL of the server (http:// or https://)", &f.endpoint, "", true},
      {"--model", "LLMTRIAGE_MODEL", "model name to send", &f.model, "", true},
      {"--slo", "", "the SLO goodput is judged by, e.g. ttft=500ms,tpot=50ms,e2e=10s", &f.slo},
      {"--by", "", "rate (open loop, req/s) or concurrency (closed loop)", &o->by},
      {"--start", "", "first load tried (bracketing doubles or halves from here)", &o->start},
      {"--target", "", "attainment % a load must reach to pass", &o->target_pct},
      {"--trials", "", "runs per load (the attainment CI is over these)", &o->trials},
      {"--precision", "", "stop when the failing load is within this fraction of the passing one", &o->precision},
      {"--max-points", "", "most loads tried", &o->max_points},
      {"--api", "", "completions or chat", &f.api},
      {"--dataset", "", "random, prefix, sharegpt, jsonl", &f.dataset},
      {"--dataset-path", "", "file for --dataset sharegpt|jsonl", &f.dataset_path},
      {"--input-len", "", "prompt tokens per request", &f.input_len},
      {"--output-len", "", "output tokens per request (pinned)", &f.output_len},
      {"--num-requests", "", "requests per trial (warm-up included)", &f.num_requests},
      {"--warmup", "", "warm-up requests per trial, left out of the statistics", &f.warmup},
      {"--burstiness", "", "gamma shape of inter-arrivals (1 = Poisson)", &f.burstiness},
      {"--max-concurrency", "", "cap in-flight requests of rate trials", &f.max_concurrency},
      {"--seed", "", "seed of the request set and schedules", &f.seed},
      {"--deadline", "", "seconds per trial before it is stopped", &f.deadline_s},
      {"--request-timeout", "", "seconds without a byte before a request fails", &f.request_timeout_s},
      {"--scrape-interval", "", "seconds between /metrics scrapes in a trial (0 = none)", &f.scrape_interval_s},
      {"--api-key-file", "", "file holding the bearer token (default: $OPENAI_API_KEY)", &f.api_key_file},
      {"--out", "", "folder: one bench result folder per trial", &f.out},
  };
  c.run = [o](Context& ctx) { return run_capacity(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
