#include "ingest/metrics_engine.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <tuple>
#include <unordered_map>

namespace llmtriage::ingest {
namespace {

using core::EngineKind;

enum class Family : uint8_t { vllm, sglang, tgi, llamacpp, triton, trtllm_serve };

// What a series feeds. Scalars take the value of the highest-priority name present; `sum`
// slots add the series up over their extra labels (vLLM request_success_total{finished_reason}).
enum class Slot : uint8_t {
  running, waiting, swapped, kv_usage, preemptions, prompt_tokens, generation_tokens, finished,
  pc_queries, pc_hits, pc_hit_rate, prompt_tput, gen_tput, capacity_tokens, longest_seq, kScalarCount,
  cache_config_info, trt_request, trt_kv_block, triton_pending,
  h_ttft, h_itl, h_tpot, h_e2e, h_queue, h_prefill, h_decode, h_prompt_len, h_output_len,
};
constexpr size_t kScalars = static_cast<size_t>(Slot::kScalarCount);
constexpr size_t kHists = 9;
bool is_hist(Slot s) { return s >= Slot::h_ttft; }
size_t hist_index(Slot s) { return static_cast<size_t>(s) - static_cast<size_t>(Slot::h_ttft); }

struct Rule {
  Family family;
  Slot slot;
  uint8_t prio;       // a newer name outranks its deprecated twin when both are exposed
  bool sum = false;
};

// Names as they appear on the wire (prometheus_client adds `_total` to counters). Version
// boundaries are from vLLM's own deprecation comments and help texts (vllm/v1/metrics/loggers.py,
// vllm/engine/metrics.py); the policy is: deprecated in X.Y, hidden in X.Y+1, removed in X.Y+2.
const std::unordered_map<std::string_view, Rule>& rules() {
  static const std::unordered_map<std::string_view, Rule> r = {
      // ---- vLLM (V0: labels model_name; V1: model_name + engine) ----
      {"vllm:num_requests_running", {Family::vllm, Slot::running, 1}},
      {"vllm:num_requests_waiting", {Family::vllm, Slot::waiting, 1}},
      {"vllm:num_requests_swapped", {Family::vllm, Slot::swapped, 1}},  // V0 only
      // KV usage, a 0..1 fraction despite "perc". kv_cache_usage_perc added in 0.9.2;
      // gpu_cache_usage_perc (V0 and V1) deprecated 0.9.2, hidden 0.11, gone 0.12.
      {"vllm:kv_cache_usage_perc", {Family::vllm, Slot::kv_usage, 2}},
      {"vllm:gpu_cache_usage_perc", {Family::vllm, Slot::kv_usage, 1}},
      {"vllm:num_preemptions_total", {Family::vllm, Slot::preemptions, 1}},
      {"vllm:prompt_tokens_total", {Family::vllm, Slot::prompt_tokens, 1}},
      {"vllm:generation_tokens_total", {Family::vllm, Slot::generation_tokens, 1}},
      {"vllm:request_success_total", {Family::vllm, Slot::finished, 1, true}},
      // Prefix cache counters (tokens). prefix_cache_* since 0.9.2; gpu_prefix_cache_* from
      // V1 early (counted BLOCKS there, tokens by 0.10) deprecated 0.9, gone 0.12.
      {"vllm:prefix_cache_queries_total", {Family::vllm, Slot::pc_queries, 2}},
      {"vllm:prefix_cache_hits_total", {Family::vllm, Slot::pc_hits, 2}},
      {"vllm:gpu_prefix_cache_queries_total", {Family::vllm, Slot::pc_queries, 1}},
      {"vllm:gpu_prefix_cache_hits_total", {Family::vllm, Slot::pc_hits, 1}},
      // V0 late gauge; -1 when prefix caching is off (then left unset).
      {"vllm:gpu_prefix_cache_hit_rate", {Family::vllm, Slot::pc_hit_rate, 1}},
      // V0 early gauges, removed early 2025 (vLLM PR #12383).
      {"vllm:avg_prompt_throughput_toks_per_s", {Family::vllm, Slot::prompt_tput, 1}},
      {"vllm:avg_generation_throughput_toks_per_s", {Family::vllm, Slot::gen_tput, 1}},
      {"vllm:cache_config_info", {Family::vllm, Slot::cache_config_info, 1}},
      {"vllm:time_to_first_token_seconds", {Family::vllm, Slot::h_ttft, 1}},
      // Token-level gaps: inter_token_latency_seconds since ≈0.10.2/0.11; the same observation
      // was time_per_output_token_seconds (V0, V1 ≤0.10; deprecated 0.11, hidden 0.12).
      {"vllm:inter_token_latency_seconds", {Family::vllm, Slot::h_itl, 2}},
      {"vllm:time_per_output_token_seconds", {Family::vllm, Slot::h_itl, 1}},
      // Per-request mean TPOT, ≈0.11+.
      {"vllm:request_time_per_output_token_seconds", {Family::vllm, Slot::h_tpot, 1}},
      {"vllm:e2e_request_latency_seconds", {Family::vllm, Slot::h_e2e, 1}},
      {"vllm:request_queue_time_seconds", {Family::vllm, Slot::h_queue, 2}},  // V0 late, V1
      {"vllm:time_in_queue_requests", {Family::vllm, Slot::h_queue, 1}},      // V0 duplicate
      {"vllm:request_prefill_time_seconds", {Family::vllm, Slot::h_prefill, 1}},
      {"vllm:request_decode_time_seconds", {Family::vllm, Slot::h_decode, 1}},
      {"vllm:request_prompt_tokens", {Family::vllm, Slot::h_prompt_len, 1}},
      {"vllm:request_generation_tokens", {Family::vllm, Slot::h_output_len, 1}},
      // ---- SGLang (sgl-project/sglang python/sglang/srt/metrics/collector.py) ----
      {"sglang:num_running_reqs", {Family::sglang, Slot::running, 1}},
      {"sglang:num_queue_reqs", {Family::sglang, Slot::waiting, 1}},
      {"sglang:token_usage", {Family::sglang, Slot::kv_usage, 1}},
      {"sglang:prompt_tokens_total", {Family::sglang, Slot::prompt_tokens, 1}},
      {"sglang:generation_tokens_total", {Family::sglang, Slot::generation_tokens, 1}},
      // NOTE: counted by the tokenizer manager when a request finishes.
      {"sglang:num_requests_total", {Family::sglang, Slot::finished, 1}},
      // Hits = cached prompt tokens; queries = all prompt tokens (set when hits are exposed).
      {"sglang:cached_tokens_total", {Family::sglang, Slot::pc_hits, 1}},
      // Hit rate of the LAST prefill batch; decode logs write 0 into it, so it flickers.
      {"sglang:cache_hit_rate", {Family::sglang, Slot::pc_hit_rate, 1}},
      {"sglang:gen_throughput", {Family::sglang, Slot::gen_tput, 1}},
      {"sglang:max_total_num_tokens", {Family::sglang, Slot::capacity_tokens, 1}},
      {"sglang:num_retracted_requests_total", {Family::sglang, Slot::preemptions, 1}},
      {"sglang:time_to_first_token_seconds", {Family::sglang, Slot::h_ttft, 1}},
      // time_per_output_token_seconds (≈v0.3–0.4) was renamed inter_token_latency_seconds.
      {"sglang:inter_token_latency_seconds", {Family::sglang, Slot::h_itl, 2}},
      {"sglang:time_per_output_token_seconds", {Family::sglang, Slot::h_itl, 1}},
      {"sglang:e2e_request_latency_seconds", {Family::sglang, Slot::h_e2e, 1}},
      {"sglang:queue_time_seconds", {Family::sglang, Slot::h_queue, 1}},
      // ---- TGI (router/src; no model label) ----
      {"tgi_batch_current_size", {Family::tgi, Slot::running, 1}},
      {"tgi_queue_size", {Family::tgi, Slot::waiting, 1}},
      {"tgi_request_success", {Family::tgi, Slot::finished, 1}},
      {"tgi_batch_max_total_tokens", {Family::tgi, Slot::capacity_tokens, 1}},
      {"tgi_request_duration", {Family::tgi, Slot::h_e2e, 1}},
      {"tgi_request_queue_duration", {Family::tgi, Slot::h_queue, 1}},
      {"tgi_request_mean_time_per_token_duration", {Family::tgi, Slot::h_tpot, 1}},
      {"tgi_request_input_length", {Family::tgi, Slot::h_prompt_len, 1}},
      {"tgi_request_generated_tokens", {Family::tgi, Slot::h_output_len, 1}},
      // ---- llama.cpp server --metrics (tools/server/server-context.cpp handle_metrics, b10470;
      // no labels; semantics in docs/llamacpp.md) ----
      // requests_processing / requests_deferred: slots busy and tasks waiting for a slot.
      {"llamacpp:requests_processing", {Family::llamacpp, Slot::running, 1}},
      {"llamacpp:requests_deferred", {Family::llamacpp, Slot::waiting, 1}},
      // prompt_tokens_total excludes cached tokens; prompt_tokens_cached_total counts those.
      {"llamacpp:prompt_tokens_total", {Family::llamacpp, Slot::prompt_tokens, 1}},
      {"llamacpp:prompt_tokens_cached_total", {Family::llamacpp, Slot::pc_hits, 1}},
      {"llamacpp:tokens_predicted_total", {Family::llamacpp, Slot::generation_tokens, 1}},
      // Declared a counter, but a high-water mark of prompt + generation tokens in one slot.
      {"llamacpp:n_tokens_max", {Family::llamacpp, Slot::longest_seq, 1}},
      // NOT read: llamacpp:prompt_tokens_seconds / predicted_tokens_seconds are per-slot averages
      // over the window since the previous GET /metrics (each scrape resets them), so they are
      // neither aggregate throughput nor stable across scrapers; rates come from the _total
      // counters instead. n_busy_slots_per_decode resets the same way.
      // Removed in llama.cpp PR #13660 (May 2025); older builds only.
      {"llamacpp:kv_cache_usage_ratio", {Family::llamacpp, Slot::kv_usage, 1}},
      // ---- Triton + TensorRT-LLM backend (custom_metrics_reporter.cc; label `model`) ----
      {"nv_trt_llm_request_metrics", {Family::triton, Slot::trt_request, 1}},
      {"nv_trt_llm_kv_cache_block_metrics", {Family::triton, Slot::trt_kv_block, 1}},
      {"nv_inference_pending_request_count", {Family::triton, Slot::triton_pending, 1}},
      {"nv_inference_request_success", {Family::triton, Slot::finished, 1}},
      // ---- trtllm-serve (/prometheus/metrics; `trtllm_` prefix in 2026 releases, unprefixed
      // in the first version, TensorRT-LLM PR #5785). Stored without the prefix. ----
      {"num_requests_running", {Family::trtllm_serve, Slot::running, 1}},
      {"num_requests_waiting", {Family::trtllm_serve, Slot::waiting, 1}},
      {"kv_cache_utilization", {Family::trtllm_serve, Slot::kv_usage, 1}},
      {"kv_cache_hit_rate", {Family::trtllm_serve, Slot::pc_hit_rate, 1}},
      {"request_success_total", {Family::trtllm_serve, Slot::finished, 1, true}},
      {"time_to_first_token_seconds", {Family::trtllm_serve, Slot::h_ttft, 1}},
      // NOTE: per finished request (request-level perf metrics), so TPOT, not token-level ITL.
      {"time_per_output_token_seconds", {Family::trtllm_serve, Slot::h_tpot, 1}},
      {"e2e_request_latency_seconds", {Family::trtllm_serve, Slot::h_e2e, 1}},
      {"request_queue_time_seconds", {Family::trtllm_serve, Slot::h_queue, 1}},
  };
  return r;
}

EngineKind kind_of(Family f, bool v0) {
  switch (f) {
    case Family::vllm: return v0 ? EngineKind::vllm_v0 : EngineKind::vllm;
    case Family::sglang: return EngineKind::sglang;
    case Family::tgi: return EngineKind::tgi;
    case Family::llamacpp: return EngineKind::llamacpp;
    case Family::triton: return EngineKind::trtllm;
    case Family::trtllm_serve: return EngineKind::trtllm;
  }
  return EngineKind::unknown;
}

bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
}
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

// Normalizes the separator rewrite some intermediaries apply ("sglang_" for "sglang:"), and
// strips trtllm-serve's "trtllm_" prefix. Writes into buf only when the name changes.
std::string_view normalize(std::string_view name, std::string& buf, bool& trt_prefixed) {
  trt_prefixed = false;
  for (std::string_view p : {"vllm_", "sglang_", "llamacpp_"}) {
    if (starts_with(name, p)) {
      buf.assign(name);
      buf[p.size() - 1] = ':';
      return buf;
    }
  }
  if (starts_with(name, "trtllm_")) {
    trt_prefixed = true;
    return name.substr(7);
  }
  return name;
}

enum class Part : uint8_t { value, bucket, sum, count };

// Finds the rule for a series name: the name itself, or a histogram family + _bucket/_sum/_count.
const Rule* find_rule(std::string_view name, Part& part) {
  const auto& r = rules();
  part = Part::value;
  if (auto it = r.find(name); it != r.end() && !is_hist(it->second.slot)) return &it->second;
  static constexpr std::pair<std::string_view, Part> kSuffixes[] = {
      {"_bucket", Part::bucket}, {"_sum", Part::sum}, {"_count", Part::count}};
  for (const auto& [suffix, p] : kSuffixes) {
    if (!ends_with(name, suffix)) continue;
    auto it = r.find(name.substr(0, name.size() - suffix.size()));
    if (it != r.end() && is_hist(it->second.slot)) {
      part = p;
      return &it->second;
    }
  }
  return nullptr;
}

struct HistAcc {
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative count)
  std::optional<double> sum, count;
  uint8_t prio = 0;
};

