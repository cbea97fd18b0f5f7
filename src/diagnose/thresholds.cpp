// The one threshold table (docs/rules.md lists each with the rule that reads it), --thresholds
// files, and --slo specs.
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "core/slo.h"
#include "diagnose/diagnose.h"

namespace llmtriage::diagnose {

namespace {

struct Row {
  const char* name;
  double value;
};

// One section per layer, in traversal order. Names are "<section>.<what>"; units are in the
// name or in docs/rules.md (ratios and shares are fractions).
constexpr Row kTable[] = {
    // traversal: symptom detection and triangulation
    {"traverse.throughput_shortfall_ratio", 0.6},  // output tok/s below this x the benchmark's
    {"traverse.preemptions_per_request", 0.1},     // preemptions per finished request (1 in 10 recomputed)
    {"traverse.baseline_latency_ratio", 1.5},      // TTFT/TPOT now / the healthy baseline's: a symptom
    {"traverse.baseline_ttft_floor_s", 0.05},      // ... when TTFT also grew by at least this (s)
    {"traverse.baseline_tpot_floor_s", 0.002},     // ... when TPOT also grew by at least this (s)
    {"triangulate.rel_tolerance", 0.15},           // metrics/logs/ledger agree within +-15%
    {"triangulate.confidence_boost", 0.15},        // added to a finding's confidence on agreement

    // load
    {"load.length_shift_ratio", 1.5},         // mean length now/baseline >= this (or <= 1/this)
    {"load.rate_increase_ratio", 1.5},        // request rate now/baseline >= this
    {"load.temperature_delta", 0.2},          // |temperature now - baseline| >= this
    {"load.one_token_share", 0.5},            // share of requests with exactly 1 output token
    {"load.max_tokens_cutoff_share", 0.5},    // share of outputs ending exactly at max_tokens
    {"load.max_tokens_min", 16},              // a cap below this is a deliberate short answer
    {"load.prefix_hit_drop_ratio", 0.5},      // hit rate now < this x baseline
    {"load.prefix_min_baseline_hit", 0.2},    // the baseline hit rate must have been worth losing
    {"load.length_stable_ratio", 1.2},        // prompts "kept their length": within this ratio
    {"load.unrecorded_share", 0.15},          // requests the server finished beyond the records': share of its count
    {"load.benchmark_shortfall_ratio", 0.6},  // output tok/s below this x the benchmark's
    {"load.mix_explains_min", 0.3},           // the mix must explain at least this share of the gap

    // scheduling_capacity (analyze_scheduling.cpp)
    // A deep queue is measured against the concurrency the engine runs (scheduling_queue.cpp
    // deep_queue): waiting >= share x min(max_num_seqs or llama.cpp slots, running_max), clamped
    // to [waiting_deep_min, waiting_deep]; waiting_deep alone when neither capacity is known.
    {"sched.waiting_deep", 10},           // requests waiting (median): the ceiling, and the fallback
    {"sched.waiting_deep_share", 0.5},    // x the running concurrency (Little's law: +0.5 service time)
    {"sched.waiting_deep_min", 2},        // one waiting request is arrival jitter, not a queue
    {"sched.kv_near_full", 0.9},          // KV usage fraction
    {"sched.over_context_share", 0.05},   // share of requests asking for prompt + max_tokens > max_model_len
    {"sched.preemption_rate_per_s", 0.5}, // preemptions per second
    {"sched.preemptions_count_high", 50}, // preemptions without a time base (V0 logs every 50th)
    {"sched.waiting_idle", 1},            // "queue empty": waiting (p50) at most this
    {"sched.long_prompt_tokens", 4096},   // a prompt this long blocks a step when prefilled whole
    {"sched.prefix_hit_drop_ratio", 0.75},  // hit rate now < this x baseline (routing loss is partial)
    {"sched.preemptions_per_request", 0.1},  // preemptions per finished request: each recomputes a prompt
    {"sched.prefix_min_baseline_hit", 0.2},  // the baseline hit rate must have been worth losing
    {"sched.prefix_hit_floor", 0.05},     // below: a varying prefix (load layer) fits better than routing
    {"sched.queue_tpot_flat_ratio", 1.2}, // TPOT now / baseline at most this: "flat" (queue_from_records)
    {"sched.batch_running_share", 0.75},  // running >= this x max_num_seqs is a large batch
    {"sched.batch_running_min", 64},      // large batch when max_num_seqs is unknown
    {"sched.oom_kv_low", 0.8},            // runtime OOM with KV usage (max) below this: not the pool

    // operator_hardware (analyze_hardware.cpp)
    {"hw.power_ratio_high", 0.95},  // power / limit
    {"hw.clock_ratio_low", 0.85},   // SM clock / max
    {"hw.temp_high_c", 85},         // degrees C; H100/A100 slow down near 87-90 C (NVML slowdown temp)
    {"hw.util_spread_high", 0.3},   // max - min per-GPU utilization across TP ranks
    {"hw.power_ratio_low", 0.6},    // power / limit "far below the cap"
    {"hw.step_slowdown_ratio", 1.5},  // TPOT p50 now / baseline at the same batch and lengths
    {"hw.busy_util", 0.5},          // utilization above which a low SM clock is throttling, not idling (llmtriage rules)

    // numeric_parameter
    {"numeric.truncation_events", 1},           // context_truncated events
    {"numeric.pinned_input_share", 0.05},       // share of prompts at max_model_len
    {"numeric.template_marker_share", 0.05},    // share of outputs with raw chat markers
    {"numeric.repeated_ngram_fraction", 0.5},   // an output is repetitive above this
    {"numeric.repetitive_output_share", 0.2},   // share of repetitive outputs
    {"numeric.garbled_output_share", 0.2},      // share of garbled outputs (replacement chars, no words)

    // gateway_client
    {"gateway.timeout_error_share", 0.01},   // share of requests failed by a timeout
    {"gateway.timeout_cluster_share", 0.5},  // share of timeouts within 5% of one duration
    {"gateway.retry_rate", 0.1},             // share of requests that are retries
    {"gateway.stream_break_share", 0.01},    // share of streams broken mid-body

    // fleet (src/fleet/analyze.cpp): one replica against its siblings
    {"fleet.min_replicas", 3},           // replicas with a reading before a median means anything
    {"fleet.outlier_z", 3.5},            // |modified z| = 0.6745 |x - median| / MAD (Iglewicz & Hoaglin)
    {"fleet.outlier_min_rel", 0.25},     // and |x - median| >= this x |median| (identical siblings: MAD 0)
    {"fleet.imbalance_ratio", 1.5},      // request rate >= this x the median (or <= median / this)
    {"fleet.affinity_hit_ratio", 0.5},   // prefix-cache hit rate < this x the affine estimate
    {"fleet.affinity_min_hit", 0.2},     // the affine estimate (p75 of replicas' hit rates) worth having
};

std::string_view trim_view(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

std::optional<double> number(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string known(const std::map<std::string, double>& m) {
  std::string s;
  for (const auto& [k, v] : m) {
    if (!s.empty()) s += ", ";
    s += k;
  }
  return s;
}

}  // namespace

double Thresholds::get(const std::string& name) const {
  auto it = values.find(name);
  if (it == values.end()) throw std::logic_error("diagnose: threshold '" + name + "' is not in the table (thresholds.cpp)");
  return it->second;
}

Thresholds default_thresholds() {
  Thresholds t;
  for (const Row& r : kTable) t.values[r.name] = r.value;
  return t;
}

core::Status load_thresholds(Thresholds& t, const std::string& text, const std::string& where) {
  size_t line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim_view(line);
    if (line.empty()) continue;
    const std::string at = where + ":" + std::to_string(line_no);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos)
      return core::make_error(core::ErrorKind::input, at, "name = value", std::string(line));
    const std::string name(trim_view(line.substr(0, eq)));
    const auto value = number(trim_view(line.substr(eq + 1)));
    if (!t.values.count(name))
      return core::make_error(core::ErrorKind::input, at, "a known threshold name", name,
                              "known: " + known(t.values) + " (docs/rules.md)");
    if (!value)
      return core::make_error(core::ErrorKind::input, at, "a number for " + name,
                              std::string(trim_view(line.substr(eq + 1))));
    t.values[name] = *value;
  }
  return core::ok_status();
}

core::Status parse_slo(Slo& slo, const std::string& spec) {
  // The one SLO grammar (core/slo.h): ttft=2s and ttft_p99_s=2 are the same objective.
  auto parsed = core::parse_slo(spec, "--slo");
  if (!parsed) return std::move(parsed).error();
  if (parsed->ttft_s) slo.ttft_p99_s = *parsed->ttft_s;
  if (parsed->tpot_s) slo.tpot_p99_s = *parsed->tpot_s;
  if (parsed->e2e_s) slo.e2e_p99_s = *parsed->e2e_s;
  if (parsed->error_rate) slo.error_rate = *parsed->error_rate;
  return core::ok_status();
}

}  // namespace llmtriage::diagnose
