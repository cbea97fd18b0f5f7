#pragma once
// The OpenAI-compatible request/response shapes of `sim serve`, as vLLM's OpenAI server uses
// them (vllm/entrypoints/openai/protocol.py): request parsing and validation, error bodies,
// completion / chat completion objects and streaming chunks.
#include <cstdint>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace llmtriage::serve {

// An error as vLLM's OpenAI server returns it: {"error": {"message", "type", "param", "code"}}.
struct ApiError {
  int status = 400;
  std::string type = "BadRequestError";
  std::string message;
  std::string param;  // "" -> null
};
std::string error_body(const ApiError& e);
ApiError bad_request(std::string message, std::string param = {});

struct Prompt {
  int32_t tokens = 0;
  uint64_t content_key = 0;  // hash of the prompt content (prefix-cache identity)
  // One key per token (token ids; text: each 4-byte piece, as count_tokens counts), so the
  // simulated prefix cache matches shared prefixes block by block.
  std::shared_ptr<const std::vector<uint64_t>> token_keys;
};

struct GenRequest {
  bool chat = false;
  std::string model;
  std::vector<Prompt> prompts;          // completions may batch several prompts; chat has one
  std::optional<int64_t> max_tokens;    // max_tokens / max_completion_tokens
  int64_t min_tokens = 0;
  bool ignore_eos = false;
  int n = 1;
  double temperature = 1.0;
  double top_p = 1.0;
  std::optional<int64_t> seed;
  std::vector<std::string> stop;
  bool stream = false;
  bool include_usage = false;
  bool continuous_usage = false;        // vLLM extension: usage on every chunk
  bool echo = false;
};

// Parses and validates a /v1/completions (chat=false) or /v1/chat/completions body.
// Chat prompts count the stand-in tokenizer's tokens of every message's text plus a template
// overhead of 4 tokens per message and 3 for the assistant header (Llama-3-like).
core::Result<GenRequest> parse_gen_request(std::string_view body, bool chat, ApiError& err);

// One choice's planned output: how many tokens, why it ends, and the stop string if one hit.
struct ChoicePlan {
  int32_t output_tokens = 1;
  std::string finish_reason = "length";  // "length" | "stop"
  std::string stop_reason;               // the stop string that ended it ("" = none / EOS)
  uint64_t text_seed = 0;
  std::string last_piece;                // text of the final token (cut before a stop string)
};
// Plans choice `index` of prompt `p` given the room left (max_model_len - prompt tokens).
// Without ignore_eos the natural length is drawn from the request seed: exponential, mean 256
// tokens (a stand-in for EOS), at least min_tokens. Deterministic for a given seed; with
// temperature 0 the output depends on the prompt only (greedy).
ChoicePlan plan_choice(const GenRequest& r, const Prompt& p, int index, int64_t max_tokens, uint64_t request_salt);

// Text of generated token k of a choice (the stand-in vocabulary), honouring last_piece.
std::string token_text(const ChoicePlan& c, int32_t k);

nlohmann::json usage_json(int64_t prompt, int64_t completion);

}  // namespace llmtriage::serve
