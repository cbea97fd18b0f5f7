#pragma once
// A Report as the analyzers would write it for a saturated KV pool, built by hand so the
// renderers are tested on every field (and on the empty report) independently of the rules.
#include "diagnose/finding.h"

namespace llmtriage::report_test {

inline diagnose::Report saturated_report() {
  using namespace llmtriage::diagnose;
  Report r;
  r.symptoms = {Symptom::ttft_spike};
  r.symptoms_detected = true;
  Finding f;
  f.id = "kv_pool_saturated";
  f.layer = Layer::scheduling_capacity;
  f.symptom = Symptom::ttft_spike;
  f.severity = Severity::warning;
  f.confidence = 0.85;
  f.explains = 0.7;
  f.title = "KV pool saturated: requests queue for KV blocks";
  f.explanation = "The waiting queue stayed deep while the KV pool was nearly full, so new requests wait for "
                  "blocks to be freed before their prefill can start.";
  f.evidence = {
      {"waiting_p50", 42, "requests", 4, ">", "metrics:vllm:num_requests_waiting over 30 s", ""},
      {"kv_usage_max", 0.993, "fraction", 0.9, ">=", "metrics:vllm:kv_cache_usage_perc", ""},
      {"kv_capacity_tokens", 41234, "tokens", std::nullopt, "", "vllm.log:88", "agrees with the ledger (+1.2%)"},
      {"log", std::nullopt, "", std::nullopt, "", "vllm.log:120", "Sequence group 12 is preempted | RECOMPUTE"},
  };
  f.remedies = {
      {"max-num-seqs", "256", "128", "P99 TTFT 12.4 s -> 1.9 s", "sim", 0.3},
      {"gpu-memory-utilization", "0.85", "0.92", "KV pool 41234 -> 58000 tokens", "ledger", std::nullopt},
      {"replicas", "1", "2", "", "qualitative", std::nullopt},
  };
  f.next_measurement = "vllm:num_requests_waiting after the change, over the same 30 s window";
  f.remedies[0].predicted = PredictedValue{"P99 TTFT", "s", 12.4, 1.9, false, 0.3};
  r.findings.push_back(f);

  Finding g;
  g.id = "gateway_timeout_below_ttft_p99";
  g.layer = Layer::gateway_client;
  g.symptom = Symptom::timeout_or_stream_break;
  g.severity = Severity::info;
  g.confidence = 0.4;
  g.title = "Gateway timeout shorter than the P99 TTFT";
  g.evidence = {{"gateway_timeout_s", 10, "s", 12.4, "<", "observe gateway_timeout_s=10", ""}};
  g.remedies = {{"gateway timeout", "10 s", "30 s", "", "qualitative", std::nullopt}};
  r.findings.push_back(g);

  LayerVerdict load{Layer::load, LayerVerdict::State::cleared,
                    {{"input_len_mean", 512, "tokens", std::nullopt, "", "records (1200 requests)", ""},
                     {"ttft_p99_s", 0.045, "s", 2, "<", "records", ""}},
                    ""};
  LayerVerdict sched{Layer::scheduling_capacity, LayerVerdict::State::at_fault, {}, ""};
  LayerVerdict hw{Layer::operator_hardware, LayerVerdict::State::not_judged, {},
                  "no GPU telemetry: give --dcgm URL or --observe power_w=..."};
  LayerVerdict num{Layer::numeric_parameter, LayerVerdict::State::not_judged, {}, "no sampled outputs (--outputs FILE)"};
  LayerVerdict gw{Layer::gateway_client, LayerVerdict::State::at_fault, {}, ""};
  r.layers = {load, sched, hw, num, gw};
  r.inputs = {{"snap.json", "snapshot", true, "6 scrape(s) of vllm"},
              {"missing.log", "log", false, "cannot open: No such file or directory"}};
  r.missing = {"no GPU telemetry: operator/hardware layer not judged"};
  r.snapshot_path = "/var/tmp/llmtriage-snapshot-20261203T061500Z.json";
  return r;
}

}  // namespace llmtriage::report_test