struct Acc {
  Family family = Family::vllm;
  std::string model, index;
  size_t used = 0;
  std::array<std::optional<double>, kScalars> scalar{};
  std::array<uint8_t, kScalars> prio{};
  std::array<HistAcc, kHists> hist;
  std::optional<double> trt_active, trt_waiting, trt_fraction, trt_used, trt_max, trt_tokens_per,
      triton_pending;
  bool trt_specific = false;
};

struct Detect {
  std::array<size_t, 6> family_series{};
  size_t bare_trt_with_engine_type = 0;
  std::vector<std::string> v0_markers, v1_markers;
  double vllm_ttft_max_finite_le = 0;
  bool vllm_ttft_has_inf = false;
};

void note_vllm_generation(std::string_view name, const PromParser& p, Detect& d) {
  auto add = [](std::vector<std::string>& v, std::string_view n) {
    if (v.size() < 3 && std::find(v.begin(), v.end(), n) == v.end()) v.emplace_back(n);
  };
  // V0-only names (vllm/engine/metrics.py); none exists in V1.
  static constexpr std::string_view kV0[] = {
      "vllm:num_requests_swapped", "vllm:cpu_cache_usage_perc", "vllm:gpu_prefix_cache_hit_rate",
      "vllm:cpu_prefix_cache_hit_rate", "vllm:avg_prompt_throughput_toks_per_s",
      "vllm:time_in_queue_requests"};
  // V1-only names (vllm/v1/metrics/loggers.py).
  static constexpr std::string_view kV1[] = {
      "vllm:kv_cache_usage_perc", "vllm:prefix_cache_queries_total",
      "vllm:gpu_prefix_cache_queries_total", "vllm:inter_token_latency_seconds_count",
      "vllm:request_time_per_output_token_seconds_count", "vllm:engine_sleep_state"};
  for (auto n : kV0)
    if (name == n) add(d.v0_markers, n);
  for (auto n : kV1)
    if (name == n) add(d.v1_markers, n);
  // V0 never exported *_created series (it disabled them); V1 does.
  if (ends_with(name, "_created")) add(d.v1_markers, "*_created series");
  if (p.label("engine")) add(d.v1_markers, "engine label");
  if (name == "vllm:time_to_first_token_seconds_bucket") {
    if (auto le = p.label("le")) {
      auto v = parse_prom_float(*le);
      if (v && std::isfinite(*v)) d.vllm_ttft_max_finite_le = std::max(d.vllm_ttft_max_finite_le, *v);
      if (v && std::isinf(*v)) d.vllm_ttft_has_inf = true;
    }
  }
}

