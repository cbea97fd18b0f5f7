// The simulated drill's HTTP run: in-process sim serve + the bench runner + /metrics scrapes + the log.
#include "drill/sim_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <mutex>

#include "bench/schedule.h"
#include "core/rng.h"
#include "ingest/metrics_engine.h"
#include "net/fetch.h"
#include "serve/server.h"
#include "sim/log_format.h"
#include "sim/workload.h"

namespace llmtriage::drill {

namespace {

// Token ids of a prompt: the shared prefix from the group's key (identical across the group),
// the rest from the request's own key. Ids in [100, 32000) like bench's synthetic sets.
std::vector<int32_t> prompt_ids(const sim::ClientRequest& c) {
  std::vector<int32_t> ids;
  ids.reserve(static_cast<size_t>(std::max(1, c.prompt_len)));
  const int32_t shared = std::min(c.shared_prefix_len, c.prompt_len);
  core::Rng g(c.group_key ^ 0x5eedULL), own(c.content_key ^ 0xc0ffeeULL);
  for (int32_t i = 0; i < std::max(1, c.prompt_len); ++i)
    ids.push_back(100 + static_cast<int32_t>((i < shared ? g : own).next_u64() % 31900));
  return ids;
}

// "req-12#2" -> (12, 2); "req-12" -> (12, 0); anything else -> nullopt.
std::optional<std::pair<size_t, int>> parse_attempt_id(const std::string& id) {
  if (id.rfind("req-", 0) != 0) return std::nullopt;
  size_t used = 0;
  unsigned long ci = 0;
  try {
    ci = std::stoul(id.substr(4), &used);
  } catch (...) {
    return std::nullopt;
  }
  const size_t hash = id.find('#');
  if (id.find('.') != std::string::npos) return std::nullopt;  // n > 1 samples are not separate requests
  return std::pair<size_t, int>{ci, hash == std::string::npos ? 0 : std::atoi(id.c_str() + hash + 1)};
}

}  // namespace

core::Result<DrillLoad> build_load(const sim::Scenario& s, const sim::SimResult& offline) {
  const auto& w = s.config.workload;
  auto gen = sim::generate(w);
  if (!gen.ok()) return std::move(gen).error();
  std::vector<sim::ClientRequest> clients = std::move(gen.value());
  DrillLoad load;
  // The same merge as the simulator (simulation.cpp): bursts appended with seed + 17, then a stable
  // sort by arrival, so client index i here is "req-i" in the offline records.
  for (const auto& f : s.config.faults)
    if (f.kind == sim::FaultKind::long_prompt_burst) {
      auto extra = sim::burst(f.start_s, f.end_s, f.rate_rps, f.input_len, f.output_len, w.seed + 17);
      load.bursts += static_cast<int64_t>(extra.size());
      clients.insert(clients.end(), extra.begin(), extra.end());
    }
  const bool closed = w.arrival == sim::ArrivalKind::closed_loop;
  if (!closed) std::stable_sort(clients.begin(), clients.end(), [](auto& a, auto& b) { return a.arrival_s < b.arrival_s; });

  struct Item {
    double arrival_s;
    size_t client;
    int attempt;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < clients.size(); ++i) items.push_back({clients[i].arrival_s, i, 0});
  // Retries as the offline run of this configuration predicted them (attempt > 0).
  for (const auto& r : offline.records)
    if (auto a = parse_attempt_id(r.id); a && a->second > 0 && a->first < clients.size()) {
      items.push_back({r.arrival_s, a->first, a->second});
      ++load.retries;
    }
  if (!closed) std::stable_sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.arrival_s < b.arrival_s; });

  load.set.source = "scenario:" + s.name;
  load.set.seed = w.seed;
  std::vector<double> arrivals;
  for (const auto& it : items) {
    const auto& c = clients[it.client];
    bench::RequestSpec spec;
    spec.id = "req-" + std::to_string(it.client) + (it.attempt ? "#" + std::to_string(it.attempt) : "");
    spec.prompt_ids = prompt_ids(c);
    spec.input_tokens = static_cast<int64_t>(spec.prompt_ids.size());
    spec.max_tokens = std::max<int64_t>(1, std::max(c.max_tokens, c.output_len));
    spec.pin_output = w.ignore_eos;  // the simulator's requests generate exactly their drawn length
    spec.prefix_group = c.shared_prefix_len > 0 ? static_cast<int>(c.group_key % 1000003) : -1;
    load.set.requests.push_back(std::move(spec));
    arrivals.push_back(it.arrival_s);
  }
  load.set.hash = bench::hash_request_set(load.set);
  if (closed) load.concurrency = std::max<int64_t>(1, w.concurrency);
  else load.arrivals_s = std::move(arrivals);
  return load;
}

