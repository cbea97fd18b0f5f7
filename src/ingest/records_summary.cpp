#include "ingest/records_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace llmtriage::ingest {

namespace {

void fill(Distribution& d, std::vector<double> v, int bins) {
  std::sort(v.begin(), v.end());
  d.stats = core::summarize(v);
  d.sorted = std::move(v);
  d.histogram = {};
  if (d.sorted.empty()) return;
  // Log-spaced bins (powers of 2 subdivided) suit lengths and latencies, which span decades.
  double lo = d.sorted.front(), hi = d.sorted.back();
  if (hi <= lo) {
    d.histogram.edges = {lo, hi};
    d.histogram.counts = {static_cast<int64_t>(d.sorted.size())};
    return;
  }
  double pos_lo = lo > 0 ? lo : std::max(hi * 1e-6, 1e-9);
  double a = std::log(pos_lo), b = std::log(hi);
  std::vector<double> edges;
  if (lo <= 0) edges.push_back(lo);
  for (int i = 0; i <= bins; ++i) edges.push_back(std::exp(a + (b - a) * i / bins));
  edges.front() = std::min(edges.front(), lo);
  edges.back() = hi;
  std::vector<int64_t> counts(edges.size() - 1, 0);
  size_t k = 0;
  for (double x : d.sorted) {
    while (k + 1 < counts.size() && x >= edges[k + 1]) ++k;
    ++counts[k];
  }
  d.histogram.edges = std::move(edges);
  d.histogram.counts = std::move(counts);
}

std::string value_key(double v) {
  std::string s = fmt::format("{:.4g}", v);
  return s;
}

}  // namespace

RecordsSummary summarize_records(const std::vector<core::RequestRecord>& recs, const SummaryOptions& opt) {
  RecordsSummary s;
  s.unavailable = opt.unavailable;
  s.arrival_known = std::find(opt.unavailable.begin(), opt.unavailable.end(), "arrival_s") == opt.unavailable.end();
  s.requests = static_cast<int64_t>(recs.size());
  std::vector<double> in, out, ttft, tpot, e2e, itl, arr;
  bool token_level = false, chunk_level = false;
  for (const auto& r : recs) {
    if (r.status == core::RequestStatus::ok) {
      ++s.ok;
    } else {
      ++s.errors;
      ++s.errors_by_category[r.error_category.empty() ? "error" : r.error_category];
    }
    arr.push_back(r.arrival_s);
    // Lengths and latencies of successful requests only: a failed request's are not
    // measurements of the service.
    if (r.input_tokens) in.push_back(static_cast<double>(*r.input_tokens));
    if (r.status == core::RequestStatus::ok) {
      if (r.output_tokens) out.push_back(static_cast<double>(*r.output_tokens));
      if (r.ttft_s) ttft.push_back(*r.ttft_s);
      if (r.e2e_s) e2e.push_back(*r.e2e_s);
      // TPOT = (e2e − ttft) / (output_tokens − 1), vLLM bench serve's definition.
      if (r.ttft_s && r.e2e_s && r.output_tokens && *r.output_tokens > 1)
        tpot.push_back((*r.e2e_s - *r.ttft_s) / static_cast<double>(*r.output_tokens - 1));
      if (!r.itl_s.empty()) {
        itl.insert(itl.end(), r.itl_s.begin(), r.itl_s.end());
        token_level = true;
      } else if (r.chunk_times_s.size() > 1) {
        bool tokens = r.chunk_tokens.size() == r.chunk_times_s.size();
        for (size_t i = 1; i < r.chunk_times_s.size(); ++i) {
          double gap = r.chunk_times_s[i] - r.chunk_times_s[i - 1];
          if (tokens && r.chunk_tokens[i] > 0 && r.chunk_tokens[i] <= 65536) {
            for (int k = 0; k < r.chunk_tokens[i]; ++k) itl.push_back(gap / r.chunk_tokens[i]);
          } else {
            itl.push_back(gap);
          }
        }
        (tokens ? token_level : chunk_level) = true;
      }
    }
    auto add = [&](const char* name, std::optional<std::string> v) {
      ++s.sampling[name][v ? *v : "unset"];
    };
    add("temperature", r.temperature ? std::optional(value_key(*r.temperature)) : std::nullopt);
    add("top_p", r.top_p ? std::optional(value_key(*r.top_p)) : std::nullopt);
    add("max_tokens", r.max_tokens ? std::optional(std::to_string(*r.max_tokens)) : std::nullopt);
    add("n", r.n ? std::optional(std::to_string(*r.n)) : std::nullopt);
    add("ignore_eos", r.ignore_eos ? std::optional(std::string(*r.ignore_eos ? "true" : "false")) : std::nullopt);
    add("model", r.model.empty() ? std::nullopt : std::optional(r.model));
  }
  // Drop parameters no record states: "unset" for all says nothing.
  for (auto it = s.sampling.begin(); it != s.sampling.end();) {
    if (it->second.size() == 1 && it->second.count("unset")) it = s.sampling.erase(it);
    else ++it;
  }
  s.itl_level = token_level ? (chunk_level ? "mixed" : "token") : (chunk_level ? "chunk" : "none");
  int bins = opt.histogram_bins;
  fill(s.input_tokens, in, bins);
  fill(s.output_tokens, out, bins);
  fill(s.ttft_s, ttft, bins);
  fill(s.tpot_s, tpot, bins);
  fill(s.e2e_s, e2e, bins);
  fill(s.itl_s, itl, bins);
  if (s.arrival_known && arr.size() > 1) {
    std::sort(arr.begin(), arr.end());
    double t0 = arr.front();
    s.duration_s = arr.back() - t0;
    std::vector<double> gaps;
    for (size_t i = 1; i < arr.size(); ++i) gaps.push_back(arr[i] - arr[i - 1]);
    fill(s.interarrival_s, gaps, bins);
    if (s.duration_s > 0 && std::isfinite(s.duration_s)) {
      s.mean_rate_rps = static_cast<double>(arr.size() - 1) / s.duration_s;
      if (s.interarrival_s.stats.mean > 0)
        s.interarrival_cv = s.interarrival_s.stats.stddev / s.interarrival_s.stats.mean;
      s.window_s = opt.window_s > 0 ? opt.window_s : std::max(1.0, s.duration_s / 20.0);
      s.window_s = std::max(s.window_s, s.duration_s / 100000.0);  // at most 100k windows
      size_t nw = static_cast<size_t>(std::min(std::floor(s.duration_s / s.window_s), 100000.0)) + 1;
      std::vector<int64_t> counts(nw, 0);
      for (double t : arr) {
        size_t w = static_cast<size_t>(std::min(static_cast<double>(nw - 1), (t - t0) / s.window_s));
        ++counts[w];
      }
      for (size_t w = 0; w < nw; ++w) {
        // The last window is partial: divide by the time it covers.
        double len = std::min(s.window_s, s.duration_s - static_cast<double>(w) * s.window_s);
        if (len <= 0) len = s.window_s;
        s.rate.push_back({static_cast<double>(w) * s.window_s, static_cast<double>(counts[w]) / len});
      }
    }
  }
  return s;
}