std::optional<Family> family_of_name(std::string_view name) {
  if (starts_with(name, "vllm:")) return Family::vllm;
  if (starts_with(name, "sglang:")) return Family::sglang;
  if (starts_with(name, "tgi_")) return Family::tgi;
  if (starts_with(name, "llamacpp:")) return Family::llamacpp;
  if (starts_with(name, "nv_trt_llm_") || starts_with(name, "nv_inference_")) return Family::triton;
  return std::nullopt;
}

struct Decision {
  std::optional<Family> family;
  bool v0 = false;
  std::string why;
};

Decision decide(const Detect& d) {
  Decision out;
  static constexpr const char* kNames[] = {"vllm:", "sglang:", "tgi_", "llamacpp:",
                                           "nv_trt_llm_/nv_inference_", "trtllm_"};
  size_t best = 0;
  for (size_t i = 0; i < d.family_series.size(); ++i) {
    if (d.family_series[i] > best) {
      best = d.family_series[i];
      out.family = static_cast<Family>(i);
    }
  }
  if (!out.family && d.bare_trt_with_engine_type > 0) {
    out.family = Family::trtllm_serve;
    out.why = std::to_string(d.bare_trt_with_engine_type) +
              " unprefixed trtllm-serve series with an engine_type label";
    return out;
  }
  if (!out.family) return out;
  out.why = std::to_string(best) + " " + kNames[static_cast<size_t>(*out.family)] + " series";
  if (*out.family == Family::vllm) {
    // A complete V0 TTFT histogram ends at le="10.0" then +Inf; a cut excerpt proves nothing.
    bool ttft_v0 = d.vllm_ttft_has_inf && d.vllm_ttft_max_finite_le == 10.0;
    if (!d.v0_markers.empty() && d.v1_markers.empty()) {
      out.v0 = true;
      out.why += "; V0 marker " + d.v0_markers.front();
    } else if (d.v0_markers.empty() && d.v1_markers.empty() && ttft_v0) {
      // V0 TTFT buckets stop at 10 s; V1's go to 2560 s.
      out.v0 = true;
      out.why += "; V0 TTFT buckets (last finite le 10)";
    } else if (!d.v1_markers.empty()) {
      out.why += "; V1 marker " + d.v1_markers.front();
    } else {
      out.why += "; no V0/V1 marker, assumed V1";
    }
  }
  return out;
}

