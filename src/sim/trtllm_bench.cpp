#include "sim/trtllm_bench.h"

#include <algorithm>
#include <cmath>

namespace llmtriage::sim {

namespace {
// Rounds x up to a multiple of `step`.
int64_t round_up(double x, int64_t step) { return step * static_cast<int64_t>(std::ceil(x / static_cast<double>(step))); }
}  // namespace

TrtllmBenchSettings trtllm_bench_settings(const TrtllmBenchInput& in) {
  TrtllmBenchSettings out;
  const double gib = 1073741824.0;
  const int tp = std::max(1, in.tp);
  // KV bytes per token over the whole TP group: every rank holds at least one KV head.
  const double kv_heads = std::max(tp, in.n_kv_heads);
  const double kv_gib_per_token = 2.0 * in.n_layers * kv_heads * in.head_dim * in.kv_bytes_per_elem / gib;
  // Memory the weights leave on the group, times the free fraction (no runtime overheads: the
  // heuristic is "slightly optimistic" by design).
  const double engine_gib = in.param_count * in.bytes_per_param / gib;
  const double available_gib = in.gpu_memory_gib * tp - engine_gib;
  const double seq = std::max(1.0, in.mean_isl + in.mean_osl);
  out.kv_max_requests = kv_gib_per_token > 0 ? std::max(0.0, available_gib * in.free_fraction / (kv_gib_per_token * seq)) : 0;

  // finetune_setting: batch capped at 4096 (decoder buffers), tokens at 32768 (activations).
  const double raw_bs = std::min(out.kv_max_requests, 4096.0);
  const double raw_token = std::min(raw_bs * (1.0 + in.mean_isl / std::max(1.0, in.mean_osl)), 32768.0);
  if (raw_bs < 256) out.max_batch_size = std::max<int64_t>(64, round_up(raw_bs, 32));
  else if (raw_bs < 1024) out.max_batch_size = round_up(raw_bs, 128);
  else out.max_batch_size = round_up(raw_bs, 256);
  if (raw_token < 4096) out.max_num_tokens = std::max<int64_t>(2048, round_up(raw_token, 256));
  else if (raw_token < 8192) out.max_num_tokens = round_up(raw_token, 512);
  else out.max_num_tokens = round_up(raw_token, 1024);

  // get_settings: without chunked context the longest prompt must fit one step beside a full
  // batch of decodes.
  if (!in.chunked_context) out.max_num_tokens = std::max(out.max_num_tokens, in.max_isl + out.max_batch_size);
  return out;
}

core::Result<TrtllmBenchInput> trtllm_bench_input(const Deployed& d, const WorkloadSpec& w, double free_fraction,
                                                  bool chunked_context) {
  auto reqs = generate(w);
  if (!reqs.ok()) return reqs.error();
  TrtllmBenchInput in;
  in.gpu_memory_gib = d.gpu_memory_gib;
  in.tp = d.hardware.tp;
  in.param_count = d.param_count;
  in.bytes_per_param = d.quant_bytes_per_param;
  in.kv_bytes_per_elem = d.model.kv_bytes_per_elem;
  in.n_layers = d.model.n_layers;
  in.n_kv_heads = d.model.n_kv_heads;
  in.head_dim = d.model.head_dim;
  in.free_fraction = free_fraction;
  in.chunked_context = chunked_context;
  double isl = 0, osl = 0;
  for (const auto& r : *reqs) {
    isl += r.prompt_len;
    osl += r.output_len;
    in.max_isl = std::max<int64_t>(in.max_isl, r.prompt_len);
  }
  const double n = std::max<double>(1.0, static_cast<double>(reqs->size()));
  in.mean_isl = isl / n;
  in.mean_osl = osl / n;
  return in;
}

}  // namespace llmtriage::sim
