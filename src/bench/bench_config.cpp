#include "bench/bench_config.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "bench/schedule.h"
#include "core/files.h"
#include "core/rng.h"
#include "net/url.h"

namespace llmtriage::bench {
namespace {
using core::ErrorKind;
using core::make_error;

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b);
}
}  // namespace

core::Result<std::map<std::string, std::string>> parse_config(const std::string& text) {
  std::map<std::string, std::string> m;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return make_error(ErrorKind::usage, "--config", "k=v pairs separated by commas", item);
    m[item.substr(0, eq)] = item.substr(eq + 1);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return m;
}

core::Status set_load(RunPlan& p, std::optional<double> rate, std::optional<int64_t> concurrency, double burstiness,
                      int trial) {
  const auto n = static_cast<int64_t>(p.set.requests.size());
  if (rate) {
    auto s = open_loop_schedule(n, {.rate = *rate, .burstiness = burstiness, .ramp_to = p.meta.ramp_to.value_or(0),
                                    .seed = trial == 0 ? p.set.seed : core::mix64(p.set.seed, static_cast<uint64_t>(trial))});
    if (!s) return std::move(s).error();
    p.meta.schedule_hash = hash_schedule(*s);
    p.summary.target_rate = std::isinf(*rate) ? 0 : *rate;
    p.summary.schedule_rate = schedule_rate(*s);
    p.summary.open_loop = true;
    p.runner.schedule = std::move(*s);
    p.meta.mode = std::isinf(*rate) || *rate == 0 ? "burst" : p.runner.max_concurrency ? "rate+cap" : "rate";
  } else {
    p.runner.schedule.reset();
    p.runner.concurrency = concurrency.value_or(1);
    p.meta.concurrency = p.runner.concurrency;
    p.meta.schedule_hash.clear();
    p.summary.target_rate = p.summary.schedule_rate = 0;
    p.summary.open_loop = false;
    p.meta.mode = "concurrency";
  }
  p.meta.burstiness = burstiness;
  return core::ok_status();
}

