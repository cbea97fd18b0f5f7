#include "report/rules_names.h"

namespace llmtriage::report {

RulesMetricNames rules_metric_names(RulesEngine e) {
  RulesMetricNames n;
  switch (e) {
    case RulesEngine::vllm:
    case RulesEngine::vllm_v0:
      n.waiting = "vllm:num_requests_waiting";
      n.running = "vllm:num_requests_running";
      n.preemptions = "vllm:num_preemptions_total";
      n.ttft = "vllm:time_to_first_token_seconds";
      n.requests = "vllm:request_success_total";
      // Per finished request (V0 and V1): the histograms' _sum / _count are exact means.
      n.in_num = "vllm:request_prompt_tokens_sum";
      n.in_den = "vllm:request_prompt_tokens_count";
      n.out_num = "vllm:request_generation_tokens_sum";
      n.out_den = "vllm:request_generation_tokens_count";
      break;
    case RulesEngine::sglang:
      n.waiting = "sglang:num_queue_reqs";
      n.running = "sglang:num_running_reqs";
      n.kv = "sglang:token_usage";
      n.preemptions = "sglang:num_retracted_requests_total";  // SGLang's preemption
      n.ttft = "sglang:time_to_first_token_seconds";
      n.tpot = "sglang:inter_token_latency_seconds";
      n.requests = "sglang:num_requests_total";
      // sglang:cache_hit_rate is zeroed by decode logs: the counters give the real hit ratio.
      n.hits = "sglang:cached_tokens_total";
      n.queries = "sglang:prompt_tokens_total";
      n.err_num = "sglang:num_aborted_requests_total";
      n.err_den = "sglang:num_requests_total";
      n.err_what = "aborted requests per finished request";
      // The token histograms need a server flag; the counters are always there.
      n.in_num = "sglang:prompt_tokens_total";
      n.in_den = "sglang:num_requests_total";
      n.out_num = "sglang:generation_tokens_total";
      n.out_den = "sglang:num_requests_total";
      break;
  }
  switch (e) {
    case RulesEngine::vllm:
      // V1 names as of 0.9.2+; request_time_per_output_token_seconds (per request, ≈0.11+) is the
      // TPOT diagnose prefers; inter_token_latency_seconds (per gap) when it is absent.
      n.kv = "vllm:kv_cache_usage_perc";
      n.tpot = "vllm:request_time_per_output_token_seconds";
      n.tpot_fallback = "vllm:inter_token_latency_seconds";
      n.hits = "vllm:prefix_cache_hits_total";
      n.queries = "vllm:prefix_cache_queries_total";
      n.err_num = "vllm:request_success_total|finished_reason=~\"abort|error\"";
      n.err_den = "vllm:request_success_total";
      n.err_what = "requests finished as abort (client gone: timeout, disconnect) or error";
      break;
    case RulesEngine::vllm_v0:
      // V0 and early V1 (deprecated 0.9/0.9.2, gone 0.12). V0 counts only successes in
      // request_success_total, so errors come from the API server's HTTP counter (5xx).
      n.kv = "vllm:gpu_cache_usage_perc";
      n.tpot = "vllm:time_per_output_token_seconds";
      n.hits = "vllm:gpu_prefix_cache_hits_total";
      n.queries = "vllm:gpu_prefix_cache_queries_total";
      n.hit_gauge = "vllm:gpu_prefix_cache_hit_rate";
      n.err_num = "http_requests_total|handler=~\"/v1/.*\",status=~\"5..\"";
      n.err_den = "http_requests_total|handler=~\"/v1/.*\"";
      n.err_what = "HTTP 5xx answers of the OpenAI API";
      break;
    case RulesEngine::sglang:
      break;
  }
  return n;
}

}  // namespace llmtriage::report
