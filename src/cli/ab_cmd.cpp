// `llmtriage ab A B`: compare two bench runs (or trials of two configurations) with bootstrap
// confidence intervals, refusing a verdict when the comparison is not one-variable (docs/bench.md).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "bench/ab.h"
#include "cli/command.h"
#include "cli/report_inputs.h"
#include "core/exit_code.h"

namespace llmtriage::cli {
namespace {

struct AbOpts {
  std::string a, b;
  double load_tolerance = 0.02;
  bool allow_multi = false;
  int iterations = 2000;
  int64_t seed = 0;
  std::string html;  // --html FILE: the delta board, both runs' latency CDFs and B's timeline as one page
  std::string svg;   // --svg DIR: each of those charts as a standalone SVG
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) v.push_back(x);
  return v;
}

int run_ab(AbOpts& o, Context& ctx) {
  // Each side names at least one bench folder: "," or "" is nothing to compare (it used to print
  // an A/B of 0 trials, exit 0).
  for (const auto& [name, value] : {std::pair<const char*, const std::string*>{"A", &o.a}, {"B", &o.b}})
    if (split(*value).empty())
      return fail(ctx, core::make_error(core::ErrorKind::usage, name, "a `bench --out` folder (or comma-separated trials)",
                                        "'" + *value + "'"));
  auto a = bench::load_run_sample(split(o.a));
  if (!a) return fail(ctx, a.error());
  auto b = bench::load_run_sample(split(o.b));
  if (!b) return fail(ctx, b.error());
  if (!(o.load_tolerance >= 0))
    return fail(ctx, core::make_error(core::ErrorKind::usage, "--load-tolerance", "a fraction >= 0", fmt::format("{}", o.load_tolerance)));
  bench::AbOptions ao;
  ao.load_tolerance = o.load_tolerance;
  ao.allow_multi = o.allow_multi;
  ao.iterations = std::max(100, o.iterations);
  ao.seed = static_cast<uint64_t>(o.seed);
  auto r = bench::compare_runs(*a, *b, ao);
  if (o.allow_multi && r.config_diff.size() > 1)
    ctx.err << "llmtriage ab: WARNING: --allow-multi: the configurations differ in " << r.config_diff.size()
            << " variables; the verdicts cannot be attributed to any one of them\n";
  // The page first: when it cannot be written the comparison is still shown, and with --json as
  // one document carrying the error.
  std::optional<core::Error> html_error;
  if (!o.html.empty() || !o.svg.empty()) {
    // The first trial of each side, A as the baseline: their CDFs on one chart, B's scrapes as
    // the timeline (docs/report.md); above them the delta board of every metric.
    auto h = load_report_inputs({split(o.a).front(), split(o.b).front()}, std::nullopt);
    if (!h) html_error = h.error();
    else {
      h->title = "llmtriage ab: " + o.a + " vs " + o.b;
      h->ab = delta_board(r, ao);
      if (split(o.a).size() > 1 || split(o.b).size() > 1)
        h->notes.push_back("the CDFs and the timeline draw the first trial of each side; the A/B board pools every trial");
      html_error = write_pictures(ctx.err, "ab", o.html, o.svg, *h);
    }
  }
  if (ctx.json) {
    if (html_error) return fail_with_result(ctx, bench::ab_json(r, *a, *b), *html_error);
    ctx.out << bench::ab_json(r, *a, *b).dump(2) << "\n";
  } else {
    ctx.out << bench::ab_text(r, *a, *b);
  }
  if (html_error) return fail(ctx, *html_error);
  if (!r.verdict_given) return core::kExitFindings;
  for (const auto& m : r.metrics)
    if (m.verdict == "worse") return core::kExitFindings;
  return core::kExitHealthy;
}

}  // namespace

Command make_ab_command() {
  auto o = std::make_shared<AbOpts>();
  Command c;
  c.path = "ab";
  c.summary = "Compare two bench runs: bootstrap CIs per metric, no verdict unless one variable changed";
  c.example = "llmtriage ab runs/baseline runs/max-num-seqs-128   # trials: runs/a1,runs/a2 runs/b1,runs/b2";
  c.options = {
      {"A DIR", "", "baseline: a `bench --out` folder, or several comma-separated (trials of one configuration)", &o->a, "", true},
      {"B DIR", "", "candidate: the same for the changed configuration", &o->b, "", true},
      {"--load-tolerance", "", "largest relative difference of realized rate that still compares", &o->load_tolerance},
      {"--allow-multi", "", "give verdicts even when the configs differ in more than one variable (warned)", &o->allow_multi},
      {"--bootstrap-iterations", "", "bootstrap resamples per metric", &o->iterations, "", false, at_least(1)},
      {"--seed", "", "seed of the bootstrap (same seed, same intervals)", &o->seed},
      {"--html FILE", "", "also write the comparison as one self-contained HTML page: the delta board (B - A per metric with its interval), latency CDFs of A (baseline) and B, B's server timeline (docs/report.md)", &o->html},
      {"--svg DIR", "", "also write each chart (delta board, CDFs, timeline lanes) as a standalone SVG file in DIR", &o->svg},
  };
  c.run = [o](Context& ctx) { return run_ab(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
