#include "sim/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "core/quantile.h"

namespace llmtriage::sim {

namespace {

constexpr double kQuantiles[] = {0.10, 0.25, 0.50, 0.75, 0.90};
constexpr double kPenalty = 1e6;          // objective of a configuration that does not simulate
constexpr double kProbe = 0.09531017980;  // ln(1.1): the sensitivity probe, +-10%
constexpr double kWeak = 5e-4;            // objective rise below which a factor is "weakly determined"
constexpr double kResidualWarn = 0.20;    // |relative error| after the fit worth a warning
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double* field(Calibration& c, const std::string& name) {
  if (name == "mbu") return &c.mbu;
  if (name == "mfu") return &c.mfu;
  if (name == "mfu_fp8") return &c.mfu_fp8;
  if (name == "mfu_fp4") return &c.mfu_fp4;
  if (name == "attn_eff") return &c.attn_eff;
  if (name == "layer_fixed_us") return &c.layer_fixed_us;
  if (name == "ar_latency_us") return &c.ar_latency_us;
  if (name == "cpu_step_ms") return &c.cpu_step_ms;
  if (name == "cpu_per_seq_us") return &c.cpu_per_seq_us;
  return nullptr;
}

// The value a factor has in a run: the preset's CPU costs when the calibration leaves them unset.
double effective(const Calibration& c, const EnginePreset& p, const std::string& name) {
  if (name == "cpu_step_ms") return c.cpu_step_ms >= 0 ? c.cpu_step_ms : p.cpu_step_ms;
  if (name == "cpu_per_seq_us") return c.cpu_per_seq_us >= 0 ? c.cpu_per_seq_us : p.cpu_per_seq_us;
  Calibration copy = c;
  return *field(copy, name);
}

// Measured latencies of one replayed request (NaN when the source lacks them), ms.
struct Lat {
  double ttft = kNaN, tpot = kNaN, e2e = kNaN;
};

Lat measured(const core::RequestRecord& r) {
  Lat l;
  if (r.ttft_s && *r.ttft_s >= 0) l.ttft = *r.ttft_s * 1e3;
  std::optional<double> e2e = r.e2e_s;
  if (!e2e && !r.chunk_times_s.empty()) e2e = r.chunk_times_s.back();
  if (e2e && *e2e >= 0) l.e2e = *e2e * 1e3;
  const int64_t out = r.output_tokens.value_or(0);
  if (!std::isnan(l.ttft) && !std::isnan(l.e2e) && out > 1 && l.e2e >= l.ttft) {
    l.tpot = (l.e2e - l.ttft) / static_cast<double>(out - 1);  // the summary's definition
  } else if (!r.itl_s.empty()) {
    double s = 0;
    for (double x : r.itl_s) s += x;
    l.tpot = s / static_cast<double>(r.itl_s.size()) * 1e3;
  }
  return l;
}

// Simulated latencies per client request (index = client id; NaN when it did not finish).
struct SimOut {
  std::vector<Lat> lat;
  size_t unfinished = 0;
  bool livelock = false;
};

core::Result<SimOut> simulate(const SimConfig& base, const Calibration& cal, size_t clients) {
  SimConfig c = base;
  c.calibration = cal;
  auto r = run_simulation(c);
  if (!r.ok()) return r.error();
  SimOut o;
  o.lat.resize(clients);
  o.livelock = r->livelock;
  for (const auto& rec : r->records) {
    // ids are "req-<client>" (no samples: n = 1; no retries: no faults)
    size_t id = 0;
    const char* b = rec.id.data() + 4;
    if (rec.id.rfind("req-", 0) != 0 || std::from_chars(b, rec.id.data() + rec.id.size(), id).ec != std::errc() ||
        id >= clients)
      continue;
    if (rec.status != core::RequestStatus::ok) { ++o.unfinished; continue; }
    o.lat[id] = measured(rec);
  }
  return o;
}

using Getter = double Lat::*;

std::vector<double> column(const std::vector<Lat>& v, Getter g, const std::vector<Lat>* mask = nullptr) {
  std::vector<double> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (mask && std::isnan((*mask)[i].*g)) continue;  // same population as the measured one
    if (!std::isnan(v[i].*g)) out.push_back(v[i].*g);
  }
  std::sort(out.begin(), out.end());
  return out;
}

double q_of(const std::vector<double>& sorted, double q) { return core::quantile_sorted(sorted, q).value_or(kNaN); }

struct Problem {
  std::vector<Lat> meas;   // per client (trace) or per record (closed loop)
  bool matched = true;     // trace replay: sim client i is measured request i
  std::vector<double> mq_ttft, mq_tpot;  // measured quantiles at kQuantiles
  bool has_tpot = true;

