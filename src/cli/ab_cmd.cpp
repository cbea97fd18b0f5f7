// `llmtriage ab A B`: compare two bench runs (or trials of two configurations) with bootstrap
// confidence intervals, refusing a verdict when the comparison is not one-variable (docs/bench.md).
#include <fmt/format.h>

#include <memory>
#include <ostream>
#include <sstream>

#include "bench/ab.h"
#include "cli/command.h"
#include "core/exit_code.h"

namespace llmtriage::cli {
namespace {

struct AbOpts {
  std::string a, b;
  double load_tolerance = 0.02;
  bool allow_multi = false;
  int iterations = 2000;
  int64_t seed = 0;
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
  if (ctx.json) ctx.out << bench::ab_json(r, *a, *b).dump(2) << "\n";
  else ctx.out << bench::ab_text(r, *a, *b);
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
  };
  c.run = [o](Context& ctx) { return run_ab(*o, ctx); };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
