// Snapshot window statistics: gauges now and at their worst, counter rates (resets handled),
// percentiles over the window from the difference of the first and last histogram.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "collect/snapshot.h"
#include "ingest/metrics_quantile.h"
#include "ingest/metrics_rate.h"

namespace llmtriage::collect {
namespace {

using Points = std::vector<ingest::CounterPoint>;

void add_point(Points& pts, double t, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) pts.push_back({t, *v});
}

std::optional<double> finite(double v) {
  if (std::isfinite(v)) return v;
  return std::nullopt;
}

HistogramStats stats_of(const core::Histogram& first, const core::Histogram& last, bool single) {
  HistogramStats s;
  if (last.empty()) return s;
  bool reset = false;
  core::Histogram d = single ? last : ingest::histogram_delta(last, first, &reset);
  s.since_start = single || reset;
  s.count = d.count;
  s.mean = ingest::histogram_mean(d);
  s.p50 = finite(ingest::histogram_quantile(0.5, d).value);
  s.p90 = finite(ingest::histogram_quantile(0.9, d).value);
  s.p99 = finite(ingest::histogram_quantile(0.99, d).value);
  return s;
}

void max_into(std::optional<double>& m, const std::optional<double>& v) {
  if (v && std::isfinite(*v) && (!m || *v > *m)) m = *v;
}

}  // namespace

void compute_window_stats(Snapshot& snap) {
  snap.window.clear();
  snap.gpus.clear();
  // Samples per (model, engine index) in time order.
  std::map<std::pair<std::string, std::string>, std::vector<const core::EngineSample*>> series;
  for (const auto& sc : snap.scrapes) {
    if (!sc.ok) continue;
    for (const auto& e : sc.engine_samples) series[{e.model_name, e.engine_index}].push_back(&e);
  }
  for (const auto& [key, samples] : series) {
    WindowStats w;
    w.model_name = key.first;
    w.engine_index = key.second;
    w.scrapes = static_cast<int>(samples.size());
    const core::EngineSample& first = *samples.front();
    const core::EngineSample& last = *samples.back();
    w.window_s = last.t_s - first.t_s;
    w.running = last.running;
    w.waiting = last.waiting;
    w.kv_usage = last.kv_usage;
    w.kv_cache_capacity_tokens = last.kv_cache_capacity_tokens;
    w.preemptions_total = last.preemptions_total;
    Points prompt, gen, fin, pre, hits, queries;
    for (const auto* s : samples) {
      max_into(w.running_max, s->running);
      max_into(w.waiting_max, s->waiting);
      max_into(w.kv_usage_max, s->kv_usage);
      add_point(prompt, s->t_s, s->prompt_tokens_total);
      add_point(gen, s->t_s, s->generation_tokens_total);
      add_point(fin, s->t_s, s->requests_finished_total);
      add_point(pre, s->t_s, s->preemptions_total);
      add_point(hits, s->t_s, s->prefix_cache_hits_total);
      add_point(queries, s->t_s, s->prefix_cache_queries_total);
    }
    w.prompt_tok_s = ingest::counter_rate(prompt);
    w.generation_tok_s = ingest::counter_rate(gen);
    w.finished_req_s = ingest::counter_rate(fin);
    w.preemptions_per_s = ingest::counter_rate(pre);
    for (const Points* p : {&prompt, &gen, &fin, &pre})
      if (auto inc = ingest::counter_increase(*p)) w.counter_resets = std::max(w.counter_resets, inc->resets);
    // Engines that give a rate (logs, throughput gauges) fill in where counters are missing.
    if (!w.prompt_tok_s) w.prompt_tok_s = last.prompt_throughput_tok_s;
    if (!w.generation_tok_s) w.generation_tok_s = last.generation_throughput_tok_s;
    // Prefix-cache hit rate over the window = increase(hits) / increase(queries).
    auto ih = ingest::counter_increase(hits);
    auto iq = ingest::counter_increase(queries);
    if (ih && iq && iq->increase > 0) w.prefix_cache_hit_rate = ih->increase / iq->increase;
    else if (samples.size() == 1 && last.prefix_cache_hits_total && last.prefix_cache_queries_total &&
             *last.prefix_cache_queries_total > 0)
      w.prefix_cache_hit_rate = *last.prefix_cache_hits_total / *last.prefix_cache_queries_total;
    else w.prefix_cache_hit_rate = last.prefix_cache_hit_rate;
    bool single = samples.size() == 1;
    w.ttft_s = stats_of(first.ttft_s, last.ttft_s, single);
    w.itl_s = stats_of(first.itl_s, last.itl_s, single);
    w.tpot_s = stats_of(first.tpot_s, last.tpot_s, single);
    w.e2e_s = stats_of(first.e2e_s, last.e2e_s, single);
    w.queue_s = stats_of(first.queue_s, last.queue_s, single);
    w.prompt_tokens = stats_of(first.prompt_tokens, last.prompt_tokens, single);
    w.output_tokens = stats_of(first.output_tokens, last.output_tokens, single);
    snap.window.push_back(std::move(w));
  }

  std::map<int, GpuStats> gpus;
  for (const auto& g : snap.gpu_samples) {
    GpuStats& s = gpus[g.index];
    s.index = g.index;
    if (s.name.empty()) s.name = g.name;
    ++s.samples;
    s.last = g;
    max_into(s.power_w_max, g.power_w);
    max_into(s.temp_c_max, g.temp_c);
    if (g.sm_clock_mhz && (!s.sm_clock_mhz_min || *g.sm_clock_mhz < *s.sm_clock_mhz_min))
      s.sm_clock_mhz_min = g.sm_clock_mhz;
    for (const auto& n : g.throttle_names)
      if (std::find(s.throttle_names_seen.begin(), s.throttle_names_seen.end(), n) == s.throttle_names_seen.end())
        s.throttle_names_seen.push_back(n);
  }
  for (auto& [i, s] : gpus) snap.gpus.push_back(std::move(s));
}

}  // namespace llmtriage::collect