  double objective(const SimOut& s) const {
    double sum = 0;
    int n = 0;
    auto add = [&](Getter g, const std::vector<double>& mq) {
      const auto col = column(s.lat, g, matched ? &meas : nullptr);
      for (size_t i = 0; i < std::size(kQuantiles); ++i) {
        const double sim = q_of(col, kQuantiles[i]);
        if (!(sim > 0) || !(mq[i] > 0)) { sum += kPenalty; ++n; continue; }
        const double d = std::log(sim / mq[i]);
        sum += d * d;
        ++n;
      }
    };
    add(&Lat::ttft, mq_ttft);
    if (has_tpot) add(&Lat::tpot, mq_tpot);
    return n ? sum / n : kPenalty;
  }
};

// Nelder-Mead over x (log of each factor), each coordinate projected into [lo, hi].
class Search {
 public:
  Search(std::function<double(const std::vector<double>&)> f, std::vector<double> lo, std::vector<double> hi, int budget)
      : f_(std::move(f)), lo_(std::move(lo)), hi_(std::move(hi)), budget_(budget) {}

  double eval(std::vector<double> x) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::clamp(x[i], lo_[i], hi_[i]);
    auto it = memo_.find(x);
    if (it != memo_.end()) return it->second;
    if (used_ >= budget_) return std::numeric_limits<double>::infinity();
    ++used_;
    const double v = f_(x);
    memo_.emplace(x, v);
    if (v < best_f_) { best_f_ = v; best_ = x; }
    return v;
  }

  // Returns true when it converged (false: the budget ran out first).
  bool run(const std::vector<double>& x0, double step) {
    const size_t n = x0.size();
    std::vector<std::vector<double>> p(n + 1, x0);
    std::vector<double> fv(n + 1);
    for (size_t i = 0; i < n; ++i) {
      p[i + 1][i] += (x0[i] + step <= hi_[i]) ? step : -step;
      p[i + 1][i] = std::clamp(p[i + 1][i], lo_[i], hi_[i]);
    }
    for (size_t i = 0; i <= n; ++i) fv[i] = eval(p[i]);
    while (true) {
      std::vector<size_t> ord(n + 1);
      for (size_t i = 0; i <= n; ++i) ord[i] = i;
      std::stable_sort(ord.begin(), ord.end(), [&](size_t a, size_t b) { return fv[a] < fv[b]; });
      std::vector<std::vector<double>> p2;
      std::vector<double> f2;
      for (size_t i : ord) { p2.push_back(p[i]); f2.push_back(fv[i]); }
      p = std::move(p2);
      fv = std::move(f2);
      double spread = 0;
      for (size_t i = 1; i <= n; ++i)
        for (size_t k = 0; k < n; ++k) spread = std::max(spread, std::fabs(p[i][k] - p[0][k]));
      // Converged: the simplex spans < 0.5% of every factor and its values agree to 0.1% (the
      // objective is piecewise constant at small scales: batches change composition in steps).
      if (spread < 1e-3 || (spread < 5e-3 && fv[n] - fv[0] <= 1e-9 + 1e-3 * std::fabs(fv[0]))) return true;
      if (used_ >= budget_) return false;
      std::vector<double> c(n, 0.0);
      for (size_t i = 0; i < n; ++i)
        for (size_t k = 0; k < n; ++k) c[k] += p[i][k] / static_cast<double>(n);
      auto along = [&](double t) {  // c + t (c - worst)
        std::vector<double> x(n);
        for (size_t k = 0; k < n; ++k) x[k] = std::clamp(c[k] + t * (c[k] - p[n][k]), lo_[k], hi_[k]);
        return x;
      };
      auto xr = along(1.0);
      const double fr = eval(xr);
      if (fr < fv[0]) {
        auto xe = along(2.0);
        const double fe = eval(xe);
        if (fe < fr) { p[n] = xe; fv[n] = fe; } else { p[n] = xr; fv[n] = fr; }
      } else if (fr < fv[n - 1]) {
        p[n] = xr; fv[n] = fr;
      } else {
        auto xc = fr < fv[n] ? along(0.5) : along(-0.5);
        const double fc = eval(xc);
        if (fc < std::min(fr, fv[n])) {
          p[n] = xc; fv[n] = fc;
        } else {
          for (size_t i = 1; i <= n; ++i) {
            for (size_t k = 0; k < n; ++k) p[i][k] = p[0][k] + 0.5 * (p[i][k] - p[0][k]);
            fv[i] = eval(p[i]);
          }
        }
      }
    }
  }

