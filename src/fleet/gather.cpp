#include "fleet/gather.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

#include "ingest/gpu_dcgm.h"
#include "ingest/metrics_engine.h"
#include "ingest/prom_parser.h"

namespace llmtriage::fleet {

namespace {

// Engine metric families llmtriage reads (src/ingest/metrics_engine.cpp has the per-name table).
constexpr const char* kEngineNames = R"((vllm|sglang|llamacpp):.+|tgi_.+|nv_trt_llm_.+|nv_inference_.+)";
// Histogram families worth their buckets: latencies and lengths (not iteration sizes or params).
constexpr const char* kHistKeep[] = {"time_to_first_token", "inter_token_latency", "time_per_output_token",
                                     "e2e_request_latency", "queue_time",          "time_in_queue",
                                     "request_prompt_tokens", "request_generation_tokens", "prefill_time",
                                     "decode_time",         "request_duration",    "input_length",
                                     "generated_tokens",    "mean_time_per_token"};
// DCGM fields src/ingest/gpu_dcgm.cpp reads.
constexpr const char* kDcgmNames =
    "DCGM_FI_DEV_(SM_CLOCK|MEM_CLOCK|MAX_SM_CLOCK|CLOCKS_EVENT_REASONS|CLOCK_THROTTLE_REASONS|GPU_TEMP|POWER_USAGE|"
    "POWER_USAGE_INSTANT|POWER_MGMT_LIMIT|ENFORCED_POWER_LIMIT|GPU_UTIL|FB_TOTAL|FB_FREE|FB_USED|FB_RESERVED)|"
    "DCGM_FI_PROF_DRAM_ACTIVE";

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string alternation(const std::set<std::string>& names) {
  std::string o;
  for (const auto& n : names) {
    if (!o.empty()) o += '|';
    for (char c : n) {
      if (std::string_view(".+*?()[]{}|^$\\").find(c) != std::string_view::npos) o += '\\';
      o += c;
    }
  }
  return o;
}

// Time key: Prometheus step timestamps in milliseconds.
int64_t ms(double t) { return std::llround(t * 1000.0); }

// One window's raw results.
struct Window {
  double start = 0, end = 0;
  PromResult engine, hist, gpu;
  bool have_gpu = false;
};

struct Names {
  std::set<std::string> plain;  // gauges and counters
  std::set<std::string> hist;   // histogram parts (_bucket, _sum, _count) of the kept families
};

core::Result<Names> discover(PromClient& c, const std::string& matchers, double at, std::string& detect_text) {
  const std::string q = "count by (__name__) (" + with_matchers(fmt::format("__name__=~\"{}\"", kEngineNames), matchers) + ")";
  auto r = c.query(q, at);
  if (!r.ok()) return r.error();
  std::set<std::string> all;
  for (const auto& s : r->series)
    if (auto it = s.labels.find("__name__"); it != s.labels.end()) all.insert(it->second);
  Names n;
  for (const auto& name : all) {
    detect_text += name + " 0\n";
    bool part = false;
    for (const char* suf : {"_bucket", "_sum", "_count"}) {
      if (!ends_with(name, suf)) continue;
      const std::string base = name.substr(0, name.size() - std::char_traits<char>::length(suf));
      if (!all.count(base + "_bucket")) continue;
      part = true;
      bool keep = false;
      for (const char* k : kHistKeep) keep = keep || base.find(k) != std::string::npos;
      if (keep) n.hist.insert(name);
    }
    if (!part && !ends_with(name, "_created")) n.plain.insert(name);
  }
  return n;
}

core::Result<Window> fetch_window(PromClient& c, const Names& names, const std::string& matchers,
                                  const std::string& gpu_matchers, double start, double end, double step,
                                  std::vector<std::string>& notes) {
  Window w;
  w.start = start;
  w.end = end;
  if (!names.plain.empty()) {
    auto r = c.query_range(with_matchers("__name__=~\"" + alternation(names.plain) + "\"", matchers), start, end, step);
    if (!r.ok()) return r.error();
    w.engine = std::move(*r);
  }
  if (!names.hist.empty()) {
    // Two points per series, the window's ends: the adapters' histograms, diffed by the analysis.
    auto r = c.query_range(with_matchers("__name__=~\"" + alternation(names.hist) + "\"", matchers), start, end, end - start);
    if (!r.ok()) {
      notes.push_back("histograms not read (" + r.error().found + "): latency quantiles unavailable");
    } else {
      w.hist = std::move(*r);
    }
  }
  auto g = c.query_range(with_matchers(fmt::format("__name__=~\"{}\"", kDcgmNames), gpu_matchers), start, end, step);
  if (!g.ok()) {
    notes.push_back("GPU (DCGM) series not read (" + g.error().found + "): operator/hardware layer judged without telemetry");
  } else {
    w.gpu = std::move(*g);
    w.have_gpu = true;
  }
  for (const auto* r : {&w.engine, &w.hist, &w.gpu})
    for (const auto& warn : r->warnings) notes.push_back("store warning: " + warn);
  return w;
}

// Series indices per replica.
std::map<std::string, std::vector<const PromSeries*>> by_replica(const PromResult& r, const std::string& label) {
  std::map<std::string, std::vector<const PromSeries*>> out;
  for (const auto& s : r.series) {
    auto it = s.labels.find(label);
    if (it == s.labels.end()) continue;
    out[it->second].push_back(&s);
  }
  return out;
}

void append_lines(std::map<int64_t, std::string>& texts, const std::vector<const PromSeries*>& series, const std::string& drop_label) {
  for (const PromSeries* s : series) {
    auto nit = s->labels.find("__name__");
    if (nit == s->labels.end()) continue;
    Labels l = s->labels;
    l.erase("__name__");
    l.erase(drop_label);
    for (const auto& [t, v] : s->points) texts[ms(t)] += exposition_line(nit->second, l, v);
  }
}

struct Built {
  core::Evidence ev;
  std::vector<std::string> notes;
};

Built build_replica(const std::string& replica, const Window& w, const std::vector<const PromSeries*>& engine_series,
                    const std::vector<const PromSeries*>& hist_series, const std::vector<const PromSeries*>& gpu_series,
                    core::EngineKind engine, const std::string& source, const std::string& replica_label) {
  Built b;
  std::map<int64_t, std::string> texts;
  append_lines(texts, engine_series, replica_label);
  append_lines(texts, hist_series, replica_label);
  ingest::AdaptOptions ao;
  ao.engine = engine;
  ao.source = source;
  size_t malformed = 0;
  for (const auto& [t, text] : texts) {
    auto a = ingest::adapt_engine_metrics(text, static_cast<double>(t) / 1000.0, ao);
    if (!a.ok()) continue;
    malformed += a->malformed;
    for (auto& s : a->samples) b.ev.engine_samples.push_back(std::move(s));
  }
  std::map<int64_t, std::string> gtexts;
  append_lines(gtexts, gpu_series, "");
  for (const auto& [t, text] : gtexts) {
    auto g = ingest::gpu_samples_from_exposition(text, static_cast<double>(t) / 1000.0);
    for (auto& s : g.gpus) b.ev.gpu_samples.push_back(std::move(s));
  }
  std::stable_sort(b.ev.engine_samples.begin(), b.ev.engine_samples.end(),
                   [](const auto& x, const auto& y) { return x.t_s < y.t_s; });
  std::stable_sort(b.ev.gpu_samples.begin(), b.ev.gpu_samples.end(), [](const auto& x, const auto& y) { return x.t_s < y.t_s; });
  b.ev.deployment.engine = engine;
  if (!b.ev.gpu_samples.empty()) {
    b.ev.deployment.gpu = b.ev.gpu_samples.front().name;
    std::set<int> idx;
    for (const auto& g : b.ev.gpu_samples) idx.insert(g.index);
    b.ev.deployment.num_gpus = static_cast<int>(idx.size());
  }
  const std::string what = fmt::format("{} {}={}, {:.0f} s window", source, replica_label, replica, w.end - w.start);
  b.ev.inputs.push_back({what, "metrics", !b.ev.engine_samples.empty(),
                         fmt::format("{} engine samples from {} series{}", b.ev.engine_samples.size(),
                                     engine_series.size() + hist_series.size(),
                                     malformed ? fmt::format(", {} unreadable values", malformed) : "")});
  if (!gpu_series.empty())
    b.ev.inputs.push_back({what, "gpu", !b.ev.gpu_samples.empty(),
                           fmt::format("{} GPU readings from {} DCGM series", b.ev.gpu_samples.size(), gpu_series.size())});
  if (b.ev.engine_samples.empty()) b.notes.push_back("no engine series in the window (down, renamed, or outside the selector)");
  return b;
}

// DCGM series -> replica: the replica label's value itself, else the host part of it (an exporter
// on another port of the same machine), via the series' own replica label or dcgm-exporter's
// `Hostname`. A host shared by several replicas cannot be joined (ambiguous): counted.
std::map<std::string, std::vector<const PromSeries*>> join_gpu(const PromResult& gpu, const std::set<std::string>& replicas,
                                                               const std::string& label, int& unjoined) {
  std::map<std::string, std::vector<std::string>> by_host;
  for (const auto& r : replicas) by_host[host_of(r)].push_back(r);
  std::map<std::string, std::vector<const PromSeries*>> out;
  std::set<std::string> unjoined_keys;
  for (const auto& s : gpu.series) {
    std::string target;
    auto it = s.labels.find(label);
    if (it != s.labels.end() && replicas.count(it->second)) {
      target = it->second;
    } else {
      for (const char* l : {label.c_str(), "Hostname"}) {
        auto h = s.labels.find(l);
        if (h == s.labels.end()) continue;
        auto hb = by_host.find(host_of(h->second));
        if (hb != by_host.end() && hb->second.size() == 1) {
          target = hb->second.front();
          break;
        }
      }
    }
    if (target.empty()) {
      std::string key;
      for (const auto& [k, v] : s.labels)
        if (k != "__name__") key += k + "=" + v + ",";
      unjoined_keys.insert(key);
      continue;
    }
    out[target].push_back(&s);
  }
  unjoined = static_cast<int>(unjoined_keys.size());
  return out;
}

}  // namespace

core::Result<std::string> selector_matchers(const std::string& selector) {
  std::string s = selector;
  auto trim = [](std::string& x) {
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.front()))) x.erase(x.begin());
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.back()))) x.pop_back();
  };
  trim(s);
  if (!s.empty() && s.front() == '{') {
    if (s.back() != '}')
      return core::Error{core::ErrorKind::usage, "--selector", "a label selector like '{job=\"vllm\"}'", selector,
                         "the opening '{' has no closing '}'"};
    s = s.substr(1, s.size() - 2);
    trim(s);
  } else if (!s.empty() && (s.find('{') != std::string::npos || s.find('}') != std::string::npos)) {
    return core::Error{core::ErrorKind::usage, "--selector", "label matchers only, like '{job=\"vllm\"}' (no metric name)",
                       selector, ""};
  }
  int quotes = 0;
  bool esc = false;
  for (char c : s) {
    if (esc) {
      esc = false;
      continue;
    }
    if (c == '\\') esc = true;
    else if (c == '"') ++quotes;
  }
  if (quotes % 2)
    return core::Error{core::ErrorKind::usage, "--selector", "balanced double quotes around label values", selector, ""};
  if (!s.empty() && s.find('=') == std::string::npos)
    return core::Error{core::ErrorKind::usage, "--selector", "label matchers (name=\"value\", name=~\"re\")", selector, ""};
  return s;
}

