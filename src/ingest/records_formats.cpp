// Third-party record formats: vLLM/SGLang bench result arrays, AIPerf/GenAI-Perf exports, nginx
// and Envoy JSON access logs. What each cannot provide is listed in docs/logs-and-records.md.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ingest/log_text.h"
#include "ingest/records_detail.h"

namespace llmtriage::ingest::detail {

namespace {

std::optional<double> jnum(const nlohmann::json& j) {
  if (j.is_number()) {
    double d = j.get<double>();
    if (std::isfinite(d)) return d;
    return std::nullopt;
  }
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    size_t pos = 0;
    auto d = logtext::number_at(s, pos);
    if (d && pos == s.size()) return d;
  }
  return std::nullopt;
}

// nlohmann's value() throws on a type mismatch; these never do.
std::string str_or(const nlohmann::json& o, const char* k, const std::string& def) {
  if (!o.is_object()) return def;
  auto it = o.find(k);
  return it != o.end() && it->is_string() ? it->get<std::string>() : def;
}
bool bool_or(const nlohmann::json& o, const char* k, bool def) {
  if (!o.is_object()) return def;
  auto it = o.find(k);
  return it != o.end() && it->is_boolean() ? it->get<bool>() : def;
}
nlohmann::json member(const nlohmann::json& o, const char* k) {
  if (!o.is_object()) return nlohmann::json();
  auto it = o.find(k);
  return it != o.end() ? *it : nlohmann::json();
}

// Seconds per unit for AIPerf/GenAI-Perf "unit" strings.
std::optional<double> unit_to_s(std::string_view u) {
  if (u == "ms") return 1e-3;
  if (u == "s" || u == "sec") return 1.0;
  if (u == "us") return 1e-6;
  if (u == "ns") return 1e-9;
  return std::nullopt;
}

}  // namespace

// vLLM `bench serve --save-result --save-detailed` and SGLang `bench_serving --output-details`:
// {"input_lens": [...], "output_lens": [...], "ttfts": [s], "itls": [[s, ...]], "errors": [""],
//  optional "start_times": [perf_counter s]} — per-request arrays of equal length.
// E2E = ttft + sum(itls): vLLM's client sets latency = last chunk time - start, ttft = first
// chunk - start and each itl = chunk - previous chunk, so the sum is exact, not an estimate.
void read_bench_arrays(std::string_view doc, int64_t first_line, int run_index, RecordSink& sink) {
  nlohmann::json j = nlohmann::json::parse(doc, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    sink.bad(first_line, "invalid_json", "not a JSON object");
    return;
  }
  auto arr = [&](const char* k) -> const nlohmann::json* {
    auto it = j.find(k);
    return it != j.end() && it->is_array() ? &*it : nullptr;
  };
  const auto* ttfts = arr("ttfts");
  const auto* itls = arr("itls");
  const auto* in = arr("input_lens");
  const auto* out = arr("output_lens");
  const auto* errs = arr("errors");
  const auto* starts = arr("start_times");
  if (!ttfts && !in) {
    ++sink.res.records_skipped;  // a run summary without per-request detail
    sink.issue(first_line, "missing_field", "ttfts/input_lens (run saved without --save-detailed?)");
    return;
  }
  size_t n = 0;
  for (const auto* a : {ttfts, itls, in, out, errs}) if (a) n = std::max(n, a->size());
  std::string model;
  for (const char* k : {"model_id", "model"})
    if (auto it = j.find(k); it != j.end() && it->is_string()) model = it->get<std::string>();
  if (!starts) sink.arrival_known = false;
  double t0 = 0;
  if (starts && !starts->empty()) {
    t0 = INFINITY;
    for (const auto& s : *starts) if (auto d = jnum(s)) t0 = std::min(t0, *d);
    if (!std::isfinite(t0)) t0 = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    core::RequestRecord r;
    r.id = run_index > 0 ? "run" + std::to_string(run_index) + "-" + std::to_string(i) : std::to_string(i);
    r.model = model;
    std::string err;
    if (errs && i < errs->size() && (*errs)[i].is_string()) err = (*errs)[i].get<std::string>();
    bool failed = !err.empty();
    if (failed) {
      r.status = core::RequestStatus::error;
      r.error_category = text_category(err);
    }
    if (in && i < in->size()) if (auto d = jnum((*in)[i])) r.input_tokens = clamp_i64(*d);
    if (!failed && out && i < out->size()) if (auto d = jnum((*out)[i])) r.output_tokens = clamp_i64(*d);
    if (starts && i < starts->size()) if (auto d = jnum((*starts)[i])) r.arrival_s = *d - t0;
    // A failed request carries ttft 0.0 and no itls in these files: not a measurement.
    if (!failed && ttfts && i < ttfts->size()) {
      if (auto d = jnum((*ttfts)[i]); d && *d > 0) {
        r.ttft_s = *d;
        double t = *d, sum = 0;
        r.chunk_times_s.push_back(t);
        if (itls && i < itls->size() && (*itls)[i].is_array()) {
          for (const auto& g : (*itls)[i]) {
            if (auto x = jnum(g)) {
              t += *x;
              sum += *x;
              r.chunk_times_s.push_back(t);
            }
          }
        }
        r.e2e_s = *d + sum;
      }
    }
    sink.emit(std::move(r));
  }
}