  const std::vector<double>& best() const { return best_; }
  double best_f() const { return best_f_; }
  int used() const { return used_; }
  int budget() const { return budget_; }
  void set_budget(int b) { budget_ = b; }

 private:
  std::function<double(const std::vector<double>&)> f_;
  std::vector<double> lo_, hi_;
  int budget_, used_ = 0;
  std::map<std::vector<double>, double> memo_;
  std::vector<double> best_;
  double best_f_ = std::numeric_limits<double>::infinity();
};

std::string pct(double v) { return fmt::format("{:+.1f}%", v * 100); }

double median_abs(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

core::Error input_error(std::string expected, std::string found, std::string detail = {}) {
  return core::make_error(core::ErrorKind::input, "request records", std::move(expected), std::move(found), std::move(detail));
}

}  // namespace

const std::vector<FitParamInfo>& fit_params() {
  static const std::vector<FitParamInfo> p = {
      {"mbu", 0.05, 0.95, "a fraction of HBM bandwidth; 0.90 is the microbenchmark ceiling"},
      {"mfu", 0.05, 0.95, "a fraction of peak bf16 FLOPs; about 0.80 is the GEMM ceiling"},
      {"mfu_fp8", 0.05, 0.95, "a fraction of peak FP8 FLOPs"},
      {"mfu_fp4", 0.05, 0.95, "a fraction of peak FP4 FLOPs"},
      {"attn_eff", 0.05, 0.95, "a fraction of peak bf16 FLOPs in attention kernels"},
      {"layer_fixed_us", 1.0, 1000.0, "per-layer fixed cost per step, 1 us to 1 ms"},
      {"ar_latency_us", 1.0, 500.0, "one all-reduce's latency, 1 to 500 us"},
      {"cpu_step_ms", 0.01, 50.0, "per-step CPU time, 10 us to 50 ms"},
      {"cpu_per_seq_us", 0.1, 200.0, "per-sequence CPU time per step, 0.1 to 200 us"},
  };
  return p;
}

