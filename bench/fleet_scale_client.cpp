// The fleet query plan's cost on the store and on us, through PromClient alone: one range query
// per signal over the window (grouped by the replica label), the same at the baseline offset, a
// series discovery and a label listing, against a Prometheus holding a synthetic fleet
// (bench/fleet_scale.sh). Prints one JSON object: queries, bytes on the wire and decoded, series,
// points, store vs parse (gunzip + JSON) seconds, peak RSS, and the replicas that stand out (a check that the data says what it should).
//
// Usage: bench_fleet_scale_client --prometheus URL --end UNIX_S [--window-s 1800] [--step-s 15]
//          [--label pod] [--baseline-offset-s 604800] [--no-gzip] [--print-plan]
// --print-plan prints "<path>\t<query>" per query instead (bench/fleet_scale.sh replays them with
// curl and python3 as the peer).
#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fleet/prom_client.h"

using namespace llmtriage::fleet;

namespace {

std::vector<std::string> plan(const std::string& by) {
  const std::string sel = "{job=\"vllm\"}";
  auto rate = [&](const std::string& m) { return fmt::format("sum by ({}) (rate({}{}[2m]))", by, m, sel); };
  auto q = [&](double p, const std::string& h) {
    return fmt::format("histogram_quantile({}, sum by ({}, le) (rate({}_bucket{}[2m])))", p, by, h, sel);
  };
  return {
      "vllm:num_requests_running" + sel,
      "vllm:num_requests_waiting" + sel,
      "vllm:kv_cache_usage_perc" + sel,
      rate("vllm:num_preemptions_total"),
      rate("vllm:prompt_tokens_total"),
      rate("vllm:generation_tokens_total"),
      fmt::format("sum by ({}, finished_reason) (rate(vllm:request_success_total{}[2m]))", by, sel),
      fmt::format("{} / {}", rate("vllm:prefix_cache_hits_total"), rate("vllm:prefix_cache_queries_total")),
      q(0.5, "vllm:time_to_first_token_seconds"),
      q(0.99, "vllm:time_to_first_token_seconds"),
      q(0.5, "vllm:inter_token_latency_seconds"),
      q(0.99, "vllm:inter_token_latency_seconds"),
      "DCGM_FI_DEV_POWER_USAGE",
      "DCGM_FI_DEV_SM_CLOCK",
      "DCGM_FI_DEV_GPU_TEMP",
  };
}

// The replica with the largest (or smallest) mean over the window.
std::string extreme(const PromResult& r, const std::string& by, bool largest) {
  std::string who;
  double best = largest ? -HUGE_VAL : HUGE_VAL;
  for (const auto& s : r.series) {
    double sum = 0;
    int n = 0;
    for (const auto& [t, v] : s.points) {
      if (std::isfinite(v)) {
        sum += v;
        ++n;
      }
    }
    if (n == 0) continue;
    const double mean = sum / n;
    if (largest ? mean > best : mean < best) {
      best = mean;
      auto it = s.labels.find(by);
      who = it == s.labels.end() ? "?" : it->second;
    }
  }
  return who;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url, by = "pod";
  double end = 0, window = 1800, step = 15, offset = 7 * 86400;
  bool print_plan = false, gzip = true;
  for (int i = 1; i < argc; ++i) {
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (!std::strcmp(argv[i], "--prometheus")) url = next();
    else if (!std::strcmp(argv[i], "--end")) end = std::atof(next().c_str());
    else if (!std::strcmp(argv[i], "--window-s")) window = std::atof(next().c_str());
    else if (!std::strcmp(argv[i], "--step-s")) step = std::atof(next().c_str());
    else if (!std::strcmp(argv[i], "--label")) by = next();
    else if (!std::strcmp(argv[i], "--baseline-offset-s")) offset = std::atof(next().c_str());
    else if (!std::strcmp(argv[i], "--print-plan")) print_plan = true;
    else if (!std::strcmp(argv[i], "--no-gzip")) gzip = false;
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  const auto queries = plan(by);
  if (print_plan) {
    for (const auto& q : queries) std::printf("/api/v1/query_range\t%s\n", q.c_str());
    return 0;
  }
  if (url.empty() || end <= 0) {
    std::fprintf(stderr, "usage: bench_fleet_scale_client --prometheus URL --end UNIX_S [...]\n");
    return 2;
  }
  PromClientOptions opt;
  opt.base_url = url;
  opt.query_timeout = std::chrono::milliseconds(120000);
  opt.gzip = gzip;
  PromClient client(opt);
  const double start = end - window;
  int errors = 0;
  auto discovered = client.series({"vllm:num_requests_running{job=\"vllm\"}"}, start, end);
  if (!discovered) {
    std::fprintf(stderr, "%s\n", discovered.error().message().c_str());
    ++errors;
  }
  auto names = client.labels({"{job=\"vllm\"}"}, start, end);
  if (!names) ++errors;
  std::string most_waiting, slowest_clock;
  size_t max_series = 0;
  for (double shift : {0.0, offset}) {
    for (size_t i = 0; i < queries.size(); ++i) {
      auto r = client.query_range(queries[i], start - shift, end - shift, step);
      if (!r) {
        std::fprintf(stderr, "%s\n", r.error().message().c_str());
        ++errors;
        continue;
      }
      max_series = std::max(max_series, r->series.size());
      if (shift == 0 && queries[i].rfind("vllm:num_requests_waiting", 0) == 0) most_waiting = extreme(*r, by, true);
      if (shift == 0 && queries[i] == "DCGM_FI_DEV_SM_CLOCK") slowest_clock = extreme(*r, by, false);
    }
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const PromStats& st = client.stats();
  std::printf(
      "{\"replicas\": %zu, \"queries\": %lld, \"retries\": %lld, \"failures\": %lld, \"errors\": %d, "
      "\"bytes\": %lld, \"bytes_decoded\": %lld, \"series\": %lld, \"points\": %lld, \"max_series_per_query\": %zu, "
      "\"store_s\": %.3f, \"parse_s\": %.3f, \"parse_mb_per_s\": %.1f, \"peak_rss_mb\": %.1f, "
      "\"most_waiting\": \"%s\", \"slowest_sm_clock\": \"%s\"}\n",
      discovered ? discovered->size() : 0, static_cast<long long>(st.queries), static_cast<long long>(st.retries),
      static_cast<long long>(st.failures), errors, static_cast<long long>(st.bytes),
      static_cast<long long>(st.bytes_decoded),
      static_cast<long long>(st.series), static_cast<long long>(st.points), max_series, st.store_seconds,
      st.parse_seconds, st.parse_seconds > 0 ? st.bytes_decoded / 1e6 / st.parse_seconds : 0.0, ru.ru_maxrss / 1024.0,
      most_waiting.c_str(), slowest_clock.c_str());
  return errors == 0 ? 0 : 1;
}