std::string with_matchers(const std::string& name_matcher, const std::string& matchers) {
  return matchers.empty() ? "{" + name_matcher + "}" : "{" + name_matcher + ", " + matchers + "}";
}

std::string exposition_line(const std::string& name, const Labels& labels, double value) {
  std::string o = name;
  if (!labels.empty()) {
    o += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
      if (!first) o += ',';
      first = false;
      o += k;
      o += "=\"";
      o += ingest::escape_label_value(v);
      o += '"';
    }
    o += '}';
  }
  o += ' ';
  if (std::isnan(value)) o += "NaN";
  else if (std::isinf(value)) o += value > 0 ? "+Inf" : "-Inf";
  else o += fmt::format("{}", value);
  o += '\n';
  return o;
}

std::string host_of(const std::string& instance) {
  if (!instance.empty() && instance.front() == '[') {
    auto close = instance.find(']');
    return close == std::string::npos ? instance : instance.substr(1, close - 1);
  }
  auto colon = instance.rfind(':');
  if (colon == std::string::npos || instance.find(':') != colon) return instance;  // no port, or bare IPv6
  return instance.substr(0, colon);
}

core::Result<FleetEvidence> gather(PromClient& client, const GatherOptions& o) {
  auto matchers = selector_matchers(o.selector);
  if (!matchers.ok()) return matchers.error();
  auto gpu_matchers = selector_matchers(o.gpu_selector);
  if (!gpu_matchers.ok()) {
    auto e = gpu_matchers.error();
    e.where = "--gpu-selector";
    return e;
  }
  if (!(o.window_s > 0)) return core::Error{core::ErrorKind::usage, "--window", "a positive duration", fmt::format("{}", o.window_s), ""};
  FleetEvidence fe;
  int steps = static_cast<int>(std::lround(o.window_s / (o.step_s > 0 ? o.step_s : std::max(1.0, o.window_s / 60))));
  steps = std::clamp(steps, 1, std::max(1, o.max_steps));
  fe.step_s = o.window_s / steps;
  if (o.step_s > 0 && std::fabs(fe.step_s - o.step_s) > 1e-9)
    fe.notes.push_back(fmt::format("step {:.3g} s (asked {:.3g} s; at most {} steps per window)", fe.step_s, o.step_s, o.max_steps));
  fe.end_s = o.end_s;
  fe.start_s = o.end_s - o.window_s;

  std::string detect_text;
  auto names = discover(client, *matchers, o.end_s, detect_text);
  if (!names.ok()) return names.error();
  if (names->plain.empty() && names->hist.empty())
    return core::Error{core::ErrorKind::input, client.options().base_url,
                       "engine metrics (vllm:*, sglang:*, tgi_*, llamacpp:*, nv_trt_llm_*) under the selector",
                       fmt::format("no such series at {:.0f}", o.end_s),
                       o.selector.empty() ? "check --prometheus and --at" : "check --selector " + o.selector};
  fe.engine = ingest::detect_engine(detect_text);
  fe.engine_detected_by = fmt::format("{} metric names under the selector", names->plain.size() + names->hist.size());

  auto now = fetch_window(client, *names, *matchers, *gpu_matchers, fe.start_s, fe.end_s, fe.step_s, fe.notes);
  if (!now.ok()) return now.error();
  std::optional<Window> base;
  if (o.baseline_end_s) {
    fe.baseline_end_s = *o.baseline_end_s;
    fe.baseline_start_s = *o.baseline_end_s - o.window_s;
    auto b = fetch_window(client, *names, *matchers, *gpu_matchers, *fe.baseline_start_s, *fe.baseline_end_s, fe.step_s, fe.notes);
    if (!b.ok()) {
      fe.notes.push_back("baseline not read (" + b.error().found + "): load layer judged without it");
    } else {
      base = std::move(*b);
    }
  }

  const auto eng_now = by_replica(now->engine, o.replica_label);
  const auto hist_now = by_replica(now->hist, o.replica_label);
  std::set<std::string> replicas;
  for (const auto& [r, s] : eng_now) replicas.insert(r);
  for (const auto& [r, s] : hist_now) replicas.insert(r);
  if (replicas.empty())
    return core::Error{core::ErrorKind::input, client.options().base_url,
                       fmt::format("engine series carrying the replica label '{}'", o.replica_label),
                       fmt::format("{} series without it", now->engine.series.size()), "set --replica-label (e.g. pod, instance)"};
  if (!now->engine.series.empty() && eng_now.empty())
    fe.notes.push_back("engine series lack the label '" + o.replica_label + "'");
  int unjoined = 0;
  const auto gpu_now = join_gpu(now->gpu, replicas, o.replica_label, unjoined);
  fe.gpu_series_unjoined = unjoined;
  if (unjoined) fe.notes.push_back(fmt::format("{} GPU series matched no replica (by '{}' or host)", unjoined, o.replica_label));
  std::map<std::string, std::vector<const PromSeries*>> eng_base, hist_base, gpu_base;
  if (base) {
    eng_base = by_replica(base->engine, o.replica_label);
    hist_base = by_replica(base->hist, o.replica_label);
    int u = 0;
    gpu_base = join_gpu(base->gpu, replicas, o.replica_label, u);
  }
  const std::string source = client.options().base_url;
  static const std::vector<const PromSeries*> none;
  auto get = [](const auto& m, const std::string& k) -> const std::vector<const PromSeries*>& {
    auto it = m.find(k);
    return it == m.end() ? none : it->second;
  };
  for (const auto& r : replicas) {
    ReplicaEvidence re;
    re.replica = r;
    auto b = build_replica(r, *now, get(eng_now, r), get(hist_now, r), get(gpu_now, r), fe.engine, source, o.replica_label);
    re.now = std::move(b.ev);
    re.notes = std::move(b.notes);
    if (base) {
      auto bb = build_replica(r, *base, get(eng_base, r), get(hist_base, r), get(gpu_base, r), fe.engine, source + " (baseline)",
                              o.replica_label);
      if (!bb.ev.engine_samples.empty()) re.baseline = std::move(bb.ev);
      else re.notes.push_back("no baseline series (new replica, or renamed)");
    }
    fe.replicas.push_back(std::move(re));
  }
  return fe;
}

}  // namespace llmtriage::fleet
