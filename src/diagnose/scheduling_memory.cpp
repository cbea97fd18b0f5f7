// Memory rules of the scheduling_capacity layer: startup OOM and max-model-len larger than the KV
// pool (ledger + startup log lines), a request longer than the KV pool waiting forever, and
// runtime OOM with the KV pool not full (memory the startup profile did not measure).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "diagnose/scheduling_rules.h"
#include "ingest/engine_log.h"

namespace llmtriage::diagnose::sched {

using kit::first;

namespace {

const core::Event* first_event(const Context& c, core::EventKind k, bool last = false) {
  const core::Event* found = nullptr;
  for (const auto& e : c.in.now.events)
    if (e.kind == k) {
      found = &e;
      if (!last) break;
    }
  return found;
}

std::optional<double> field(const core::Event* e, const char* key) {
  if (!e) return std::nullopt;
  auto it = e->fields.find(key);
  if (it == e->fields.end()) return std::nullopt;
  return it->second;
}

std::string label(const core::Event* e, const char* key) {
  if (!e) return "";
  auto it = e->labels.find(key);
  return it == e->labels.end() ? "" : it->second;
}

// When an OOM happened. The indicators count an OOM as startup when nothing was served before it;
// the line itself often says more: TGI's span names the batch it was running, vLLM's traceback
// frames name the profiling run or the serving loop (ingest::oom_phase, one classification for
// the log reader and the rules).
enum class Phase { startup, runtime, unknown };
Phase oom_phase(const core::Event& e) {
  switch (ingest::oom_phase(e)) {
    case ingest::OomPhase::startup: return Phase::startup;
    case ingest::OomPhase::runtime: return Phase::runtime;
    case ingest::OomPhase::unknown: return Phase::unknown;
  }
  return Phase::unknown;
}

// OOM events split by phase: the line's own phase where it states one, the indicators' otherwise.
struct OomSplit {
  double startup = 0, runtime = 0;
  const core::Event* first_startup = nullptr;
  const core::Event* last_runtime = nullptr;
};
OomSplit split_ooms(const Context& c) {
  OomSplit s;
  double unknown = 0;
  const core::Event* first_unknown = nullptr;
  const core::Event* last_unknown = nullptr;
  for (const auto& e : c.in.now.events) {
    if (e.kind != core::EventKind::oom) continue;
    switch (oom_phase(e)) {
      case Phase::startup:
        ++s.startup;
        if (!s.first_startup) s.first_startup = &e;
        break;
      case Phase::runtime:
        ++s.runtime;
        s.last_runtime = &e;
        break;
      case Phase::unknown:
        ++unknown;
        if (!first_unknown) first_unknown = &e;
        last_unknown = &e;
        break;
    }
  }
  if (s.startup + s.runtime + unknown == 0) {
    // No events in hand (indicators given directly): the indicators' split.
    s.startup = c.ind.get("startup_oom_events").value_or(0);
    s.runtime = std::max(0.0, c.ind.get("oom_events").value_or(0) - s.startup);
    return s;
  }
  // Unlabelled lines with the operator's word for when it happened (a runtime OOM reported, no
  // startup OOM): while serving. A pasted excerpt rarely holds the lines served before it, so
  // "nothing served before" says nothing about the phase then.
  if (unknown > 0 && kit::has_symptom(c, Symptom::runtime_oom_or_preemption) && !kit::has_symptom(c, Symptom::startup_oom)) {
    s.runtime += unknown;
    if (!s.last_runtime) s.last_runtime = last_unknown;
    return s;
  }
  // Unlabelled lines: as the indicators counted them (startup when nothing was served before).
  const double ind_startup = c.ind.get("startup_oom_events").value_or(0);
  const double unknown_startup = std::clamp(ind_startup - s.startup, 0.0, unknown);
  s.startup += unknown_startup;
  s.runtime += unknown - unknown_startup;
  if (!s.first_startup && unknown_startup > 0) s.first_startup = first_unknown;
  if (!s.last_runtime && unknown - unknown_startup > 0) s.last_runtime = last_unknown;
  return s;
}

// Did the engine start (it answers /metrics with a KV pool) or serve anything in the window?
// Then a "does not start" ledger verdict is wrong: the ledger's inputs differ from the server's.
bool served(const Context& c) {
  return c.ind.get("running_max").value_or(0) > 0 || c.ind.get("records_ok").value_or(0) > 0 ||
         c.ind.get("output_tokens_per_s").value_or(0) > 0 || c.ind.get("kv_capacity_tokens_metrics").value_or(0) > 0;
}

EvidenceItem ledger_item(const LedgerContext& lc) {
  const auto& r = lc.report;
  return kit::text_item("ledger_kv_tokens", static_cast<double>(r.kv_cache_tokens), "tokens", "ledger",
                        fmt::format("{} on {} (TP {}, {} {:.2f}): weights {:.1f} GiB, KV pool {:.2f} GiB; verdict {}: {}",
                                    r.model_id, r.gpu_name, r.tp,
                                    r.engine == core::EngineKind::sglang ? "mem-fraction-static" : "gpu-memory-utilization",
                                    r.utilization, r.weights_gib, r.kv_cache_gib, ledger::to_string(r.verdict),
                                    r.verdict_detail));
}

std::string util_flag(const Context& c) {
  return c.in.now.deployment.engine == core::EngineKind::sglang ? "mem-fraction-static" : "gpu-memory-utilization";
}

// gpu-memory-utilization lowered to `to`, with the KV pool the ledger predicts for it.
Remedy lower_util(const Context& c, kit::Models& m, double from, double to, const std::string& why) {
  const LedgerContext* lc = m.ledger();
  const std::string flag = util_flag(c);
  if (lc) {
    auto after = ledger_with(*lc, [&](ledger::LedgerInput& x) {
      if (flag == "mem-fraction-static") x.settings.mem_fraction_static = to;
      else x.settings.gpu_memory_utilization = to;
    });
    if (after) {
      Remedy r;
      r.change = flag;
      r.from = fmt::format("{:.2f}", from);
      r.to = fmt::format("{:.2f}", to);
      r.predicted_effect = fmt::format("{}; KV pool {} -> {} tokens (ledger), verdict {}", why,
                                       tokens_text(static_cast<double>(lc->report.kv_cache_tokens)),
                                       tokens_text(static_cast<double>(after->kv_cache_tokens)),
                                       ledger::to_string(after->verdict));
      r.basis = "ledger";
      r.uncertainty = kLedgerUncertainty;
      return r;
    }
  }
  return kit::qualitative(flag, fmt::format("{:.2f}", from), fmt::format("{:.2f}", to),
                          why + "; the KV pool shrinks accordingly (give --model and --gpu for the ledger's figure)");
}

double current_util(const Context& c, kit::Models& m) {
  if (const LedgerContext* lc = m.ledger()) return lc->report.utilization;
  const auto& s = c.in.now.deployment.settings;
  return s.gpu_memory_utilization.value_or(s.mem_fraction_static.value_or(0.9));
}

}  // namespace

std::optional<Pool> kv_pool(const Context& c, kit::Models& m) {
  if (auto kv = c.ind.get("kv_capacity_tokens"); kv && *kv > 0) return Pool{*kv, c.ind.item("kv_capacity_tokens")};
  if (const LedgerContext* lc = m.ledger(); lc && lc->report.kv_cache_tokens > 0)
    return Pool{static_cast<double>(lc->report.kv_cache_tokens), ledger_item(*lc)};
  return std::nullopt;
}

void startup_memory(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  const OomSplit ooms = split_ooms(c);
  const double startup_ooms = ooms.startup;
  const double maxlen_events = c.ind.get("max_len_exceeds_kv_events").value_or(0);
  const LedgerContext* lc = m.ledger();
  const bool ledger_fails = lc && !lc->report.engine_starts;
  const bool ledger_maxlen = lc && lc->report.verdict == ledger::Verdict::max_model_len_exceeds_kv;
  const bool serving = served(c);

  // max-model-len larger than the KV pool: vLLM refuses to start (a startup OOM in the operator's eyes).
  if (maxlen_events >= 1 || (ledger_maxlen && ledger_fails && !serving && startup_ooms == 0)) {
    Finding f = kit::finding("max_len_exceeds_kv", Layer::scheduling_capacity, Symptom::startup_oom, Severity::critical,
                             "max-model-len is larger than the KV pool: the engine refuses to start");
    const core::Event* e = first_event(c, core::EventKind::max_len_exceeds_kv);
    if (e) f.evidence.push_back(kit::event_item(*e));
    if (lc) f.evidence.push_back(ledger_item(*lc));
    const auto mml = field(e, "max_model_len_tokens");
    const auto kv = field(e, "kv_tokens");
    f.explanation = fmt::format(
        "One sequence of max-model-len{} must fit in the KV pool{}; it does not, so the engine stops at startup. "
        "Either the context is longer than this deployment can hold, or the pool is smaller than intended.",
        mml ? fmt::format(" ({:.0f} tokens)", *mml) : "", kv ? fmt::format(" ({:.0f} tokens)", *kv) : "");
    f.confidence = e ? (ledger_maxlen ? 0.95 : 0.8) : 0.55;
    if (lc) {
      f.remedies = ledger_remedies(*lc, {"max-model-len", "context-length", "gpu-memory-utilization",
                                         "mem-fraction-static", "tensor-parallel-size", "kv-cache-dtype"});
    } else if (auto est = field(e, "estimated_max_model_len_tokens"); est || kv) {
      Remedy r;
      r.change = "max-model-len";
      r.from = mml ? fmt::format("{:.0f}", *mml) : "";
      r.to = fmt::format("{:.0f}", est ? *est : *kv);
      r.predicted_effect = "the longest context the engine says fits in its KV pool (engine log); the engine starts";
      r.basis = "engine log";
      f.remedies.push_back(r);
    }
    if (f.remedies.empty())
      f.remedies.push_back(kit::qualitative("max-model-len", "", "lower", "give --model and --gpu for the largest that fits"));
    f.next_measurement = "Re-run `llmtriage ledger` with the proposed value; check the engine's 'GPU KV cache size' line on the next start.";
    out.push_back(std::move(f));
    return;
  }

  if (!(startup_ooms >= 1 || (ledger_fails && !serving))) return;
  Finding f = kit::finding("startup_oom", Layer::scheduling_capacity, Symptom::startup_oom, Severity::critical,
                           "Out of memory at startup");
  const core::Event* e = ooms.first_startup;
  if (startup_ooms >= 1)
    f.evidence.push_back(kit::text_item("startup_oom_events", startup_ooms, "count",
                                        e ? e->source : c.ind.item("startup_oom_events").source,
                                        "OOM before serving (or the line names the startup phase)"));
  if (e) f.evidence.push_back(kit::event_item(*e));
  if (lc) f.evidence.push_back(ledger_item(*lc));
  const std::string cause = label(e, "cause");
  if (cause == "free_memory_below_requested") {
    // Another process holds GPU memory: the requested fraction is not free.
    const auto free_gib = field(e, "free_gib"), total = field(e, "total_capacity_gib");
    const double util = field(e, "gpu_memory_utilization").value_or(current_util(c, m));
    f.explanation = fmt::format(
        "The engine asked for {:.2f} of the GPU but only {} GiB were free at startup: another process (a previous "
        "engine still exiting, another model, a notebook) holds the rest.",
        util, free_gib ? fmt::format("{:.2f}", *free_gib) : "part of the");
    f.confidence = 0.9;
    if (free_gib && total && *total > 0) {
      const double to = std::floor((*free_gib / *total - 0.01) * 100) / 100;
      if (to > 0.05) f.remedies.push_back(lower_util(c, m, util, to, "fits in the memory that is free now"));
    }
    f.remedies.push_back(kit::qualitative("other GPU processes", "running", "stopped",
                                          "the requested fraction becomes free; nothing else changes"));
  } else {
    f.explanation =
        lc ? fmt::format("The ledger: {}.", lc->report.verdict_detail)
           : "The engine ran out of GPU memory while starting (weights, activation profile, CUDA graphs or the KV pool).";
    if (startup_ooms >= 1 && lc && lc->report.engine_starts)
      f.explanation += fmt::format(
          " The ledger predicts this deployment starts ({} KV tokens): memory it does not model is in use (another "
          "process, a larger CUDA-graph pool, an older engine version's accounting).",
          tokens_text(static_cast<double>(lc->report.kv_cache_tokens)));
    f.confidence = startup_ooms >= 1 ? (ledger_fails ? 0.9 : (lc ? 0.6 : 0.7)) : 0.55;
    if (lc) f.remedies = ledger_remedies(*lc);
    if (f.remedies.empty()) {
      const double util = current_util(c, m);
      Remedy raise = kit::qualitative(util_flag(c), fmt::format("{:.2f}", util), "0.95",
                                      "more memory for the engine (when nothing else shares the GPU)");
      // No KV memory left with a low fraction: the engine's own advice (raise the fraction) first.
      const bool util_first = util < 0.95 && (cause == "no_kv_memory" || util < 0.8);
      if (util_first) f.remedies.push_back(raise);
      f.remedies.push_back(kit::qualitative("max-model-len", "", "lower", "less activation memory and KV per sequence"));
      f.remedies.push_back(kit::qualitative("tensor-parallel-size", "", "x2", "weights split over twice the GPUs"));
      if (!util_first && util < 0.95) f.remedies.push_back(raise);
    }
  }
  f.next_measurement = "Check nvidia-smi for other processes before the start; compare the engine's startup memory lines with `llmtriage ledger`.";
  out.push_back(std::move(f));
}

void request_exceeds_kv_pool(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  const auto running = first(c, {"running_max", "running"});
  const auto waiting = first(c, {"waiting_p50", "waiting"});
  if (!running || *running >= 0.5 || !waiting || *waiting < 1) return;
  const auto pool = kv_pool(c, m);
  if (!pool) return;
  const auto longest = c.ind.get("longest_input_tokens");
  const auto mml = c.ind.get("max_model_len");
  double conf = 0;
  if (longest && *longest > pool->tokens) conf = 0.8;
  else if (!longest && mml && *mml > pool->tokens) conf = 0.45;
  if (conf == 0) return;
  Finding f = kit::finding("request_exceeds_kv_pool", Layer::scheduling_capacity, Symptom::timeout_or_stream_break,
                           Severity::critical, "A request longer than the KV pool waits forever (it can never run)");
  f.evidence.push_back(c.ind.item(kit::first_name(c, {"running_max", "running"}), 0.5, "<"));
  f.evidence.push_back(c.ind.item(kit::first_name(c, {"waiting_p50", "waiting"}), 1, ">="));
  if (longest) f.evidence.push_back(c.ind.item("longest_input_tokens", pool->tokens, ">"));
  else f.evidence.push_back(c.ind.item("max_model_len", pool->tokens, ">"));
  f.evidence.push_back(pool->item);
  f.explanation = fmt::format(
      "Nothing runs while a request waits: its prompt ({}) needs more KV blocks than the whole pool holds ({} tokens), "
      "so the scheduler can never admit it and it blocks the queue head. Clients see it as a gateway timeout.",
      longest ? fmt::format("{:.0f} tokens", *longest) : "up to max-model-len", kit::num(pool->tokens));
  f.confidence = kit::confidence(conf, f.evidence);
  const int64_t cap = static_cast<int64_t>(pool->tokens) / 16 * 16;
  Remedy cap_len;
  cap_len.change = "max-model-len";
  cap_len.from = mml ? fmt::format("{:.0f}", *mml) : "";
  cap_len.to = std::to_string(cap);
  cap_len.predicted_effect =
      "prompts longer than the pool are rejected at once with HTTP 400 instead of holding the queue forever";
  cap_len.basis = pool->item.source == "ledger" ? "ledger" : "engine metrics";
  f.remedies.push_back(cap_len);
  if (const LedgerContext* lc = m.ledger(); lc && lc->report.kv_cache_dtype.rfind("fp8", 0) != 0) {
    if (auto after = ledger_with(*lc, [](ledger::LedgerInput& x) { x.settings.kv_cache_dtype = "fp8"; })) {
      Remedy r;
      r.change = "kv-cache-dtype";
      r.from = lc->report.kv_cache_dtype;
      r.to = "fp8";
      r.predicted_effect = fmt::format("KV pool {} -> {} tokens (ledger){}", tokens_text(static_cast<double>(lc->report.kv_cache_tokens)),
                                       tokens_text(static_cast<double>(after->kv_cache_tokens)),
                                       longest ? (static_cast<double>(after->kv_cache_tokens) > *longest ? ": the prompt fits"
                                                                                                         : ": still too small for the prompt")
                                               : "");
      r.basis = "ledger";
      r.uncertainty = kLedgerUncertainty;
      f.remedies.push_back(r);
    }
  }
  f.remedies.push_back(kit::qualitative("the stuck request", "waiting", "aborted", "the queue behind it drains at once"));
  f.next_measurement = "Find the waiting request's prompt length (gateway log or records) and compare it with the engine's KV cache size.";
  out.push_back(std::move(f));
}

void runtime_oom_unprofiled(const Context& c, kit::Models& m, std::vector<Finding>& out) {
  const OomSplit ooms = split_ooms(c);
  if (ooms.runtime < 1) return;
  // The KV pool is allocated at startup: a CUDA OOM while serving is memory outside it. A pool
  // near full points at concurrency instead (preemption_storm); unmeasured, the rule still holds
  // but less surely.
  const auto kv = first(c, {"kv_usage_max", "kv_usage"});
  const double low = c.th.get("sched.oom_kv_low");
  if (kv && *kv >= low) return;
  Finding f = kit::finding("runtime_oom_unprofiled_memory", Layer::scheduling_capacity, Symptom::runtime_oom_or_preemption,
                           Severity::critical, "Runtime OOM with the KV pool not full: memory the startup profile did not measure");
  const core::Event* e = ooms.last_runtime;
  f.evidence.push_back(kit::text_item("runtime_oom_events", ooms.runtime, "count",
                                      e ? e->source : c.ind.item("oom_events").source, "CUDA OOM while serving"));
  if (kv) f.evidence.push_back(c.ind.item(kit::first_name(c, {"kv_usage_max", "kv_usage"}), low, "<"));
  if (e) f.evidence.push_back(kit::event_item(*e));
  const auto tried = field(e, "tried_to_allocate_gib");
  f.explanation = fmt::format(
      "CUDA ran out of memory while serving{}: the KV pool is allocated once at startup, so the allocation{} came "
      "from outside it, from memory the startup profiling run did not measure -- prompt logprobs over long prompts, "
      "the sampler's warm-up with a large max-num-seqs, or attention workspace that grows with context.",
      kv ? fmt::format(" although the KV pool was at most {:.0f}% used", *kv * 100) : "",
      tried ? fmt::format(" ({:.2f} GiB)", *tried) : "");
  f.confidence = kit::confidence(kv ? 0.65 : 0.5, f.evidence);
  const double util = current_util(c, m);
  const double total = field(e, "total_capacity_gib").value_or(m.ledger() ? m.ledger()->report.total_gib : 80.0);
  const double step = tried && total > 0 ? std::ceil((*tried + 0.5) / total * 100) / 100 : 0.05;
  if (util - step > 0.3)
    f.remedies.push_back(lower_util(c, m, util, util - step,
                                    tried ? fmt::format("leaves {:.2f} GiB more outside the pool for the failed allocation", step * total)
                                          : "leaves 5% of the GPU outside the pool"));
  if (auto seqs = c.ind.get("max_num_seqs"); seqs && *seqs > 32)
    f.remedies.push_back(kit::qualitative("max-num-seqs", kit::num(*seqs), kit::num(std::floor(*seqs / 2)),
                                          "halves the sampler's and the logits' per-step buffers"));
  if (auto mbt = c.ind.get("max_num_batched_tokens"); mbt && *mbt > 2048)
    f.remedies.push_back(kit::qualitative("max-num-batched-tokens", kit::num(*mbt), kit::num(std::floor(*mbt / 2)),
                                          "halves the step's activation peak outside the KV pool"));
  f.remedies.push_back(kit::qualitative("prompt_logprobs (request)", "set", "unset",
                                        "no full-vocabulary logits over every prompt token"));
  f.next_measurement = "Read the OOM traceback's frame (sampler, logprobs, attention) and the request that was running; watch torch memory vs the KV pool over time.";
  out.push_back(std::move(f));
}

}  // namespace llmtriage::diagnose::sched
