#include "diagnose/mix_throughput.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/cost_model.h"
#include "sim/scenario.h"

namespace llmtriage::diagnose {

core::Result<MixThroughput> mix_throughput(const core::Deployment& d, double input_len, double output_len) {
  const auto& st = d.settings;
  sim::Scenario s;
  s.deployment.model = !d.model.empty() ? d.model : st.model.value_or("");
  s.deployment.gpu = d.gpu;
  if (s.deployment.model.empty() || s.deployment.gpu.empty())
    return core::make_error(core::ErrorKind::input, "deployment", "a model and a GPU", "none",
                            "give --model and --gpu to quantify the benchmark-mix share");
  s.deployment.tp = st.tensor_parallel_size.value_or(1);
  if (st.quantization) s.deployment.quantization = *st.quantization;
  if (st.kv_cache_dtype) s.deployment.kv_cache_dtype = *st.kv_cache_dtype;
  if (st.dtype) s.deployment.dtype = *st.dtype;
  if (st.gpu_memory_utilization) s.deployment.gpu_memory_utilization = *st.gpu_memory_utilization;
  if (!(input_len > 0 && input_len <= 1e7 && output_len > 0 && output_len <= 1e7))  // also rejects NaN
    return core::make_error(core::ErrorKind::input, "mix_throughput", "mean lengths in (0, 1e7] tokens",
                            fmt::format("{} in / {} out", input_len, output_len));
  const double in = std::max(1.0, std::round(input_len));
  const double out = std::max(1.0, std::round(output_len));
  // The mix must fit the context: a max-model-len shorter than the mix is another finding.
  s.deployment.max_model_len = std::max<int64_t>(st.max_model_len.value_or(0), static_cast<int64_t>(in + out) + 16);
  s.engine = d.engine == core::EngineKind::sglang ? "sglang" : "vllm";
  s.max_num_seqs = st.max_num_seqs;
  s.max_num_batched_tokens = st.max_num_batched_tokens;
  s.chunked_prefill = st.enable_chunked_prefill;
  if (auto r = sim::resolve(s); !r.ok()) return r.error();
  if (!s.startup_error.empty())
    return core::make_error(core::ErrorKind::input, "deployment", "a deployment that starts", s.startup_error);
  const sim::SimConfig& cfg = s.config;
  const double kv_tokens = static_cast<double>(cfg.num_blocks) * cfg.block_size;
  const double batch = std::max(1.0, std::min(static_cast<double>(cfg.scheduler.max_num_seqs), std::floor(kv_tokens / (in + out))));
  const sim::CostModel cm(cfg.model, cfg.hardware, cfg.calibration, cfg.preset);

  // Decode: B sequences, one token each, halfway through their answers.
  std::vector<sim::SimRequest> reqs(static_cast<size_t>(batch));
  sim::StepPlan dec;
  for (size_t i = 0; i < reqs.size(); ++i) {
    reqs[i].prompt_len = 1;  // every decode token is sampled
    dec.seqs.push_back({static_cast<int32_t>(i), 1, static_cast<int32_t>(in + out / 2)});
  }
  dec.num_tokens = static_cast<int64_t>(batch);
  dec.num_decode = static_cast<int32_t>(batch);
  const double t_dec = cm.step(dec, reqs).step_s;

  // Prefill: one full step of the token budget.
  const double budget = cfg.scheduler.chunked_prefill ? static_cast<double>(cfg.scheduler.max_num_batched_tokens)
                                                      : std::max(in, static_cast<double>(cfg.scheduler.max_num_batched_tokens));
  sim::StepPlan pre;
  std::vector<sim::SimRequest> preqs;
  double tokens = 0;
  if (in <= budget) {
    const int k = std::max(1, static_cast<int>(budget / in));
    for (int i = 0; i < k; ++i) {
      sim::SimRequest r;
      r.prompt_len = static_cast<int32_t>(in);
      preqs.push_back(r);
      pre.seqs.push_back({i, static_cast<int32_t>(in), 0});
    }
    tokens = k * in;
  } else {
    sim::SimRequest r;
    r.prompt_len = static_cast<int32_t>(in);
    preqs.push_back(r);
    pre.seqs.push_back({0, static_cast<int32_t>(budget), static_cast<int32_t>((in - budget) / 2)});  // a middle chunk
    tokens = budget;
  }
  pre.num_tokens = static_cast<int64_t>(tokens);
  pre.num_prefill = static_cast<int32_t>(pre.seqs.size());
  const double t_pre = cm.step(pre, preqs).step_s / tokens;

  const double cycle = out * t_dec + batch * in * t_pre;
  if (!(cycle > 0)) return core::make_error(core::ErrorKind::internal, "mix_throughput", "a positive step time", "0");
  return MixThroughput{batch * out / cycle, batch, t_dec, t_pre};
}

}  // namespace llmtriage::diagnose
