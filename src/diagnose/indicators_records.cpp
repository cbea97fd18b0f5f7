// Indicators from request records, log events, the deployment's settings and sampled outputs
// (docs/rules.md, "Derived indicators").
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <unordered_map>

#include "core/quantile.h"
#include "diagnose/indicators_detail.h"
#include "diagnose/output_checks.h"
#include "ingest/engine_log.h"

namespace llmtriage::diagnose {

namespace {

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// A timeout by its category, or a 504 (Gateway Timeout: the proxy gave up on the upstream; the
// bench records it as "http_504", access logs as status 504).
bool is_timeout(const std::string& cat) {
  return contains(cat, "timeout") || cat == "http_504" || cat == "504" || cat == "status_504";
}

// Broken mid-body: the stream started and did not end cleanly (net/failure.h, bench runner).
bool is_stream_break(const std::string& cat) {
  return cat == "reset" || cat == "incomplete_stream" || cat == "sse_truncated" || cat == "stream_error" ||
         cat == "malformed_sse" || cat == "stream_break" || contains(cat, "connection_reset");
}

// "req-7#2" (the simulator's retry attempt), "abc-retry-1": the id of the first attempt.
std::string_view first_attempt_id(std::string_view id) {
  auto p = id.find('#');
  if (p != std::string_view::npos) return id.substr(0, p);
  p = id.find("-retry");
  if (p != std::string_view::npos) return id.substr(0, p);
  return id;
}

// The quantization marker in a checkpoint name ("Qwen2.5-32B-Instruct-GPTQ-Int4" -> "gptq"), or "".
std::string quantized_name(const std::string& model) {
  std::string m;
  for (char ch : model) m += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  static constexpr const char* kMarkers[] = {"gptq", "awq", "int4", "int8", "fp8", "w4a16", "w8a8", "w4a8", "nvfp4",
                                             "mxfp4", "bnb", "4bit", "8bit", "nf4", "exl2", "gguf", "q4_k", "q5_k",
                                             "q6_k", "q8_0", "q4_0"};
  for (const char* k : kMarkers)
    if (m.find(k) != std::string::npos) return k;
  return "";
}

// Cut by the run's own end (Ctrl-C, --deadline) or never sent: neither a success nor a failure
// of the server, so left out of every share and rate (bench runner categories).
bool cut_by_run_end(const core::RequestRecord& r) {
  if (r.status != core::RequestStatus::error) return false;
  const std::string& c = r.error_category;
  return c == "interrupted" || c == "deadline" || c == "not_sent" || (!r.send_s && c == "cancelled");
}

double share(size_t k, size_t n) { return n ? static_cast<double>(k) / static_cast<double>(n) : 0; }

// core/quantile.h's definition (type 7, linear between closest ranks) by selection instead of a
// full sort: O(n) per quantile, which keeps the analysis of 1M records a small fraction of reading
// them. Reorders `v` (the set of values is unchanged, so it can be called again).
double quantile_select(std::vector<double>& v, double q) {
  const double h = static_cast<double>(v.size() - 1) * q;
  const size_t k = static_cast<size_t>(h);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  const double lo = v[k];
  const double frac = h - static_cast<double>(k);
  if (frac <= 0 || k + 1 >= v.size()) return lo;
  const double hi = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(k) + 1, v.end());
  return lo + frac * (hi - lo);
}

double mean_of(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

}  // namespace

void summarize_deployment(const core::Deployment& d, IndicatorMap& out) {
  const auto& s = d.settings;
  const std::string src = "engine settings";
  auto put = [&](const char* name, double v) { out[name] = Indicator{v, src}; };
  if (s.tensor_parallel_size) put("tp", *s.tensor_parallel_size);
  if (s.max_num_seqs) put("max_num_seqs", static_cast<double>(*s.max_num_seqs));
  if (s.max_num_batched_tokens) put("max_num_batched_tokens", static_cast<double>(*s.max_num_batched_tokens));
  if (s.max_model_len) put("max_model_len", static_cast<double>(*s.max_model_len));
  if (s.enable_chunked_prefill) put("chunked_prefill", *s.enable_chunked_prefill ? 1 : 0);
  if (s.enable_prefix_caching) put("prefix_caching", *s.enable_prefix_caching ? 1 : 0);
  if (s.gpu_memory_utilization) put("gpu_memory_utilization", *s.gpu_memory_utilization);
  else if (s.mem_fraction_static) put("gpu_memory_utilization", *s.mem_fraction_static);
  if (s.data_parallel_size && *s.data_parallel_size > 1) put("replicas", *s.data_parallel_size);
  if (s.kv_cache_dtype) {
    const std::string& k = *s.kv_cache_dtype;
    put("kv_cache_quantized", (k.rfind("fp8", 0) == 0 || k.rfind("int8", 0) == 0 || k.rfind("fp4", 0) == 0) ? 1 : 0);
  }
  if (s.quantization) {
    put("weights_quantized", (!s.quantization->empty() && *s.quantization != "none") ? 1 : 0);
  } else if (auto q = quantized_name(!d.model.empty() ? d.model : s.model.value_or("")); !q.empty()) {
    // No flag: the checkpoint's name says it (offline API runs, checkpoints carrying their own config).
    out["weights_quantized"] = Indicator{1, "model name (\"" + q + "\" in " + (!d.model.empty() ? d.model : *s.model) + ")"};
  }
}

void summarize_records(const std::vector<core::RequestRecord>& records, const Thresholds& th, IndicatorMap& out) {
  if (records.empty()) return;
  size_t cut = 0;
  const core::RequestRecord* first_ran = nullptr;
  for (const auto& r : records) {
    if (cut_by_run_end(r)) ++cut;
    else if (!first_ran) first_ran = &r;
  }
  if (cut > 0)
    out["records_cut"] = Indicator{static_cast<double>(cut), fmt::format("records: {} of {} requests cut by the run's end or never sent (a partial run): left out of every rate and share", cut, records.size())};
  if (!first_ran) return;
  const size_t n = records.size() - cut;
  const std::string src = cut ? fmt::format("records ({} requests that ran; {} cut by the run's end)", n, cut)
                              : fmt::format("records ({} requests)", n);
  std::vector<double> in_len, out_len, ttft, tpot, e2e, temps, timeout_durations, break_durations;
  size_t ok = 0, errors = 0, timeouts = 0, breaks = 0, one_token = 0, ignore_eos = 0, with_eos_flag = 0, retries = 0;
  std::map<int64_t, size_t> max_tokens_count;
  std::unordered_map<int64_t, size_t> out_len_count;
  std::vector<uint64_t> id_hashes;  // 64-bit hashes of first-attempt ids; duplicates counted after a sort
  id_hashes.reserve(records.size());
  const std::hash<std::string_view> hash_id;
  double t_first = first_ran->arrival_s, t_last_arrival = t_first, t_end = t_first;
  int64_t longest_output = 0;
  for (const auto& r : records) {
    if (cut && cut_by_run_end(r)) continue;
    t_first = std::min(t_first, r.arrival_s);
    t_last_arrival = std::max(t_last_arrival, r.arrival_s);
    if (r.input_tokens) in_len.push_back(static_cast<double>(*r.input_tokens));
    if (r.temperature) temps.push_back(*r.temperature);
    if (r.ignore_eos) { ++with_eos_flag; if (*r.ignore_eos) ++ignore_eos; }
    if (!r.id.empty()) {
      if (first_attempt_id(r.id).size() != r.id.size()) ++retries;  // a retry suffix
      else id_hashes.push_back(hash_id(r.id));
    }
    if (r.status == core::RequestStatus::error) {
      ++errors;
      const std::optional<double> failed_after = r.e2e_s ? r.e2e_s : r.failed_after_s;
      if (is_timeout(r.error_category)) {
        ++timeouts;
        if (failed_after) timeout_durations.push_back(*failed_after);
      } else if (is_stream_break(r.error_category)) {
        ++breaks;
        if (failed_after) break_durations.push_back(*failed_after);
      }
      continue;
    }
    ++ok;
    if (r.e2e_s) t_end = std::max(t_end, r.arrival_s + *r.e2e_s);
    if (r.output_tokens) {
      out_len.push_back(static_cast<double>(*r.output_tokens));
      ++out_len_count[*r.output_tokens];
      longest_output = std::max(longest_output, *r.output_tokens);
      if (*r.output_tokens == 1) ++one_token;
    }
    if (r.max_tokens) ++max_tokens_count[*r.max_tokens];
    if (r.ttft_s) ttft.push_back(*r.ttft_s);
    if (r.e2e_s) e2e.push_back(*r.e2e_s);
    if (r.ttft_s && r.e2e_s && r.output_tokens && *r.output_tokens > 1)
      tpot.push_back((*r.e2e_s - *r.ttft_s) / static_cast<double>(*r.output_tokens - 1));
  }
  auto put = [&](const char* name, double v, const std::string& how = {}) {
    out[name] = Indicator{v, how.empty() ? src : src + ": " + how};
  };
  put("records_count", static_cast<double>(n));
  put("records_ok", static_cast<double>(ok));
  put("error_rate", share(errors, n), fmt::format("{} failed", errors));
  if (!in_len.empty()) {
    put("input_len_mean", mean_of(in_len));
    put("longest_input_tokens", *std::max_element(in_len.begin(), in_len.end()));
    put("input_len_p50", quantile_select(in_len, 0.5));
    put("input_len_p99", quantile_select(in_len, 0.99));
  }
  if (!out_len.empty()) {
    put("output_len_mean", mean_of(out_len), "ok requests");
    put("output_len_p50", quantile_select(out_len, 0.5), "ok requests");
    put("one_token_output_share", share(one_token, out_len.size()), fmt::format("{} of {} ok requests generated 1 token", one_token, out_len.size()));
  }
  if (!ttft.empty()) {
    put("ttft_p50_s", quantile_select(ttft, 0.5), "ok requests");
    put("ttft_p99_s", quantile_select(ttft, 0.99), "ok requests");
  }
  if (!tpot.empty()) {
    put("tpot_p50_s", quantile_select(tpot, 0.5), "(e2e - ttft) / (output - 1)");
    put("tpot_p99_s", quantile_select(tpot, 0.99), "(e2e - ttft) / (output - 1)");
  }
  if (!e2e.empty()) put("e2e_p99_s", quantile_select(e2e, 0.99), "ok requests");
  // Rates: the engine's counters when the metrics gave them (the whole service), else the records.
  // Arrivals that all fall inside one request's lifetime (a closed loop's first wave that the run's
  // end cut short, a burst sent at once) have no arrival rate to speak of: n - 1 gaps over a few
  // microseconds would read as thousands per second. Then the rate is the requests over the
  // window they were served in, first arrival to last end, and the text says so.
  std::optional<std::pair<double, std::string>> rate;
  const double e2e_p50 = e2e.empty() ? 0 : quantile_select(e2e, 0.5);
  if (n >= 2 && t_last_arrival > t_first && (t_last_arrival - t_first) >= e2e_p50)
    rate = {static_cast<double>(n - 1) / (t_last_arrival - t_first), "arrivals / span"};
  else if (n >= 2 && t_end > t_first)
    rate = {static_cast<double>(n) / (t_end - t_first),
            fmt::format("requests / served window (first arrival to last end): the {} arrivals came as one burst", n)};
  if (rate && !out.count("request_rate")) put("request_rate", rate->first, rate->second);
  // What the clients sent, kept apart from the engine's count: more finished requests at the
  // server than clients sent are copies (retries after a gateway cut) or another client's traffic.
  if (rate) put("records_request_rate", rate->first, "client " + rate->second);
  // The clients' mean concurrency by Little's law: the time the requests spent in flight (send to
  // last byte) over the span they cover. What the service was asked to hold at once, queued or
  // running, wherever it queued (the engine's waiting gauge, an HTTP thread pool, a listen backlog).
  {
    double busy = 0, lo = 0, hi = 0;
    size_t m = 0;
    for (const auto& r : records) {
      if ((cut && cut_by_run_end(r)) || r.status != core::RequestStatus::ok || !r.e2e_s) continue;
      const double s0 = r.send_s.value_or(r.arrival_s);
      lo = m ? std::min(lo, s0) : s0;
      hi = m ? std::max(hi, s0 + *r.e2e_s) : s0 + *r.e2e_s;
      busy += *r.e2e_s;
      ++m;
    }
    if (m >= 2 && hi > lo)
      put("client_in_flight_mean", busy / (hi - lo),
          fmt::format("{} ok requests' time in flight / the {:.1f} s they span (Little's law)", m, hi - lo));
  }
  if (!out_len.empty() && t_end > t_first && !out.count("output_tokens_per_s")) {
    double sum = 0;
    for (double v : out_len) sum += v;
    put("output_tokens_per_s", sum / (t_end - t_first), fmt::format("output tokens / {:.0f} s from first arrival to last completion", t_end - t_first));
  }
  if (!temps.empty()) {
    double sum = 0;
    for (double v : temps) sum += v;
    put("temperature_mean", sum / static_cast<double>(temps.size()));
  }
  if (with_eos_flag) put("ignore_eos_share", share(ignore_eos, n));

  // The cap most answers ran into: the most common max_tokens; without max_tokens in the
  // records, the most common output length when it is also the longest one (answers pile up at
  // a limit the records do not state).
  std::optional<int64_t> cap;
  std::string cap_how;
  if (!max_tokens_count.empty()) {
    auto it = std::max_element(max_tokens_count.begin(), max_tokens_count.end(),
                               [](auto& a, auto& b) { return a.second < b.second; });
    cap = it->first;
    cap_how = "most common max_tokens";
  } else if (!out_len_count.empty()) {
    // Ties go to the shorter length, whatever the hash map's order.
    auto it = std::max_element(out_len_count.begin(), out_len_count.end(), [](auto& a, auto& b) {
      return a.second < b.second || (a.second == b.second && a.first > b.first);
    });
    if (it->first == longest_output && it->first >= th.get("load.max_tokens_min") && it->second >= 2) {
      cap = it->first;
      cap_how = "no max_tokens in the records: the most common output length, which is also the longest";
    }
  }
  if (cap && !out_len.empty()) {
    size_t at_cap = 0;
    for (double v : out_len) at_cap += static_cast<int64_t>(v) == *cap;
    put("max_tokens_mode", static_cast<double>(*cap), cap_how);
    if (!max_tokens_count.empty()) {
      size_t with = 0;
      for (const auto& [k, v] : max_tokens_count) with += v;
      put("max_tokens_mode_share", share(max_tokens_count[*cap], with), "share of requests sending the most common max_tokens");
    }
    // Inferred caps cannot tell a cutoff from a benchmark pinning its output lengths.
    put("max_tokens_inferred", max_tokens_count.empty() ? 1 : 0, cap_how);
    put("output_len_max_share", share(at_cap, out_len.size()),
        fmt::format("{} of {} ok requests generated exactly {} tokens", at_cap, out_len.size(), *cap));
  }

  std::sort(id_hashes.begin(), id_hashes.end());
  for (size_t i = 1; i < id_hashes.size(); ++i) retries += id_hashes[i] == id_hashes[i - 1];  // the same id sent again
  put("timeout_error_share", share(timeouts, n), fmt::format("{} timed out", timeouts));
  put("stream_break_share", share(breaks, n), fmt::format("{} broken mid-stream", breaks));
  put("retry_duplicate_share", share(retries, n), fmt::format("{} retried ids", retries));
  // The densest +-5% window of failed requests' durations: a deadline shows as one spike.
  auto cluster = [&](std::vector<double>& d, const char* at, const char* sh, const char* what) {
    if (d.empty()) return;
    std::sort(d.begin(), d.end());
    size_t best = 0, best_lo = 0, lo = 0;
    for (size_t hi = 0; hi < d.size(); ++hi) {
      while (d[lo] < d[hi] * (0.95 / 1.05)) ++lo;
      if (hi - lo + 1 > best) { best = hi - lo + 1; best_lo = lo; }
    }
    std::span<const double> window(d.data() + best_lo, best);
    put(at, *core::quantile_sorted(window, 0.5), fmt::format("median duration of the densest +-5% cluster of {}", what));
    put(sh, share(best, d.size()), fmt::format("{} of {} {} within +-5% of one duration", best, d.size(), what));
  };
  cluster(timeout_durations, "timeout_cluster_s", "timeout_cluster_share", "timeouts");
  cluster(break_durations, "stream_break_cluster_s", "stream_break_cluster_share", "broken streams");
}

namespace {

// The file of an event's source "vllm.log:1234".
std::string_view source_file(std::string_view src) {
  const auto colon = src.rfind(':');
  if (colon == std::string_view::npos || colon + 1 >= src.size()) return src;
  for (size_t i = colon + 1; i < src.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(src[i]))) return src;
  return src.substr(0, colon);
}

// A cumulative counter printed in log lines (vLLM V0's total_num_cumulative_preemption) is read
// the way a Prometheus counter is: per file, the increase between the first and the last reading
// over the time between those lines, a fall counted from zero (a restart). Its value is a count
// since the engine started, so it is never divided by a duration; one reading gives no rate.
void log_counter_rate(const core::Evidence& ev, core::EventKind kind, const char* field, const char* total_name,
                      const char* rate_name, IndicatorMap& out) {
  struct Reading { double t, v; std::string src; };
  std::map<std::string, std::vector<Reading>, std::less<>> by_file;
  for (const auto& e : ev.events) {
    if (e.kind != kind || !e.t_s) continue;
    auto f = e.fields.find(field);
    if (f == e.fields.end() || !std::isfinite(f->second)) continue;
    by_file[std::string(source_file(e.source))].push_back({*e.t_s, f->second, e.source});
  }
  double total = 0, rate = 0;
  int series = 0;
  std::string how;
  for (auto& [file, rs] : by_file) {
    std::stable_sort(rs.begin(), rs.end(), [](const Reading& a, const Reading& b) { return a.t < b.t; });
    if (rs.size() < 2 || rs.back().t <= rs.front().t) continue;
    double inc = 0;
    for (size_t i = 1; i < rs.size(); ++i) inc += rs[i].v >= rs[i - 1].v ? rs[i].v - rs[i - 1].v : rs[i].v;
    const double span = rs.back().t - rs.front().t;
    total += inc;
    rate += inc / span;
    ++series;
    how += fmt::format("{}{} {:.0f} -> {:.0f} over {:.0f} s ({} to {})", how.empty() ? "" : "; ", field, rs.front().v,
                       rs.back().v, span, rs.front().src, rs.back().src);
  }
  if (series == 0) return;
  const std::string src = "logs: increase of a cumulative counter between lines: " + how;
  if (rate_name && !out.count(rate_name)) out[rate_name] = Indicator{rate, src};
  if (total_name && !out.count(total_name)) out[total_name] = Indicator{total, src};
}

}  // namespace

