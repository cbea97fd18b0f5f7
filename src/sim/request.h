#pragma once
// One simulated request (one sequence) and its state machine:
//   waiting --schedule--> running --last token--> finished
//   running --preempt (recompute)--> waiting (front of the queue; KV freed, computed tokens 0)
//   waiting --prompt+max_tokens > max_model_len--> rejected (the engine's 400 error)
//   waiting|running --client/gateway timeout--> aborted
// Token accounting follows vLLM V1: num_tokens = prompt + generated; a step computes
// num_tokens - num_computed tokens (or a chunk of them); when num_computed reaches num_tokens
// after the prompt is done, one token is sampled (generated += 1).
#include <cstdint>
#include <memory>
#include <vector>

namespace llmtriage::sim {

enum class ReqState : uint8_t { pending, waiting, running, finished, rejected, aborted };
const char* to_string(ReqState s);

struct SimRequest {
  // Identity and content. Prompt blocks fully inside [0, shared_prefix_len) hash from
  // `group_key` (shared across the group); every other block hashes from `content_key`
  // (unique to the client request, so a retry of it hits the cache like a real retry would).
  uint32_t client_id = 0;       // index of the client request (retries share it)
  uint16_t attempt = 0;         // 0 = first try
  uint16_t sample = 0;          // index among the n parallel samples of one request
  uint64_t content_key = 0;
  uint64_t group_key = 0;       // 0 = no shared prefix
  int32_t shared_prefix_len = 0;
  int32_t prompt_len = 0;
  int32_t max_output = 1;
  // Served requests (sim serve): one content key per prompt token, so prompt blocks hash from
  // the tokens they hold, chained as vLLM's block hashes are — any two prompts sharing a prefix
  // share its full blocks, whoever sent them. Null for generated workloads (keys above).
  std::shared_ptr<const std::vector<uint64_t>> token_keys;       // tokens it will generate (ignore_eos / sampled stop length)

  // Engine state.
  ReqState state = ReqState::pending;
  int16_t replica = -1;
  int32_t num_computed = 0;     // tokens whose KV is in the cache
  int32_t num_output = 0;       // tokens generated so far
  int32_t num_cached_blocks = 0;  // leading blocks already registered in the prefix-cache map
  int32_t prefix_hit_tokens = 0;  // cache hits at the (latest) admission
  uint32_t preemptions = 0;
  uint64_t admit_seq = 0;       // admission order (victim = most recently admitted)
  std::vector<int32_t> blocks;  // KV block ids held, in order

  // Times on the virtual clock, seconds.
  double arrival_s = 0;
  double first_scheduled_s = -1;
  double first_token_s = -1;
  double last_token_s = -1;
  double finish_s = -1;
  std::vector<float> token_offsets_s;  // token i arrival - arrival_s (kept when asked for)

  int32_t num_tokens() const { return prompt_len + num_output; }
  bool prefill_done() const { return num_computed >= prompt_len; }
};

}  // namespace llmtriage::sim
