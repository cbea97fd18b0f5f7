#include "drill/engine_drill.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <thread>

#include "bench/record.h"
#include "collect/llamacpp_server.h"
#include "drill/engine_command.h"
#include "drill/engine_process.h"
#include "ingest/engine_log.h"
#include "ingest/metrics_engine.h"
#include "ledger/remedy_flags.h"
#include "net/client.h"

namespace llmtriage::drill {
namespace {

// A free TCP port on 127.0.0.1 (bound to 0, read, closed; the server binds it next).
core::Result<int> free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return core::make_error(core::ErrorKind::network, "127.0.0.1", "a free port", "no socket");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  socklen_t len = sizeof a;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  if (port == 0) return core::make_error(core::ErrorKind::network, "127.0.0.1", "a free port", "bind failed");
  return port;
}

std::string model_alias(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void say(const EngineDrillOptions& o, const std::string& line) {
  if (o.progress) o.progress(line);
}

std::optional<collect::ServerProps> fetch_props(const std::string& base) {
  net::ClientOptions co;
  co.timeouts.total = std::chrono::milliseconds(3000);
  net::Client c(co);
  net::Request req;
  req.url = base + "/props";
  auto r = c.fetch(req);
  if (!r || r->status != 200) return std::nullopt;
  auto p = collect::parse_llamacpp_props(r->body, req.url);
  if (!p) return std::nullopt;
  return *p;
}

core::Result<EngineRun> run_once(const EngineScenario& s, const EngineDrillOptions& o, const Knobs& knobs,
                                 const std::string& label) {
  EngineRun run;
  run.label = label;
  run.knobs = knobs;
  auto port = free_port();
  if (!port) return port.error();
  const std::string base = fmt::format("http://127.0.0.1:{}", *port);
  std::map<std::string, std::string> vars = {{"model", o.model}, {"port", std::to_string(*port)}, {"host", "127.0.0.1"}};
  for (const auto& [k, v] : knobs) vars[k] = std::to_string(v);
  auto argv = expand_command(o.engine_cmd, vars);
  if (!argv) return argv.error();
  run.argv = *argv;
  run.log_path = (std::filesystem::path(o.work_dir) / ("engine-" + label + ".log")).string();
  say(o, fmt::format("[{}] starting: {}", label, command_line(run.argv)));
  auto proc = EngineProcess::start(run.argv, base, run.log_path, o.ready_timeout_s);
  if (!proc) return proc.error();
  run.props = fetch_props(base);
  std::unique_ptr<CpuNeighbour> neighbour;
  if (auto it = knobs.find("neighbours"); it != knobs.end() && it->second > 0) {
    neighbour = std::make_unique<CpuNeighbour>(static_cast<int>(it->second));
    say(o, fmt::format("[{}] {} busy-looping neighbour process(es) started beside the server", label, neighbour->count()));
  }
  bench::BenchFlags f;
  f.endpoint = base;
  f.model = model_alias(o.model);
  f.input_len = s.load.input_len;
  f.output_len = s.load.output_len;
  f.num_requests = s.load.num_requests;
  f.concurrency = s.load.concurrency;
  f.seed = 0;
  f.deadline_s = o.run_deadline_s;
  f.scrape_interval_s = 1;
  f.request_timeout_s = 60;
  auto plan = bench::plan_run(f);
  if (!plan) return plan.error();
  for (const auto& [k, v] : knobs) plan->meta.config[k] = std::to_string(v);
  say(o, fmt::format("[{}] {} requests, {} in / {} out tokens, {} at a time", label, s.load.num_requests,
                     s.load.input_len, s.load.output_len, s.load.concurrency));
  run.out = bench::execute(*plan);
  neighbour.reset();
  (*proc)->stop();
  run.log_text = (*proc)->log_text();
  run.evidence = evidence_of(run, o.model);
  const auto& sum = run.out.summary;
  say(o, fmt::format("[{}] {} completed, {} failed; TTFT p99 {:.0f} ms, TPOT p50 {:.2f} ms", label, sum.completed, sum.failed,
                     sum.ttft_s.p99 * 1e3, sum.tpot_s.p50 * 1e3));
  return run;
}

// knob name -> remedy variable of data/engines/remedy_flags.jsonl
const std::map<std::string, std::string>& knob_variables() {
  static const std::map<std::string, std::string> m = {
      {"parallel", "max_num_seqs"}, {"ctx", "max_model_len"}, {"threads", "threads"}};
  return m;
}

std::optional<int64_t> parse_count(const std::string& s) {
  std::string digits;
  for (char ch : s) {
    if (std::isdigit(static_cast<unsigned char>(ch))) digits += ch;
    else if (ch == ',' || ch == '_') continue;
    else if (!digits.empty()) break;
    else if (ch != ' ') return std::nullopt;
  }
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  return std::stoll(digits);
}

bench::RunSample sample_of(const EngineRun& r) {
  bench::RunSample s;
  s.label = r.label;
  s.request_set_hash = r.out.meta.request_set_hash;
  s.mode = r.out.meta.mode;
  s.concurrency = r.out.meta.concurrency;
  s.realized_rate = r.out.summary.realized_rate;
  s.duration_s = r.out.summary.duration_s;
  s.client_bound = r.out.summary.client_bound;
  s.trials = 1;
  for (const auto& [k, v] : r.knobs) s.config[k] = std::to_string(v);
  for (const auto& b : r.out.run.records) {
    if (b.warmup || !b.ok()) continue;
    if (auto t = b.ttft_s()) s.ttft_s.push_back(*t);
    if (auto t = b.tpot_s()) s.tpot_s.push_back(*t);
    if (auto t = b.e2e_s()) s.e2e_s.push_back(*t);
    s.output_tokens.push_back(static_cast<double>(b.output_tokens()));
  }
  return s;
}

}  // namespace

core::Evidence evidence_of(const EngineRun& run, const std::string& model_path) {
  core::Evidence ev;
  ev.deployment.engine = core::EngineKind::llamacpp;
  ev.deployment.model = model_path;
  size_t scraped = 0;
  for (const auto& sc : run.out.run.scrapes) {
    if (!sc.error.empty() || sc.text.empty()) continue;
    auto a = ingest::adapt_engine_metrics(sc.text, sc.unix_s);
    if (!a) continue;
    ++scraped;
    if (a->engine != core::EngineKind::unknown) ev.deployment.engine = a->engine;
    for (auto& e : a->samples) ev.engine_samples.push_back(std::move(e));
  }
  if (run.props) {
    if (run.props->total_slots) ev.deployment.settings.max_num_seqs = *run.props->total_slots;
    if (run.props->ctx_per_slot) ev.deployment.settings.max_model_len = *run.props->ctx_per_slot;
    ev.deployment.engine_version = run.props->build;
  }
  if (auto t = run.knobs.find("threads"); t != run.knobs.end()) ev.deployment.settings.unmodelled.push_back(fmt::format("-t {}", t->second));
  for (const auto& r : run.out.run.records)
    if (!r.warmup) ev.requests.push_back(bench::to_request_record(r));
  ingest::LogParseOptions lo;
  lo.source_name = std::filesystem::path(run.log_path).filename().string();
  auto parsed = ingest::parse_engine_log_text(run.log_text, lo);
  ev.events = std::move(parsed.events);
  for (auto& e : parsed.signature_events) ev.events.push_back(std::move(e));
  ev.inputs.push_back({run.label + " /metrics", "metrics", scraped > 0, fmt::format("{} scrape(s) during the run", scraped)});
  ev.inputs.push_back({run.label + " /props", "props", run.props.has_value(),
                       run.props ? fmt::format("{} slots of {} tokens", run.props->total_slots.value_or(0),
                                               run.props->ctx_per_slot.value_or(0))
                                 : std::string("not read (not llama.cpp, or the endpoint is off)")});
  ev.inputs.push_back({run.label + " records", "records", !ev.requests.empty(), fmt::format("{} requests", ev.requests.size())});
  ev.inputs.push_back({run.log_path, "log", !run.log_text.empty(), fmt::format("{} events", ev.events.size())});
  return ev;
}

std::optional<AppliedChange> choose_change(const diagnose::Report& rep, const Knobs& knobs, std::vector<std::string>& skipped) {
  for (size_t fi = 0; fi < rep.findings.size(); ++fi) {
    const auto& f = rep.findings[fi];
    if (f.severity == diagnose::Severity::info && fi > 0) break;
    for (size_t ri = 0; ri < f.remedies.size(); ++ri) {
      const auto& r = f.remedies[ri];
      if (r.kind != diagnose::Remedy::Kind::change) continue;
      const ledger::RemedyFlagRow* row = ledger::find_remedy_flag(r.change);
      std::string knob;
      for (const auto& [k, var] : knob_variables())
        if (row && row->variable == var && knobs.count(k)) knob = k;
      if (knob.empty()) {
        skipped.push_back(r.change + ": not one of this drill's knobs (" + std::string(row ? row->variable : "unknown variable") + ")");
        continue;
      }
      auto v = parse_count(r.to);
      if (!v || *v <= 0) {
        skipped.push_back(fmt::format("{}: '{}' is not a count the drill can set", r.change, r.to));
        continue;
      }
      if (*v == knobs.at(knob)) {
        skipped.push_back(fmt::format("{}: already {}", r.change, *v));
        continue;
      }
      AppliedChange c;
      c.finding = fi;
      c.remedy = ri;
      c.change = r.change;
      c.from = r.from;
      c.to = r.to;
      c.knob = knob;
      c.value = *v;
      return c;
    }
  }
  return std::nullopt;
}

core::Result<EngineDrillResult> run_engine_drill(const EngineScenario& s, const EngineDrillOptions& o) {
  EngineDrillResult res;
  res.scenario = s;
  std::error_code ec;
  std::filesystem::create_directories(o.work_dir, ec);
  if (s.baseline_knobs) {
    Knobs k = s.knobs;
    for (const auto& [name, v] : *s.baseline_knobs) k[name] = v;
    auto b = run_once(s, o, k, "baseline");
    if (!b) return b.error();
    res.baseline = std::move(*b);
  }
  auto a = run_once(s, o, s.knobs, "a");
  if (!a) return a.error();
  res.a = std::move(*a);
  diagnose::DiagnoseInput in;
  in.now = res.a.evidence;
  if (res.baseline) in.baseline = res.baseline->evidence;
  in.what_if = false;  // the simulator models GPU engines, not this server: remedies are sized by data and the ledger
  in.model_as_given = o.model;
  if (!s.slo.empty())
    if (auto st = diagnose::parse_slo(in.slo, s.slo); !st.ok()) return st.error();
  // What an operator reads off the host and the launch line (nproc, -t): the CPU server's context.
  const double cores = static_cast<double>(std::max(1u, std::thread::hardware_concurrency()));
  in.observations.now["host_cpu_cores"] = cores;
  if (auto t = res.a.knobs.find("threads"); t != res.a.knobs.end()) in.observations.now["engine_threads"] = static_cast<double>(t->second);
  if (res.baseline) {
    in.observations.baseline["host_cpu_cores"] = cores;
    if (auto t = res.baseline->knobs.find("threads"); t != res.baseline->knobs.end())
      in.observations.baseline["engine_threads"] = static_cast<double>(t->second);
  }
  res.report = diagnose::diagnose(in);
  if (!res.report.findings.empty()) {
    const auto& top = res.report.findings.front();
    res.named = diagnose::to_string(top.layer) == s.planted_layer && (s.planted_finding.empty() || top.id == s.planted_finding);
    if (!res.named) res.named_why = fmt::format("the top finding is {} in {}", top.id, diagnose::to_string(top.layer));
  } else {
    res.named_why = "no finding";
  }
  say(o, fmt::format("[diagnosis] {}: {}", res.report.findings.empty() ? "no cause located" : res.report.findings.front().title,
                     res.named ? "the planted cause" : "NOT the planted cause (" + res.named_why + ")"));
  if (!o.apply_remedy) return res;
  res.applied = choose_change(res.report, s.knobs, res.skipped);
  if (!res.applied) {
    say(o, "[remedy] none of the remedies maps to a knob this drill can change");
    return res;
  }
  Knobs kb = s.knobs;
  kb[res.applied->knob] = res.applied->value;
  say(o, fmt::format("[remedy] {} {} -> {} ({} = {})", res.applied->change, res.applied->from, res.applied->to, res.applied->knob,
                     res.applied->value));
  auto b = run_once(s, o, kb, "b");
  if (!b) return b.error();
  res.b = std::move(*b);
  res.sample_a = sample_of(res.a);
  res.sample_b = sample_of(*res.b);
  bench::AbOptions ao;
  res.ab = bench::compare_runs(*res.sample_a, *res.sample_b, ao);
  return res;
}

}  // namespace llmtriage::drill