core::Result<std::vector<std::string>> parse_fit_list(const std::string& csv) {
  std::vector<std::string> out;
  std::string valid;
  for (const auto& p : fit_params()) valid += (valid.empty() ? "" : ", ") + p.name;
  size_t i = 0;
  while (i <= csv.size()) {
    size_t j = csv.find(',', i);
    if (j == std::string::npos) j = csv.size();
    std::string name = csv.substr(i, j - i);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    i = j + 1;
    if (name.empty()) continue;
    if (!std::any_of(fit_params().begin(), fit_params().end(), [&](const auto& p) { return p.name == name; }))
      return core::make_error(core::ErrorKind::usage, "--fit", "factor names among: " + valid, "'" + name + "'");
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  if (out.empty()) return core::make_error(core::ErrorKind::usage, "--fit", "at least one of: " + valid, "'" + csv + "'");
  return out;
}

nlohmann::json CalibrateResult::calibration_json() const {
  const Calibration& c = fitted;
  nlohmann::json j = start_json.is_object() ? start_json : nlohmann::json::object();
  j.update(c.to_json());
  nlohmann::json fit = nlohmann::json::array();
  for (const auto& p : params) fit.push_back(p.name);
  j["_fitted"] = fit;
  j["source"] = fmt::format("llmtriage sim calibrate: {} ({} records, {} simulations, objective {:.4g} -> {:.4g})", replay,
                            records_used, simulations, objective_before, objective_after);
  return j;
}

nlohmann::json CalibrateResult::to_json() const {
  nlohmann::json j;
  j["calibration"] = calibration_json();
  nlohmann::json ps = nlohmann::json::array();
  for (const auto& p : params)
    ps.push_back({{"name", p.name}, {"start", p.start}, {"fitted", p.value}, {"lo", p.lo}, {"hi", p.hi},
                  {"at_bound", p.at_bound}, {"sensitivity", p.sensitivity}});
  j["fitted"] = ps;
  j["objective"] = {{"definition", "mean of ln(sim/measured)^2 over TTFT and TPOT at p10, p25, p50, p75, p90"},
                    {"before", objective_before}, {"after", objective_after}};
  nlohmann::json ms = nlohmann::json::array();
  for (const auto& m : metrics)
    ms.push_back({{"metric", m.metric}, {"measured", m.measured}, {"simulated_before", m.before},
                  {"simulated_after", m.after}, {"error_before", m.err_before()}, {"error_after", m.err_after()}});
  j["metrics"] = ms;
  nlohmann::json pr = nlohmann::json::array();
  for (const auto& e : per_request)
    pr.push_back({{"metric", e.metric}, {"matched", e.matched}, {"median_abs_error_before", e.before},
                  {"median_abs_error_after", e.after}});
  j["per_request"] = pr;
  j["simulations"] = simulations;
  j["records"] = {{"total", records_total}, {"used", records_used}, {"with_ttft", records_with_ttft},
                  {"with_tpot", records_with_tpot}};
  j["replay"] = replay;
  j["warnings"] = warnings;
  return j;
}

core::Result<CalibrateResult> calibrate(const std::vector<core::RequestRecord>& records, const SimConfig& base,
                                        const CalibrateOptions& opt) {
  const std::string src = opt.source_format.empty() ? "these" : "the " + opt.source_format;
  if (records.empty()) return input_error("at least one request record", "none");
  if (opt.max_simulations < 2)
    return core::make_error(core::ErrorKind::usage, "--max-simulations", "at least 2", std::to_string(opt.max_simulations));
  Calibration probe;
  for (const auto& name : opt.fit)
    if (!field(probe, name)) {
      auto l = parse_fit_list(name);
      return l.ok() ? core::make_error(core::ErrorKind::usage, "--fit", "a fit factor", name) : l.error();
    }
  if (opt.fit.empty()) return parse_fit_list("").error();

  // Usable records: finished, with both token counts (the replay needs them).
  std::vector<const core::RequestRecord*> use;
  size_t failed = 0, no_in = 0, no_out = 0, fanned = 0;
  for (const auto& r : records) {
    if (r.status != core::RequestStatus::ok) { ++failed; continue; }
    if (!r.input_tokens || *r.input_tokens <= 0) { ++no_in; continue; }
    if (!r.output_tokens || *r.output_tokens <= 0) { ++no_out; continue; }
    if (r.n && *r.n > 1) ++fanned;
    use.push_back(&r);
  }
  if (use.empty()) {
    std::string missing;
    if (no_in) missing += "input_tokens";
    if (no_out) missing += std::string(missing.empty() ? "" : " and ") + "output_tokens";
    return input_error("finished requests (status ok) with input_tokens and output_tokens, to replay",
                       fmt::format("{} records: {} failed, {} without input_tokens, {} without (or with 0) output_tokens",
                                   records.size(), failed, no_in, no_out),
                       missing.empty() ? "" : src + " records lack " + missing +
                           "; gateway logs (nginx, envoy) carry no token counts: use the benchmark client's records");
  }
  if (!opt.arrivals_known && opt.concurrency <= 0)
    return core::make_error(core::ErrorKind::usage, "--concurrency",
                            "the benchmark's concurrency (the source has no arrival times to replay)",
                            "no --concurrency", src + " records have no arrival times: pass --concurrency N to replay "
                            "them closed-loop at N requests in flight (vllm bench serve --max-concurrency)");

  CalibrateResult res;
  res.start_json = opt.start_json;
  res.records_total = records.size();
  res.records_used = use.size();
  Problem pb;
  pb.matched = opt.arrivals_known;
  SimConfig cfg = base;
  cfg.faults.clear();
  cfg.keep_log = false;
  cfg.keep_samples = false;
  cfg.keep_token_times = 0;
  auto& w = cfg.workload;
  w = WorkloadSpec{};
  w.n = 1;
  w.ignore_eos = true;
  if (opt.arrivals_known) {
    // Send time when the client recorded it (the server saw the request then), else arrival.
    auto t_of = [](const core::RequestRecord* r) { return r->send_s.value_or(r->arrival_s); };
    std::stable_sort(use.begin(), use.end(), [&](auto* a, auto* b) { return t_of(a) < t_of(b); });
    w.arrival = ArrivalKind::trace;
    w.trace.reserve(use.size());
    for (const auto* r : use) {
      core::RequestRecord t;
      t.id = r->id;
      t.arrival_s = t_of(r);
      t.input_tokens = r->input_tokens;
      t.output_tokens = r->output_tokens;
      if (r->max_tokens && *r->max_tokens >= *r->output_tokens) t.max_tokens = r->max_tokens;
      w.trace.push_back(std::move(t));
    }
    const double span = t_of(use.back()) - t_of(use.front());
    res.replay = fmt::format("trace replay of {} requests over {:.1f} s", use.size(), span);
  } else {
    std::vector<core::RequestRecord> lens;
    for (const auto* r : use) lens.push_back(*r);
    w.arrival = ArrivalKind::closed_loop;
    w.concurrency = opt.concurrency;
    w.num_requests = static_cast<int64_t>(use.size());
    w.input = empirical_from_records(lens, true);
    w.output = empirical_from_records(lens, false);
    res.replay = fmt::format("closed-loop replay of {} requests at concurrency {} (lengths drawn from the records)",
                             use.size(), opt.concurrency);
    res.warnings.push_back(src + " records have no arrival times: replayed closed-loop at concurrency " +
                           std::to_string(opt.concurrency) + "; only distributions are compared, not request by request");
  }
  for (const auto* r : use) pb.meas.push_back(measured(*r));
  for (const auto& l : pb.meas) {
    if (!std::isnan(l.ttft)) ++res.records_with_ttft;
    if (!std::isnan(l.tpot)) ++res.records_with_tpot;
  }
  if (res.records_with_ttft == 0)
    return input_error("a measured time to first token (ttft_s) in the records", fmt::format("none in {} usable records", use.size()),
                       src + " source does not record it; streaming benchmarks do (vllm bench serve, sglang bench_serving, "
                       "genai-perf, llmtriage bench)");
  if (res.records_with_tpot == 0)
    return input_error("a measured time per output token: e2e_s (or chunk_times_s, or itl_s) with output_tokens > 1",
                       fmt::format("none in {} usable records", use.size()),
                       src + " records lack e2e_s, chunk_times_s and itl_s, or every request produced one token");
  const auto mt = column(pb.meas, &Lat::ttft), mp = column(pb.meas, &Lat::tpot), me = column(pb.meas, &Lat::e2e);
  for (double q : kQuantiles) { pb.mq_ttft.push_back(q_of(mt, q)); pb.mq_tpot.push_back(q_of(mp, q)); }
  if (!(pb.mq_ttft.front() > 0) || !(pb.mq_tpot.front() > 0))
    return input_error("positive measured TTFT and TPOT", "zero latencies at the 10th percentile",
                       "check the time units of the source (a column map factor such as ms*0.001)");

  // The search, in log space of each factor.
  const size_t n = opt.fit.size();
  std::vector<double> x0(n), lo(n), hi(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& info = *std::find_if(fit_params().begin(), fit_params().end(), [&](auto& p) { return p.name == opt.fit[i]; });
    lo[i] = std::log(info.lo);
    hi[i] = std::log(info.hi);
    x0[i] = std::clamp(std::log(effective(base.calibration, base.preset, info.name)), lo[i], hi[i]);
  }
  auto cal_at = [&](const std::vector<double>& x) {
    Calibration c = base.calibration;
    for (size_t i = 0; i < n; ++i) *field(c, opt.fit[i]) = std::exp(x[i]);
    return c;
  };
  SimOut best_out, last_out;
  double best_seen = std::numeric_limits<double>::infinity();
  std::optional<core::Error> first_error;
  int sims = 0;
  Search search(
      [&](const std::vector<double>& x) {
        ++sims;
        auto s = simulate(cfg, cal_at(x), pb.meas.size());
        double f = kPenalty;
        if (!s.ok()) {
          if (!first_error) first_error = s.error();
          last_out = SimOut{};
        } else {
          if (!s->livelock) f = pb.objective(*s);
          last_out = std::move(*s);
          if (f < best_seen) { best_seen = f; best_out = last_out; }
        }
        if (opt.on_progress) opt.on_progress(sims, opt.max_simulations, best_seen);
        return f;
      },
      lo, hi, std::max<int>(static_cast<int>(n) + 2, opt.max_simulations - 2 * static_cast<int>(n)));
  res.objective_before = search.eval(x0);
  const SimOut start_out = last_out;
  if (first_error) return *first_error;
  if (start_out.livelock)
    return core::make_error(core::ErrorKind::input, "simulation", "a replay that runs to the end",
                            "a livelock with the starting calibration", "check --max-num-seqs, --kv-cache-tokens and --max-model-len");
  bool converged = search.run(x0, std::log(1.5));
  for (int restart = 0; restart < 2 && converged && search.used() + static_cast<int>(n) + 1 < search.budget(); ++restart) {
    const double prev = search.best_f();
    converged = search.run(search.best(), std::log(1.2));
    if (search.best_f() >= prev - 1e-9) break;
  }
  if (!converged)
    res.warnings.push_back(fmt::format("the search stopped at its budget of {} simulations before converging; "
                                       "raise --max-simulations", opt.max_simulations));
  // A factor that ended near a bound is tried on it (projection only approaches it).
  for (size_t i = 0; i < n; ++i) {
    for (double b : {lo[i], hi[i]}) {
      if (std::fabs(search.best()[i] - b) >= 0.02 || search.best()[i] == b) continue;
      auto x = search.best();
      x[i] = b;
      search.eval(x);
    }
  }
  // Sensitivity: the objective rise when one factor alone moves +-10% from the fit.
  const std::vector<double> xs = search.best();
  const double fs = search.best_f();
  search.set_budget(opt.max_simulations);
  res.start = base.calibration;
  for (size_t i = 0; i < n; ++i) {
    FittedParam p;
    p.name = opt.fit[i];
    p.start = std::exp(x0[i]);
    p.value = std::exp(xs[i]);
    p.lo = std::exp(lo[i]);
    p.hi = std::exp(hi[i]);
    p.at_bound = xs[i] - lo[i] < 0.01 || hi[i] - xs[i] < 0.01;  // within 1%
    double rise = 0;
    int sides = 0;
    for (double d : {kProbe, -kProbe}) {
      auto x = xs;
      x[i] = std::clamp(x[i] + d, lo[i], hi[i]);
      if (x[i] == xs[i]) continue;
      const double f = search.eval(x);
      if (std::isinf(f)) continue;  // budget spent
      rise += f - fs;
      ++sides;
    }
    p.sensitivity = sides ? rise / sides : kNaN;
    res.params.push_back(p);
  }
  // A probe may have found a better point: the fit is the best point seen.
  // Written to 6 significant digits (exp(log(50)) is not 50; the objective cannot tell them apart).
  const std::vector<double> xb = search.best();
  res.fitted = base.calibration;
  for (size_t i = 0; i < n; ++i) {
    const double v = std::exp(xb[i]);
    const double scale = std::pow(10.0, 5 - std::floor(std::log10(v)));
    res.params[i].value = std::round(v * scale) / scale;
    *field(res.fitted, opt.fit[i]) = res.params[i].value;
  }
  res.objective_after = search.best_f();
  res.simulations = sims;

  // Before / after, per metric.
  const std::vector<Lat>* mask = pb.matched ? &pb.meas : nullptr;
  for (auto [name, g, mcol] : {std::tuple{"ttft_ms", &Lat::ttft, &mt}, {"tpot_ms", &Lat::tpot, &mp}, {"e2e_ms", &Lat::e2e, &me}}) {
    if (mcol->empty()) continue;
    const auto b = column(start_out.lat, g, mask), a = column(best_out.lat, g, mask);
    for (auto [qn, q] : {std::pair{"p50", 0.5}, {"p90", 0.9}})
      res.metrics.push_back({std::string(name) + "." + qn, q_of(*mcol, q), q_of(b, q), q_of(a, q)});
    if (!pb.matched) continue;
    PerRequestError e;
    e.metric = std::string(name).substr(0, std::string(name).size() - 3);  // "ttft_ms" -> "ttft"
    std::vector<double> eb, ea;
    for (size_t i = 0; i < pb.meas.size(); ++i) {
      const double m = pb.meas[i].*g;
      if (std::isnan(m) || !(m > 0)) continue;
      if (!std::isnan(start_out.lat[i].*g)) eb.push_back(std::fabs(start_out.lat[i].*g - m) / m);
      if (!std::isnan(best_out.lat[i].*g)) ea.push_back(std::fabs(best_out.lat[i].*g - m) / m);
    }
    e.matched = ea.size();
    e.before = median_abs(eb);
    e.after = median_abs(ea);
    res.per_request.push_back(e);
  }

  // Honesty about what the fit rests on.
  if (use.size() < opt.min_records)
    res.warnings.push_back(fmt::format("only {} usable records (fewer than {}): the p90 rests on {} requests, so the fit "
                                       "is uncertain; calibrate on a run of a few hundred requests or more",
                                       use.size(), opt.min_records, use.size() / 10));
  if (failed + no_in + no_out)
    res.warnings.push_back(fmt::format("{} of {} records not replayed ({} failed, {} without input_tokens, {} without "
                                       "output_tokens): the real server also carried their load", failed + no_in + no_out,
                                       records.size(), failed, no_in, no_out));
  if (fanned)
    res.warnings.push_back(fmt::format("{} records asked for n > 1 samples; replayed as one sequence each", fanned));
  if (best_out.unfinished)
    res.warnings.push_back(fmt::format("{} of {} replayed requests did not finish in the simulation (rejected for "
                                       "max_model_len or unfinished): check --max-model-len and the KV pool flags",
                                       best_out.unfinished, use.size()));
  for (const auto& p : res.params) {
    const auto& info = *std::find_if(fit_params().begin(), fit_params().end(), [&](auto& q) { return q.name == p.name; });
    if (p.at_bound)
      res.warnings.push_back(fmt::format("{} ended at its {} bound {:g} ({}): physical values cannot reproduce the run; "
                                         "check that the deployment flags (--model, --gpu, --tp, --engine, --max-num-seqs) "
                                         "match it, or the run had costs the model lacks", p.name,
                                         std::log(p.value) - std::log(p.lo) < 0.01 ? "lower" : "upper",
                                         std::log(p.value) - std::log(p.lo) < 0.01 ? p.lo : p.hi, info.why));
    else if (!std::isnan(p.sensitivity) && p.sensitivity < kWeak)
      res.warnings.push_back(fmt::format("{} is weakly determined (moving it 10% changes the objective by {:.2g}): the "
                                         "records hardly constrain it; fit fewer factors or use a run with more varied "
                                         "load", p.name, p.sensitivity));
  }
  for (const auto& m : res.metrics)
    if (std::fabs(m.err_after()) > kResidualWarn)
      res.warnings.push_back(fmt::format("{} is still off by {} after the fit: the cost model with these factors does not "
                                         "explain this run (other traffic on the server, prefix-cache hits, speculative "
                                         "decoding, a different engine version)", m.metric, pct(m.err_after())));
  return res;
}

}  // namespace llmtriage::sim
