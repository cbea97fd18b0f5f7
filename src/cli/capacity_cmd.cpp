// `llmtriage capacity`: the largest load whose goodput meets the SLO, by bracketing and bisection
// over real bench trials (src/bench/capacity.h); prints the curve and the knee.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <ostream>

#include "bench/bench_config.h"
#include "bench/capacity.h"
#include "cli/command.h"
#include "cli/report_inputs.h"
#include "cli/version.h"
#include "core/duration.h"
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
  double budget_s = 7200;  // the whole search (--budget); each trial's --deadline is cut to what is left
  bool fail_on_slo = false;
  std::string html;  // --html FILE: the curve as one self-contained page
  std::string svg;   // --svg DIR: the curve as a standalone SVG
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Why nothing completed: the first request's error ("connection_refused: connect ... refused").
std::string first_failure(const bench::RunOutput& out) {
  for (const auto& r : out.run.records)
    if (!r.error_detail.empty()) return r.error_category + ": " + r.error_detail;
  return out.summary.errors_by_category.empty() ? "no response" : out.summary.errors_by_category.begin()->first;
}

int run_capacity(CapOpts& o, Context& ctx) {
  if (o.f.slo.empty())
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--slo", "an SLO (capacity is goodput under an SLO)", "none",
                                      "e.g. --slo ttft=500ms,tpot=50ms"));
  if (o.by != "rate" && o.by != "concurrency")
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--by", "rate or concurrency", o.by));
  o.f.rate.reset();
  o.f.concurrency.reset();
  auto plan = bench::plan_run(o.f);
  if (!plan) return fail(ctx, plan.error());
  const bool conc = o.by == "concurrency";
  const auto n_requests = static_cast<double>(plan->set.requests.size());
  std::vector<std::string> pre_notes;
  double start = o.start;
  if (conc && start > n_requests) {
    pre_notes.push_back(fmt::format("--start {:g} is above the {:g} requests of a trial: started at {:g}", start, n_requests,
                                    n_requests));
    start = n_requests;
  }
  core::Progress progress("capacity");
  std::optional<core::Error> run_error;
  const auto t0 = std::chrono::steady_clock::now();
  int trials_run = 0;
  double trial_seconds = 0;
  std::set<double> loads;
  std::map<double, std::vector<double>> realized;  // rate searches: the rate each kept trial really sent at
  const char* unit = conc ? "concurrent requests" : "req/s";
  auto trial = [&](double load, int t) {
    bench::TrialResult tr;
    const double left = o.budget_s - seconds_since(t0);
    if (left <= 0) {
      tr.stop = fmt::format("the budget of {} is spent (--budget)", core::format_duration(o.budget_s));
      return tr;
    }
    bench::RunPlan p = *plan;
    auto st = conc ? bench::set_load(p, std::nullopt, static_cast<int64_t>(load), o.f.burstiness, t)
                   : bench::set_load(p, load, std::nullopt, o.f.burstiness, t);
    if (!st) {
      run_error = st.error();
      tr.stop = st.error().message();
      return tr;
    }
    const bool budget_cuts = left < p.runner.deadline_s;
    p.runner.deadline_s = std::min(p.runner.deadline_s, left);
    loads.insert(load);
    progress.update(fmt::format("load {:.4g}, trial {}", load, t + 1));
    const auto ts = std::chrono::steady_clock::now();
    auto out = bench::execute(p);
    const std::string budget_spent = fmt::format("the budget of {} is spent (--budget)", core::format_duration(o.budget_s));
    // A trial the budget cut short measured only the requests that ran before the cut (its
    // realised rate and goodput read low, its attainment is of a subset): it is no point of the
    // curve. The search ends on the loads it measured in full, and says which trial was cut.
    if (budget_cuts && out.run.deadline_hit) {
      tr.stop = budget_spent + fmt::format(" during a trial at load {:.4g} ({} of {} requests completed): that trial is left "
                                           "out, the answer is from the loads measured in full",
                                           load, out.summary.completed, out.summary.measured);
      if (t == 0) loads.erase(load);  // a load with earlier full trials stays on the curve
      return tr;
    }
    if (out.summary.completed == 0 && out.summary.measured > 0) {
      // Nothing completed: no SLO can be judged, and halving the load would only wait longer.
      run_error = core::make_error(core::ErrorKind::network, out.meta.endpoint, "completed requests",
                                   fmt::format("none of {} completed at load {:.4g}", out.summary.measured, load),
                                   first_failure(out));
      tr.stop = "no request completed";
      return tr;
    }
    if (!o.f.out.empty()) {
      const std::string dir = fmt::format("{}/{}-{:.6g}-t{}", o.f.out, o.by, load, t);
      if (auto w = bench::write_results(dir, out.summary, out.meta, out.run.records, out.run.scrapes); !w) {
        run_error = w.error();
        tr.stop = w.error().message();
        return tr;
      }
    }
    tr.attainment_pct = out.summary.goodput.attainment_pct;
    tr.goodput_rps = out.summary.goodput.request_rate;
    tr.ttft_p99_ms = out.summary.ttft_s.p99 * 1e3;
    tr.tpot_p99_ms = out.summary.tpot_s.p99 * 1e3;
    tr.e2e_p99_ms = out.summary.e2e_s.p99 * 1e3;
    tr.e2e_p50_ms = out.summary.e2e_s.p50 * 1e3;
    tr.client_bound = out.summary.client_bound;
    if (!conc) realized[load].push_back(out.summary.realized_rate);
    ++trials_run;
    trial_seconds += seconds_since(ts);
    // One line per trial, on a terminal or not, with an upper bound on what is left.
    const double left_after = std::max(0.0, o.budget_s - seconds_since(t0));
    const int most_left = std::max(0, (o.max_points - static_cast<int>(loads.size())) * o.trials + (o.trials - t - 1));
    const double eta = std::min(left_after, most_left * trial_seconds / trials_run);
    const std::string line = fmt::format(
        "load {:.4g} {}, trial {}/{}: attainment {:.1f}%, p99 TTFT {:.0f} ms, TPOT {:.1f} ms; {} elapsed, "
        "at most {} more trials (ETA <= {}, budget {})",
        load, unit, t + 1, o.trials, tr.attainment_pct, tr.ttft_p99_ms, tr.tpot_p99_ms,
        core::format_duration(std::round(seconds_since(t0))), most_left, core::format_duration(std::round(eta)),
        core::format_duration(o.budget_s));
    if (progress.enabled()) progress.update(line);
    else ctx.err << "capacity: " << line << "\n";
    return tr;
  };
  bench::CapacityOptions co;
  co.integer_load = conc;
  co.start = start;
  co.target_pct = o.target_pct;
  co.trials = o.trials;
  co.rel_precision = o.precision;
  co.max_points = o.max_points;
  // A closed loop cannot hold more requests in flight than a trial sends.
  if (conc) co.max_load = n_requests;
  auto r = bench::find_capacity(trial, co);
  progress.done();
  if (run_error) return fail(ctx, *run_error);
  r.notes.insert(r.notes.begin(), pre_notes.begin(), pre_notes.end());
  if (conc && r.at_max_load)
    r.notes.push_back(fmt::format("{:g} concurrent requests is the most {:g} requests per trial can exercise: higher "
                                  "concurrency was not tried (raise --num-requests to try it)",
                                  n_requests, n_requests));
  for (auto& n : bench::slo_floor_notes(r, plan->summary.slo)) r.notes.push_back("out of reach: " + n);
  bool client_bound = false;
  for (const auto& p : r.curve) client_bound = client_bound || p.client_bound;
  // The page first: when it cannot be written the curve is still shown, and with --json as one
  // document carrying the error.
  std::optional<core::Error> html_error;
  if (!o.html.empty() || !o.svg.empty()) {
    report::HtmlReport h;
    h.title = "llmtriage capacity: " + o.f.endpoint + " (" + o.f.model + ")";
    h.generated_by = "llmtriage " + version_string();
    h.sources.push_back(o.f.endpoint);
    report::CapacityPicture& cp = h.capacity.emplace();
    cp.by = o.by;
    cp.unit = unit;
    cp.slo = o.f.slo;
    if (plan->summary.slo.ttft_s) cp.ttft_slo_ms = *plan->summary.slo.ttft_s * 1e3;
    if (plan->summary.slo.tpot_s) cp.tpot_slo_ms = *plan->summary.slo.tpot_s * 1e3;
    cp.target_pct = o.target_pct;
    cp.capacity = r.capacity;
    cp.failing_above = r.failing_above;
    cp.knee = r.knee;
    cp.at_max_load = r.at_max_load;
    cp.out_of_reach = r.out_of_reach;
    cp.notes = r.notes;
    for (const auto& p : r.curve) {
      report::CapacityPicture::Point q{p.load, static_cast<int>(p.trials.size()), p.attainment_mean, p.ci_low, p.ci_high,
                                       p.goodput_rps, p.ttft_p99_ms, p.tpot_p99_ms, p.e2e_p99_ms, std::nullopt,
                                       p.pass, p.stopped_early, p.client_bound};
      if (auto it = realized.find(p.load); it != realized.end() && !it->second.empty()) {  // mean over its trials
        double sum = 0;
        for (double v : it->second) sum += v;
        q.realized_load = sum / static_cast<double>(it->second.size());
      }
      cp.curve.push_back(q);
    }
    html_error = write_pictures(ctx.err, "capacity", o.html, o.svg, h);
  }
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
    j["at_max_load"] = r.at_max_load;
    j["out_of_reach"] = r.out_of_reach;
    if (!r.stopped.empty()) j["stopped"] = r.stopped;
    j["elapsed_s"] = seconds_since(t0);
    j["budget_s"] = o.budget_s;
    j["notes"] = r.notes;
    nlohmann::json curve = nlohmann::json::array();
    for (const auto& p : r.curve)
      curve.push_back({{"load", p.load}, {"trials", p.trials.size()}, {"attainment_pct", p.attainment_mean},
                       {"attainment_ci95", {p.ci_low, p.ci_high}}, {"goodput_rps", p.goodput_rps},
                       {"ttft_p99_ms", p.ttft_p99_ms}, {"tpot_p99_ms", p.tpot_p99_ms}, {"e2e_p99_ms", p.e2e_p99_ms},
                       {"pass", p.pass}, {"stopped_early", p.stopped_early}, {"client_bound", p.client_bound}});
    j["curve"] = curve;
    if (html_error) return fail_with_result(ctx, j, *html_error);
    ctx.out << j.dump(2) << "\n";
  } else {
    if (r.capacity)
      ctx.out << fmt::format("capacity: {}{:.4g} {} meet {} for >= {:g}% of requests{}\n", r.at_max_load ? "at least " : "",
                             *r.capacity, unit, o.f.slo, o.target_pct,
                             r.failing_above ? fmt::format(" ({:.4g} does not)", *r.failing_above) : "");
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
  if (html_error) return fail(ctx, *html_error);
  // --fail-on-slo: the SLO is not met at the load asked about (--start) or at any load tried.
  if (o.fail_on_slo && (!r.capacity || *r.capacity < start)) return core::kExitFindings;
  if (!r.stopped.empty()) return core::kExitFindings;  // the budget ended the search: the answer is partial
  return client_bound ? core::kExitFindings : core::kExitHealthy;
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
      {"--endpoint URL", "LLMTRIAGE_ENDPOINT", "base URL of the server (http:// or https://)", &f.endpoint, "", true},
      {"--model NAME", "LLMTRIAGE_MODEL", "model name to send", &f.model, "", true},
      {"--slo SLO", "", "the SLO goodput is judged by, e.g. ttft=500ms,tpot=50ms,e2e=10s", &f.slo},
      {"--by NAME", "", "rate (open loop, req/s) or concurrency (closed loop)", &o->by},
      {"--start", "", "first load tried (bracketing doubles or halves from here)", &o->start, "", false, kPositive},
      {"--target", "", "attainment % a load must reach to pass", &o->target_pct, "", false, Bounds{0, true, 100}},
      {"--trials", "", "runs per load (the attainment CI is over these)", &o->trials, "", false, at_least(1)},
      {"--precision", "", "stop when the failing load is within this fraction of the passing one", &o->precision, "", false, kPositive},
      {"--max-points", "", "most loads tried", &o->max_points, "", false, at_least(1)},
      {"--budget DURATION", "", "the whole search stops after this long (each trial's --deadline is cut to what is left)", &o->budget_s, "", false, kPositive},
      {"--fail-on-slo", "", "exit 1 when the SLO is not met at --start (capacity below it) or at any load tried", &o->fail_on_slo},
      {"--api NAME", "", "completions or chat", &f.api},
      {"--dataset NAME", "", "random, prefix, sharegpt, jsonl", &f.dataset},
      {"--dataset-path FILE", "", "file for --dataset sharegpt|jsonl", &f.dataset_path},
      {"--input-len", "", "prompt tokens per request", &f.input_len, "", false, at_least(1)},
      {"--output-len", "", "output tokens per request (pinned)", &f.output_len},
      {"--num-requests", "", "requests per trial (warm-up included)", &f.num_requests, "", false, at_least(1)},
      {"--warmup", "", "warm-up requests per trial, left out of the statistics", &f.warmup},
      {"--burstiness", "", "gamma shape of inter-arrivals (1 = Poisson)", &f.burstiness, "", false, kPositive},
      {"--max-concurrency", "", "cap in-flight requests of rate trials", &f.max_concurrency, "", false, at_least(1)},
      {"--seed", "", "seed of the request set and schedules", &f.seed},
      {"--deadline DURATION", "", "how long one trial may take (cut to what is left of --budget)", &f.deadline_s, "", false, kPositive},
      {"--request-timeout DURATION", "", "time without a byte before a request fails", &f.request_timeout_s, "", false, kPositive},
      {"--scrape-interval DURATION", "", "time between /metrics scrapes in a trial (0 = none)", &f.scrape_interval_s},
      {"--api-key-file FILE", "", "file holding the bearer token (default: $OPENAI_API_KEY)", &f.api_key_file},
      {"--out,-o DIR", "", "folder: one bench result folder per trial", &f.out},
      {"--html FILE", "", "also write the curve as one self-contained HTML page: P99 TTFT/TPOT and goodput against load, the SLO, the answer (docs/report.md)", &o->html},
      {"--svg DIR", "", "also write the curve as a standalone SVG file in DIR (for a ticket)", &o->svg},
  };
  c.run = [o](Context& ctx) { return run_capacity(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