void summarize_events(const core::Evidence& ev, IndicatorMap& out) {
  if (ev.events.empty()) return;
  log_counter_rate(ev, core::EventKind::preemption, "cumulative_preemptions", "preemptions_total", "preemptions_per_s",
                   out);
  std::map<core::EventKind, std::pair<size_t, std::string>> count;  // count, first source
  size_t startup_oom = 0;
  std::optional<double> kv_log;
  std::string kv_src;
  bool served = !ev.requests.empty();
  for (const auto& s : ev.engine_samples)
    if ((s.generation_tokens_total && *s.generation_tokens_total > 0) || (s.running && *s.running > 0)) served = true;
  for (const auto& e : ev.events) {
    auto& c = count[e.kind];
    if (c.first++ == 0) c.second = e.source;
    if (e.kind == core::EventKind::oom) {
      // The line's own phase (traceback frames, a startup-only cause); nothing served before it
      // decides only when the text says neither.
      const ingest::OomPhase ph = ingest::oom_phase(e);
      if (ph == ingest::OomPhase::startup || (ph == ingest::OomPhase::unknown && !served)) ++startup_oom;
    }
    if (e.kind == core::EventKind::startup_memory) {
      if (auto f = e.fields.find("kv_tokens"); f != e.fields.end()) {
        kv_log = f->second;  // the last start in the log is the one serving
        kv_src = e.source;
      }
    }
  }
  // The engine's own per-request decode timing where nothing better measured it (no records, no
  // histograms): llama.cpp's print_timings "eval time ... ms per token" and Ollama's --verbose
  // "eval rate". The "prompt eval" lines share the words and are prefill, not decode.
  if (!out.count("tpot_p50_s")) {
    std::vector<double> tpot;
    std::string src;
    for (const auto& e : ev.events) {
      auto sig = e.labels.find("signature");
      if (sig == e.labels.end()) continue;
      std::string low = e.text;
      for (auto& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (low.find("prompt eval") != std::string::npos) continue;
      std::optional<double> t;
      if (auto f = e.fields.find("ms_per_token"); sig->second == "llamacpp_eval_timing" && f != e.fields.end() && f->second > 0)
        t = f->second / 1000;
      if (auto f = e.fields.find("tok_per_s"); sig->second == "ollama_verbose_eval_rate" && f != e.fields.end() && f->second > 0)
        t = 1 / f->second;
      if (!t) continue;
      tpot.push_back(*t);
      if (src.empty()) src = e.source;
    }
    if (!tpot.empty()) {
      std::sort(tpot.begin(), tpot.end());
      const double p50 = tpot[(tpot.size() - 1) / 2];
      out["tpot_p50_s"] = Indicator{p50, fmt::format("logs: the engine's own decode timing, median of {} request(s), first at {}", tpot.size(), src)};
      if (!out.count("output_tokens_per_s"))
        out["output_tokens_per_s"] = Indicator{1 / p50, fmt::format("logs: 1 / the engine's per-token decode time ({} request(s), one stream)", tpot.size())};
    }
  }
  auto put_count = [&](const char* name, core::EventKind k) {
    auto it = count.find(k);
    const size_t c = it == count.end() ? 0 : it->second.first;
    out[name] = Indicator{static_cast<double>(c), c ? fmt::format("logs: {} event(s), first at {}", c, it->second.second)
                                                    : "logs: none seen"};
  };
  put_count("oom_events", core::EventKind::oom);
  put_count("preemption_events", core::EventKind::preemption);
  put_count("truncation_events", core::EventKind::context_truncated);
  put_count("max_len_exceeds_kv_events", core::EventKind::max_len_exceeds_kv);
  put_count("engine_dead_events", core::EventKind::engine_dead);
  put_count("kv_cache_full_events", core::EventKind::kv_cache_full);
  out["startup_oom_events"] = Indicator{static_cast<double>(startup_oom), "logs: OOM before any request was served"};
  if (kv_log) {
    out["kv_capacity_tokens_log"] = Indicator{*kv_log, "log: " + kv_src};
    if (!out.count("kv_capacity_tokens")) out["kv_capacity_tokens"] = out["kv_capacity_tokens_log"];
  }
}

void summarize_outputs(const std::vector<std::string>& outputs, const Thresholds& th, IndicatorMap& out) {
  if (outputs.empty()) return;
  size_t markers = 0, repetitive = 0, garbled = 0;
  std::string first_marker;
  const double rep = th.get("numeric.repeated_ngram_fraction");
  for (const auto& o : outputs) {
    if (auto m = template_marker(o); !m.empty()) {
      if (markers++ == 0) first_marker = std::string(m);
    }
    if (repeated_ngram_fraction(o) >= rep) ++repetitive;
    if (is_garbled(o)) ++garbled;
  }
  const size_t n = outputs.size();
  const std::string src = fmt::format("outputs ({} sampled texts)", n);
  out["outputs_count"] = Indicator{static_cast<double>(n), src};
  out["template_marker_share"] = Indicator{share(markers, n), markers ? fmt::format("{}: {} contain raw markers, first \"{}\"", src, markers, first_marker)
                                                                      : src + ": no raw chat markers"};
  out["repetitive_output_share"] = Indicator{share(repetitive, n), fmt::format("{}: {} repeat a word 4-gram for >= {:.0f}% of their text", src, repetitive, rep * 100)};
  out["garbled_output_share"] = Indicator{share(garbled, n), fmt::format("{}: {} garbled", src, garbled)};
}

}  // namespace llmtriage::diagnose
