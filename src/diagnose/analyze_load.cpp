// Load layer (docs/rules.md, "Layer: load"): did the traffic change? Shifts against a baseline,
// and the artifacts of a load that need no baseline.
#include <cmath>

#include "diagnose/analyzers.h"
#include "diagnose/load_rules.h"
#include "diagnose/mix_throughput.h"
#include "diagnose/rule_util.h"

namespace llmtriage::diagnose {

namespace {

struct Shift {
  double now = 0, base = 0, ratio = 0;
};

std::optional<Shift> shift(const Indicators& ind, const std::string& name) {
  auto n = ind.get(name);
  auto b = ind.base(name);
  if (!n || !b || *b <= 0) return std::nullopt;
  return Shift{*n, *b, *n / *b};
}

bool beyond(double ratio, double threshold) { return ratio >= threshold || ratio <= 1.0 / threshold; }

Finding load_finding(const char* id, Symptom s, const Context& c) {
  Finding f;
  f.id = id;
  f.layer = Layer::load;
  f.symptom = s;
  f.severity = severity_for(c, s);
  return f;
}

// Share of a latency rise a length ratio accounts for, with prefill work proportional to length:
// (length ratio - 1) / (latency ratio - 1), clamped to [0, 1].
std::optional<double> share_of_rise(const Indicators& ind, const char* latency, double length_ratio) {
  auto s = shift(ind, latency);
  if (!s || s->ratio <= 1.05 || length_ratio <= 1) return std::nullopt;
  return std::clamp((length_ratio - 1) / (s->ratio - 1), 0.0, 1.0);
}

void length_shifts(const Context& c, LayerResult& r) {
  const double R = c.th.get("load.length_shift_ratio");
  if (auto s = shift(c.ind, "input_len_mean"); s && beyond(s->ratio, R)) {
    const bool longer = s->ratio > 1;
    Finding f = load_finding("input_length_shift", longer ? pick_symptom(c, {Symptom::ttft_spike, Symptom::tpot_high, Symptom::throughput_low})
                                                  : Symptom::throughput_low, c);
    if (!longer) f.severity = Severity::info;
    f.confidence = source_confidence(c.ind, {"input_len_mean"}, 0.75);
    f.title = fmt::format("Prompts {} {}x: mean input {} -> {} tokens", longer ? "grew" : "shrank", num(longer ? s->ratio : 1 / s->ratio),
                          num(s->base), num(s->now));
    f.explanation = longer ? "The traffic changed: prompts are longer than in the healthy period. Prefill work grows with prompt "
                             "length, so each request holds the GPU longer before its first token and fills more of the KV pool; "
                             "the queue and TTFT follow. Downstream layers are judged too, but the load changed first."
                           : "Prompts are shorter than in the healthy period; this lowers output tokens per second per request "
                             "slot only indirectly and is reported as context.";
    f.evidence.push_back(c.ind.item("input_len_mean", R, longer ? ">= x baseline" : "<= baseline /"));
    if (c.ind.get("input_len_p99")) f.evidence.push_back(c.ind.item("input_len_p99"));
    if (longer) {
      if (auto rate = shift(c.ind, "request_rate"); rate && rate->ratio > 1.05) {
        // Offered prefill work = rate x prompt length: the shares of its (multiplicative) growth.
        f.explains = std::log(s->ratio) / std::log(s->ratio * rate->ratio);
        f.explanation += fmt::format(" Prefill work offered (rate x prompt length) grew {}x; the longer prompts account for "
                                     "{:.0f}% of that growth (log shares), the {}x request rate for the rest.",
                                     num(s->ratio * rate->ratio), *f.explains * 100, num(rate->ratio));
      } else {
        f.explains = share_of_rise(c.ind, "ttft_p50_s", s->ratio);
        if (!f.explains) f.explains = share_of_rise(c.ind, "ttft_p99_s", s->ratio);
        if (f.explains)
          f.explanation += fmt::format(" With prefill time proportional to prompt length, the length change accounts for about "
                                       "{:.0f}% of the TTFT rise (more when the queue amplifies it).", *f.explains * 100);
      }
      if (c.ind.get("chunked_prefill") == 0.0)
        f.remedies.push_back({"enable-chunked-prefill", "false", "true",
                              "long prefills run in chunks, so other requests' decode steps keep going", "qualitative"});
      const double reps = c.ind.get("replicas").value_or(1);
      f.remedies.push_back({"replicas", num(reps), num(std::ceil(reps * s->ratio)),
                            fmt::format("prefill capacity scaled with the {}x prompt length", num(s->ratio)), "qualitative"});
      f.remedies.push_back({"capacity benchmark input length", num(s->base), num(s->now),
                            "re-measure capacity under the SLO on the new mix (llmtriage capacity) before sizing the fleet",
                            "qualitative"});
    }
    f.next_measurement = "input length distribution per client/route: which caller's prompts grew";
    r.findings.push_back(std::move(f));
  }
  if (auto s = shift(c.ind, "output_len_mean"); s && beyond(s->ratio, R)) {
    const bool longer = s->ratio > 1;
    Finding f = load_finding("output_length_shift", longer ? pick_symptom(c, {Symptom::throughput_low, Symptom::ttft_spike, Symptom::tpot_high})
                                                   : Symptom::throughput_low, c);
    f.confidence = source_confidence(c.ind, {"output_len_mean"}, 0.7);
    f.title = fmt::format("Answers {} {}x: mean output {} -> {} tokens", longer ? "grew" : "shrank",
                          num(longer ? s->ratio : 1 / s->ratio), num(s->base), num(s->now));
    f.explanation = longer ? "Answers are longer than in the healthy period: each request holds its batch slot and KV blocks for "
                             "more decode steps, so fewer requests complete per second and new ones queue."
                           : "Answers are shorter than in the healthy period: fewer output tokens per request, so output "
                             "tokens per second fall even when the engine is equally busy (prefill dominates).";
    f.evidence.push_back(c.ind.item("output_len_mean", R, longer ? ">= x baseline" : "<= baseline /"));
    f.remedies.push_back({"max_tokens", c.ind.base("max_tokens_mode") ? num(*c.ind.base("max_tokens_mode")) : "unset",
                          num(std::round(s->base * 2)), "bounds the decode time per request near the healthy period's", "qualitative"});
    f.next_measurement = "output length per route; sampling parameters (max_tokens, stop) per client";
    r.findings.push_back(std::move(f));
  }
}

void rate_and_sampling(const Context& c, LayerResult& r) {
  const double R = c.th.get("load.rate_increase_ratio");
  // The engine counted more requests while the clients sent as many as before, and requests timed
  // out: the extra are retried copies of cut requests (the gateway layer's cause), not new load.
  const auto sent = shift(c.ind, "records_request_rate");
  const bool retried_copies = sent && sent->ratio < R &&
                              c.ind.get("timeout_error_share").value_or(0) >= c.th.get("gateway.timeout_error_share");
  if (auto s = shift(c.ind, "request_rate"); s && s->ratio >= R && !retried_copies) {
    Finding f = load_finding("request_rate_increase", pick_symptom(c, {Symptom::ttft_spike, Symptom::timeout_or_stream_break, Symptom::throughput_low}), c);
    f.confidence = source_confidence(c.ind, {"request_rate"}, 0.75);
    f.title = fmt::format("Request rate up {}x: {} -> {} req/s", num(s->ratio), num(s->base), num(s->now));
    f.explanation = "More requests arrive than in the healthy period; beyond the deployment's capacity under the SLO the waiting "
                    "queue grows and TTFT with it.";
    f.evidence.push_back(c.ind.item("request_rate", R, ">= x baseline"));
    if (auto len = shift(c.ind, "input_len_mean"); len && len->ratio > 1.05)
      f.explains = std::log(s->ratio) / std::log(s->ratio * len->ratio);  // its log share of the prefill work's growth
    // The queue's growth corroborates; a healthy period's queue is usually empty (0), which
    // shift() cannot divide by, so now and baseline are compared directly.
    if (auto w = c.ind.get("waiting"), wb = c.ind.base("waiting"); w && wb && *w > *wb) f.evidence.push_back(c.ind.item("waiting"));
    const double reps = c.ind.get("replicas").value_or(1);
    f.remedies.push_back({"replicas", num(reps), num(std::ceil(reps * s->ratio)),
                          fmt::format("capacity scaled with the {}x arrivals", num(s->ratio)), "qualitative"});
    f.next_measurement = "arrivals per client: a new caller, a batch job, or retries (gateway layer)";
    r.findings.push_back(std::move(f));
  }
  // A most-common max_tokens means something only when most requests send it (a per-request
  // drawn cap has a mode too).
  auto mt = shift(c.ind, "max_tokens_mode");
  if (c.ind.get("max_tokens_mode_share").value_or(0) < 0.5 || c.ind.base("max_tokens_mode_share").value_or(0) < 0.5) mt.reset();
  auto tn = c.ind.get("temperature_mean");
  auto tb = c.ind.base("temperature_mean");
  const bool mt_changed = mt && beyond(mt->ratio, c.th.get("load.length_shift_ratio"));
  const bool t_changed = tn && tb && std::fabs(*tn - *tb) >= c.th.get("load.temperature_delta");
  if (mt_changed || t_changed) {
    Finding f = load_finding("sampling_params_changed", pick_symptom(c, {Symptom::throughput_low, Symptom::output_quality, Symptom::tpot_high}), c);
    f.confidence = 0.6;
    f.title = "Clients changed their sampling parameters";
    f.explanation = "The requests' sampling parameters differ from the healthy period's; max_tokens bounds decode time per "
                    "request and temperature changes the content and length of answers.";
    if (mt_changed) {
      f.evidence.push_back(c.ind.item("max_tokens_mode", c.th.get("load.length_shift_ratio"), ">= x baseline"));
      f.remedies.push_back({"max_tokens", num(mt->now), num(mt->base), "back to the healthy period's limit", "qualitative"});
    }
    if (t_changed) {
      f.evidence.push_back(c.ind.item("temperature_mean", c.th.get("load.temperature_delta"), "|delta| >="));
      f.remedies.push_back({"temperature", num(*tn), num(*tb), "back to the healthy period's sampling", "qualitative"});
    }
    f.next_measurement = "which client or SDK version sends the new parameters";
    r.findings.push_back(std::move(f));
  }
}

void prefix_defeated(const Context& c, LayerResult& r) {
  auto hit = shift(c.ind, "prefix_cache_hit_rate");
  if (!hit || hit->base < c.th.get("load.prefix_min_baseline_hit") || hit->ratio >= c.th.get("load.prefix_hit_drop_ratio")) return;
  auto len = shift(c.ind, "input_len_mean");
  if (len && beyond(len->ratio, c.th.get("load.length_stable_ratio"))) return;  // the prompts changed: the shift rules speak
  if (c.ind.get("prefix_caching") == 0.0) return;  // the engine has caching off: the scheduling layer says so
  Finding f = load_finding("prefix_defeated_by_varying_prefix", pick_symptom(c, {Symptom::ttft_spike, Symptom::throughput_low}), c);
  const double reps = c.ind.get("replicas").value_or(1);
  // With several replicas a lost routing affinity looks the same from the metrics (the
  // scheduling layer's prefix_cache_miss_routing) unless the hit rate fell to about nothing, which
  // no routing does to shared prefixes; a single engine leaves the prompts as the cause.
  const bool routing_fits = reps > 1 && hit->now >= c.th.get("sched.prefix_hit_floor");
  f.confidence = routing_fits ? 0.3 : (len ? 0.7 : 0.5);
  if (routing_fits) f.severity = Severity::info;
  f.title = fmt::format("Prefix-cache hit rate collapsed {} -> {} while prompts kept their length", num(hit->base), num(hit->now));
  f.explanation = "The same traffic stopped reusing cached prefixes. With prompt lengths unchanged, the usual cause is a part "
                  "that varies per request (a timestamp, a request id, a user name) placed at the start of the system prompt: "
                  "every prompt then differs from its first block on, and each prefill starts from zero.";
  if (reps > 1) f.explanation += " With several replicas, a router that lost prefix affinity shows the same numbers; compare one replica's hit rate.";
  f.evidence.push_back(c.ind.item("prefix_cache_hit_rate", hit->base * c.th.get("load.prefix_hit_drop_ratio"), "<"));
  if (len) f.evidence.push_back(c.ind.item("input_len_mean", c.th.get("load.length_stable_ratio"), "within x baseline"));
  if (auto t = share_of_rise(c.ind, "ttft_p50_s", 1.0 / std::max(1e-3, 1 - hit->base + hit->now))) f.explains = t;
  f.remedies.push_back({"system prompt layout", "varying part first", "varying part after the shared prefix",
                        fmt::format("hit rate back toward the baseline {}", num(hit->base)), "qualitative"});
  f.next_measurement = "diff the first 200 tokens of two consecutive prompts from the same route";
  r.findings.push_back(std::move(f));
}

// Which share of a throughput shortfall the production length mix explains: the simulator's cost
// model predicts the deployment's saturated output tok/s on the production mix and on the
// benchmark's mix (the baseline's lengths when given; else the benchmark figure itself is taken
// as the benchmark-mix prediction). share = (1 - predicted ratio) / (1 - observed ratio).
void benchmark_mix(const Context& c, LayerResult& r) {
  auto now = c.ind.get("output_tokens_per_s");
  auto expected = c.ind.get("expected_output_tokens_per_s");
  if (!now || !expected || *expected <= 0) return;
  const double observed = *now / *expected;
  const double limit = c.th.get("load.benchmark_shortfall_ratio");
  if (observed >= limit) return;
  auto in = c.ind.get("input_len_mean");
  auto out = c.ind.get("output_len_mean");
  if (!in || !out || *out <= 0) return;  // no mix to compare: the capacity layers look for the cause
  auto in_b = c.ind.base("input_len_mean");
  auto out_b = c.ind.base("output_len_mean");
  // The deployment when the catalog knows it; else a reference one (Llama-3.1-8B on one H100),
  // whose ratio between two mixes still says how much the mix costs, and an assumed benchmark mix
  // when none was given (512 in / 512 out, the common random-dataset default).
  core::Deployment dep = c.in.now.deployment;
  auto prod = mix_throughput(dep, *in, *out);
  bool reference = false;
  if (!prod.ok()) {
    reference = true;
    dep = core::Deployment{};
    dep.model = "meta-llama/Llama-3.1-8B-Instruct";
    dep.gpu = "H100-SXM";
    prod = mix_throughput(dep, *in, *out);
    if (!prod.ok()) return;
    if (!in_b || !out_b) {
      in_b = 512.0;
      out_b = 512.0;
    }
  }
  double predicted = prod->output_tokens_per_s / *expected;
  std::string basis = fmt::format("sim cost model: {} in / {} out predicts {} tok/s at saturation vs the benchmark's {}",
                                  num(*in), num(*out), num(prod->output_tokens_per_s), num(*expected));
  if (in_b && out_b && *out_b > 0) {
    auto bench = mix_throughput(dep, *in_b, *out_b);
    if (bench.ok() && bench->output_tokens_per_s > 0) {
      predicted = prod->output_tokens_per_s / bench->output_tokens_per_s;
      basis = fmt::format("sim cost model: production mix {} in / {} out predicts {} tok/s, benchmark mix {} in / {} out {} tok/s",
                          num(*in), num(*out), num(prod->output_tokens_per_s), num(*in_b), num(*out_b),
                          num(bench->output_tokens_per_s));
    } else if (reference) {
      return;
    }
  }
  if (reference)
    basis += fmt::format("; NOTE: the deployment is not in the catalog, so the ratio is taken on a reference deployment "
                         "(Llama-3.1-8B, one H100){}",
                         c.ind.base("input_len_mean") ? "" : " with an assumed benchmark mix of 512 in / 512 out");
  if (predicted >= 1) return;
  const double share = std::clamp((1 - predicted) / (1 - observed), 0.0, 1.0);
  if (share < c.th.get("load.mix_explains_min")) return;
  Finding f = load_finding("benchmark_mix_mismatch", Symptom::throughput_low, c);
  if (!reported(c, Symptom::throughput_low)) f.severity = Severity::warning;  // the shortfall is itself the symptom
  f.confidence = reference ? 0.5 : 0.7;
  f.explains = share;
  f.title = fmt::format("Production's length mix explains {:.0f}% of the throughput shortfall ({} of {} tok/s)", share * 100,
                        num(*now), num(*expected));
  f.explanation = fmt::format(
      "The benchmark figure was measured on another length mix. On this deployment the production mix ({} tokens in, {} "
      "out per request) yields {:.0f}% of the benchmark's output tokens per second by the simulator's cost model; the "
      "service delivers {:.0f}%. The mix therefore accounts for about {:.0f}% of the gap; the rest is for the "
      "scheduling and hardware layers. Prefill-heavy requests spend GPU time on prompt tokens that produce no output.",
      num(*in), num(*out), predicted * 100, observed * 100, share * 100);
  f.evidence.push_back(c.ind.item("output_tokens_per_s", *expected * limit, "<"));
  f.evidence.push_back(c.ind.item("expected_output_tokens_per_s"));
  f.evidence.push_back(c.ind.item("input_len_mean"));
  f.evidence.push_back(c.ind.item("output_len_mean"));
  EvidenceItem pred;
  pred.indicator = "predicted_output_tokens_per_s";
  pred.value = prod->output_tokens_per_s;
  pred.unit = "tokens/s";
  pred.source = "sim what-if";
  pred.text = basis;
  f.evidence.push_back(pred);
  f.remedies.push_back({"benchmark length mix", "the benchmark's", fmt::format("production: {} in / {} out", num(*in), num(*out)),
                        reference ? fmt::format("an expectation of about {:.0f}% of the benchmark figure (sim ratio, +-30%)", predicted * 100)
                                  : fmt::format("expected throughput about {} tok/s (sim, +-30%)", num(prod->output_tokens_per_s)),
                        "sim", 0.3});
  f.next_measurement = "re-run the benchmark with the production records (llmtriage bench --requests records.jsonl)";
  // One-token outputs are the extreme of this mix: that finding carries the quantified share.
  for (auto& o : r.findings)
    if (o.id == "one_token_outputs") {
      o.explains = share;
      o.symptom = Symptom::throughput_low;
      o.severity = Severity::warning;  // the shortfall against the benchmark is itself the symptom
      o.explanation += fmt::format(" By the simulator's cost model this mix accounts for about {:.0f}% of the shortfall "
                                   "against the benchmark ({} of {} tok/s).", share * 100, num(*now), num(*expected));
      for (size_t i = 0; i < 2; ++i) o.evidence.push_back(f.evidence[i]);
      o.evidence.push_back(f.evidence.back());
      return;
    }
  // Against the benchmark's mix, the length shifts are this finding's evidence, not causes of their own.
  for (auto it = r.findings.begin(); it != r.findings.end();) {
    if ((it->id == "input_length_shift" || it->id == "output_length_shift") && it->symptom == Symptom::throughput_low) {
      for (auto& e : it->evidence)
        if (e.indicator != "input_len_mean" && e.indicator != "output_len_mean") f.evidence.push_back(e);
      it = r.findings.erase(it);
    } else {
      ++it;
    }
  }
  r.findings.push_back(std::move(f));
}

void artifacts(const Context& c, LayerResult& r) {
  if (auto s = c.ind.get("one_token_output_share"); s && *s >= c.th.get("load.one_token_share")) {
    Finding f = load_finding("one_token_outputs", Symptom::throughput_low, c);
    f.confidence = 0.85;
    f.title = fmt::format("{:.0f}% of requests generated exactly one token", *s * 100);
    f.explanation = "Most requests stop after one output token (max_tokens=1, an immediate stop sequence, or a health check "
                    "mixed into traffic). Output tokens per second then measure prefill only and cannot be compared with a "
                    "benchmark that generates hundreds of tokens.";
    f.evidence.push_back(c.ind.item("one_token_output_share", c.th.get("load.one_token_share"), ">="));
    f.explains = *s;  // those requests produce no decode work to measure
    f.remedies.push_back({"max_tokens", "1", "the production answer length", "throughput comparable with the benchmark", "qualitative"});
    f.next_measurement = "the request bodies of 1-token answers: max_tokens, stop, or a probe endpoint";
    r.findings.push_back(std::move(f));
  }
  auto share = c.ind.get("output_len_max_share");
  auto cap = c.ind.get("max_tokens_mode");
  const bool forced = c.ind.get("ignore_eos_share").value_or(0) >= 0.5;  // a benchmark pinning lengths, not a cutoff
  if (share && cap && !forced && *share >= c.th.get("load.max_tokens_cutoff_share") && *cap >= c.th.get("load.max_tokens_min")) {
    Finding f = load_finding("default_max_tokens_cutoff", Symptom::output_quality, c);
    const bool inferred = c.ind.get("max_tokens_inferred").value_or(0) > 0;
    f.confidence = inferred ? 0.55 : 0.75;
    f.title = fmt::format("{:.0f}% of answers end exactly at max_tokens = {}", *share * 100, num(*cap));
    f.explanation = "Most answers stop at the same token count, the limit they were given: answers are cut mid-sentence "
                    "(finish_reason \"length\"). A client or SDK default max_tokens (often 16, 256 or 512) is the usual cause; "
                    "it reads as a quality problem, not as a limit.";
    f.evidence.push_back(c.ind.item("output_len_max_share", c.th.get("load.max_tokens_cutoff_share"), ">="));
    f.evidence.push_back(c.ind.item("max_tokens_mode", c.th.get("load.max_tokens_min"), ">="));
    if (inferred)
      f.explanation += " The records carry no max_tokens: the cap is inferred from the outputs (a benchmark pinning its "
                       "output length looks the same; it would send ignore_eos).";
    f.remedies.push_back({"max_tokens", inferred ? "unset (default " + num(*cap) + ")" : num(*cap), num(*cap * 4),
                          "answers finish on their own (finish_reason \"stop\")", "qualitative"});
    f.next_measurement = "finish_reason of the cut answers (\"length\" confirms)";
    r.findings.push_back(std::move(f));
  }
  benchmark_mix(c, r);
}

}  // namespace

LayerResult analyze_load(const Context& c) {
  LayerResult r;
  r.verdict.layer = Layer::load;
  const bool baseline = !c.ind.baseline.empty();
  if (baseline) {
    length_shifts(c, r);
    rate_and_sampling(c, r);
    prefix_defeated(c, r);
  }
  artifacts(c, r);
  unrecorded_traffic(c, r.findings);

  bool any = false;
  for (const char* n : {"input_len_mean", "output_len_mean", "request_rate", "one_token_output_share",
                        "output_len_max_share", "prefix_cache_hit_rate", "output_tokens_per_s"}) {
    if (!c.ind.get(n)) continue;
    // A rate of zero is no traffic measured, not healthy traffic: it clears nothing.
    const std::string name = n;
    if ((name == "request_rate" || name == "output_tokens_per_s") && *c.ind.get(n) <= 0) continue;
    any = true;
    if (r.findings.empty()) r.verdict.evidence.push_back(c.ind.item(n));  // the values that cleared it
  }
  if (!r.findings.empty()) {
    r.verdict.state = LayerVerdict::State::at_fault;
  } else if (any) {
    r.verdict.state = LayerVerdict::State::cleared;
  } else {
    r.verdict.why = "no request lengths, rates or outputs (records, metrics histograms, or --observe input_len_mean=, request_rate=)";
    return r;
  }
  if (!baseline)
    r.verdict.why = "not judged against a baseline (no --baseline-* input or baseline_ observations): length, rate and "
                    "sampling shifts unchecked; baseline-free artifacts checked";
  return r;
}

}  // namespace llmtriage::diagnose