Acc& acc_for(std::vector<Acc>& accs, Family f, std::string_view model, std::string_view index) {
  for (auto& a : accs)
    if (a.family == f && a.model == model && a.index == index) return a;
  accs.emplace_back();
  accs.back().family = f;
  accs.back().model = std::string(model);
  accs.back().index = std::string(index);
  return accs.back();
}

void set_scalar(Acc& a, const Rule& r, double v) {
  size_t i = static_cast<size_t>(r.slot);
  if (a.scalar[i] && a.prio[i] > r.prio) return;
  if (r.sum && a.scalar[i] && a.prio[i] == r.prio) {
    *a.scalar[i] += v;
  } else {
    a.scalar[i] = v;
  }
  a.prio[i] = r.prio;
}

void add_hist(Acc& a, const Rule& r, Part part, const PromParser& p, EngineScrape& out) {
  HistAcc& h = a.hist[hist_index(r.slot)];
  if (h.prio > r.prio) return;
  if (h.prio < r.prio) h = HistAcc{{}, std::nullopt, std::nullopt, r.prio};
  switch (part) {
    case Part::bucket: {
      auto le_text = p.label("le");
      auto le = le_text ? parse_prom_float(*le_text) : std::nullopt;
      if (!le || std::isnan(*le)) {
        if (out.notes.size() < 20)
          out.notes.push_back("bucket of " + std::string(p.name()) + " without a valid le label skipped");
        return;
      }
      h.buckets.emplace_back(*le, p.value());
      return;
    }
    case Part::sum: h.sum = p.value(); return;
    case Part::count: h.count = p.value(); return;
    case Part::value: return;
  }
}