core::Result<RunPlan> plan_run(const BenchFlags& f) {
  RunPlan p;
  auto url = net::parse_url(f.endpoint);
  if (!url) return make_error(ErrorKind::usage, "--endpoint", "an http:// or https:// base URL", net::redact_url(f.endpoint));
  std::string base = f.endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  for (const char* suffix : {"/v1/completions", "/v1/chat/completions", "/v1"})
    if (base.size() > std::strlen(suffix) && base.compare(base.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
      base.resize(base.size() - std::strlen(suffix));
  Api api;
  if (f.api == "completions") api = Api::completions;
  else if (f.api == "chat") api = Api::chat;
  else return make_error(ErrorKind::usage, "--api", "completions or chat", f.api);
  if (f.rate && f.concurrency)
    return make_error(ErrorKind::usage, "--rate / --concurrency", "one load mode", "both",
                      "--rate is open loop (cap it with --max-concurrency); --concurrency is closed loop");
  if (f.concurrency && *f.concurrency <= 0)
    return make_error(ErrorKind::usage, "--concurrency", "requests in flight > 0", std::to_string(*f.concurrency));
  if (f.max_concurrency && *f.max_concurrency <= 0)
    return make_error(ErrorKind::usage, "--max-concurrency", "a cap > 0", std::to_string(*f.max_concurrency));
  if (f.max_concurrency && f.concurrency)
    return make_error(ErrorKind::usage, "--max-concurrency", "a cap on an open-loop --rate run", "--concurrency too");
  if (f.warmup < 0 || f.warmup >= f.num_requests)
    return make_error(ErrorKind::usage, "--warmup", "fewer warm-up requests than --num-requests", std::to_string(f.warmup));
  if (f.fail_on_slo && f.slo.empty())
    return make_error(ErrorKind::usage, "--fail-on-slo", "an --slo to judge the run by", "none", "e.g. --slo ttft=500ms,tpot=50ms");
  if (!(f.deadline_s > 0)) return make_error(ErrorKind::usage, "--deadline", "seconds > 0", fmt::format("{}", f.deadline_s));
  if (!(f.request_timeout_s > 0))
    return make_error(ErrorKind::usage, "--request-timeout", "seconds > 0", fmt::format("{}", f.request_timeout_s));

  // The request set.
  const auto seed = static_cast<uint64_t>(f.seed);
  core::Result<RequestSet> set = make_error(ErrorKind::internal, "bench", "a request set", "none");
  int sources = !f.replay.empty() + !f.requests_file.empty();
  if (sources > 1) return make_error(ErrorKind::usage, "--replay / --requests", "one request source", "both");
  if (!f.replay.empty()) {
    set = replay_set(f.replay, f.vocab_size, seed, f.num_requests);
  } else if (!f.requests_file.empty()) {
    set = load_saved_set(f.requests_file);
  } else if (f.dataset == "random" || f.dataset == "prefix") {
    SyntheticOptions o;
    o.num_requests = f.num_requests;
    o.input_len = f.input_len;
    o.output_len = f.output_len;
    o.range_ratio = f.range_ratio;
    o.vocab_size = f.vocab_size;
    o.text = f.text_prompts || api == Api::chat;
    o.prefix_groups = f.dataset == "prefix" ? std::max<int64_t>(1, f.prefix_groups) : 0;
    o.prefix_len = f.dataset == "prefix" && f.prefix_len == 0 ? f.input_len / 2 : f.prefix_len;
    o.seed = seed;
    set = synthetic_set(o);
  } else if (f.dataset == "sharegpt" || f.dataset == "jsonl") {
    if (f.dataset_path.empty())
      return make_error(ErrorKind::usage, "--dataset-path", "the file for --dataset " + f.dataset, "nothing");
    FileSetOptions o;
    o.num_requests = f.num_requests;
    o.output_len = f.output_len;
    o.seed = seed;
    set = f.dataset == "sharegpt" ? sharegpt_set(f.dataset_path, o) : jsonl_prompt_set(f.dataset_path, o);
  } else {
    return make_error(ErrorKind::usage, "--dataset", "random, prefix, sharegpt or jsonl", f.dataset);
  }
  if (!set) return std::move(set).error();
  p.set = std::move(*set);
  if (static_cast<int64_t>(p.set.requests.size()) <= f.warmup)
    return make_error(ErrorKind::usage, "--warmup", "fewer warm-up requests than the set holds",
                      fmt::format("{} of {}", f.warmup, p.set.requests.size()));

  // The key: a file, else the environment. Never echoed anywhere.
  std::string key;
  if (!f.api_key_file.empty()) {
    auto k = core::read_file(f.api_key_file);
    if (!k) return std::move(k).error();
    key = trim(*k);
  } else if (const char* e = std::getenv("OPENAI_API_KEY")) {
    key = trim(e);
  }

  auto& r = p.runner;
  r.base_url = base;
  r.body = {.api = api, .model = f.model, .continuous_usage = !f.no_continuous_usage, .temperature = 0};
  r.api_key = key;
  r.max_concurrency = f.max_concurrency;
  r.warmup = f.warmup;
  r.deadline_s = f.deadline_s;
  const auto ms = std::chrono::milliseconds(static_cast<int64_t>(f.request_timeout_s * 1000));
  r.timeouts.first_byte = ms;
  r.timeouts.idle = ms;
  r.timeouts.connect = std::min(ms, std::chrono::milliseconds(10000));
  r.client_threads = std::max(1, f.client_threads);
  r.metrics_url = f.metrics_url;
  r.scrape_interval_s = f.scrape_interval_s;

  p.summary.max_concurrency = f.max_concurrency;
  if (!f.slo.empty()) {
    auto slo = parse_slo(f.slo);
    if (!slo) return std::move(slo).error();
    p.summary.slo = *slo;
  }
  auto& m = p.meta;
  m.endpoint = net::redact_url(base);
  m.model = f.model;
  m.api = to_string(api);
  m.dataset = p.set.source;
  m.request_set_hash = p.set.hash;
  m.seed = p.set.seed;
  m.num_requests = static_cast<int64_t>(p.set.requests.size());
  m.warmup = f.warmup;
  m.max_concurrency = f.max_concurrency;
  m.ramp_to = f.ramp_to;
  if (!f.config.empty()) {
    auto c = parse_config(f.config);
    if (!c) return std::move(c).error();
    m.config = *c;
    split_consequences(m.config, m.consequences);
  }

  // The schedule.
  if (!f.replay.empty() && !f.concurrency) {
    std::vector<double> arr;
    for (const auto& s : p.set.requests) arr.push_back(s.arrival_s.value_or(0));
    auto s = replay_schedule(arr, f.replay_speed);
    if (!s) return std::move(s).error();
    m.schedule_hash = hash_schedule(*s);
    p.summary.schedule_rate = schedule_rate(*s);
    p.summary.open_loop = true;
    r.schedule = std::move(*s);
    m.mode = "replay";
  } else if (f.rate || !f.concurrency) {
    if (auto st = set_load(p, f.rate.value_or(std::numeric_limits<double>::infinity()), std::nullopt, f.burstiness); !st)
      return std::move(st).error();
  } else {
    if (auto st = set_load(p, std::nullopt, f.concurrency, f.burstiness); !st) return std::move(st).error();
  }
  return p;
}

std::string slo_missed(const RunSummary& s) {
  std::string why;
  if ((s.slo.ttft_s || s.slo.tpot_s || s.slo.e2e_s) && s.goodput.attainment_pct < 99)
    why = fmt::format("goodput attainment {:.1f}% < 99% under {}", s.goodput.attainment_pct, s.slo.to_string());
  if (s.slo.error_rate && s.measured > 0) {
    const double rate = static_cast<double>(s.failed + s.not_sent) / static_cast<double>(s.measured);
    if (rate > *s.slo.error_rate)
      why += fmt::format("{}error rate {:.3g} > error_rate={:g}", why.empty() ? "" : "; ", rate, *s.slo.error_rate);
  }
  return why;
}

RunOutput execute(const RunPlan& plan) {
  RunOutput o;
  o.run = run_load(plan.set, plan.runner);
  SummaryOptions so = plan.summary;
  if (o.run.loop_lag_s.count > 0) so.loop_lag_p99_s = o.run.loop_lag_s.p99;
  so.server_waiting = o.run.server_waiting;
  so.deadline_hit = o.run.deadline_hit;
  o.summary = summarize_run(o.run.records, so);
  o.meta = plan.meta;
  o.meta.start_unix_s = o.run.start_unix_s;
  o.meta.run_tag = o.run.run_tag;
  o.meta.wall_s = o.run.wall_s;
  o.meta.loop_lag_s = o.run.loop_lag_s;
  o.meta.connections_opened = o.run.connections_opened;
  o.meta.interrupted = o.run.interrupted;
  for (const auto& s : o.run.scrapes)
    if (s.phase == "before" && !s.text.empty())
      record_engine_info(o.meta, s.text);
  return o;
}

}  // namespace llmtriage::bench