TimeScale choose_time_scale(double virtual_s, double rate, double target_wall_s, const std::string& flag) {
  constexpr double kStreamBudget = 12000;
  const double by_wall = virtual_s / target_wall_s;
  const double by_stream = rate > 0 ? kStreamBudget / rate : by_wall;
  TimeScale t;
  t.scale = std::clamp(std::min(by_wall, by_stream), 1.0, 1000.0);
  t.why = by_stream < by_wall ? fmt::format("{:.0f} streamed tokens per wall second at the offline run's {:.0f} tok/s (a scale of {:.3g} "
                                            "would fit {} {:g} s)",
                                            kStreamBudget, rate, by_wall, flag, target_wall_s)
                              : fmt::format("{:.0f} virtual s in about {} {:g} s", virtual_s, flag, target_wall_s);
  return t;
}

core::Result<HttpRun> run_over_http(const sim::Scenario& s, const DrillLoad& load, double time_scale, double deadline_wall_s,
                                    const ServeAt& at, const std::string& what) {
  HttpRun out;
  out.time_scale = time_scale;
  auto logs = std::make_shared<std::vector<std::string>>();
  auto mu = std::make_shared<std::mutex>();
  serve::LogFn log = [logs, mu](const std::string& line) {
    std::lock_guard<std::mutex> lk(*mu);
    logs->push_back(line);
  };
  // The startup lines sim serve's command prints (its KV pool per replica), for the log evidence.
  for (int i = 0; i < std::max(1, s.config.replicas); ++i)
    for (const auto& line : sim::startup_lines(s.config.preset.kind, i, s.config.num_blocks * s.config.block_size,
                                               s.config.num_blocks, s.config.max_model_len))
      log(line);

  serve::ServeOptions so;
  so.host = "127.0.0.1";
  so.port = at.port;
  so.access_log = false;  // one line per request says nothing the records do not
  so.loop.time_scale = time_scale;
  so.loop.served_model_name = s.config.model_name;
  so.loop.cache.block_size = s.config.block_size;
  so.loop.cache.cache_dtype = s.deployment.kv_cache_dtype;
  so.loop.cache.prefix_caching = s.config.prefix_caching;
  so.loop.cache.gpu_memory_utilization = s.deployment.gpu_memory_utilization;
  so.loop.cache.num_gpu_blocks = s.config.num_blocks;
  // The drill plays the client-side faults from its load (burst arrivals, retries, client
  // timeouts): the server must not play them a second time.
  sim::SimConfig served = s.config;
  std::erase_if(served.faults, [](const sim::Fault& f) {
    return f.kind == sim::FaultKind::long_prompt_burst || f.kind == sim::FaultKind::client_retries ||
           f.kind == sim::FaultKind::gateway_timeout;
  });
  serve::SimServer server(served, so, log);
  if (auto st = server.start(); !st.ok()) return st.error();
  out.base_url = server.base_url();
  if (at.on_serving) at.on_serving(out.base_url, what);

  bench::RunnerOptions ro;
  ro.base_url = out.base_url;
  ro.body.model = s.config.model_name;
  ro.body.api = bench::Api::completions;
  if (load.arrivals_s) {
    std::vector<double> wall;
    for (double a : *load.arrivals_s) wall.push_back(a / time_scale);
    ro.schedule = std::move(wall);
  } else {
    ro.concurrency = load.concurrency;
  }
  ro.deadline_s = deadline_wall_s;
  ro.stop = at.stop;
  // The gateway_timeout fault is the client giving up without a first token: the runner's
  // first-byte and idle timeouts (sim serve sends the headers at once, then the tokens).
  double timeout_wall = 3600;
  for (const auto& f : s.config.faults)
    if (f.kind == sim::FaultKind::gateway_timeout && f.timeout_s > 0) timeout_wall = f.timeout_s / time_scale;
  const auto ms = std::chrono::milliseconds(static_cast<int64_t>(std::ceil(timeout_wall * 1000)));
  ro.timeouts.first_byte = ms;
  ro.timeouts.idle = ms;
  ro.scrape_interval_s = std::max(0.05, 2.0 / time_scale);  // every 2 virtual seconds
  out.run = bench::run_load(load.set, ro);
  {
    net::Request req;
    req.url = out.base_url + "/sim/stats";
    net::ClientOptions co;
    co.timeouts.total = std::chrono::seconds(5);
    if (auto resp = net::fetch(req, co); resp.ok()) {
      auto j = nlohmann::json::parse(resp->body, nullptr, false);
      if (j.is_object() && j.contains("clock_lag_ms") && j["clock_lag_ms"].contains("p99") && j["clock_lag_ms"]["p99"].is_number())
        out.engine_lag_p99_s = j["clock_lag_ms"]["p99"].get<double>() / 1000 * time_scale;
    }
  }

  bench::SummaryOptions sumo;
  sumo.open_loop = load.arrivals_s.has_value();
  if (ro.schedule) sumo.schedule_rate = bench::schedule_rate(*ro.schedule);
  sumo.deadline_hit = out.run.deadline_hit;
  out.summary = bench::summarize_run(out.run.records, sumo);
  // The client's lag: late sends, and late reads (its event loop's heartbeat lateness), both of
  // which a host that cannot keep up adds to the measured latencies.
  out.dispatch_lag_p99_s = std::max(out.summary.dispatch_lag_s.p99, out.run.loop_lag_s.count > 0 ? out.run.loop_lag_s.p99 : 0.0) * time_scale;
  auto& m = out.meta;
  m.endpoint = out.base_url;
  m.model = s.config.model_name;
  m.api = "completions";
  m.dataset = load.set.source;
  m.request_set_hash = load.set.hash;
  if (ro.schedule) m.schedule_hash = bench::hash_schedule(*ro.schedule);
  m.seed = load.set.seed;
  m.mode = load.arrivals_s ? "replay" : "concurrency";
  m.concurrency = load.concurrency;
  m.num_requests = static_cast<int64_t>(load.set.requests.size());
  m.start_unix_s = out.run.start_unix_s;
  m.wall_s = out.run.wall_s;
  m.loop_lag_s = out.run.loop_lag_s;
  m.connections_opened = out.run.connections_opened;
  m.config = scenario_config(s);
  m.config["time_scale"] = fmt::format("{:g}", time_scale);

  // Virtual seconds from here on.
  const double k = time_scale;
  auto& snap = out.snapshot;
  snap.llmtriage_version = LLMTRIAGE_VERSION;
  snap.created_unix_s = out.run.start_unix_s;
  snap.mode = "live";
  snap.endpoint = out.base_url;
  snap.interval_s = 2.0;
  snap.engine = core::EngineKind::vllm;
  snap.engine_detected_by = "drill: sim serve imitates vLLM V1";
  snap.engine_version = "0.11.0";
  snap.engine_settings = deployment_of(s).settings;
  for (const auto& sc : out.run.scrapes) {
    collect::ScrapeRecord rec;
    rec.t_s = sc.t_s * k;
    rec.source = out.base_url + "/metrics (" + sc.phase + ")";
    rec.ok = !sc.text.empty();
    rec.error = sc.error;
    rec.bytes = sc.text.size();
    if (rec.ok) {
      ingest::AdaptOptions ao;
      ao.engine = core::EngineKind::vllm;
      ao.source = rec.source;
      auto a = ingest::adapt_engine_metrics(sc.text, rec.t_s, ao);
      if (a.ok()) {
        rec.series = a->series;
        rec.malformed = a->malformed;
        rec.engine_samples = a->samples;
        for (const auto& e : a->samples) out.data.samples.push_back(e);
      }
      rec.raw = sc.text;
    }
    snap.scrapes.push_back(std::move(rec));
  }
  if (!snap.scrapes.empty()) snap.window_s = snap.scrapes.back().t_s - snap.scrapes.front().t_s;
  snap.complete = !out.run.interrupted;
  collect::compute_window_stats(snap);

  for (const auto& r : out.run.records) {
    if (!r.send_s) continue;  // never sent (deadline): no evidence about the server
    core::RequestRecord v = bench::to_request_record(r);
    v.arrival_s *= k;
    if (v.send_s) *v.send_s *= k;
    if (v.ttft_s) *v.ttft_s *= k;
    if (v.e2e_s) *v.e2e_s *= k;
    if (v.failed_after_s) *v.failed_after_s *= k;
    if (v.queue_s) *v.queue_s *= k;
    for (auto& t : v.chunk_times_s) t *= k;
    for (auto& t : v.itl_s) t *= k;
    out.data.records.push_back(std::move(v));
  }
  server.stop();
  {
    std::lock_guard<std::mutex> lk(*mu);
    out.data.log_lines = *logs;
  }
  out.data.samples_source = fmt::format("{}/metrics ({} scrapes)", out.base_url, out.run.scrapes.size());
  out.data.records_source = fmt::format("bench records ({} sent)", out.data.records.size());
  return out;
}

bench::RunSample run_sample(const HttpRun& r, const std::string& label, const std::map<std::string, std::string>& config) {
  bench::RunSample s;
  const double k = r.time_scale;
  s.label = label;
  s.request_set_hash = r.meta.request_set_hash;
  s.mode = r.meta.mode;
  s.concurrency = r.meta.concurrency;
  s.realized_rate = r.summary.realized_rate / k;
  s.duration_s = r.summary.duration_s * k;
  s.trials = 1;
  s.config = config;
  for (const auto& b : r.run.records) {
    if (b.warmup || !b.ok()) continue;
    if (auto t = b.ttft_s()) s.ttft_s.push_back(*t * k);
    if (auto t = b.tpot_s()) s.tpot_s.push_back(*t * k);
    if (auto t = b.e2e_s()) s.e2e_s.push_back(*t * k);
    s.output_tokens.push_back(static_cast<double>(b.output_tokens()));
  }
  return s;
}

}  // namespace llmtriage::drill