double ks_statistic(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t i = 0, j = 0;
  double d = 0;
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  while (i < a.size() && j < b.size()) {
    double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return d;
}

double ks_critical(size_t n, size_t m, double alpha) {
  if (n == 0 || m == 0) return 1;
  double c = std::sqrt(-std::log(alpha / 2) / 2);
  return c * std::sqrt(static_cast<double>(n + m) / (static_cast<double>(n) * static_cast<double>(m)));
}

namespace {

std::optional<double> ratio(double now, double base) {
  if (base == 0) return std::nullopt;
  return now / base;
}

Shift shift_of(const char* name, const Distribution& b, const Distribution& n) {
  Shift s;
  s.metric = name;
  s.n_base = b.sorted.size();
  s.n_now = n.sorted.size();
  if (s.n_base == 0 || s.n_now == 0) return s;
  s.ks = ks_statistic(b.sorted, n.sorted);
  s.ks_critical = ks_critical(s.n_base, s.n_now);
  s.mean_ratio = ratio(n.stats.mean, b.stats.mean);
  s.p50_ratio = ratio(n.stats.p50, b.stats.p50);
  s.p90_ratio = ratio(n.stats.p90, b.stats.p90);
  s.p99_ratio = ratio(n.stats.p99, b.stats.p99);
  s.base_p50 = b.stats.p50;
  s.now_p50 = n.stats.p50;
  s.base_p99 = b.stats.p99;
  s.now_p99 = n.stats.p99;
  auto outside = [](std::optional<double> r) { return r && (*r < 0.8 || *r > 1.25); };
  bool ks_says = s.ks > s.ks_critical && s.ks >= 0.1;
  bool ratio_says = s.n_base >= 20 && s.n_now >= 20 && (outside(s.p50_ratio) || outside(s.p99_ratio)) &&
                    s.ks > s.ks_critical;
  s.changed = ks_says || ratio_says;
  return s;
}

std::string fmt_ratio(std::optional<double> r) { return r ? fmt::format("×{:.2f}", *r) : "n/a"; }

}  // namespace

RecordsComparison compare_summaries(const RecordsSummary& b, const RecordsSummary& n) {
  RecordsComparison c;
  struct Item { const char* name; const Distribution RecordsSummary::*d; const char* unit; bool load; };
  const Item items[] = {
      {"input_tokens", &RecordsSummary::input_tokens, "tokens", true},
      {"output_tokens", &RecordsSummary::output_tokens, "tokens", true},
      {"interarrival_s", &RecordsSummary::interarrival_s, "s", true},
      {"ttft_s", &RecordsSummary::ttft_s, "s", false},
      {"tpot_s", &RecordsSummary::tpot_s, "s", false},
      {"itl_s", &RecordsSummary::itl_s, "s", false},
      {"e2e_s", &RecordsSummary::e2e_s, "s", false},
  };
  std::vector<std::pair<double, std::string>> load_lines, latency_lines;
  for (const auto& it : items) {
    Shift s = shift_of(it.name, b.*(it.d), n.*(it.d));
    if (s.changed) {
      // Each value in its unit, readable (core::format_quantity: "420 ms → 16.9 s", "12345 tokens").
      auto q = [&](double v) { return core::format_quantity(v, it.unit); };
      std::string line = fmt::format(
          "{} shifted: p50 {} → {} ({}), p99 {} → {} ({}), mean {}; KS D={:.3f} "
          "(1% critical {:.3f}; n={} vs {})",
          it.name, q(s.base_p50), q(s.now_p50), fmt_ratio(s.p50_ratio), q(s.base_p99), q(s.now_p99),
          fmt_ratio(s.p99_ratio), fmt_ratio(s.mean_ratio), s.ks, s.ks_critical, s.n_base, s.n_now);
      (it.load ? load_lines : latency_lines).push_back({s.ks, line});
    }
    c.shifts.push_back(std::move(s));
  }
  if (b.mean_rate_rps && n.mean_rate_rps && *b.mean_rate_rps > 0) {
    c.rate_ratio = *n.mean_rate_rps / *b.mean_rate_rps;
    c.rate_changed = *c.rate_ratio < 0.8 || *c.rate_ratio > 1.25;
    if (c.rate_changed)
      load_lines.push_back({2.0, fmt::format("arrival rate changed: {:.3g} → {:.3g} req/s ({})",
                                             *b.mean_rate_rps, *n.mean_rate_rps, fmt_ratio(c.rate_ratio))});
  }
  // Sampling mix: total variation distance between the two value distributions.
  for (const auto& [param, bmix] : b.sampling) {
    auto it = n.sampling.find(param);
    if (it == n.sampling.end()) continue;
    const auto& nmix = it->second;
    double bt = 0, nt = 0;
    for (const auto& [k, v] : bmix) bt += static_cast<double>(v);
    for (const auto& [k, v] : nmix) nt += static_cast<double>(v);
    if (bt == 0 || nt == 0) continue;
    std::map<std::string, std::pair<double, double>> shares;
    for (const auto& [k, v] : bmix) shares[k].first = static_cast<double>(v) / bt;
    for (const auto& [k, v] : nmix) shares[k].second = static_cast<double>(v) / nt;
    double tvd = 0;
    std::string top_b, top_n;
    double best_b = -1, best_n = -1;
    for (const auto& [k, p] : shares) {
      tvd += std::fabs(p.first - p.second);
      if (p.first > best_b) { best_b = p.first; top_b = k; }
      if (p.second > best_n) { best_n = p.second; top_n = k; }
    }
    tvd /= 2;
    c.sampling_tvd[param] = tvd;
    if (tvd >= 0.1)
      load_lines.push_back({1.5 + tvd, fmt::format(
          "sampling parameter {} mix changed (total variation {:.2f}): most common {} ({:.0f}%) → {} ({:.0f}%)",
          param, tvd, top_b, best_b * 100, top_n, best_n * 100)});
  }
  c.error_rate_base = b.requests ? static_cast<double>(b.errors) / static_cast<double>(b.requests) : 0;
  c.error_rate_now = n.requests ? static_cast<double>(n.errors) / static_cast<double>(n.requests) : 0;
  if (b.requests > 0 && n.requests > 0) {
    double p = static_cast<double>(b.errors + n.errors) / static_cast<double>(b.requests + n.requests);
    double se = std::sqrt(p * (1 - p) * (1.0 / static_cast<double>(b.requests) + 1.0 / static_cast<double>(n.requests)));
    double z = se > 0 ? (c.error_rate_now - c.error_rate_base) / se : 0;
    c.error_rate_changed = std::fabs(z) > 2.58 && std::fabs(c.error_rate_now - c.error_rate_base) >= 0.01;
    if (c.error_rate_changed) {
      std::string cats;
      for (const auto& [k, v] : n.errors_by_category) {
        int64_t before = b.errors_by_category.count(k) ? b.errors_by_category.at(k) : 0;
        cats += fmt::format("{}{} {}→{}", cats.empty() ? "" : ", ", k, before, v);
      }
      latency_lines.push_back({1.0, fmt::format("error rate changed: {:.2f}% → {:.2f}% ({})",
                                                c.error_rate_base * 100, c.error_rate_now * 100, cats)});
    }
  }
  auto by_size = [](const auto& x, const auto& y) { return x.first > y.first; };
  std::stable_sort(load_lines.begin(), load_lines.end(), by_size);
  std::stable_sort(latency_lines.begin(), latency_lines.end(), by_size);
  for (auto& [k, l] : load_lines) c.findings.push_back("load: " + l);
  for (auto& [k, l] : latency_lines) c.findings.push_back("service: " + l);
  return c;
}

}  // namespace llmtriage::ingest
