// --observe NAME=VALUE: dashboard readings as evidence (docs/rules.md, "Observations").
#include <charconv>
#include <cmath>

#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {

const std::vector<ObservationName>& observation_names() {
  static const std::vector<ObservationName> v = {
      {"running", "requests", "sequences in the running batch"},
      {"waiting", "requests", "requests queued, not yet scheduled"},
      {"kv_usage", "fraction", "KV pool in use, 0-1"},
      {"preemptions_per_s", "1/s", "preemptions per second"},
      {"prefix_cache_hit_rate", "fraction", "prefix-cache hit rate, 0-1"},
      {"ttft_p50_s", "s", "median time to first token"},
      {"ttft_p99_s", "s", "P99 time to first token"},
      {"tpot_p50_s", "s", "median time per output token"},
      {"tpot_p99_s", "s", "P99 time per output token"},
      {"e2e_p99_s", "s", "P99 end-to-end latency"},
      {"request_rate", "req/s", "requests per second"},
      {"input_len_mean", "tokens", "mean prompt length"},
      {"input_len_p99", "tokens", "P99 prompt length"},
      {"output_len_mean", "tokens", "mean generated length"},
      {"output_tokens_per_s", "tokens/s", "generated tokens per second"},
      {"expected_output_tokens_per_s", "tokens/s", "the benchmark's output throughput"},
      {"gpu_util", "fraction", "GPU utilization, 0-1"},
      {"power_w", "W", "GPU board power"},
      {"power_limit_w", "W", "GPU power cap"},
      {"sm_clock_mhz", "MHz", "SM clock"},
      {"max_sm_clock_mhz", "MHz", "maximum SM clock"},
      {"temp_c", "C", "GPU temperature"},
      {"gpu_mem_used_gib", "GiB", "GPU memory in use"},
      {"gateway_timeout_s", "s", "gateway / client request timeout"},
      {"client_retry_rate", "fraction", "share of requests that are retries, 0-1"},
      {"error_rate", "fraction", "share of requests that failed, 0-1"},
      {"engine_threads", "threads", "CPU threads the engine computes with (llama.cpp -t)"},
      {"host_cpu_cores", "cores", "CPU cores of the engine's host (nproc)"},
  };
  return v;
}

namespace {

std::string known_names() {
  std::string s;
  for (const auto& n : observation_names()) {
    if (!s.empty()) s += ", ";
    s += n.name;
  }
  return s;
}

std::string trimmed_copy(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
  return std::string(v);
}

const ObservationName* lookup(const std::string& name) {
  for (const auto& n : observation_names())
    if (name == n.name) return &n;
  return nullptr;
}

}  // namespace

core::Status add_observation(Observations& obs, const std::string& assignment, const std::string& where) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos)
    return core::make_error(core::ErrorKind::usage, where, "NAME=VALUE (e.g. waiting=40)", assignment,
                            "known names: " + known_names() + "; prefix baseline_ for the healthy-period value");
  std::string name = trimmed_copy(std::string_view(assignment).substr(0, eq));
  const std::string text = trimmed_copy(std::string_view(assignment).substr(eq + 1));
  bool baseline = false;
  std::string bare = name;
  if (bare.rfind("baseline_", 0) == 0) {
    baseline = true;
    bare = bare.substr(9);
  }
  const ObservationName* known = lookup(bare);
  if (!known)
    return core::make_error(core::ErrorKind::usage, where, "a known observation name", name,
                            "known names: " + known_names() + "; prefix baseline_ for the healthy-period value");
  double v = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (text.empty() || ec != std::errc() || p != e || !std::isfinite(v))
    return core::make_error(core::ErrorKind::usage, where, std::string("a number in ") + known->unit + " for " + name,
                            text.empty() ? "nothing" : text);
  const std::string unit = known->unit;
  if (v < 0)
    return core::make_error(core::ErrorKind::usage, where, "a value >= 0 for " + name, text);
  if (unit == "fraction" && v > 1)
    return core::make_error(core::ErrorKind::usage, where, "a fraction in [0, 1] for " + name, text,
                            "give percentages as fractions: 95% -> 0.95");
  (baseline ? obs.baseline : obs.now)[bare] = v;
  return core::ok_status();
}

}  // namespace llmtriage::diagnose