// AIPerf / GenAI-Perf profile_export.jsonl:
// {"metadata": {"x_request_id", "request_start_ns", "request_end_ns", "benchmark_phase",
//   "was_cancelled"}, "metrics": {"time_to_first_token": {"value", "unit"}, "request_latency",
//   "input_sequence_length", "output_sequence_length", "inter_chunk_latency"}, "error": null|{..}}
void read_aiperf_line(std::string_view line, int64_t n, RecordSink& sink) {
  nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    sink.bad(n, "invalid_json", line.substr(0, 60));
    return;
  }
  const auto md = member(j, "metadata");
  const auto mt = member(j, "metrics");
  if (!md.is_object() || !mt.is_object()) {
    sink.bad(n, "missing_field", "metadata/metrics");
    return;
  }
  if (str_or(md, "benchmark_phase", "profiling") == "warmup" && !sink.opt.include_warmup) {
    ++sink.res.records_skipped;
    return;
  }
  core::RequestRecord r;
  for (const char* k : {"x_request_id", "x_correlation_id", "conversation_id"})
    if (auto it = md.find(k); it != md.end() && it->is_string()) { r.id = it->get<std::string>(); break; }
  if (r.id.empty()) r.id = std::to_string(sink.emitted);
  auto start = md.find("request_start_ns");
  if (start == md.end() || !jnum(*start)) {
    sink.bad(n, "missing_field", "metadata.request_start_ns");
    return;
  }
  r.arrival_s = *jnum(*start) * 1e-9;
  auto metric = [&](const char* k, bool time) -> std::optional<double> {
    auto it = mt.find(k);
    if (it == mt.end()) return std::nullopt;
    const auto& m = *it;
    std::optional<double> v = m.is_object() ? jnum(member(m, "value")) : jnum(m);
    if (!v) return std::nullopt;
    if (time) {
      std::string unit = m.is_object() ? str_or(m, "unit", "ms") : "ms";
      auto f = unit_to_s(unit);
      if (!f) {
        sink.issue(n, "bad_value", std::string(k) + " unit " + unit);
        return std::nullopt;
      }
      *v *= *f;
    }
    return v;
  };
  r.ttft_s = metric("time_to_first_token", true);
  r.e2e_s = metric("request_latency", true);
  if (auto d = metric("input_sequence_length", false)) r.input_tokens = clamp_i64(*d);
  if (auto d = metric("output_sequence_length", false)) r.output_tokens = clamp_i64(*d);
  if (auto it = mt.find("inter_chunk_latency"); it != mt.end() && it->is_object()) {
    const nlohmann::json v = member(*it, "value");
    auto f = unit_to_s(str_or(*it, "unit", "ms"));
    if (v.is_array() && f && r.ttft_s) {
      double t = *r.ttft_s;
      r.chunk_times_s.push_back(t);
      for (const auto& g : v) if (auto x = jnum(g)) r.chunk_times_s.push_back(t += *x * *f);
    }
  }
  auto err = j.find("error");
  if (err != j.end() && !err->is_null()) {
    r.status = core::RequestStatus::error;
    if (err->is_object()) {
      auto code = err->find("code");
      if (code != err->end() && jnum(*code)) r.error_category = http_category(clamp_int(*jnum(*code)));
      else r.error_category = text_category(err->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    } else {
      r.error_category = text_category(err->is_string() ? err->get<std::string>() : err->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  } else if (bool_or(md, "was_cancelled", false)) {
    r.status = core::RequestStatus::error;
    r.error_category = "cancelled";
  }
  sink.emit(std::move(r));
}

namespace {
void sampling_from_payload(const nlohmann::json& p, core::RequestRecord& r) {
  if (!p.is_object()) return;
  if (auto it = p.find("model"); it != p.end() && it->is_string()) r.model = it->get<std::string>();
  for (const char* k : {"max_tokens", "max_completion_tokens"})
    if (auto it = p.find(k); it != p.end() && jnum(*it)) r.max_tokens = clamp_i64(*jnum(*it));
  if (auto it = p.find("temperature"); it != p.end() && jnum(*it)) r.temperature = jnum(*it);
  if (auto it = p.find("top_p"); it != p.end() && jnum(*it)) r.top_p = jnum(*it);
  if (auto it = p.find("n"); it != p.end() && jnum(*it)) r.n = clamp_int(*jnum(*it));
  if (auto it = p.find("ignore_eos"); it != p.end() && it->is_boolean()) r.ignore_eos = it->get<bool>();
}
}  // namespace

// GenAI-Perf profile_export.json: {"experiments": [{"requests": [{"timestamp": ns,
// "request_inputs": {"payload": "<request JSON>"}, "response_timestamps": [ns, ...]}]}]}.
// Token counts need the tokenizer and are not in the file.
void read_genai_perf_doc(std::string_view doc, RecordSink& sink) {
  nlohmann::json j = nlohmann::json::parse(doc, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    sink.bad(1, "invalid_json", "not a JSON document");
    return;
  }
  auto ex = j.find("experiments");
  if (ex == j.end() || !ex->is_array()) {
    sink.bad(1, "missing_field", "experiments");
    return;
  }
  size_t idx = 0;
  for (const auto& e : *ex) {
    if (!e.is_object() || !e.contains("requests") || !e["requests"].is_array()) continue;
    for (const auto& q : e["requests"]) {
      ++idx;
      auto ts = q.is_object() ? jnum(member(q, "timestamp")) : std::nullopt;
      if (!ts) {
        sink.bad(static_cast<int64_t>(idx), "missing_field", "timestamp");
        continue;
      }
      core::RequestRecord r;
      r.id = std::to_string(idx - 1);
      r.arrival_s = *ts * 1e-9;
      if (auto it = q.find("response_timestamps"); it != q.end() && it->is_array() && !it->empty()) {
        // Differences in integer ns: epoch ns do not fit a double's 53-bit mantissa.
        const nlohmann::json t0j = member(q, "timestamp");
        for (const auto& t : *it) {
          if (t.is_number_integer() && t0j.is_number_integer())
            r.chunk_times_s.push_back(static_cast<double>(t.get<int64_t>() - t0j.get<int64_t>()) * 1e-9);
          else if (auto d = jnum(t))
            r.chunk_times_s.push_back((*d - *ts) * 1e-9);
        }
        if (!r.chunk_times_s.empty()) {
          r.ttft_s = r.chunk_times_s.front();
          r.e2e_s = r.chunk_times_s.back();
        }
      } else {
        r.status = core::RequestStatus::error;
        r.error_category = "no_response";
      }
      if (auto in = q.find("request_inputs"); in != q.end() && in->is_object()) {
        auto p = in->find("payload");
        if (p != in->end()) {
          if (p->is_string()) sampling_from_payload(nlohmann::json::parse(p->get<std::string>(), nullptr, false), r);
          else sampling_from_payload(*p, r);
        }
      }
      sink.emit(std::move(r));
    }
  }
}

namespace {
// nginx prints "-" for an absent upstream time and "0.1, 0.2" when it retried upstreams.
std::optional<double> nginx_time(const json::Value& v, int* attempts = nullptr) {
  std::string_view s = v.raw;
  if (v.type == json::Type::number) return json::to_number(v);
  if (s.empty() || s == "-") return std::nullopt;
  double total = 0;
  int k = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    auto d = logtext::number_at(s, pos);
    if (!d) break;
    total += *d;
    ++k;
    while (pos < s.size() && (s[pos] == ',' || s[pos] == ' ' || s[pos] == ':')) ++pos;
  }
  if (attempts) *attempts = k;
  if (k == 0) return std::nullopt;
  return total;
}
}  // namespace

// nginx `log_format ... escape=json '{"msec":"$msec","request_time":"$request_time",...}'`.
// $msec is the log (end) time; arrival = msec - request_time. TTFT is not derivable: upstream
// header time is when the engine sent headers, which it does before the first token.
void read_nginx_line(std::string_view line, int64_t n, RecordSink& sink) {
  json::ObjectScanner sc(line);
  std::string_view key;
  json::Value v;
  core::RequestRecord r;
  std::optional<double> msec, iso, request_time;
  int status = 0;
  while (sc.next(key, v)) {
    if (key == "msec") msec = json::to_number(v);
    else if (key == "time_iso8601" || key == "time") iso = iso_to_unix(v.raw);
    else if (key == "request_time") request_time = nginx_time(v);
    else if (key == "status") { if (auto d = json::to_number(v)) status = clamp_int(*d); }
    else if (key == "request_id" || key == "x_request_id") r.id = json::unescape(v);
    else if (key == "upstream_response_time") {
      int attempts = 0;
      if (nginx_time(v, &attempts) && attempts > 1) sink.issue(n, "upstream_retries", std::string(v.raw));
    }
  }
  if (!sc.error().empty()) {
    sink.bad(n, "invalid_json", sc.error());
    return;
  }
  std::optional<double> end = msec ? msec : iso;
  if (!end || !request_time) {
    sink.bad(n, "missing_field", !end ? "msec or time_iso8601" : "request_time");
    return;
  }
  r.arrival_s = *end - *request_time;
  r.e2e_s = *request_time;
  if (status >= 400 || status == 0) {
    r.status = core::RequestStatus::error;
    r.error_category = http_category(status);
  }
  if (r.id.empty()) r.id = std::to_string(sink.emitted);
  sink.emit(std::move(r));
}

namespace {
// Envoy response flags (https://www.envoyproxy.io/docs/envoy/latest/configuration/observability/access_log/usage)
std::string envoy_flag_category(std::string_view flags) {
  if (flags.empty() || flags == "-") return {};
  if (logtext::contains(flags, "UT")) return "timeout_upstream";
  if (logtext::contains(flags, "UF")) return "upstream_connect_failure";
  if (logtext::contains(flags, "UC")) return "upstream_connection_termination";
  if (logtext::contains(flags, "URX")) return "upstream_retry_limit";
  if (logtext::contains(flags, "UO")) return "upstream_overflow";
  if (logtext::contains(flags, "DC")) return "client_closed";
  if (logtext::contains(flags, "NR")) return "no_route";
  if (logtext::contains(flags, "RL")) return "rate_limited";
  if (logtext::contains(flags, "SI")) return "stream_idle_timeout";
  return "envoy_" + std::string(flags);
}
}  // namespace

// Envoy JSON access log (json_format with %START_TIME%, %DURATION% ms, %RESPONSE_CODE%,
// %RESPONSE_FLAGS%, %REQ(X-REQUEST-ID)%). Tokens and TTFT are not in an access log.
void read_envoy_line(std::string_view line, int64_t n, RecordSink& sink) {
  json::ObjectScanner sc(line);
  std::string_view key;
  json::Value v;
  core::RequestRecord r;
  std::optional<double> start, duration_ms;
  int status = -1;
  std::string flags;
  while (sc.next(key, v)) {
    if (key == "start_time") start = iso_to_unix(v.raw);
    else if (key == "duration") duration_ms = json::to_number(v);
    else if (key == "response_code") { if (auto d = json::to_number(v)) status = clamp_int(*d); }
    else if (key == "response_flags") flags = json::unescape(v);
    else if (key == "x_request_id" || key == "request_id" || key == "x-request-id") r.id = json::unescape(v);
  }
  if (!sc.error().empty()) {
    sink.bad(n, "invalid_json", sc.error());
    return;
  }
  if (!start) {
    sink.bad(n, "missing_field", "start_time");
    return;
  }
  r.arrival_s = *start;
  if (duration_ms) r.e2e_s = *duration_ms * 1e-3;
  std::string cat = envoy_flag_category(flags);
  if (status >= 400 || status == 0 || !cat.empty()) {
    r.status = core::RequestStatus::error;
    r.error_category = !cat.empty() ? cat : http_category(status);
  }
  if (r.id.empty()) r.id = std::to_string(sink.emitted);
  sink.emit(std::move(r));
}

}  // namespace llmtriage::ingest::detail
