// `llmtriage sim run`: simulate a continuous-batching engine (or a cluster of replicas) on a
// virtual clock, from a scenario file or from flags, and print the serving summary.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/sim_engine_flags.h"
#include "core/exit_code.h"
#include "core/files.h"
#include "sim/outputs.h"
#include "sim/scenario.h"

namespace llmtriage::cli {

namespace {

struct SimOpts {
  std::string scenario;
  SimEngineFlags eng;
  std::optional<std::string> router, calibration, out, trace;
  std::optional<int64_t> input_len, output_len, concurrency, num_requests, prefix_groups, shared_prefix_len, seed;
  std::optional<double> rate, burstiness;
};

void apply_flags(const SimOpts& o, sim::Scenario& s) {
  apply_sim_engine_flags(o.eng, s);
  auto& w = s.config.workload;
  if (o.input_len) w.input = sim::LengthDist::fixed_len(*o.input_len);
  if (o.output_len) w.output = sim::LengthDist::fixed_len(*o.output_len);
  if (o.num_requests) w.num_requests = *o.num_requests;
  if (o.seed) w.seed = static_cast<uint64_t>(*o.seed);
  if (o.prefix_groups) w.prefix_groups = *o.prefix_groups;
  if (o.shared_prefix_len) w.shared_prefix_len = *o.shared_prefix_len;
  if (o.rate) {
    w.rate_rps = *o.rate;
    w.arrival = std::isinf(*o.rate) ? sim::ArrivalKind::all_at_once
                : (o.burstiness && *o.burstiness != 1.0) ? sim::ArrivalKind::gamma : sim::ArrivalKind::poisson;
  }
  if (o.burstiness) {
    w.burstiness = *o.burstiness;
    if (w.arrival == sim::ArrivalKind::poisson && *o.burstiness != 1.0) w.arrival = sim::ArrivalKind::gamma;
  }
  if (o.concurrency) {
    w.arrival = sim::ArrivalKind::closed_loop;
    w.concurrency = *o.concurrency;
  }
}

void print_text(std::ostream& out, const sim::Scenario& s, const sim::SimResult& r) {
  const auto& m = r.summary;
  auto line = [&](const std::string& k, const std::string& v) { out << fmt::format("{:<40}{:>16}\n", k, v); };
  auto f2 = [](double v) { return fmt::format("{:.2f}", v); };
  out << fmt::format("{:=^56}\n", " Simulated serving result ");
  line("Scenario:", s.name.empty() ? "(flags)" : s.name);
  line("Engine / replicas:", fmt::format("{} x{}", s.config.preset.name, s.config.replicas));
  line("KV cache per replica (tokens):", std::to_string(m.kv_cache_tokens));
  line("Successful requests:", std::to_string(m.completed));
  if (m.rejected) line("Rejected (max_model_len):", std::to_string(m.rejected));
  if (m.timed_out) line("Timed out / retries:", fmt::format("{} / {}", m.timed_out, m.retries));
  line("Benchmark duration (s):", f2(m.duration_s));
  line("Request throughput (req/s):", f2(m.request_throughput));
  line("Output token throughput (tok/s):", f2(m.output_throughput));
  line("Total token throughput (tok/s):", f2(m.total_token_throughput));
  line("Preemptions:", std::to_string(m.preemptions));
  line("Prefix cache hit rate:", fmt::format("{:.1f}%", m.prefix_cache_hit_rate * 100));
  line("KV usage mean / max:", fmt::format("{:.1f}% / {:.1f}%", m.kv_usage_mean * 100, m.kv_usage_max * 100));
  line("Running mean / max, waiting max:", fmt::format("{:.0f} / {:.0f}, {:.0f}", m.running_mean, m.running_max, m.waiting_max));
  for (auto [name, d] : {std::pair{"TTFT", &m.ttft_ms}, {"TPOT", &m.tpot_ms}, {"ITL", &m.itl_ms}, {"E2E", &m.e2e_ms}}) {
    out << fmt::format("{:-^56}\n", std::string(" ") + name + " ");
    line(fmt::format("Mean {} (ms):", name), f2(d->mean));
    line(fmt::format("Median {} (ms):", name), f2(d->median));
    line(fmt::format("P90 {} (ms):", name), f2(d->p90));
    line(fmt::format("P99 {} (ms):", name), f2(d->p99));
  }
  out << fmt::format("{:=^56}\n", "");
  out << fmt::format("simulated {:.1f} s in {:.3f} s wall ({:.0f}x real time)\n", m.sim_seconds, m.wall_seconds,
                     m.wall_seconds > 0 ? m.sim_seconds / m.wall_seconds : 0.0);
  if (r.livelock) out << "LIVELOCK: " << r.livelock_detail << "\n";
}

}  // namespace

Command make_sim_run_command() {
  auto o = std::make_shared<SimOpts>();
  Command c;
  c.path = "sim run";
  c.summary = "Simulate a continuous-batching inference engine (or N replicas) on a virtual clock";
  c.example =
      "llmtriage sim run --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --input-len 1000 --output-len 200 "
      "--rate 8 --num-requests 500 --json   # or: llmtriage sim run preemption-storm";
  c.options = {
      {"SCENARIO NAME", "", "a scenario file or bundled name (data/scenarios/); flags below override its fields", &o->scenario},
  };
  for (auto& opt : sim_engine_options(o->eng, "max prompt + output tokens per request (longer requests are rejected with HTTP 400)"))
    c.options.push_back(std::move(opt));
  c.options.insert(c.options.end(), {
      {"--replicas", "", "engine replicas behind the router", &o->eng.replicas, "1", false, at_least(1)},
      {"--router NAME", "", "round-robin, least-outstanding, prefix-affinity, random", &o->router, "round-robin"},
      {"--input-len", "", "prompt tokens per request (fixed)", &o->input_len, "512", false, at_least(1)},
      {"--output-len", "", "generated tokens per request (fixed, ignore_eos)", &o->output_len, "128"},
      {"--rate", "", "Poisson arrival rate, requests/s; 'inf' sends all at time 0 (offline throughput)", &o->rate, "1", false, kRatePositive},
      {"--burstiness", "", "gamma shape of inter-arrivals (1 = Poisson, < 1 burstier)", &o->burstiness, "", false, kPositive},
      {"--concurrency", "", "closed loop: keep this many requests in flight (instead of --rate)", &o->concurrency, "", false, at_least(1)},
      {"--num-requests", "", "requests to send", &o->num_requests, "100", false, at_least(1)},
      {"--prefix-groups", "", "shared-prefix groups (system prompts) requests are spread over", &o->prefix_groups},
      {"--shared-prefix-len", "", "tokens of the shared prefix in each group", &o->shared_prefix_len},
      {"--seed", "", "workload seed (same seed, same requests, same result)", &o->seed, "0"},
      {"--trace FILE", "", "replay request records (JSONL: arrival_s, input_tokens, output_tokens) instead of generating load", &o->trace},
      {"--calibration FILE", "", "JSON file overriding cost-model constants (docs/sim.md)", &o->calibration},
      {"--out,-o DIR", "", "folder for records.jsonl, engine_samples.jsonl, engine.log, events.jsonl, summary.json", &o->out},
  });
  c.run = [o](Context& ctx) -> int {
    sim::Scenario s;
    if (!o->scenario.empty()) {
      auto l = sim::load_scenario(o->scenario);
      if (!l.ok()) return fail(ctx, l.error());
      s = std::move(l.value());
    }
    if (o->router) {
      auto r = sim::router_kind_from_string(*o->router);
      if (!r.ok()) return fail(ctx, r.error());
      s.config.router = *r;
    }
    apply_flags(*o, s);
    if (o->calibration) {
      auto text = core::read_file(*o->calibration);
      if (!text.ok()) return fail(ctx, text.error());
      auto cal = sim::Calibration::from_json_text(*text, *o->calibration);
      if (!cal.ok()) return fail(ctx, cal.error());
      s.config.calibration = *cal;
    }
    if (o->trace) {
      auto rr = sim::read_records_jsonl(*o->trace);
      if (!rr.ok()) return fail(ctx, rr.error());
      for (const auto& e : rr->first_errors) ctx.err << "llmtriage sim run: skipped " << e << "\n";
      if (rr->malformed > rr->first_errors.size())
        ctx.err << "llmtriage sim run: skipped " << rr->malformed << " malformed lines in all\n";
      s.config.workload.arrival = sim::ArrivalKind::trace;
      s.config.workload.trace = std::move(rr->records);
    }
    if (auto st = sim::resolve(s); !st.ok()) return fail(ctx, st.error());
    if (!s.startup_error.empty()) {
      if (ctx.json) ctx.out << nlohmann::json{{"scenario", s.name}, {"startup_error", s.startup_error}}.dump(2) << "\n";
      else ctx.out << "The simulated engine does not start:\n  " << s.startup_error << "\n";
      return core::kExitFindings;
    }
    auto r = sim::run_simulation(s.config);
    if (!r.ok()) {
      if (r.error().where == "KV pool") {  // the engine's own startup refusal: a finding, not a usage error
        if (ctx.json) ctx.out << nlohmann::json{{"scenario", s.name}, {"startup_error", r.error().detail}}.dump(2) << "\n";
        else ctx.out << "The simulated engine does not start:\n  " << r.error().detail << "\n";
        return core::kExitFindings;
      }
      return fail(ctx, r.error());
    }
    nlohmann::json j = r->summary.to_json();
    j["scenario"] = s.name;
    j["engine"] = s.config.preset.name;
    j["replicas"] = s.config.replicas;
    j["kv_pool_source"] = s.kv_pool_source;
    if (r->livelock) j["livelock_detail"] = r->livelock_detail;
    if (!s.expect.empty()) {
      auto failed = sim::check_expectations(s.expect, j);
      j["symptom"] = s.symptom;
      j["symptom_reproduced"] = failed.empty();
      j["expectations_failed"] = failed;
    }
    if (o->out) {
      if (auto st = sim::write_outputs(*o->out, *r, j); !st.ok()) return fail(ctx, st.error());
    }
    if (ctx.json) ctx.out << j.dump(2) << "\n";
    else print_text(ctx.out, s, *r);
    return r->livelock ? core::kExitFindings : core::kExitHealthy;
  };
  c.state = o;
  return c;
}

}  // namespace llmtriage::cli
