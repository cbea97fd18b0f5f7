// Indicators from the metrics timeline (engine samples) and GPU telemetry (docs/rules.md,
// "Derived indicators"). Gauges are averaged per engine series then over series (a replica's
// queue is what its scheduler sees); counters become increases and rates per series (a counter
// that goes down restarted: counting resumes from zero, as PromQL's rate() does) and are summed
// over series (service-wide); histogram percentiles come from last - first of the window.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <set>

#include "core/quantile.h"
#include "diagnose/indicators_detail.h"
#include "ingest/metrics_quantile.h"

namespace llmtriage::diagnose {

namespace {

using core::EngineSample;
using Series = std::vector<const EngineSample*>;
using Getter = std::function<std::optional<double>(const EngineSample&)>;

struct Increase {
  double total = 0;  // counted increase over the window, resets counted from zero
  double rate = 0;   // summed over series: total / window per series
  int series = 0;    // series that had two readings over a positive time span
  int resets = 0;
};

Increase increase(const std::vector<Series>& all, const Getter& get) {
  Increase r;
  for (const Series& s : all) {
    std::optional<double> prev;
    double t0 = 0, t1 = 0, inc = 0;
    int n = 0;
    for (const EngineSample* e : s) {
      auto v = get(*e);
      if (!v || !std::isfinite(*v)) continue;
      if (n == 0) t0 = e->t_s;
      t1 = e->t_s;
      if (prev) {
        if (*v >= *prev) {
          inc += *v - *prev;
        } else {
          inc += *v;  // restart: the counter began again from zero
          ++r.resets;
        }
      }
      prev = v;
      ++n;
    }
    if (n >= 2 && t1 > t0) {
      r.total += inc;
      r.rate += inc / (t1 - t0);
      ++r.series;
    }
  }
  return r;
}

struct Gauge {
  std::vector<double> all;
  double mean_of_series = 0;  // per-series mean, averaged over series
  double max = 0;
  double series_sum_of_means = 0;
  int series = 0;
};

Gauge gauge(const std::vector<Series>& all, const Getter& get) {
  Gauge g;
  double acc = 0;
  for (const Series& s : all) {
    double sum = 0;
    int n = 0;
    for (const EngineSample* e : s) {
      auto v = get(*e);
      if (!v || !std::isfinite(*v)) continue;
      g.all.push_back(*v);
      g.max = g.all.size() == 1 ? *v : std::max(g.max, *v);
      sum += *v;
      ++n;
    }
    if (n > 0) {
      acc += sum / n;
      g.series_sum_of_means += sum / n;
      ++g.series;
    }
  }
  if (g.series > 0) g.mean_of_series = acc / g.series;
  return g;
}

// last - first of one series' histogram (the whole histogram when it has one reading).
std::optional<core::Histogram> window_hist(const Series& s, const core::Histogram EngineSample::*field) {
  const EngineSample* first = nullptr;
  const EngineSample* last = nullptr;
  for (const EngineSample* e : s) {
    if ((e->*field).empty()) continue;
    if (!first) first = e;
    last = e;
  }
  if (!last) return std::nullopt;
  if (first == last) return last->*field;
  return ingest::histogram_delta(last->*field, first->*field);
}

std::optional<core::Histogram> merged_hist(const std::vector<Series>& all, const core::Histogram EngineSample::*field) {
  std::optional<core::Histogram> acc;
  for (const Series& s : all) {
    auto h = window_hist(s, field);
    if (!h) continue;
    if (!acc) {
      acc = *h;
    } else if (acc->upper_bounds == h->upper_bounds) {
      for (size_t i = 0; i < h->cumulative_counts.size(); ++i) acc->cumulative_counts[i] += h->cumulative_counts[i];
      acc->sum += h->sum;
      acc->count += h->count;
    }  // NOTE: series with other bucket bounds are left out (engines of another version)
  }
  if (acc && acc->count <= 0) return std::nullopt;
  return acc;
}

std::optional<double> finite(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

void summarize_engine_samples(const std::vector<EngineSample>& samples, IndicatorMap& out) {
  if (samples.empty()) return;
  std::map<std::pair<std::string, std::string>, Series> by_key;
  double t_min = samples.front().t_s, t_max = samples.front().t_s;
  for (const auto& e : samples) {
    by_key[{e.model_name, e.engine_index}].push_back(&e);
    t_min = std::min(t_min, e.t_s);
    t_max = std::max(t_max, e.t_s);
  }
  std::vector<Series> all;
  std::vector<std::string> engine_of;  // all[i]'s data-parallel engine label ("" when none)
  for (auto& [k, s] : by_key) {
    std::stable_sort(s.begin(), s.end(), [](auto* a, auto* b) { return a->t_s < b->t_s; });
    all.push_back(std::move(s));
    engine_of.push_back(k.second);
  }
  const double window = t_max - t_min;
  const std::string src = fmt::format("metrics ({} samples, {} engine series, {:.0f} s)", samples.size(), all.size(), window);
  out["window_s"] = Indicator{window, src};
  // Replicas: distinct data-parallel engine labels (a log's stats lines next to the same engine's
  // metrics are two series of one engine, so unlabeled series do not count).
  std::set<std::string> engines;
  for (const auto& [k, s] : by_key)
    if (!k.second.empty()) engines.insert(k.second);
  if (engines.size() > 1) out["replicas"] = Indicator{static_cast<double>(engines.size()), src + ": engine labels"};

  auto put_gauge = [&](const char* name, const Getter& get, bool with_max, const char* max_name, const char* p50_name) {
    Gauge g = gauge(all, get);
    if (g.all.empty()) return;
    out[name] = Indicator{g.mean_of_series, src + ": mean per engine"};
    if (with_max) out[max_name] = Indicator{g.max, src + ": max"};
    if (p50_name) out[p50_name] = Indicator{*core::quantile(g.all, 0.5), src + ": median"};
  };
  put_gauge("running", [](const EngineSample& e) { return e.running; }, true, "running_max", nullptr);
  put_gauge("waiting", [](const EngineSample& e) { return e.waiting; }, true, "waiting_max", "waiting_p50");
  {
    Gauge kv = gauge(all, [](const EngineSample& e) { return e.kv_usage; });
    if (!kv.all.empty()) {
      double mean = 0;
      for (double v : kv.all) mean += v;
      mean /= static_cast<double>(kv.all.size());
      out["kv_usage"] = Indicator{mean, src + ": mean"};
      out["kv_usage_mean"] = Indicator{mean, src + ": mean"};
      out["kv_usage_max"] = Indicator{kv.max, src + ": max"};
    }
  }

  auto put_counter = [&](const char* total_name, const char* rate_name, const Getter& get, const char* metric) {
    Increase inc = increase(all, get);
    if (inc.series == 0) return false;
    std::string s = fmt::format("{}: {} increase over {:.0f} s", src, metric, window);
    if (inc.resets) s += fmt::format(" ({} counter reset(s) counted from zero)", inc.resets);
    if (total_name) out[total_name] = Indicator{inc.total, s};
    if (rate_name) out[rate_name] = Indicator{inc.rate, s};
    return true;
  };
  put_counter("preemptions_total", "preemptions_per_s", [](const EngineSample& e) { return e.preemptions_total; },
              "preemptions");
  put_counter(nullptr, "request_rate", [](const EngineSample& e) { return e.requests_finished_total; },
              "requests finished");
  {
    // Per finished request: a long window dilutes a rate, not this (0.5 = every other request recomputed).
    Increase p = increase(all, [](const EngineSample& e) { return e.preemptions_total; });
    Increase f = increase(all, [](const EngineSample& e) { return e.requests_finished_total; });
    if (p.series && f.series && f.total > 0)
      out["preemptions_per_request"] = Indicator{p.total / f.total, src + ": preemptions / requests finished"};
  }
  if (!put_counter(nullptr, "output_tokens_per_s", [](const EngineSample& e) { return e.generation_tokens_total; },
                   "generation tokens")) {
    Gauge g = gauge(all, [](const EngineSample& e) { return e.generation_throughput_tok_s; });
    if (g.series) out["output_tokens_per_s"] = Indicator{g.series_sum_of_means, src + ": generation throughput (log stats), summed over engines"};
  }
  // Prompt tokens per second where only a log's stats lines give it (vLLM "Avg prompt throughput").
  if (Gauge g = gauge(all, [](const EngineSample& e) { return e.prompt_throughput_tok_s; }); g.series)
    out["prompt_tokens_per_s"] = Indicator{g.series_sum_of_means, src + ": prompt throughput (log stats), summed over engines"};
  {
    Increase q = increase(all, [](const EngineSample& e) { return e.prefix_cache_queries_total; });
    Increase h = increase(all, [](const EngineSample& e) { return e.prefix_cache_hits_total; });
    if (q.series && q.total > 0) {
      out["prefix_cache_hit_rate"] = Indicator{std::clamp(h.total / q.total, 0.0, 1.0),
                                               src + ": prefix-cache hits / queries (tokens)"};
    } else {
      Gauge g = gauge(all, [](const EngineSample& e) { return e.prefix_cache_hit_rate; });
      if (g.series) out["prefix_cache_hit_rate"] = Indicator{g.mean_of_series, src + ": prefix-cache hit rate, mean"};
    }
  }
  {
    Gauge g = gauge(all, [](const EngineSample& e) { return e.kv_cache_capacity_tokens; });
    if (g.series) {
      out["kv_capacity_tokens_metrics"] = Indicator{g.max, src + ": KV cache capacity"};
      out["kv_capacity_tokens"] = out["kv_capacity_tokens_metrics"];
    }
  }

  auto put_hist = [&](const core::Histogram EngineSample::*field, const char* what, const char* p50, const char* p99,
                      const char* mean) {
    auto h = merged_hist(all, field);
    if (!h) return false;
    std::string s = fmt::format("{}: {} histogram, {:.0f} observations in the window", src, what, h->count);
    if (p50) if (auto v = finite(ingest::histogram_quantile(0.5, *h).value)) out[p50] = Indicator{*v, s};
    if (p99) if (auto v = finite(ingest::histogram_quantile(0.99, *h).value)) out[p99] = Indicator{*v, s};
    if (mean) if (auto v = ingest::histogram_mean(*h)) out[mean] = Indicator{*v, s};
    return true;
  };
  put_hist(&EngineSample::ttft_s, "TTFT", "ttft_p50_s", "ttft_p99_s", nullptr);
  if (!put_hist(&EngineSample::tpot_s, "TPOT", "tpot_p50_s", "tpot_p99_s", nullptr))
    put_hist(&EngineSample::itl_s, "inter-token latency (as TPOT)", "tpot_p50_s", "tpot_p99_s", nullptr);
  // One replica against its peers (data-parallel `engine` labels): the slowest series' TPOT p50
  // and mean running batch, and the median of the others'. A replica that decodes slower at no
  // larger a batch is a slower device (throttled, shared, degraded), whatever the others do.
  {
    struct Rep {
      std::string id;
      double tpot = 0, running = 0;
      std::optional<double> requests, input_len;  // finished in the window, mean prompt (its prompt histogram)
    };
    std::vector<Rep> reps;
    for (size_t i = 0; i < all.size(); ++i) {
      const Series& series = all[i];
      if (engine_of[i].empty()) continue;
      auto h = window_hist(series, &EngineSample::tpot_s);
      if (!h || h->count <= 0) h = window_hist(series, &EngineSample::itl_s);
      if (!h || h->count <= 0) continue;
      auto p50 = finite(ingest::histogram_quantile(0.5, *h).value);
      if (!p50 || *p50 <= 0) continue;
      Gauge g = gauge({series}, [](const EngineSample& e) { return e.running; });
      Rep r{engine_of[i], *p50, g.series ? g.mean_of_series : 0.0, std::nullopt, std::nullopt};
      if (auto ph = window_hist(series, &EngineSample::prompt_tokens); ph && ph->count > 0) {
        r.requests = ph->count;
        r.input_len = ingest::histogram_mean(*ph);
      }
      reps.push_back(std::move(r));
    }
    if (reps.size() >= 2) {
      std::sort(reps.begin(), reps.end(), [](const Rep& a, const Rep& b) { return a.tpot > b.tpot; });
      std::vector<double> others_tpot, others_run, others_req, others_len;
      for (size_t i = 1; i < reps.size(); ++i) {
        others_tpot.push_back(reps[i].tpot);
        others_run.push_back(reps[i].running);
        if (reps[i].requests) others_req.push_back(*reps[i].requests);
        if (reps[i].input_len) others_len.push_back(*reps[i].input_len);
      }
      const std::string rs = fmt::format("{}: per-replica TPOT histograms ({} replicas)", src, reps.size());
      out["replica_tpot_p50_slowest"] = Indicator{reps[0].tpot, rs + ", engine " + reps[0].id};
      out["replica_tpot_p50_others"] = Indicator{core::quantile(others_tpot, 0.5).value_or(0), rs + ": median of the others"};
      out["replica_running_slowest"] = Indicator{reps[0].running, rs + ": mean running, engine " + reps[0].id};
      out["replica_running_others"] = Indicator{core::quantile(others_run, 0.5).value_or(0), rs + ": median of the others' mean running"};
      // What each was given: requests finished and their mean prompt (per-replica prompt histograms).
      const std::string ps = fmt::format("{}: per-replica prompt-length histograms", src);
      if (reps[0].requests && others_req.size() + 1 == reps.size()) {
        out["replica_requests_slowest"] = Indicator{*reps[0].requests, ps + ", engine " + reps[0].id};
        out["replica_requests_others"] = Indicator{*core::quantile(others_req, 0.5), ps + ": median of the others"};
      }
      if (reps[0].input_len && others_len.size() + 1 == reps.size()) {
        out["replica_input_len_slowest"] = Indicator{*reps[0].input_len, ps + ", engine " + reps[0].id};
        out["replica_input_len_others"] = Indicator{*core::quantile(others_len, 0.5), ps + ": median of the others"};
      }
    }
  }
  put_hist(&EngineSample::e2e_s, "E2E", nullptr, "e2e_p99_s", nullptr);
  put_hist(&EngineSample::prompt_tokens, "prompt length", "input_len_p50", "input_len_p99", "input_len_mean");
  // The server's own view of the prompt lengths, kept apart from the records' (which replace
  // input_len_mean): traffic the records do not hold (other clients) shows as a difference.
  if (auto it = out.find("input_len_mean"); it != out.end()) out["server_input_len_mean"] = it->second;
  if (auto h = merged_hist(all, &EngineSample::prompt_tokens); h && h->count > 0)
    out["server_requests"] = Indicator{h->count, src + ": requests the server finished (prompt-length histogram count)"};
  put_hist(&EngineSample::output_tokens, "generation length", "output_len_p50", nullptr, "output_len_mean");
}

void summarize_gpu_samples(const std::vector<core::GpuSample>& samples, IndicatorMap& out) {
  if (samples.empty()) return;
  struct PerGpu {
    double util = 0, power = 0, limit = 0, clock = 0, temp = 0;
    int n_util = 0, n_power = 0, n_limit = 0, n_clock = 0, n_temp = 0;
  };
  std::map<int, PerGpu> g;
  double ratio_sum = 0, clock_ratio_sum = 0, max_clock = 0, mem_max = 0;
  int n_ratio = 0, n_clock_ratio = 0;
  bool any_max_clock = false, any_mem = false, any_reasons = false;
  bool thr_power = false, thr_thermal = false, thr_hw = false;
  for (const auto& s : samples) {
    PerGpu& p = g[s.index];
    if (s.util) { p.util += *s.util; ++p.n_util; }
    if (s.power_w) { p.power += *s.power_w; ++p.n_power; }
    if (s.power_limit_w) { p.limit += *s.power_limit_w; ++p.n_limit; }
    if (s.sm_clock_mhz) { p.clock += *s.sm_clock_mhz; ++p.n_clock; }
    if (s.temp_c) { p.temp += *s.temp_c; ++p.n_temp; }
    if (s.power_w && s.power_limit_w && *s.power_limit_w > 0) { ratio_sum += *s.power_w / *s.power_limit_w; ++n_ratio; }
    if (s.max_sm_clock_mhz) {
      max_clock = std::max(max_clock, *s.max_sm_clock_mhz);
      any_max_clock = true;
      if (s.sm_clock_mhz && *s.max_sm_clock_mhz > 0) { clock_ratio_sum += *s.sm_clock_mhz / *s.max_sm_clock_mhz; ++n_clock_ratio; }
    }
    if (s.mem_used_gib) { mem_max = std::max(mem_max, *s.mem_used_gib); any_mem = true; }
    if (s.throttle_reasons || !s.throttle_names.empty()) any_reasons = true;
    for (const auto& name : s.throttle_names) {
      if (name == "sw_power_cap" || name == "hw_power_brake_slowdown") thr_power = true;
      if (name == "sw_thermal_slowdown" || name == "hw_thermal_slowdown") thr_thermal = true;
      if (name == "hw_slowdown") thr_hw = true;
    }
  }
  const std::string src = fmt::format("GPU telemetry ({} samples, {} GPUs)", samples.size(), g.size());
  auto mean_over = [&](double PerGpu::*sum, int PerGpu::*n, double& lo, double& hi) -> std::optional<double> {
    double acc = 0;
    int k = 0;
    for (auto& [i, p] : g) {
      if (p.*n == 0) continue;
      double m = p.*sum / p.*n;
      lo = k == 0 ? m : std::min(lo, m);
      hi = k == 0 ? m : std::max(hi, m);
      acc += m;
      ++k;
    }
    if (k == 0) return std::nullopt;
    return acc / k;
  };
  double lo = 0, hi = 0;
  if (auto u = mean_over(&PerGpu::util, &PerGpu::n_util, lo, hi)) {
    out["gpu_util"] = Indicator{*u, src + ": mean"};
    out["gpu_util_min"] = Indicator{lo, src + ": lowest per-GPU mean"};
    out["gpu_util_max"] = Indicator{hi, src + ": highest per-GPU mean"};
    out["gpu_util_spread"] = Indicator{hi - lo, src + ": highest - lowest per-GPU mean"};
  }
  if (auto v = mean_over(&PerGpu::power, &PerGpu::n_power, lo, hi)) out["power_w"] = Indicator{*v, src + ": mean per GPU"};
  if (auto v = mean_over(&PerGpu::limit, &PerGpu::n_limit, lo, hi)) out["power_limit_w"] = Indicator{*v, src + ": mean per GPU"};
  if (auto v = mean_over(&PerGpu::clock, &PerGpu::n_clock, lo, hi)) out["sm_clock_mhz"] = Indicator{*v, src + ": mean"};
  if (auto v = mean_over(&PerGpu::temp, &PerGpu::n_temp, lo, hi)) out["temp_c"] = Indicator{hi, src + ": hottest GPU's mean"};
  if (any_max_clock) out["max_sm_clock_mhz"] = Indicator{max_clock, src};
  if (n_ratio) out["power_ratio"] = Indicator{ratio_sum / n_ratio, src + ": power / limit, mean"};
  if (n_clock_ratio) out["clock_ratio"] = Indicator{clock_ratio_sum / n_clock_ratio, src + ": SM clock / max, mean"};
  if (any_mem) out["gpu_mem_used_gib"] = Indicator{mem_max, src + ": max"};
  if (any_reasons) {
    out["throttle_power"] = Indicator{thr_power ? 1.0 : 0.0, src + ": clock event reasons"};
    out["throttle_thermal"] = Indicator{thr_thermal ? 1.0 : 0.0, src + ": clock event reasons"};
    out["throttle_hw"] = Indicator{thr_hw ? 1.0 : 0.0, src + ": clock event reasons"};
  }
}

}  // namespace llmtriage::diagnose