core::Histogram finish_hist(HistAcc& h, std::string_view what, const Acc& a, EngineScrape& out) {
  core::Histogram r;
  if (h.buckets.empty() && !h.count) return r;
  std::stable_sort(h.buckets.begin(), h.buckets.end());
  for (auto& [le, c] : h.buckets) {
    r.upper_bounds.push_back(le);
    r.cumulative_counts.push_back(c);
  }
  r.sum = h.sum.value_or(0);
  r.count = h.count ? *h.count : (h.buckets.empty() ? 0 : h.buckets.back().second);
  if (!r.upper_bounds.empty() && !std::isinf(r.upper_bounds.back()) && out.notes.size() < 20)
    out.notes.push_back(std::string(what) + " histogram of model '" + a.model +
                        "' has no +Inf bucket (truncated exposition?): quantiles unavailable");
  return r;
}

}  // namespace

EngineKind detect_engine(std::string_view exposition) {
  auto r = adapt_engine_metrics(exposition, 0, {});
  return r ? r->engine : EngineKind::unknown;
}

core::Result<EngineScrape> adapt_engine_metrics(std::string_view text, double t_s,
                                                const AdaptOptions& options) {
  EngineScrape out;
  PromOptions po;
  po.strict = options.strict;
  po.openmetrics = options.openmetrics;
  po.source = options.source;
  PromParser p(text, po);

  Detect det;
  std::vector<Acc> accs;
  // cache_config_info has no model_name: kept per engine index, applied at the end.
  std::vector<std::pair<std::string, double>> capacity_by_engine;
  std::string buf;
  size_t vllm_info_used = 0;

  for (PromEntry e; (e = p.next()) != PromEntry::end;) {
    if (e == PromEntry::error) return *p.first_error();
    if (e != PromEntry::series) continue;
    bool trt_prefixed = false;
    std::string_view name = normalize(p.name(), buf, trt_prefixed);
    if (auto f = family_of_name(name)) {
      ++det.family_series[static_cast<size_t>(*f)];
      if (*f == Family::vllm) note_vllm_generation(name, p, det);
    } else if (trt_prefixed) {
      ++det.family_series[static_cast<size_t>(Family::trtllm_serve)];
    }
    Part part;
    const Rule* rule = find_rule(name, part);
    if (!rule) continue;
    if (rule->family == Family::trtllm_serve && !trt_prefixed) {
      if (!p.label("engine_type")) continue;  // a bare name from something else
      ++det.bare_trt_with_engine_type;
    }
    std::string_view model = p.label("model_name").value_or(p.label("model").value_or(""));
    std::string_view index = p.label("engine").value_or(p.label("dp_rank").value_or(""));
    if (rule->slot == Slot::cache_config_info) {
      auto blocks = p.label("num_gpu_blocks");
      auto bs = p.label("block_size");
      auto nb = blocks ? parse_prom_float(*blocks) : std::nullopt;
      auto nbs = bs ? parse_prom_float(*bs) : std::nullopt;
      if (nb && nbs) capacity_by_engine.emplace_back(std::string(index), *nb * *nbs);
      ++vllm_info_used;
      continue;
    }
    // Accumulators are per family too, so that a mixed exposition stays apart.
    Acc& a = acc_for(accs, rule->family, model, index);
    ++a.used;
    double v = p.value();
    switch (rule->slot) {
      case Slot::trt_request: {
        a.trt_specific = true;
        auto t = p.label("request_type").value_or("");
        if (t == "active") a.trt_active = v;
        else if (t == "waiting") a.trt_waiting = v;
        break;
      }
      case Slot::trt_kv_block: {
        a.trt_specific = true;
        auto t = p.label("kv_cache_block_type").value_or("");
        if (t == "fraction") a.trt_fraction = v;
        else if (t == "used") a.trt_used = v;
        else if (t == "max") a.trt_max = v;
        else if (t == "tokens_per") a.trt_tokens_per = v;
        break;
      }
      case Slot::triton_pending: a.triton_pending = v; break;
      case Slot::pc_hit_rate:
        if (v >= 0) set_scalar(a, *rule, v);  // vLLM V0 writes -1 when prefix caching is off
        break;
      default:
        if (is_hist(rule->slot)) add_hist(a, *rule, part, p, out);
        else if (part == Part::value) set_scalar(a, *rule, v);
        break;
    }
  }

  Decision d = decide(det);
  out.series = p.series_count();
  out.malformed = p.malformed_count();
  out.errors = p.errors();
  if (options.engine != EngineKind::unknown) {
    out.engine = options.engine;
    out.detected_by = "given";
  } else if (d.family) {
    out.engine = kind_of(*d.family, d.v0);
    out.detected_by = d.why;
  }
  if (out.engine == EngineKind::unknown) return out;
  // Which rule family the chosen engine reads.
  auto wanted = [&](EngineKind k) -> std::optional<Family> {
    switch (k) {
      case EngineKind::vllm:
      case EngineKind::vllm_v0: return Family::vllm;
      case EngineKind::sglang: return Family::sglang;
      case EngineKind::tgi: return Family::tgi;
      case EngineKind::llamacpp: return Family::llamacpp;
      case EngineKind::trtllm:
        return d.family == Family::trtllm_serve ? Family::trtllm_serve : Family::triton;
      case EngineKind::ollama:
      case EngineKind::unknown: return std::nullopt;
    }
    return std::nullopt;
  }(out.engine);
  if (wanted == Family::vllm) out.series_used += vllm_info_used;

  bool any_trt_specific = std::any_of(accs.begin(), accs.end(), [](const Acc& a) { return a.trt_specific; });
  for (auto& a : accs) {
    if (a.family != wanted) continue;
    out.series_used += a.used;
    // Triton ensembles expose nv_inference_* for every model (preprocessing, ensemble, ...):
    // keep the ones that are the TensorRT-LLM engine.
    if (wanted == Family::triton && any_trt_specific && !a.trt_specific) continue;
    core::EngineSample s;
    s.t_s = t_s;
    s.engine = out.engine;
    s.model_name = a.model;
    s.engine_index = a.index;
    auto get = [&](Slot sl) { return a.scalar[static_cast<size_t>(sl)]; };
    s.running = get(Slot::running);
    s.waiting = get(Slot::waiting);
    s.swapped = get(Slot::swapped);
    s.kv_usage = get(Slot::kv_usage);
    s.preemptions_total = get(Slot::preemptions);
    s.prompt_tokens_total = get(Slot::prompt_tokens);
    s.generation_tokens_total = get(Slot::generation_tokens);
    s.requests_finished_total = get(Slot::finished);
    s.prefix_cache_queries_total = get(Slot::pc_queries);
    s.prefix_cache_hits_total = get(Slot::pc_hits);
    s.prefix_cache_hit_rate = get(Slot::pc_hit_rate);
    s.prompt_throughput_tok_s = get(Slot::prompt_tput);
    s.generation_throughput_tok_s = get(Slot::gen_tput);
    s.kv_cache_capacity_tokens = get(Slot::capacity_tokens);
    s.longest_sequence_tokens = get(Slot::longest_seq);
    // llama.cpp counts prompt tokens it evaluated and those it reused apart: queries are both.
    if (out.engine == EngineKind::llamacpp && s.prefix_cache_hits_total && s.prompt_tokens_total)
      s.prefix_cache_queries_total = *s.prompt_tokens_total + *s.prefix_cache_hits_total;
    if (out.engine == EngineKind::sglang && s.prefix_cache_hits_total && s.prompt_tokens_total)
      s.prefix_cache_queries_total = s.prompt_tokens_total;
    if (wanted == Family::triton) {
      s.running = a.trt_active;
      s.waiting = a.trt_waiting ? a.trt_waiting : a.triton_pending;
      if (a.trt_fraction) s.kv_usage = a.trt_fraction;
      else if (a.trt_used && a.trt_max && *a.trt_max > 0) s.kv_usage = *a.trt_used / *a.trt_max;
      if (a.trt_max && a.trt_tokens_per) s.kv_cache_capacity_tokens = *a.trt_max * *a.trt_tokens_per;
    }
    for (const auto& [idx, cap] : capacity_by_engine)  // vLLM cache_config_info
      if (idx.empty() || idx == a.index) s.kv_cache_capacity_tokens = cap;
    auto H = [&](Slot sl, const char* what) { return finish_hist(a.hist[hist_index(sl)], what, a, out); };
    s.ttft_s = H(Slot::h_ttft, "TTFT");
    s.itl_s = H(Slot::h_itl, "ITL");
    s.tpot_s = H(Slot::h_tpot, "TPOT");
    s.e2e_s = H(Slot::h_e2e, "E2E");
    s.queue_s = H(Slot::h_queue, "queue");
    s.prefill_s = H(Slot::h_prefill, "prefill");
    s.decode_s = H(Slot::h_decode, "decode");
    s.prompt_tokens = H(Slot::h_prompt_len, "prompt length");
    s.output_tokens = H(Slot::h_output_len, "output length");
    out.samples.push_back(std::move(s));
  }
  std::sort(out.samples.begin(), out.samples.end(), [](const auto& x, const auto& y) {
    return std::tie(x.model_name, x.engine_index) < std::tie(y.model_name, y.engine_index);
  });
  if (!det.v0_markers.empty() && out.engine == EngineKind::vllm && !det.v1_markers.empty())
    out.notes.push_back("both V0 and V1 vLLM names present; read as V1");
  return out;
}

}  // namespace llmtriage::ingest
