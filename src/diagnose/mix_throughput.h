#pragma once
// Output tokens per second a deployment sustains at saturation on a given length mix, from the
// simulator's cost model (src/sim/cost_model.h) in a steady-state closed form — no event
// simulation, microseconds of CPU. The load layer uses the ratio of two such figures (the
// production mix vs the benchmark's) to say which share of a throughput shortfall the mix
// explains; a ratio of two predictions of the same model cancels most of its calibration error.
//
//   B       = min(max-num-seqs, KV pool tokens / (in + out))       sequences resident at once
//   t_dec   = step time of B decode tokens at context in + out/2
//   t_pre   = step time per prompt token of a full prefill step (token budget, whole prompts
//             when they fit, one chunk otherwise)
//   tok/s   = B * out / (out * t_dec + B * in * t_pre)
// NOTE: prefill and decode are costed as if serialized; chunked prefill overlaps part of the
// prefill with decode steps, so the figure is a lower bound for prefill-heavy mixes (tens of %).
#include "core/evidence.h"
#include "core/result.h"

namespace llmtriage::diagnose {

struct MixThroughput {
  double output_tokens_per_s = 0;
  double batch = 0;           // B above
  double decode_step_s = 0;   // t_dec
  double prefill_token_s = 0; // t_pre
};

// Errors: no model or GPU, a model or GPU the catalog does not know, a deployment that cannot start.
core::Result<MixThroughput> mix_throughput(const core::Deployment& d, double input_len, double output_len);

}  // namespace llmtriage::diagnose
